"""Spec coverage (`fuzz --coverage`, `simulate --coverage`): the lines and branches play reached,
and the ones it never did, the same on both back ends; nothing counted when it is off."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.backends.coverage import Plan, counter
from rulespec.compiler.cli import main
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.analysis.coverage import SpecCoverage
from rulespec.runtime.analysis.fuzz import FuzzReport, fuzz_game

from support import one_file_spec, program

# A die never shows more than 6: the `add 5` line and its `if`'s then-arm are out of play's
# reach, and that `if` takes no arm every time; the menu's `pass` has no statement (no arm).
REACH = """\
game reach "Reach"
players red "Red", blue "Blue"
track score "Score" per player 0..40 start 0

start {
    repeat 3 {
        roll r
        if r <= 3 { add 1 to score(red) } else { add 1 to score(blue) }
        if r > 6 {
            add 5 to score(red)
        }
    }
    red chooses "Take a point?" {
        option take "Take a point" { add 1 to score(red) }
        option pass "Pass" { }
    }
    if score(red) > score(blue) { win red "more points" }
    win blue "not more"
}
"""
NEVER_LINE = 10  # add 5 to score(red)
IMPOSSIBLE_IF = 9  # if r > 6 {


@pytest.fixture(scope="module")
def reach(tmp_path_factory) -> Path:
    return one_file_spec(tmp_path_factory, "reach", REACH)


def run(monkeypatch, *args: str) -> dict:
    monkeypatch.setenv("RULESPEC_NATIVE", "0")  # what --coverage sets, undone after the test
    result = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def the_file(data: dict) -> dict:
    [entry] = data["files"]
    return entry


def arms_at(entry: dict, line: int) -> dict[str, int | None]:
    return {arm["arm"]: arm["games"] for arm in entry["arms"] if arm["line"] == line}


def test_fuzz_reports_the_branch_play_never_reached(reach: Path, monkeypatch, tmp_path) -> None:
    out = run(monkeypatch, "fuzz", str(reach), "--games", "12", "--coverage", str(tmp_path / "cov"))
    data = out["spec_coverage"]
    assert data["backend"] == "interpreted" and data["games"] == 12
    entry = the_file(data)
    assert entry["never"] == [NEVER_LINE]
    assert arms_at(entry, IMPOSSIBLE_IF) == {"then": 0, "none taken": 12}
    assert arms_at(entry, 8)["then"] > 0 and arms_at(entry, 8)["else"] > 0
    assert set(arms_at(entry, 13)) == {"option take"}  # `pass` runs nothing: no arm of its own
    assert data["lines"] == {"total": 9, "reached": 8}
    text = (tmp_path / "cov" / "coverage.txt").read_text()
    assert any(line.split("|")[0].strip() == "#####" and "add 5" in line for line in text.splitlines())
    assert "arm then: never" in text
    assert "reach.rules" in Path(data["report"]).read_text()
    [page] = (tmp_path / "cov").glob("*reach.rules.html")
    assert "arm then: never taken" in page.read_text()


def test_the_text_summary_names_what_was_never_reached(reach: Path, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("RULESPEC_NATIVE", "0")
    result = CliRunner().invoke(main, ["fuzz", str(reach), "--games", "5", "--coverage",
                                       str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"never reached: line {NEVER_LINE}" in result.output
    assert f"never taken: line {IMPOSSIBLE_IF}:9 then" in result.output
    assert "8 of 9 statement lines" in result.output


def test_the_generated_engine_reports_the_same_lines_and_the_arms_it_tells(
        reach: Path, monkeypatch, tmp_path) -> None:
    both = the_file(run(monkeypatch, "fuzz", str(reach), "--games", "12", "--coverage",
                        str(tmp_path / "a"))["spec_coverage"])
    generated = run(monkeypatch, "fuzz", str(reach), "--games", "12", "--backend", "generated",
                    "--coverage", str(tmp_path / "b"))["spec_coverage"]
    assert generated["backend"] == "generated"
    entry = the_file(generated)
    assert entry["games_by_line"] == both["games_by_line"]
    assert entry["never"] == [NEVER_LINE]
    told = {(a["line"], a["arm"]): a["games"] for a in entry["arms"] if a["games"] is not None}
    exact = {(a["line"], a["arm"]): a["games"] for a in both["arms"]}
    assert told[(IMPOSSIBLE_IF, "then")] == 0  # its own line: the generated engine tells it
    assert all(exact[key] == games for key, games in told.items())


def test_simulate_reports_coverage_of_bot_games(reach: Path, monkeypatch, tmp_path) -> None:
    out = run(monkeypatch, "simulate", str(reach), "--games", "10", "--agents", "random",
              "--coverage", str(tmp_path))
    entry = the_file(out["spec_coverage"])
    assert out["spec_coverage"]["games"] == 10 and entry["never"] == [NEVER_LINE]
    assert (tmp_path / "index.html").is_file()


@pytest.mark.parametrize("folder", [Path("tests/specs/mini"), Path("spec/the_fox_in_the_forest")])
def test_both_back_ends_count_the_same_games_alike(folder: Path, monkeypatch) -> None:
    monkeypatch.setenv("RULESPEC_NATIVE", "0")
    root = Path(__file__).resolve().parent.parent
    loaded = load_spec(root / folder)
    plan = Plan(loaded.model)
    tallies = {}
    for backend in ("interpreted", "generated"):
        played = program(root / folder, backend)
        count = counter(played, plan)
        tally = tallies[backend] = SpecCoverage(plan.data(), backend, count.told)
        for seed in range(3):
            count.begin()
            fuzz_game(played, None, seed, {}, 20_000, FuzzReport())
            tally.add_game(count.end())
        assert sys.gettrace() is None  # the tracer is gone once a game is counted
    exact, traced = (tallies[b].to_json()["files"] for b in ("interpreted", "generated"))
    assert [f["games_by_line"] for f in exact] == [f["games_by_line"] for f in traced]
    for a, b in zip(exact, traced):
        for arm, seen in zip(a["arms"], b["arms"]):
            assert seen["games"] in (None, arm["games"]), (a["file"], arm)
    assert sum(a["games"] is not None for f in traced for a in f["arms"]) > 0


def test_an_interpreter_not_counted_runs_its_plain_executors(reach: Path) -> None:
    played = program(reach, "interpreted")
    fresh = type(played)(played.model)
    assert fresh._exec[ast.If] == fresh._if
    counter(fresh, Plan(fresh.model))
    assert fresh._exec[ast.If] != fresh._if
