"""One rung of a bot ladder: does UPPER beat LOWER over seat-swapped games?

    python docs/ladder_rung.py GAME UPPER LOWER N [--seed S] [--workers K] [--variant V]...
                               [--param NAME=VALUE]... [--log FILE] [--json]
    python docs/ladder_rung.py --summary FILE [--json]

Run it from the checkout whose spec and bots you want (it imports compiler/ and runtime/ from
the current folder). A duel's seeds S..S+N-1 (default S=1) are each played twice, UPPER in the
first seat and then in the second, the agents' streams seeded as `rulespec simulate` seeds
them (so `rulespec simulate GAME --seed S --games N --agents UPPER,LOWER` plays the first half
move for move). Prints the upper rung's share of the decided games with its 95% Wilson
interval, by seat, the CPU seconds a game (user + system, this process and its workers), the
load, and the count of each end reason by which rung won (a reason like a nuclear war that
loses the game for the seat that caused it shows under the other rung's wins).

The games are played in blocks of 25 seeds; with `--log FILE` each finished block's games
are appended to FILE (one JSON line a game), so a run cut short keeps what it played, and
`--summary FILE` prints the same report from the log (of one or several runs, e.g. seeds in
blocks). Bad agents or params: one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

BLOCK = 25  # seeds a block: each block's games are logged when it ends


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def play(args) -> list[dict]:
    from rulespec.compiler.cli.base import factory as load_factory, load, params as param_values
    from rulespec.compiler.cli.base import program as load_program
    from rulespec.runtime.analysis import simulate as sim
    from rulespec.runtime.bots.agents import check_agent

    loaded = load(args.game, tuple(args.variant))
    meta = load_program(loaded, "generated").meta
    values = param_values(meta, tuple(args.param))
    players = tuple(meta.seated(values))
    if len(players) != 2:
        raise ValueError(f"a ladder rung is a duel: {args.game} seats {len(players)} players")
    for name in (args.upper, args.lower):
        check_agent(name, meta)
    factory = load_factory(loaded, "generated")  # the native engine where built, as simulate plays
    orders = ((args.upper, args.lower), (args.lower, args.upper))
    rows: list[dict] = []
    for start in range(args.seed, args.seed + args.n, BLOCK):
        seeds = list(range(start, min(start + BLOCK, args.seed + args.n)))
        cpu, wall = _cpu(), time.monotonic()
        runner = sim.LocalExecutor(min(args.workers, 2 * len(seeds)))
        results = sim.play_sets([(factory, order, values) for order in orders], seeds, runner,
                                batch_size=len(seeds))  # one job a seat order
        cpu, wall = _cpu() - cpu, time.monotonic() - wall
        block = []
        for seat, games in enumerate(results):
            for g in games:
                rung = ("upper" if g.winner == players[seat] else "lower") if g.winner else None
                block.append({"game": args.game, "variants": list(args.variant), "upper": args.upper,
                              "lower": args.lower, "seed": g.seed, "upper_seat": players[seat],
                              "winner": rung, "reason": g.reason, "decisions": g.decisions,
                              "cpu": cpu / (2 * len(seeds)), "wall": wall / (2 * len(seeds)),
                              "load": os.getloadavg()[0]})
        if args.log:
            with open(args.log, "a", encoding="utf-8") as out:
                out.writelines(json.dumps(row) + "\n" for row in block)
        rows += block
        if not args.json:
            print(f"seeds {seeds[0]}..{seeds[-1]}: {summary(rows)['line']}", file=sys.stderr, flush=True)
    return rows


def summary(rows: list[dict]) -> dict:
    from rulespec.runtime.analysis.stats import wilson

    won = Counter(r["winner"] for r in rows)
    decided = won["upper"] + won["lower"]
    share = won["upper"] / decided if decided else 0.0
    low, high = wilson(won["upper"], decided) if decided else (0.0, 1.0)
    seats = {}
    for seat in sorted({r["upper_seat"] for r in rows}):
        mine = Counter(r["winner"] for r in rows if r["upper_seat"] == seat)
        n = mine["upper"] + mine["lower"]
        seats[seat] = {"upper": mine["upper"], "decided": n, "share": mine["upper"] / n if n else None}
    reasons: dict[str, dict[str, int]] = {}
    for r in rows:
        side = r["winner"] or "drawn"
        reasons.setdefault(side, Counter())[r["reason"] or "none"] += 1
    cpu = sum(r["cpu"] for r in rows) / len(rows)
    loads = [r["load"] for r in rows]
    seeds = sorted({r["seed"] for r in rows})
    line = (f"{rows[0]['upper']} over {rows[0]['lower']}: {won['upper']} won, {won['lower']} lost,"
            f" {won[None]} drawn of {len(rows)}: {share:.1%} [{low:.1%}..{high:.1%}] of the decided,"
            f" CPU {cpu:.3f} s a game")
    return {"game": rows[0]["game"], "variants": rows[0]["variants"], "upper": rows[0]["upper"],
            "lower": rows[0]["lower"], "games": len(rows), "seeds": [seeds[0], seeds[-1]],
            "upper_won": won["upper"], "lower_won": won["lower"], "drawn": won[None],
            "share": share, "ci95": [low, high], "by_seat": seats,
            "reasons": {k: dict(sorted(v.items())) for k, v in sorted(reasons.items())},
            "cpu_a_game": cpu, "load": [min(loads), max(loads)], "line": line}


def report(found: dict) -> str:
    out = [f"{found['game']}{''.join(' --variant ' + v for v in found['variants'])}:"
           f" {found['upper']} (upper) against {found['lower']} (lower),"
           f" seeds {found['seeds'][0]}..{found['seeds'][1]} with both seat orders,"
           f" {found['games']:,} games", found["line"]]
    out.append("by seat of the upper rung: " + ", ".join(
        f"as {seat} {s['share']:.1%} of {s['decided']}" if s["decided"] else f"as {seat} none decided"
        for seat, s in found["by_seat"].items()))
    out.append(f"load {found['load'][0]:.1f}..{found['load'][1]:.1f}")
    out.append("end reasons:")
    for side, counts in found["reasons"].items():
        said = ", ".join(f"{reason} {n}" for reason, n in sorted(counts.items(), key=lambda x: -x[1]))
        out.append(f"  {side if side == 'drawn' else side + ' won'}: {said}")
    return "\n".join(out)


def _user_errors() -> tuple[type[Exception], ...]:
    from rulespec.compiler.cli.base import user_errors
    from rulespec.compiler.frontend.errors import SpecError
    return (*user_errors(), SpecError)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("upper", nargs="?")
    parser.add_argument("lower", nargs="?")
    parser.add_argument("n", nargs="?", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--param", action="append", default=[])
    parser.add_argument("--log", default=None)
    parser.add_argument("--summary", default=None, metavar="FILE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.summary:
            rows = [json.loads(line) for line in Path(args.summary).read_text().splitlines() if line]
        elif args.n is None or args.n < 1:
            raise ValueError("usage: ladder_rung.py GAME UPPER LOWER N (N seeds, 1 or more)")
        else:
            rows = play(args)
        if not rows:
            raise ValueError("no games")
    except (ValueError, OSError, *_user_errors()) as error:
        print(f"ladder_rung: error: {' '.join(str(error).split())}", file=sys.stderr)
        return 1
    found = summary(rows)
    print(json.dumps(found, indent=1) if args.json else report(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
