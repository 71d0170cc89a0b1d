"""`rulespec balance`: an int param swept over a range on shared seeds, values clearly off the even
split dropped as the rounds go, the value nearest an even game reported with its interval.

tests/specs/coin is a coin-flip race where red starts 2 points ahead and
`bonus` gives blue points: bonus 2 is exactly even (red takes 62% of decided
games at 1, 38% at 3), so the sweep must find 2 and drop the far values early.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.analysis.balance import Value, distance, sweep_json, Sweep
from rulespec.runtime.analysis.simulate import GameSummary
from support import TESTS

COIN = TESTS / "specs" / "coin"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_the_sweep_finds_the_even_bonus_and_drops_the_far_values_early(tmp_path):
    result = run("balance", str(COIN), "--param", "bonus=0..6", "--games", "1000", "--json",
                 "--report", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["best"]["value"] == 2 and out["param"] == "bonus" and out["seat"] == "red"
    assert out["best"]["ci95"][0] <= 0.5 <= out["best"]["ci95"][1]
    rows = {r["value"]: r for r in out["values"]}
    for far in (0, 5, 6):  # clearly off after the first round
        assert rows[far]["out_after"] == 100, rows[far]
    assert all(r["games"] == r["out_after"] for r in out["values"] if r["out_after"] is not None)
    assert abs(rows[1]["share"] - 0.623) < 0.06 and abs(rows[3]["share"] - 0.377) < 0.06
    page = (tmp_path / "r" / "index.html").read_text()
    assert out["sentence"] in page and (tmp_path / "r" / "balance.png").is_file()
    assert json.loads((tmp_path / "r" / "results.json").read_text())["best"]["value"] == 2


def test_fixed_params_and_another_seat(tmp_path):
    """With blue ahead the even bonus is gone (blue is ahead and gets the bonus): the nearest
    value is the smallest, and blue's share is what is measured."""
    out = json.loads(run("balance", str(COIN), "--param", "bonus=0..2", "--param", "ahead=blue",
                         "--seat", "blue", "--games", "300", "--json").stdout)
    assert out["best"]["value"] == 0 and out["best"]["share"] > 0.7
    assert "no value tried evens it" in out["sentence"]


def test_precision_stops_the_sweep():
    out = json.loads(run("balance", str(COIN), "--param", "bonus=1..3", "--games", "5000",
                         "--precision", "10", "--json").stdout)
    assert out["stopped_by"] in ("precision", "one value left") and out["best"]["value"] == 2
    assert max(r["games"] for r in out["values"]) < 5000


def test_bad_input_is_one_line_and_exit_1():
    for args, message in (
            (("--param", "bonus=0..9"), "param 'bonus' is a whole number from 0 to 6: 0..9 goes outside it"),
            (("--param", "ahead=0..1"), "param 'ahead' is one of red, blue, not a whole number"),
            (("--param", "bonus=3..1"), "the range is empty"),
            (("--param", "bonus=1",), "balance sweeps one int param: give one --param NAME=LOW..HIGH (0 given)"),
            (("--param", "nope=1..2"), "unknown param 'nope'"),
            (("--param", "bonus=0..2", "--seat", "green"), "unknown seat 'green'"),
            (("--param", "bonus=0..2", "--games", "1000001"),
             "--games takes a whole number from 1 to 1,000,000, not 1000001"),
    ):
        result = run("balance", str(COIN), *args)
        assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
        assert message in result.output, result.output
    result = run("balance", str(TESTS / "specs" / "seats"), "--param", "players=1..3")
    assert result.exit_code == 1 and "says how many play" in result.output


def test_a_value_is_out_only_when_clearly_farther_than_the_leader():
    assert distance((0.4, 0.6), 0.5) == (0.0, 0.09999999999999998) or distance((0.4, 0.6), 0.5)[0] == 0.0
    near, far = distance((0.6, 0.7), 0.5)
    assert abs(near - 0.1) < 1e-12 and abs(far - 0.2) < 1e-12

    def value(v: int, won: int, lost: int) -> Value:
        games = [GameSummary(i, "red", "", 1, {}) for i in range(won)]
        games += [GameSummary(won + i, "blue", "", 1, {}) for i in range(lost)]
        return Value(v, games)
    result = Sweep("x", "red", 0.5, [value(0, 90, 10), value(1, 52, 48), value(2, 58, 42)])
    result.drop_clear_losers()
    assert [v.value for v in result.alive()] == [1, 2]  # 58% is not clearly farther than 52%
    assert sweep_json("g", result, ("random",), (), 1, 100, None)["best"]["value"] == 1
