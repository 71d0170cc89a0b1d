"""Two packages of one game, one bot each, in the same games: today's bot against an older one.

Usage (docs/history/BENCHMARKS-journal.md, "Twilight Struggle ladder"):
    python docs/ts_cross_match.py GAME NEW_PACKAGE NEW_AGENT OLD_PACKAGE OLD_AGENT GAMES [SEED] [WORKERS]

The packages must hold the same rules (only their policies differ), so one state serves both:
the game runs on NEW_PACKAGE's engine, and the old bot decides with OLD_PACKAGE's program (its
policy, its rollouts). OLD_PACKAGE is a generated package of an older commit, e.g.
`git archive c710a50 generated/twilight_struggle | tar -x -C /tmp/old`. Seeds SEED..SEED+GAMES-1,
each played twice with the seats swapped (the new bot as the first player, then as the second),
the agents' streams seeded as `rulespec simulate` seeds them. Prints the new bot's wins per
seat, draws, end reasons and CPU seconds; the same seed and packages play the same games.
"""

from __future__ import annotations

import collections
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rulespec.compiler.backends.engine import import_program
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game

_PROGRAMS: dict = {}


class _Seen:
    """The game as the old bot sees it: the same state, the old package's program."""

    def __init__(self, game: Game, program):
        self._game, self.program, self.meta = game, program, program.meta

    def __getattr__(self, name):
        return getattr(self._game, name)


class _OldBot:
    def __init__(self, inner, program):
        self.inner, self.program = inner, program

    def choose(self, game, decision) -> str:
        return self.inner.choose(_Seen(game, self.program), decision)


def _program(game: str, package: str):
    if package not in _PROGRAMS:
        _PROGRAMS[package] = import_program(Path(package), game)
    return _PROGRAMS[package]


def play(game: str, new: tuple[str, str], old: tuple[str, str], seed: int, new_seat: int):
    program, old_program = _program(game, new[0]), _program(game, old[0])
    match = Game(program, seed=seed)
    names = [old[1], old[1]]
    names[new_seat] = new[1]
    bots = seat_agents(tuple(names), match.players, seed)
    other = match.players[1 - new_seat]
    bots[other] = _OldBot(bots[other], old_program)
    start = time.process_time()
    play_out(match, bots)
    return new_seat, match.winner, match.players[new_seat], match.reason, time.process_time() - start


def main(argv: list[str]) -> None:
    game, new_pkg, new_agent, old_pkg, old_agent, games = argv[:6]
    seed = int(argv[6]) if len(argv) > 6 else 1
    workers = int(argv[7]) if len(argv) > 7 else 1
    jobs = [(game, (new_pkg, new_agent), (old_pkg, old_agent), s, seat)
            for s in range(seed, seed + int(games)) for seat in (0, 1)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(play, *zip(*jobs), chunksize=4))
    wins, seats, reasons, cpu = 0, collections.Counter(), collections.Counter(), 0.0
    draws = 0
    for new_seat, winner, new_name, reason, seconds in results:
        cpu += seconds
        reasons[reason] += 1
        seats[(new_name, "games")] += 1
        if winner == new_name:
            wins += 1
            seats[(new_name, "wins")] += 1
        elif winner is None:
            draws += 1
    n = len(results)
    print(f"{new_agent} ({new_pkg}) against {old_agent} ({old_pkg}): {n} games, seeds {seed}..{seed + int(games) - 1} both ways")
    print(f"  new bot wins {wins} ({100 * wins / n:.1f}%), draws {draws}")
    for name in sorted({k[0] for k in seats}):
        print(f"  as {name}: {seats[(name, 'wins')]} of {seats[(name, 'games')]}")
    for reason, count in reasons.most_common():
        print(f"  {count:5d}  {reason}")
    print(f"  CPU in the games: {cpu:.1f} s ({1000 * cpu / n:.0f} ms a game)")


if __name__ == "__main__":
    main(sys.argv[1:])
