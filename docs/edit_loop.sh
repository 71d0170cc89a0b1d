#!/usr/bin/env bash
# The edit loop's four figures (docs/BENCHMARKS.md), in CPU seconds (user+sys) of one run each.
# Works on a copy of the spec with a cache of its own, so it touches nothing in the checkout:
#   docs/edit_loop.sh [SPEC_DIR] [CARD_LINE_PATTERN]
# e.g. docs/edit_loop.sh spec/twilight_struggle 'card containment "Containment"'
set -euo pipefail
cd "$(dirname "$0")/.."
SPEC=${1:-spec/twilight_struggle}
CARD=${2:-card containment \"Containment\"}
RULESPEC=${RULESPEC:-$PWD/.venv/bin/rulespec}  # may be a command with arguments
WORK=$(mktemp -d)
trap 'echo "load at end: $(cut -d" " -f1-3 /proc/loadavg)"; rm -rf "$WORK"' EXIT
GAME=$(basename "$SPEC")
cp -r "$SPEC" "$WORK/$GAME"
export RULESPEC_CACHE="$WORK/cache"
cpu() {  # label, command...: prints the CPU seconds of one run
    local label=$1; shift
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$@" >/dev/null 2>&1 || true
    tail -1 "$WORK/time" | awk -v label="$label" '{printf "%-66s %6.2f s CPU\n", label, $1 + $2}'
}
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $($RULESPEC --version)"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# A new spec no package was ever written for: black formats every piece (its throughput is the cost).
cpu "cold compile (empty cache, new folder: no package to seed it)" $RULESPEC compile "$WORK/$GAME" -o "$WORK/out1/$GAME"
# A fresh clone of this checkout's HEAD (CI, a new designer): an empty cache, the committed package in
# place, whose FORMAT seeds black's cache (compiler/backends/codegen/seed.py); one card's ops edited first.
git clone -q "$PWD" "$WORK/clone"
CLONE_FILE=$(grep -l "$CARD" "$WORK/clone/spec/$GAME"/*.rules | head -1)
sed -i "/$CARD/ s/ops \([0-9]\)/ops 4/" "$CLONE_FILE"
IN_CLONE="env -C $WORK/clone RULESPEC_CACHE=$WORK/clone-cache PYTHONPATH=$WORK/clone"
cpu "fresh clone: edit one card's ops, then compile (empty cache)" $IN_CLONE $RULESPEC compile "spec/$GAME"
cpu "fresh clone: then rulespec test (both, all variants)" $IN_CLONE $RULESPEC test "spec/$GAME"
git -C "$WORK/clone" checkout -q generated  # the committed package again, and a new empty cache:
IN_CLONE="env -C $WORK/clone RULESPEC_CACHE=$WORK/clone-cache2 PYTHONPATH=$WORK/clone"
cpu "fresh clone: edit one card's ops, then rulespec test (no compile)" $IN_CLONE $RULESPEC test "spec/$GAME"
rm -rf "$WORK/out2"
cpu "cold compile (new folder, cache kept)" $RULESPEC compile "$WORK/$GAME" -o "$WORK/out2/$GAME"
cpu "compile with nothing changed" $RULESPEC compile "$WORK/$GAME" -o "$WORK/out2/$GAME"
cpu "rulespec check" $RULESPEC check "$WORK/$GAME"
$RULESPEC test "$WORK/$GAME" >/dev/null 2>&1 || true  # the cache as a designer's is after a run
FILE=$(grep -l "$CARD" "$WORK/$GAME"/*.rules | head -1)
sed -i "/$CARD/ s/ops \([0-9]\)/ops 4/" "$FILE"
cpu "edit one card's ops, then rulespec test (both, all)" $RULESPEC test "$WORK/$GAME"
sed -i "/$CARD/ s/ops 4/ops 3/" "$FILE"
cpu "edit it back, then rulespec test (builds already cached)" $RULESPEC test "$WORK/$GAME"
if [ "$GAME" = twilight_struggle ]; then  # one line of an event: Containment's +1 becomes +2
    sed -i 's/    modify ops_shift(p, c) by 1 when p == usa/    modify ops_shift(p, c) by 2 when p == usa/' \
        "$WORK/$GAME/events_early.rules"
    cpu "edit one line of an event, then rulespec test (both, all)" $RULESPEC test "$WORK/$GAME"
fi
cpu "no edit, rulespec test" $RULESPEC test "$WORK/$GAME"
cpu "no edit, rulespec test --backend interpreted" $RULESPEC test "$WORK/$GAME" --backend interpreted
