"""Native builds as commands need them (compiler/backends/native_jobs.py): used when cached,
else started once in the background (a lock per job, a marker for a failed build), awaited under
RULESPEC_NATIVE=wait, nothing at all under RULESPEC_NATIVE=0; one line said, and the run's engine
kept. Every process a test starts is waited for; builds go to a temporary cache."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from rulespec.compiler.backends import native, native_jobs
from rulespec.compiler.cli import main
from support import MINI


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package folder with two hot modules, in a fresh cache; the run's state reset."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULESPEC_NATIVE", "1")
    monkeypatch.setattr(native_jobs, "_asked", None)
    monkeypatch.setattr(native_jobs, "_said", set())
    folder = tmp_path / "mygame"
    folder.mkdir()
    for module in native.MODULES:
        (folder / f"{module}.py").write_text(f"X = {module!r}\n" + "Y = 1\n" * 400)
    return folder


@pytest.fixture
def started(monkeypatch):
    """The background builds prepare() would start, recorded instead of started."""
    calls = []
    monkeypatch.setattr(native_jobs, "start_background", calls.append)
    monkeypatch.setattr(native, "available", lambda: None)
    return calls


def _prepare(package) -> tuple[bool, list[str]]:
    said: list[str] = []
    return native_jobs.prepare(package, "mygame", said.append), said


@pytest.mark.parametrize("value, mode", [("0", "off"), ("1", "background"), ("", "background"),
                                         ("wait", "wait"), ("WAIT", "wait")])
def test_rulespec_native_says_the_mode(monkeypatch, value, mode):
    monkeypatch.setattr(native_jobs, "_asked", None)
    monkeypatch.setenv("RULESPEC_NATIVE", value)
    assert native_jobs.mode() == mode


def test_off_starts_nothing_and_says_nothing(package, started, monkeypatch):
    monkeypatch.setenv("RULESPEC_NATIVE", "0")
    assert _prepare(package) == (False, [])
    assert started == [] and not native_jobs.jobs().exists()


def test_a_missing_build_starts_once_in_the_background_and_this_run_is_python(package, started):
    used, said = _prepare(package)
    assert not used and started == [package]
    assert said == [f"the native build of mygame's package is being built in the background"
                    f" ({native_jobs.shown_cpu(native_jobs.cpu_estimate(package))}); until it is ready the"
                    f" package runs as pure Python"]
    assert os.environ["RULESPEC_NATIVE"] == "0"  # the run's workers keep to Python
    assert native_jobs.mode() == "background"  # what was asked still holds for the run's other packages
    with native_jobs.locked(native_jobs.jobs() / f"{native_jobs.job_name(package)}.lock", wait=False) as mine:
        assert mine
        assert native_jobs.building(package)  # held: under way, so nothing more is started
        assert _prepare(package) == (False, [])  # and the line is said once a run
    assert started == [package]


def test_a_failed_build_is_not_retried_and_says_why(package, started):
    native_jobs.jobs().mkdir(parents=True)
    (native_jobs.jobs() / f"{native_jobs.job_name(package)}.failed").write_text("cc: out of memory\n")
    used, said = _prepare(package)
    assert not used and started == []
    assert said == ["the native build of mygame's package failed (cc: out of memory); the package runs as pure"
                    " Python (`rulespec compile --native` tries again)"]


def test_no_compiler_is_said_once_per_cache(package, monkeypatch):
    monkeypatch.setattr(native, "available", lambda: "a native build needs a C compiler (cc)")
    assert _prepare(package) == (False, ["no native engine here (a native build needs a C compiler (cc));"
                                         " the Python engine runs"])
    monkeypatch.setattr(native_jobs, "_said", set())  # another command, the same cache
    assert _prepare(package) == (False, [])


def test_wait_builds_first_and_keeps_a_failure(package, monkeypatch):
    monkeypatch.setenv("RULESPEC_NATIVE", "wait")
    monkeypatch.setattr(native, "available", lambda: None)
    monkeypatch.setattr(native, "build_native", lambda where: (_ for _ in ()).throw(
        native.NativeError("the native build failed: bad C")))
    used, said = _prepare(package)
    assert not used and said[0].startswith("making the native build of mygame's package first (about")
    assert said[1].startswith("the native build of mygame's package failed (the native build failed: bad C)")
    assert native_jobs.failure(package) == "the native build failed: bad C"


def test_a_queued_background_build_gives_way_to_a_newer_edit_of_its_game(package, monkeypatch):
    monkeypatch.setattr(native, "build_native", lambda where: pytest.fail("an outdated build ran"))
    mine = native_jobs.jobs() / f"{native_jobs.job_name(package)}.lock"
    newer = native_jobs.jobs() / "mygame-0123456789abcdef.lock"
    mine.parent.mkdir(parents=True)
    mine.touch()
    newer.touch()
    os.utime(mine, (1, 1))  # asked for long before the other sources were
    assert native_jobs.build_now(package, background=True) is None and not native_jobs.ready(package)
    os.utime(newer, (0, 0))  # the other is older: this one builds
    monkeypatch.setattr(native, "build_native", lambda where: (_ for _ in ()).throw(native.NativeError("built")))
    assert native_jobs.build_now(package, background=True) == "built"


def test_a_background_build_that_fails_leaves_its_marker_and_no_process(package):
    """The real detached child, on modules Cython refuses (a second or two, no C compiled)."""
    if native.available():
        pytest.skip(native.available())
    (package / "rules.py").write_text("def broken(:\n")
    child = native_jobs.start_background(package)
    try:
        assert child.wait(timeout=120) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "the native build failed" in (native_jobs.failure(package) or "")
    assert not native_jobs.building(package)
    log = (native_jobs.jobs() / f"{native_jobs.job_name(package)}.log").read_text()
    assert f"{package}: the native build failed" in log


def test_fuzz_and_test_refuse_the_native_back_end_in_one_line_when_it_cannot_load():
    runner = CliRunner()
    for args in (["fuzz", str(MINI), "--backend", "native", "--games", "1"],
                 ["test", str(MINI), "--backend", "native"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 1, result.output
        assert result.output.strip().splitlines() == [
            "rulespec: error: no native engine for mini here: RULESPEC_NATIVE=0 turns native builds off"]


def test_compile_background_needs_native_and_starts_nothing_under_rulespec_native_0(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "available", lambda: None)
    monkeypatch.setattr(native_jobs, "start_background", lambda where: pytest.fail("a build was started"))
    runner = CliRunner()
    out = tmp_path / "pkg"
    result = runner.invoke(main, ["compile", str(MINI), "-o", str(out), "--background"])
    assert result.exit_code == 1 and "give --native too" in result.output
    result = runner.invoke(main, ["compile", str(MINI), "-o", str(out), "--native", "--background"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "mini: RULESPEC_NATIVE=0: no native build started; the Python engine runs"
