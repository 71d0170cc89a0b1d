"""Leak checks: over random games of every spec, no seat's view or log at the table shows a
card the seat cannot see.

Tables of random bots (runtime/playtest/table.py on the interpreter, whose runtime calls can be
watched) play tests/specs/mini, tests/specs/seen (a card and a space of one name, private log
lines) and the five games. Before every decision, for every seat:

- its whole `Table.seat_view` (view, zones, marks, decision, card faces, log) holds no id of a
  card lying where the seat cannot see it now and that it does not know (state.knowledge),
  unless its own decision offers that card (tests/test_views.py's secret_ids);
- its log (`Table.log_lines`) names, by id or label, no card it has never seen, in a zone it
  could see or shown to it, at any moment a line was written or a decision asked
  (tests/test_movelog.py's Sightings, whose helpers this reuses).

Counted: seat positions checked and leaks found (each with game, seed and decision).

    python docs/probes/seat_leaks.py [--count GAMES_PER_SPEC] [--seed S] [--decisions N]
"""

from __future__ import annotations

import re
import sys
import time

import pytest

from common import REPO, arguments, header

sys.path.insert(0, str(REPO / "tests"))  # the leak tests' own helpers, not a second copy
from test_movelog import Sightings, _forbidden  # noqa: E402
from test_views import secret_ids  # noqa: E402

from rulespec.compiler.backends.interpret import Interpreter  # noqa: E402
from rulespec.compiler.frontend.loader import load_spec  # noqa: E402
from rulespec.runtime.game import Game  # noqa: E402
from rulespec.runtime.playtest.table import Table, json_strings  # noqa: E402

SPECS = {"mini": REPO / "tests" / "specs" / "mini", "seen": REPO / "tests" / "specs" / "seen",
         **{n: REPO / "spec" / n for n in ("twilight_struggle", "heldenhain", "risk_balance_of_power",
                                           "terraforming_mars", "the_fox_in_the_forest")}}


def view_leaks(table: Table, player: str) -> set[str]:
    """Ids of cards the seat neither sees nor knows that its seat view holds."""
    seat = table.meta.players.index(player)
    return secret_ids(table.meta, table.game.state, seat) & json_strings(table.seat_view(player))


def log_leaks(table: Table, player: str, ever: set[int], spec_words: set[str]) -> list[str]:
    """The seat's log lines that name a card it has never seen."""
    ids, labels = _forbidden(table.meta, ever, spec_words)
    out = []
    for line in table.log_lines(player):
        if ids & set(re.findall(r"\w+", line.text)) or \
                any(re.search(rf"(?<!\w){re.escape(l)}(?!\w)", line.text) for l in labels):
            out.append(line.text)
    return out


def play_one(name: str, program, seed: int, decisions: int, found: list[str]) -> int:
    """One random table of `name`, checked before every decision; seat positions checked."""
    checked = 0
    with pytest.MonkeyPatch.context() as patch:
        game = Game(program, seed=seed)
        seats = ("random",) * len(game.players)
        game.agents = seats
        table = Table(game, seats)
        sightings = Sightings(table, patch)
        for step in range(decisions + 1):
            sightings.look()
            words = {s.label for s in table.steps if s.option not in table.meta.entity_ids}
            for player in table.players:
                checked += 1
                for leak in sorted(view_leaks(table, player)):
                    found.append(f"{name} seed {seed} decision {step}: {player}'s view holds {leak}")
                for text in log_leaks(table, player, sightings.ever[player], words):
                    found.append(f"{name} seed {seed} decision {step}: {player}'s log: {text[:160]}")
            if step == decisions or not table.bot_step():
                break
    return checked


def main() -> int:
    parser = arguments(__doc__, count=3)
    parser.add_argument("--decisions", type=int, default=150, help="decisions a game at most (default 150)")
    args = parser.parse_args()
    started, found, per_spec = time.monotonic(), [], {}
    for name, folder in SPECS.items():
        program = Interpreter(load_spec(folder).model)
        per_spec[name] = sum(play_one(name, program, args.seed + game, args.decisions, found)
                             for game in range(args.count))
    summary = {**header(), "seconds": round(time.monotonic() - started, 1), "games_per_spec": args.count,
               "decisions_per_game": args.decisions, "seat_positions": per_spec,
               "total_positions": sum(per_spec.values()), "leaks": len(found), "examples": found[:25]}
    if args.json:
        import json
        print(json.dumps(summary))
    else:
        print(f"seat leaks: {summary['date']}, commit {summary['commit']}, load {summary['load']}, "
              f"{summary['seconds']} s; {args.count} games per spec, at most {args.decisions} decisions each")
        for spec, count in per_spec.items():
            print(f"  {spec}: {count} seat positions")
        print(f"  total: {summary['total_positions']} seat positions, {len(found)} leaks")
        for leak in found[:25]:
            print(f"  {leak}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
