"""The long fuzz runs of Twilight Struggle (marked slow: `pytest -m slow`).

10,000 full random games on the generated engine, every invariant checked
after every decision; and full games on both back ends compared move for
move. The interpreter plays about one full game a second, so the
move-for-move run is a few hundred games, not ten thousand (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import pytest

from rulespec.runtime.analysis.fuzz import FuzzReport, coverage_table, fuzz_game

from support import TS, need_ts, program

pytestmark = pytest.mark.slow


def _fuzz(primary, reference, games: int, seed: int) -> FuzzReport:
    """Every other game with the seven optional cards in the decks, so they play too."""
    report = FuzzReport()
    for k in range(games):
        params = {"optional_cards": True} if k % 2 else {}
        fuzz_game(primary, reference, seed + k, params, 20_000, report)
    return report


def test_ten_thousand_full_games_keep_every_invariant() -> None:
    need_ts()
    report = _fuzz(program(TS, "generated"), None, 10_000, 1)
    assert report.problems == [], [(p.kind, p.seed, p.message) for p in report.problems[:5]]
    assert report.games == 10_000
    table = coverage_table(program(TS, "generated").meta, report)
    # Every card but The China Card (which has no event) fired its event somewhere.
    silent = [card for card, row in table.items() if row["event"] == 0 and card != "china_card"]
    assert silent == [], silent


def test_full_games_agree_move_for_move_on_both_back_ends() -> None:
    need_ts()
    report = _fuzz(program(TS, "generated"), program(TS, "interpreted"), 300, 50_001)
    assert report.problems == [], [(p.kind, p.seed, p.message) for p in report.problems[:5]]
