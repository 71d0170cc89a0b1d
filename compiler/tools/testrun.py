"""`rulespec test`: which designer tests run where, on which back ends, and what broke.

Runs (a spec folder, its variants):
- no variant chosen: the base tests on the base game, then each variant's
  own tests with that variant on (a test's own `variant` steps add to that);
- `variants=(V, ...)`: the base tests and V's own tests with V on, and the
  base tests on the base game too, so a base test that passes there and fails
  under V is reported as a test V breaks, unless V declares it (`changes test`);
- `all_variants`: the same for every variant, one at a time.
Every back end runs the same plan (compiler/backends/testplan.py); a run in which
the back ends ran different numbers of tests fails. An optional back end (the native build and
the native engine, by default) runs where it is built, and is left out of that count; beside the
native build, "generated" runs the package's Python sources. A test a back end cannot run (the
native engine's refusals, compiler/backends/machine/designer.py) is reported as not run, with why:
never as passed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rulespec.compiler.backends import engine
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.variants import only_excluded
from rulespec.compiler.frontend.loader import LoadedSpec, available_variants, load_spec, test_variant_sets
from rulespec.compiler.frontend.locations import shown
from rulespec.compiler.backends.testplan import plan_tests, test_file_key
from rulespec.runtime.program import Program, TestCase
from rulespec.runtime.testing import run_test


@dataclass
class Outcome:
    """One test on one back end under one variant set."""

    case: TestCase
    backend: str
    variants: tuple[str, ...]
    message: str | None  # None: passed
    location: str = ""
    expected: bool = False  # a base test failing under a variant that declares it changes it
    not_run: str | None = None  # why this back end could not run the test (then message is None)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.case.name, "location": self.location or self.case.location,
                "message": self.message, "backend": self.backend, "variants": list(self.variants),
                **({"not_run": self.not_run} if self.not_run is not None else {})}


@dataclass
class VariantReport:
    """What a variant set does to the base tests."""

    variants: tuple[str, ...]
    base_tests: int
    breaks: list[Outcome] = field(default_factory=list)  # surprises: failures
    declared: list[str] = field(default_factory=list)  # broken, as the variant says it means to
    unchanged: list[str] = field(default_factory=list)  # declared to change, yet still pass

    def sentence(self) -> str:
        name = "+".join(self.variants)
        names = sorted({o.case.name for o in self.breaks})
        if not names:
            head = f"{name} breaks none of the {self.base_tests} base tests"
        else:
            shown = "; ".join(f'"{n}"' for n in names[:5]) + (" ..." if len(names) > 5 else "")
            head = f"{name} breaks {len(names)} of {self.base_tests} base tests: {shown}"
        if self.declared:
            head += f" ({len(self.declared)} more changed as it declares)"
        return head

    def to_json(self) -> dict[str, Any]:
        return {"variants": list(self.variants), "base_tests": self.base_tests,
                "breaks": [o.to_json() for o in self.breaks], "declared": self.declared,
                "declared_but_passing": self.unchanged, "sentence": self.sentence()}


@dataclass
class TestReport:
    outcomes: list[Outcome] = field(default_factory=list)
    variant_reports: list[VariantReport] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # run-level failures (counts differ)
    backends: tuple[str, ...] = ()
    unbuilt: list[str] = field(default_factory=list)  # variant sets an optional back end skipped

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.message is not None and not o.expected]

    @property
    def passed(self) -> int:
        return sum(1 for o in self.outcomes if o.message is None and o.not_run is None)

    @property
    def not_run(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.not_run is not None]

    def counts(self) -> dict[str, int]:
        return dict(Counter(o.backend for o in self.outcomes))


def run_tests(folder: Path, variants: tuple[str, ...] = (), all_variants: bool = False,
              chosen: tuple[str, ...] = engine.BACKENDS, package: str | None = None,
              on_note: Callable[[str], None] | None = None, optional: tuple[str, ...] = (),
              build: bool = False) -> TestReport:
    """Run the designer tests of a spec folder as the module docstring says. build: the native
    engine is built where missing for the variant sets asked for (the base game, or `variants`, or
    every one with all_variants); else, and for other sets, an optional back end runs where built."""
    asked = {(), tuple(sorted(set(variants)))}
    runner = _Runner(folder, chosen, package, on_note, optional,
                     lambda sets: build and (tuple(sets) in asked or all_variants and len(sets) == 1))
    base = runner.loaded(())
    known = available_variants(folder)
    if variants or all_variants:
        sets = [tuple(sorted(set(variants)))] if variants else [(v,) for v in known]
        base_results = runner.run(base, lambda c: _is_base(c))
        for chosen_set in sets:
            loaded = runner.loaded(chosen_set)
            own = set(chosen_set)
            results = runner.run(loaded, lambda c, own=own: _is_base(c) or _variant_of(c) in own)
            runner.report.variant_reports.append(
                _compare(loaded, base_results, results, chosen_set))
    else:
        runner.run(base, _is_base)
        for variant in known:
            own = runner.loaded((variant,), base_tests=False)
            runner.run(own, lambda c, v=variant: _variant_of(c) == v, extras=False)
    counts = {b: n for b, n in runner.report.counts().items() if b not in optional}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{n} on {b}" for b, n in counts.items())
        runner.report.problems.append(f"the back ends ran different numbers of tests ({shown})")
    ran = set(runner.report.counts())
    runner.report.backends = tuple(b for b in runner.chosen if b not in optional or b in ran)
    runner.report.unbuilt = runner.unbuilt
    return runner.report


class _Runner:
    def __init__(self, folder: Path, chosen, package, on_note, optional=(), build=lambda sets: False):
        self.folder, self.package, self.build = folder, package, build
        self.chosen, self.optional = tuple(chosen) + tuple(optional), tuple(optional)
        self.on_note = on_note
        self.report = TestReport(backends=self.chosen)
        self._loaded: dict[tuple[str, ...], LoadedSpec] = {}
        self.extra_sets = test_variant_sets(folder)
        self._keys: dict[int, frozenset[str]] = {}
        self.unchecked: dict[tuple[str, ...], list[tuple[TestCase, str]]] = {}
        self._programs: dict[tuple[int, str], Program | None] = {}
        self.unbuilt: list[str] = []

    def loaded(self, variants: tuple[str, ...], base_tests: bool = True) -> LoadedSpec:
        key = (tuple(sorted(set(variants))), base_tests)
        if key not in self._loaded:
            try:
                self._loaded[key] = load_spec(self.folder, key[0], base_tests=base_tests)
            except SpecError as err:
                # Base tests that no longer check with the variants on (they name something a
                # variant removed, say) are tests the variants break; the rest still run.
                broken = _tests_at(self.folder, err) if base_tests and key[0] else None
                if not broken:
                    raise
                self.unchecked[key[0]] = broken
                self._loaded[key] = load_spec(self.folder, key[0], base_tests=True,
                                              skip_tests=frozenset(c.name for c, _ in broken))
        return self._loaded[key]

    def program(self, loaded: LoadedSpec, backend: str) -> Program | None:
        """The back end's program for a variant set; None for an optional one not built for it."""
        key = (id(loaded), backend)
        if key not in self._programs:
            package = self.package if not loaded.variants else None
            optional = backend in self.optional
            program, why = None, self._unbuilt(loaded, package, backend) if optional else None
            if why is None:
                try:
                    program = engine.load_program(loaded, backend, package, for_tests=True, on_note=self.on_note,
                                                  sources=engine.NATIVE in self.chosen)
                except engine.BackendError as err:
                    if not (optional and backend == engine.MACHINE):
                        raise
                    why = str(err)  # a variant set whose rules do not all compile natively
            if program is None:
                name = " + ".join((loaded.model.game, *loaded.variants))
                self.unbuilt.append(name if why == "" else f"{name} ({why})")
            self._programs[key] = program
        return self._programs[key]

    def _unbuilt(self, loaded: LoadedSpec, package: str | None, backend: str) -> str | None:
        """Why an optional back end does not run this variant set ("" for the native build: not
        built), or None when it may. The native engine is built where missing only for the sets
        asked for (--backend machine)."""
        if backend == engine.MACHINE:
            return None if self.build(loaded.variants) or engine.machine_built(loaded) else "not built"
        from rulespec.compiler.backends.native_jobs import loads_natively
        built = loads_natively(Path(package) if package else engine.current_package(loaded, for_tests=True))
        return None if built else ""

    def run(self, loaded: LoadedSpec, wanted, extras: bool = True) -> dict[tuple[str, str], Outcome]:
        """Run the wanted tests under a loaded spec's variants; with extras, a base test
        that turns on more variants for itself runs (and was checked) where those are on."""
        results: dict[tuple[str, str], Outcome] = {}
        groups = [(loaded, lambda case: set(case.variants) <= set(loaded.variants))]
        for extra in self.extra_sets if extras else ():
            if set(extra) <= set(loaded.variants):
                continue
            combined = tuple(sorted(set(loaded.variants) | set(extra)))
            try:
                target = self.loaded(combined)
            except SpecError as err:
                first = err.diagnostics[0].headline() if err.diagnostics else str(err)
                where = f"tests that turn on {'+'.join(extra)} cannot run with {'+'.join(loaded.variants)}"
                if only_excluded(err):
                    if self.on_note:  # a combination a variant `excludes`: not played, not an error
                        self.on_note(f"{where} (not run): {first}")
                else:
                    self.report.problems.append(f"{where}: {first}")
                continue
            groups.append((target, lambda case, extra=extra: set(case.variants) == set(extra)))
        for case, message in self.unchecked.get(tuple(loaded.variants), ()):
            if wanted(case):
                for backend in self._backends(loaded):
                    outcome = Outcome(case, backend, loaded.variants, message)
                    self.report.outcomes.append(outcome)
                    results[(case.key, backend)] = outcome
        for target, fits in groups:
            for case in plan_tests(target.model).cases:
                if not (wanted(case) and fits(case)):
                    continue
                for backend in self._backends(target):
                    outcome = self._one(target, backend, case)
                    self.report.outcomes.append(outcome)
                    results[(case.key, backend)] = outcome
        return results

    def _backends(self, loaded: LoadedSpec) -> list[str]:
        return [b for b in self.chosen if b not in self.optional or self.program(loaded, b) is not None]

    def keys(self, program: Program) -> frozenset[str]:
        if id(program) not in self._keys:
            self._keys[id(program)] = program.test_keys()
        return self._keys[id(program)]

    def _one(self, loaded: LoadedSpec, backend: str, case: TestCase) -> Outcome:
        program = self.program(loaded, backend)
        missing = _keys(case) - self.keys(program)
        if missing:
            return Outcome(case, backend, loaded.variants,
                           f"this back end has no code for {len(missing)} of the test's steps"
                           " (its package is older than the test)")
        failure, not_run = _run(program, case, backend)
        if not_run is not None:
            return Outcome(case, backend, loaded.variants, None, not_run=not_run)
        if failure is None:
            return Outcome(case, backend, loaded.variants, None)
        return Outcome(case, backend, loaded.variants, failure.message,
                       shown(failure.location, self.folder))


