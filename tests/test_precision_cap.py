"""An answer asked for is an answer given (issue 41, item 7): `--precision P` plays until the 95%
interval is within ±P, up to a cap that --help and the output state (`--games` when given, else
20,000 pairs), instead of stopping at the default --games unsettled; for simulate, its ladder and
balance. mini's `quick` variant moves red's win rate by about a point: unsettled at ±0.1."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.analysis import simulate as sim
from rulespec.runtime.analysis.simulate import PRECISION_CAP, GamesCap
from support import MINI

SIMULATE = ("simulate", str(MINI), "--variant", "quick", "--against", "base", "--backend", "interpreted")


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def small_cap(monkeypatch):
    """The cap --precision plays to without --games, lowered so a test reaches it."""
    monkeypatch.setattr(sim, "PRECISION_CAP", 1_300)
    return 1_300


def test_the_cap_is_games_when_given_else_twenty_thousand_with_precision():
    assert PRECISION_CAP == 20_000
    assert GamesCap.of(500, 1000, 0.02) == GamesCap(500, "--games")
    assert GamesCap.of(None, 1000, 0.02) == GamesCap(20_000, "precision")
    assert GamesCap.of(None, 1000, None) == GamesCap(1000, "default")


def test_precision_without_games_plays_past_the_default_thousand_until_settled():
    out = run_json(*SIMULATE, "--precision", "2")
    assert out["stopped_by"] == "precision" and out["games"] > 1000
    assert out["games_asked"] == out["games_cap"] == 20_000 and out["games_cap_from"] == "precision"
    assert out["comparison"]["half_width"] * 100 <= 2
    assert out["comparison"]["sentence"].endswith(
        f"; the interval is within ±2 points after {out['games']:,} pairs"
        f" (at most the cap of 20,000 pairs without --games)")


def test_an_unsettled_run_stops_at_the_cap_and_says_so(small_cap):
    out = run_json(*SIMULATE, "--precision", "0.1")
    assert out["games"] == small_cap > 1000 and out["stopped_by"] == "games"
    assert out["games_cap_from"] == "precision"
    assert out["comparison"]["sentence"].endswith(
        "; the interval did not narrow to ±0.1 points within 1,300 pairs, the cap of 1,300 pairs"
        " without --games (raise --games to play more)")
    text = CliRunner().invoke(main, [*SIMULATE, "--precision", "0.1"], catch_exceptions=False)
    assert "the cap of 1,300 pairs without --games" in text.stdout


def test_games_given_is_the_cap(small_cap):
    out = run_json(*SIMULATE, "--precision", "0.1", "--games", "1100")
    assert out["games"] == 1100 and out["games_cap"] == 1100 and out["games_cap_from"] == "--games"
    assert out["comparison"]["sentence"].endswith("within 1,100 pairs, --games 1,100 (raise --games to play more)")


def test_without_precision_the_default_games_are_played():
    out = run_json("simulate", str(MINI), "--backend", "interpreted", "--games", "30")
    assert out["games"] == 30 and out["games_cap_from"] == "--games" and out["precision"] is None


@pytest.mark.parametrize("command", ["simulate", "balance"])
def test_help_states_the_cap(command):
    text = CliRunner().invoke(main, [command, "--help"], terminal_width=400).stdout
    assert "20,000" in " ".join(text.split())


def test_a_ladder_settles_the_difference_between_its_rungs_within_the_cap(small_cap):
    out = run_json(*SIMULATE, "--ladder", "random,first", "--precision", "0.1")
    ladder = out["ladder"]
    assert ladder["pairs"] == out["games"] == small_cap and ladder["stopped_by"] == "games"
    assert len(ladder["second"]["variants"]) == 2
    assert ladder["sentence"].endswith("within 1,300 pairs, the cap of 1,300 pairs without --games"
                                       " (raise --games to play more)")
    assert "did not narrow" not in out["comparison"]["sentence"]  # the ladder's interval is the answer
    settled = run_json(*SIMULATE, "--ladder", "random,first", "--precision", "30")["ladder"]
    assert settled["stopped_by"] == "precision" and settled["half_width"] * 100 <= 30
    assert "; the interval is within ±30 points after" in settled["sentence"]


def test_balance_plays_past_its_default_games_to_the_cap(monkeypatch):
    monkeypatch.setattr(sim, "PRECISION_CAP", 2_300)  # balance's default --games is 2,000
    out = run_json("balance", str(MINI), "--param", "goal=19..20", "--precision", "0.5",
                   "--backend", "interpreted")
    assert out["stopped_by"] == "games" and out["games_cap"] == 2_300
    assert out["games_cap_from"] == "precision"
    assert [r["games"] for r in out["values"]] == [2_300, 2_300]
    assert out["sentence"].endswith("within 2,300 seeds, the cap of 2,300 seeds without --games"
                                    " (raise --games to play more)")
