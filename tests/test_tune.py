"""`rulespec tune`: CMA-ES finds the weights that win a small game, and writes them into the spec.

tests/specs/sow is a race where sowing 5 rows a turn is best and the policy's
weights start at 1 row; the tuned weights must sow 5, beat the spec's by a
clear margin on fresh seeds, and land in the file in `rulespec fmt`'s layout.
The duel's statistics (runtime/analysis/duel.py) are checked on made-up games.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.analysis.duel import duel_scores, seat_score, seatings
from rulespec.runtime.analysis.simulate import GameSummary
from support import MINI, TESTS

SOW = TESTS / "specs" / "sow"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def _rows(greed: int, caution: int) -> int:
    """The rows the policy sows: the n in 1..8 with the highest greed*n - caution*n^2."""
    return max(range(1, 9), key=lambda n: (greed * n - caution * n * n, n))


def test_tune_finds_the_weights_that_win_and_writes_them(tmp_path):
    folder = tmp_path / "sow"
    shutil.copytree(SOW, folder)
    result = run("tune", str(folder), "--games", "20", "--generations", "8", "--final-games", "60",
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    tuned = {t["name"]: t["tuned"] for t in out["tunables"]}
    assert _rows(1, 1) == 1 and _rows(tuned["greed"], tuned["caution"]) == 5, tuned
    assert out["clearly_better"] and out["final"]["ci95"][0] > 0.5
    assert out["written"] == [str(folder / "sow.rules")]
    text = (folder / "sow.rules").read_text()
    assert f"weight greed = {tuned['greed']} in 0..20" in text
    assert f"weight caution = {tuned['caution']} in 1..10" in text
    assert format_text(text) == text
    assert run("check", str(folder)).exit_code == 0


def test_a_lone_tunable_is_tuned_too(tmp_path):
    """One tunable: greed alone against a fixed caution of 1 sows greed / 2 rows."""
    folder = tmp_path / "sow"
    shutil.copytree(SOW, folder)
    rules = folder / "sow.rules"
    rules.write_text(rules.read_text().replace(
        'weight caution = 1 in 1..10 "how much crowding is feared"', "weight 1"))
    result = run("tune", str(folder), "--games", "20", "--generations", "8", "--final-games", "60",
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [t["name"] for t in out["tunables"]] == ["greed"]
    assert 4 <= _rows(out["tunables"][0]["tuned"], 1) <= 6 and out["clearly_better"], out["tunables"]


def test_the_cpu_budget_stops_the_search():
    result = run("tune", str(SOW), "--games", "10", "--generations", "1000", "--budget", "0.1",
                 "--final-games", "10", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["stopped_by"] == "budget" and 1 <= len(out["generations"]) < 1000
    assert out["written"] == []


def test_a_dry_run_leaves_the_spec_as_it_was(tmp_path):
    folder = tmp_path / "sow"
    shutil.copytree(SOW, folder)
    before = (folder / "sow.rules").read_text()
    result = run("tune", str(folder), "--games", "10", "--generations", "3", "--final-games", "20",
                 "--dry-run")
    assert result.exit_code == 0, result.output
    assert "(kept, not written (--dry-run))" in result.stdout
    assert (folder / "sow.rules").read_text() == before


def test_bad_input_is_one_line_and_exit_1():
    for args, message in (
            (("--games", "10001"), "--games takes a whole number from 1 to 10,000, not 10001"),
            (("--generations", "1001"), "--generations takes a whole number from 1 to 1,000, not 1001"),
            (("--budget", "90000"), "--budget takes CPU seconds from 0.1 to 86,400, not 90000"),
            (("--policy", "nope"), "unknown policy 'nope' (the spec declares: farmer)")):
        result = run("tune", str(SOW), *args)
        assert result.exit_code == 1 and result.output.strip() == f"rulespec: error: {message}", result.output
    result = run("tune", str(MINI))
    assert result.exit_code == 1
    assert result.output.strip() == "rulespec: error: mini declares no policy: `tune` searches a policy's tunables"


def _game(seed: int, winner: str | None, losers: tuple[str, ...] = ()) -> GameSummary:
    return GameSummary(seed, winner, "end", 1, {}, losers=losers)


def test_a_duel_cancels_the_seats_edge():
    players = ["a", "b"]
    assert seatings("C", "I", 2) == [("C", "I"), ("I", "C")] and seatings("C", "I", 1) == [("C",), ("I",)]
    # The first seat always wins: whoever the challenger is, it gains nothing.
    games = [[_game(s, "a") for s in range(5)], [_game(s, "a") for s in range(5)]]
    mine, theirs = duel_scores(games, players)
    assert mine == theirs == [0.5] * 5
    # The challenger wins in both seats: all of it.
    games = [[_game(s, "a") for s in range(5)], [_game(s, "b") for s in range(5)]]
    assert duel_scores(games, players) == ([1.0] * 5, [0.0] * 5)
    assert seat_score(_game(1, None), "a", players) == 0.5
    assert seat_score(_game(1, None, ("a",)), "b", players) == 1.0


def test_a_duel_of_three_seats_and_of_one():
    players = ["a", "b", "c"]
    games = [[_game(0, "a")], [_game(0, "a")], [_game(0, "a")]]  # seat a always wins
    mine, theirs = duel_scores(games, players)
    assert abs(mine[0] - theirs[0]) < 1e-12  # 1/3 against the same 1/3
    solo = [[_game(0, "a")], [_game(0, None, ("a",))]]  # alone, the challenger wins, the incumbent loses
    assert duel_scores(solo, ["a"]) == ([1.0], [0.0])