def _run(program: Program, case: TestCase, backend: str):
    """(the failure or None, None), or (None, why) for a test the native engine cannot run."""
    if backend != engine.MACHINE:
        return run_test(program, case), None
    from rulespec.compiler.backends.machine.designer import NotRunNatively
    try:
        return run_test(program, case), None
    except NotRunNatively as why:
        return None, str(why)


def _tests_at(folder: Path, err: SpecError) -> list[tuple[TestCase, str]] | None:
    """The base tests every error lies in, each with its first error; None when an error
    lies anywhere else (then the variant set itself does not check)."""
    from rulespec.compiler.frontend.errors import Sources
    from rulespec.compiler.frontend.parse import parse_files, spec_files
    tests = folder / "tests"
    paths = spec_files(folder) + (spec_files(tests) if tests.is_dir() else [])
    decls = [d for f in parse_files(paths, Sources(), Path.cwd()).files for d in f.decls
             if isinstance(d, ast.TestDecl)]
    found: dict[str, tuple[TestCase, str]] = {}
    for problem in err.diagnostics:
        span = problem.span
        test = next((d for d in decls if d.span.file == span.file
                     and d.span.line <= span.line <= d.span.end_line), None)
        if test is None:
            return None
        key = f"{test_file_key(test.span.file)}#{test.number}"
        case = TestCase(test.name, str(test.span), (), key)
        found.setdefault(test.name, (case, f"does not check with these variants on: {problem.message}"
                                              f" (at {problem.span})"))
    return list(found.values())


