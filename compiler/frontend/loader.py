"""Finds a game's spec folder, parses, overlays variants and checks: the front end in one call."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.cache import compiler_version, digest, store
from rulespec.compiler.frontend.card_overlays import settings_text, with_attributes
from rulespec.compiler.frontend.errors import Diagnostic, SpecError, Sources, did_you_mean, suggestion_budget
from rulespec.compiler.frontend.inputs import available_variants, find_spec_dir, spec_files  # noqa: F401
from rulespec.compiler.frontend.inputs import test_files as tests_of
from rulespec.compiler.frontend.model import Model, build_model, spec_hash
from rulespec.compiler.frontend.parse import parse_files
from rulespec.compiler.frontend.variants import apply_overlays


@dataclass
class LoadedSpec:
    """A checked spec with the sources needed to quote it in errors."""

    folder: Path
    model: Model
    sources: Sources
    variants: tuple[str, ...] = ()
    # Cards reprinted with other numbers (`rulespec worth --param-of`): (card, attribute, value).
    attributes: tuple[tuple[str, str, int], ...] = ()


def load_spec(folder: Path, variants: tuple[str, ...] = (), check: bool = True,
              base_tests: bool = True, skip_tests: frozenset[str] = frozenset(),
              attributes: tuple[tuple[str, str, int], ...] = ()) -> LoadedSpec:
    """Parse the folder's .rules files, its tests/ and the chosen variants, then check.

    base_tests=False leaves tests/ out: a variant's own tests are all that
    run, so the base tests need not be checked (or compiled) under it.
    skip_tests: tests of tests/ left out by name (ones a variant leaves unable to check).
    attributes: (card, attribute, value) written on those cards, as if printed so; they are
    part of the spec hash (compiler/frontend/card_overlays.py)."""
    sources = Sources()
    try:
        with suggestion_budget():
            return _load(folder, tuple(sorted(set(variants))), check, sources, base_tests, skip_tests,
                     tuple(sorted(attributes)))
    except SpecError as err:
        err.sources = sources  # so the caller can quote the spec text
        raise


def test_variant_sets(folder: Path) -> list[tuple[str, ...]]:
    """The variant sets the tests of tests/ turn on for themselves (checked under those sets)."""
    found: set[tuple[str, ...]] = set()
    sources = Sources()
    try:
        parsed = parse_files(tests_of(folder), sources, Path.cwd())
    except SpecError as err:
        err.sources = sources  # so the caller can quote the spec text
        raise
    for file in parsed.files:
        for decl in file.decls:
            if isinstance(decl, ast.TestDecl) and decl.variants() \
                    and decl.variants() <= set(available_variants(folder)):
                found.add(tuple(sorted(decl.variants())))
    return sorted(found)


class UnknownVariant(SpecError):
    """A variant asked for (--variant) that the spec folder does not hold: no spec text is
    wrong, so the command line shows it as one line (`one_line`), not at a line of a file."""

    def __init__(self, diagnostics: list[Diagnostic], one_line: str):
        super().__init__(diagnostics)
        self.one_line = one_line


def _variant_paths(folder: Path, variants: tuple[str, ...]) -> list[Path]:
    known = available_variants(folder)
    paths, problems = [], []
    for name in variants:
        if name not in known:
            where = ast.Span(str(folder / "variants"), 1, 1, 1, 1)
            choices = ", ".join(known) or "none"
            problems.append(Diagnostic(
                f"unknown variant '{name}'{did_you_mean(name, known)} (available: {choices})", where))
        paths.append(folder / "variants" / f"{name}.rules")
    if problems:
        raise UnknownVariant(problems, "; ".join(p.message for p in problems)
                             + f" in {folder / 'variants'}")
    return paths


def _load(folder: Path, variants: tuple[str, ...], check: bool, sources: Sources,
          base_tests: bool = True, skip_tests: frozenset[str] = frozenset(),
          attributes: tuple[tuple[str, str, int], ...] = ()) -> LoadedSpec:
    engine_paths = spec_files(folder)
    test_paths = tests_of(folder) if base_tests else []
    variant_paths = _variant_paths(folder, variants)
    parsed = parse_files(engine_paths + variant_paths + test_paths, sources, Path.cwd())
    count = len(engine_paths)
    base, overlays = parsed.files[:count], list(parsed.files[count:count + len(variant_paths)])
    test_files = parsed.files[count + len(variant_paths):]
    merged, problems = apply_overlays(base, overlays, available_variants(folder))
    if problems:
        raise SpecError(problems)
    if attributes:
        merged = with_attributes(merged, attributes)
    if skip_tests:
        merged, test_files = _without(merged, skip_tests), _without(test_files, skip_tests)
    # A test that turns variants on is checked and run where they are on.
    # (one naming a variant that does not exist stays, for the checks to report)
    known = set(available_variants(folder))
    test_decls = [d for f in test_files for d in f.decls if isinstance(d, ast.TestDecl)
                  and (d.variants() <= set(variants) or not d.variants() <= known)
                  and d.name not in skip_tests]
    hashed = [(f"{folder.name}/{p.relative_to(folder)}", p.read_text(encoding="utf-8"))
              for p in engine_paths + variant_paths]
    if attributes:
        hashed.append(("reprinted cards", settings_text(attributes)))
    model = build_model(ast.Spec(parsed.span, merged), test_decls, hashed)
    tested = [(f"{folder.name}/{p.relative_to(folder)}", p.read_text(encoding="utf-8"))
              for p in test_paths]
    model.test_files = tuple(sorted(name for name, _ in tested))
    if not base_tests:  # a variant's own tests alone: the base tests it changes are not here
        model.changes = []
    model.tests_hash = spec_hash(tested)
    model.sources = sources
    model.variants = list(variants)
    model.available_variants = available_variants(folder)
    checked_as = variants + tuple(f"reprinted {settings_text(attributes)}" for _ in attributes[:1])
    if check and not _checked_before(sources, checked_as, skip_tests):
        from rulespec.compiler.frontend.checks import run_checks
        problems = run_checks(model, list(test_files))
        if problems:
            raise SpecError(problems)
        _remember_checked(sources, checked_as, skip_tests)
    return LoadedSpec(folder, model, sources, variants, attributes)


def _without(files, tests: frozenset[str]) -> tuple[ast.SpecFile, ...]:
    """The files without the named tests."""
    return tuple(dataclasses.replace(f, decls=tuple(
        d for d in f.decls if not (isinstance(d, ast.TestDecl) and d.name in tests))) for f in files)


# A spec whose every file is byte for byte one that passed the checks before,
# under the same compiler, passes them again: the edit loop skips them.
CHECKED = "checked"


def _checked_key(sources: Sources, variants: tuple[str, ...], skipped: frozenset[str]) -> str:
    files = sorted(sources.texts().items())
    return digest(compiler_version(), "\0".join(variants), "\0".join(sorted(skipped)),
                  *(part for f in files for part in f))


def _checked_before(sources: Sources, variants: tuple[str, ...], skipped: frozenset[str]) -> bool:
    return store(CHECKED).get(_checked_key(sources, variants, skipped)) is not None


def _remember_checked(sources: Sources, variants: tuple[str, ...], skipped: frozenset[str]) -> None:
    table = store(CHECKED)
    table.put(_checked_key(sources, variants, skipped), b"1")
    table.flush()
