"""Two (or more) versions of the engine timed interleaved in one run (docs/BENCHMARKS.md, issue 24).

    python docs/engine_ab.py GAME MODE GAMES ROUNDS VERSION VERSION... [--seed S]

VERSION is a commit (checked out into /tmp/engine_ab/<sha>, with its own .venv from
`make install`) or a directory holding a checkout with a .venv (`.` for this worktree);
`+native` after it (`d0988ef+native`) builds and loads its native build
(`rulespec compile --native`), anything else runs pure Python (RULESPEC_NATIVE=0).

MODE: `random` (random bots, the generated engine: `rulespec bench`'s loop), `policy`
(the spec's default bot on every seat: `simulate`'s loop), `interp` (random bots on the
interpreter), `test` (`rulespec test spec/GAME`, whole command, child CPU).

Each round runs every version once, in turn, each in a fresh process under `nice -n 5`
(A B A B ...): a busy machine slows them alike. Each run reports CPU seconds (the
process's own, around the games only, except `test`) and decisions; the script prints
per version the lowest and median CPU per decision, the ratio of the first version's
to each (above 1: faster than the first), the load average seen, and a digest of the
games (equal digests: the same games, move for move).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path("/tmp/engine_ab")

# Runs inside a version's checkout, with its own interpreter: APIs that every version has.
_SNIPPET = r"""
import hashlib, json, sys, time
from rulespec.compiler.cli.base import load, program as load_program
game, mode, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
loaded = load(game)
prog = load_program(loaded, "interpreted" if mode == "interp" else "generated", None)
if mode == "policy":
    from rulespec.runtime.bots.agents import default_agent
    from rulespec.runtime.analysis.simulate import play_game
    agents = (default_agent(prog.meta),) * len(prog.meta.players)
    cpu = time.process_time()
    played = [play_game(prog, s, agents, {}) for s in range(seed, seed + games)]
    cpu = time.process_time() - cpu
    decisions = sum(g.decisions for g in played)
    digest = [(g.seed, g.winner, g.reason, g.decisions, g.tracks) for g in played]
else:
    from runtime import bench
    result = bench.run(prog, games, seed, {})
    cpu, decisions, digest = result.cpu_seconds, result.decisions, result.lengths
print(json.dumps({"cpu": cpu, "decisions": decisions,
                  "digest": hashlib.sha256(json.dumps(digest).encode()).hexdigest()[:12]}))
"""


def checkout(version: str) -> Path:
    """A checkout of `version` with an installed .venv (made once, kept under /tmp/engine_ab)."""
    if Path(version).is_dir():
        return Path(version).resolve()
    sha = subprocess.run(["git", "rev-parse", "--short=10", version], capture_output=True,
                         text=True, check=True).stdout.strip()
    where = ROOT / sha
    if not (where / ".venv" / ".installed").exists():
        if not where.exists():
            subprocess.run(["git", "worktree", "add", "--detach", str(where), sha], check=True,
                           capture_output=True)
        subprocess.run(["make", "-C", str(where), "install"], check=True, capture_output=True)
    return where


def prepare(version: str, game: str) -> tuple[str, Path, bool]:
    name, _, extra = version.partition("+")
    where = checkout(name)
    native = extra == "native"
    if native:
        # `python -m` from the checkout: its own compiler and runtime, even where its .venv is
        # another checkout's (a symlink), whose `rulespec` script would import that one
        subprocess.run(["nice", "-n", "5", str(where / ".venv/bin/python"), "-m", "rulespec", "compile",
                        "--native", f"spec/{game}"], cwd=where, check=True, capture_output=True)
    return version, where, native


def measure(where: Path, native: bool, game: str, mode: str, games: int, seed: int) -> dict:
    env = dict(os.environ, RULESPEC_NATIVE="1" if native else "0")
    python = str(where / ".venv/bin/python")
    if mode == "test":
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(["nice", "-n", "5", str(where / ".venv/bin/python"), "-m", "rulespec", "test",
                               f"spec/{game}", "--json"], cwd=where, env=env, capture_output=True,
                              text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = json.loads(done.stdout)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return {"cpu": cpu, "decisions": out["passed"], "digest": f"{out['passed']}/{out['failed']}"}
    done = subprocess.run(["nice", "-n", "5", python, "-c", _SNIPPET, game, mode, str(games), str(seed)],
                          cwd=where, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{where}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    seed = 1
    if "--seed" in argv:
        at = argv.index("--seed")
        seed = int(argv[at + 1])
        del argv[at:at + 2]
    game, mode, games, rounds, *versions = argv
    prepared = [prepare(v, game) for v in versions]
    per: dict[str, list[float]] = {v: [] for v in versions}
    digests: dict[str, set[str]] = {v: set() for v in versions}
    loads: list[float] = []
    for r in range(int(rounds)):
        for version, where, native in prepared:
            loads.append(os.getloadavg()[0])
            out = measure(where, native, game, mode, int(games), seed)
            per[version].append(out["cpu"] / max(out["decisions"], 1))
            digests[version].add(out["digest"])
            print(f"round {r + 1} {version}: {out['cpu']:.2f} s CPU, {out['decisions']} decisions,"
                  f" load {loads[-1]:.1f}", file=sys.stderr, flush=True)
    unit = "test" if mode == "test" else "decision"
    first = statistics.median(per[versions[0]])
    print(f"{game} {mode}, {games} games from seed {seed}, {rounds} rounds interleaved,"
          f" load {min(loads):.1f}..{max(loads):.1f}")
    for version in versions:
        spent = per[version]
        print(f"  {version}: CPU per {unit} lowest {min(spent) * 1e6:.1f} us, median"
              f" {statistics.median(spent) * 1e6:.1f} us; {first / statistics.median(spent):.2f}x"
              f" the first (medians), {min(per[versions[0]]) / min(spent):.2f}x (lowest);"
              f" digest {'/'.join(sorted(digests[version]))}")


if __name__ == "__main__":
    main(sys.argv[1:])