def _keys(case: TestCase) -> set[str]:
    keys = {s.payload for s in case.steps if s.kind == "run"}
    keys |= {p.key for s in case.steps if s.kind == "expect" for p in s.payload}
    return keys


def _variant_of(case: TestCase) -> str | None:
    file = case.key.rsplit("#", 1)[0]
    folder, _, name = file.rpartition("/")
    return name.rsplit(".", 1)[0] if folder == "variants" else None


def _is_base(case: TestCase) -> bool:
    return _variant_of(case) is None


def _compare(loaded: LoadedSpec, base: dict, under: dict, variants: tuple[str, ...]) -> VariantReport:
    declared = set()
    for name in variants:
        declared |= set(loaded.model.changed_tests.get(name, ()))
    base_names = {o.case.name for o in base.values()}
    report = VariantReport(variants, len(base_names))
    broken_declared: set[str] = set()
    for key, outcome in under.items():
        before = base.get(key)
        if before is None or outcome.message is None:
            continue
        if before.message is not None:
            continue  # fails on the base game too: reported there
        if outcome.case.name in declared:
            broken_declared.add(outcome.case.name)
            outcome.expected = True
        else:
            report.breaks.append(outcome)
    report.declared = sorted(broken_declared)
    report.unchanged = sorted(declared - broken_declared)
    return report
