"""Broken specs: every `# E:COL: message` comment is an error the checker must report, and no other.

Each file of tests/broken/ is a complete spec; a folder is a spec folder (with
its tests/). On the line of each expected error a comment gives its column
and message, several per line if need be:

    set defcon to true   # E:19: the new value of 'defcon' must be int, not bool

The test compares the full headlines `file:line:col: error: message`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks import run_checks
from rulespec.compiler.frontend.errors import Diagnostic, SpecError, Sources
from rulespec.compiler.frontend import loader
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.frontend.model import build_model
from rulespec.compiler.frontend.parse import parse_files
from rulespec.compiler.frontend.variants import apply_overlays

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
BROKEN = TESTS / "broken"
CASES = sorted(p for p in BROKEN.iterdir() if not p.name.startswith(("_", ".")))
EXPECTED = re.compile(r"#\s*E:(\d+):\s*(.*?)\s*(?=#\s*E:\d+:|$)")


def diagnostics(case: Path) -> list[Diagnostic]:
    """What the front end reports for a broken file or folder, paths relative to the repository."""
    try:
        if case.is_dir():
            folder = case.relative_to(REPO)
            load_spec(folder)
            for variants in loader.test_variant_sets(folder):  # as `rulespec check` does
                load_spec(folder, tuple(variants))
            return []
        return _check_file(case)
    except SpecError as err:
        return list(err.diagnostics)


def _check_file(path: Path) -> list[Diagnostic]:
    spec = parse_files([path], Sources(), REPO)
    files, problems = apply_overlays(spec.files, [])
    if problems:
        return problems
    model = build_model(ast.Spec(spec.span, files), [], [(path.name, path.read_text())])
    return run_checks(model, [])


def expected(case: Path) -> list[str]:
    """The headlines the `# E:` comments of a case call for."""
    paths = sorted(case.rglob("*.rules")) if case.is_dir() else [case]
    found = []
    for path in paths:
        shown = path.relative_to(REPO)
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            start = line.find("# E:")
            for column, message in EXPECTED.findall(line[start:] if start >= 0 else ""):
                found.append(f"{shown}:{number}:{column}: error: {message}")
    return found


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_broken_spec(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    want = expected(case)
    assert want, f"{case.name} expects no error: a broken spec needs at least one '# E:' comment"
    got = [d.headline() for d in diagnostics(case)]
    assert sorted(got) == sorted(want)


def test_there_are_enough_broken_specs() -> None:
    assert len(CASES) >= 30


def _valid_specs() -> list[tuple[Path, tuple[str, ...]]]:
    """The mini spec and every game of spec/; with each of their variants in the slow suite."""
    folders = [REPO / "tests" / "specs" / "mini"] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())
    variants = [pytest.param(folder, (v.stem,), marks=pytest.mark.slow)
                for folder in folders for v in sorted(folder.glob("variants/*.rules"))]
    return [(folder, ()) for folder in folders] + variants


@pytest.mark.parametrize("folder, variants", _valid_specs(),
                         ids=lambda x: x.name if isinstance(x, Path) else "+".join(x) or "base")
def test_valid_specs_pass_every_check(folder: Path, variants: tuple[str, ...],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    try:
        load_spec(folder.relative_to(REPO), variants)
    except SpecError as err:
        pytest.fail("\n".join(d.headline() for d in err.diagnostics))


def test_a_diagnostic_renders_with_its_line_and_carets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    case = BROKEN / "names_unknown.rules"
    sources = Sources()
    sources.add(str(case.relative_to(REPO)), case.read_text())
    first = sorted(diagnostics(case), key=lambda d: (d.span.line, d.span.column))[0]
    headline, line, carets = sources.render(first).splitlines()
    assert headline == ("tests/broken/names_unknown.rules:13:8: error: unknown function 'scroe'; "
                        "did you mean 'score'?")
    assert line == "        if scroe(p) > 3 { add 1 to score(p) }   # E:8: unknown function 'scroe'; " \
                   "did you mean 'score'?"
    assert carets == "           ^^^^^"
