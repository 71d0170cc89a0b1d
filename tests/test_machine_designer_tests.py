"""Designer tests on the native engine (compiler/backends/machine/designer.py, `rulespec test
--backend machine`): every test gives the same pass or fail, with the same message and location,
as on the generated package; a broken test fails natively too; a test the native engine cannot run
is reported as not run, with why, never as passed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.compiler.backends import engine, native
from rulespec.compiler.tools import testrun
from rulespec.compiler.tools.testrun import run_tests

from support import MINI, REPO

FOX = REPO / "spec" / "the_fox_in_the_forest"
TWILIGHT = REPO / "spec" / "twilight_struggle"


def side_by_side(folder: Path) -> testrun.TestReport:
    """The base game's designer tests on the generated package and on the native engine (built
    when missing; other variant sets only where built)."""
    why = native.available()
    if why:
        pytest.skip(why)
    return run_tests(folder, chosen=("generated",), optional=(engine.MACHINE,), build=True)


def by_backend(report: testrun.TestReport, backend: str) -> dict:
    return {(o.case.key, o.variants): o for o in report.outcomes if o.backend == backend}


def assert_same(report: testrun.TestReport, least: int) -> None:
    generated, machine = by_backend(report, "generated"), by_backend(report, engine.MACHINE)
    ran = {key: o for key, o in generated.items() if (o.variants == () or key in machine)}
    assert len(machine) >= least and set(machine) == set(ran)
    for key, python in ran.items():
        natively = machine[key]
        assert natively.not_run is None, f"{python.case.name}: {natively.not_run}"
        assert (natively.message, natively.location) == (python.message, python.location), python.case.name


@pytest.mark.parametrize("folder", [FOX, MINI], ids=lambda p: p.name)
def test_designer_tests_agree_with_the_generated_package(folder):
    report = side_by_side(folder)
    assert not report.problems
    assert_same(report, least=3)


@pytest.mark.slow
def test_twilight_struggle_designer_tests_agree():
    report = side_by_side(TWILIGHT)
    assert_same(report, least=400)


BROKEN = '''
test "two marks a field twice (wrong)" {
    resolve two for blue
    choose "b"
    expect marks(blue, b) == 2 "one mark a choice"
}
test "a game starts with a card to play (wrong count)" {
    dice 6
    start
    expect count(options) == 7
}
'''

WAITING = '''
procedure agreed(p: player) -> bool {
    p chooses "Agree?" {
        option yes "Yes" { return true }
        option no "No" { return false }
    }
}
test "a kept value of a procedure that waits" {
    let yes = agreed(red)
    choose "yes"
    expect yes
}
'''


def broken_mini(tmp_path: Path, text: str) -> tuple[testrun.TestReport, dict, dict]:
    """mini with `text` added, its tests side by side: the report, and the base game's outcomes on
    the native engine and on the generated package by test name."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    with open(folder / "mini.rules", "a", encoding="utf-8") as spec:
        spec.write(text)
    report = side_by_side(folder)
    machine, generated = ({o.case.name: o for o in report.outcomes if o.backend == b and not o.variants}
                          for b in (engine.MACHINE, "generated"))
    return report, machine, generated


def test_a_failing_test_fails_natively_too(tmp_path):
    """Only tests change: mini's native module serves (no build)."""
    report, machine, generated = broken_mini(tmp_path, BROKEN)
    for name in ("two marks a field twice (wrong)", "a game starts with a card to play (wrong count)"):
        assert generated[name].message is not None
        assert (machine[name].message, machine[name].location) == (generated[name].message, generated[name].location)
        assert machine[name] in report.failures
    assert "one mark a choice" in machine["two marks a field twice (wrong)"].message


@pytest.mark.slow
def test_a_test_the_native_engine_cannot_run_says_why(tmp_path):
    """A new procedure: a build of its own (about 15 s of CPU)."""
    report, machine, generated = broken_mini(tmp_path, WAITING)
    kept = machine["a kept value of a procedure that waits"]
    assert generated[kept.case.name].message is None
    assert kept.message is None and "keeps the value of `agreed`, which waits for a decision" in kept.not_run
    assert kept in report.not_run and kept not in report.failures
    assert report.passed == sum(1 for o in report.outcomes if o.message is None) - 1
