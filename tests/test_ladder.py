"""`simulate --ladder A,B`: the same comparison with two bots on the same seeds, and whether the
variant's effect agrees across them (the difference of the two differences, paired by seed)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.analysis.ladder import ladder_json
from rulespec.runtime.analysis.simulate import GameSummary
from support import MINI

BASE = ("simulate", str(MINI), "--variant", "quick", "--against", "base", "--games", "60")


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_the_ladder_leads_and_its_difference_is_the_two_effects_paired(tmp_path):
    result = run(*BASE, "--ladder", "random,first", "--json", "--report", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    ladder = out["ladder"]
    first, second = (e["difference"] for e in ladder["effects"])
    assert abs(ladder["difference"] - (first - second)) < 1e-12
    assert ladder["rungs"] == ["random", "first"] and ladder["pairs"] == 60
    assert out["agents"] == ["random", "random"] and ladder["second"]["agents"] == ["first", "first"]
    assert abs(first - out["comparison"]["by_player"][ladder["player"]]["difference"]) < 1e-12
    assert abs(second - ladder["second"]["comparison"]["by_player"][ladder["player"]]["difference"]) < 1e-12
    assert ladder["agree"] == (ladder["ci95"][0] <= 0 <= ladder["ci95"][1])
    page = (tmp_path / "r" / "index.html").read_text()
    assert ladder["sentence"] in page and (tmp_path / "r" / "ladder.png").is_file()
    text = run(*BASE, "--ladder", "random,first")
    assert text.exit_code == 0 and text.stdout.splitlines()[0] == ladder["sentence"]


def test_one_bot_twice_agrees_exactly():
    out = json.loads(run(*BASE, "--ladder", "random,random", "--json").stdout)
    assert out["ladder"]["difference"] == 0 and out["ladder"]["ci95"] == [0.0, 0.0]
    assert out["ladder"]["agree"] and "the two agree" in out["ladder"]["sentence"]


def test_a_known_split_of_effects():
    """A variant that makes red win under one bot and changes nothing under the other."""
    def games(winners):
        return [GameSummary(s, w, "end", 1, {}) for s, w in enumerate(winners)]
    strong = (games(["red"] * 40), games(["blue"] * 40))  # +100 points for red
    weak = (games(["red", "blue"] * 20), games(["red", "blue"] * 20))  # no change
    found = ladder_json("red", "v", ["a", "b"], [strong, weak])
    assert [e["difference"] for e in found["effects"]] == [1.0, 0.0]
    assert found["difference"] == 1.0 and not found["agree"]
    assert found["sentence"].startswith("v gives red +100.0 points with a and +0.0 with b; the two disagree")


def test_bad_ladders_are_one_line_and_exit_1():
    for args, message in (
            (("--ladder", "random,nope"), "unknown agent 'nope'"),
            (("--ladder", "random"), "--ladder takes two bots, A,B (each plays every seat), got 1"),
            (("--ladder", "random,first", "--agents", "random"), "--ladder names the bots of both rungs"),
    ):
        result = run(*BASE, *args)
        assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
        assert message in result.output
    result = run("simulate", str(MINI), "--games", "10", "--ladder", "random,first")
    assert result.exit_code == 1 and "--ladder needs --against" in result.output
