"""`rulespec test`: the designer tests on both back ends (the runner is compiler/tools/testrun.py)."""

from __future__ import annotations

import sys

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.cli.base import (EXIT_ERROR, EXIT_OK, emit_json, load, json_option, main, package_option, spec_folder,
                   variant_option)


@main.command("test")
@click.argument("spec_dir")
@variant_option
@click.option("--all-variants", is_flag=True,
              help="Run the base tests under every variant, one at a time, and say what each breaks.")
@click.option("--backend", type=click.Choice(("both",) + engine.BACKENDS + (engine.NATIVE, engine.MACHINE)),
              default="both", show_default=True,
              help="both: the generated engine and the interpreter, and the native build and the native"
                   " engine (state in C) where they are built (the generated engine then runs its Python"
                   " sources); native: the native build only, refused when it cannot load; machine: the"
                   " native engine only, built when missing, refused where the game does not run on it.")
@package_option
@json_option
def test_cmd(spec_dir: str, variants: tuple[str, ...], all_variants: bool, backend: str,
             package: str | None, as_json: bool) -> None:
    """Run the designer tests on both back ends (and the native builds where built); exit 1 if any fails.

    Without --variant: the base game's tests, then each variant's own tests
    with that variant on. With --variant: the base tests and the listed
    variants' tests with all of them on, and which base tests they break.
    """
    from rulespec.compiler.backends.native import enabled as native_enabled
    from rulespec.compiler.tools.testrun import run_tests
    folder = spec_folder(spec_dir)  # run_tests loads it (once) and reports its errors
    # the native builds run where they are built: beside the two by default, alone when asked for
    natives = (engine.NATIVE, engine.MACHINE)
    chosen = engine.BACKENDS if backend == "both" else () if backend in natives else (backend,)
    optional = (backend,) if backend in natives else natives if backend == "both" and native_enabled() else ()
    notes: list[str] = []
    report = run_tests(folder, variants, all_variants, chosen, package, on_note=notes.append,
                       optional=optional, build=backend == engine.MACHINE)
    if backend in natives:
        _native_ran(folder, report, notes, package, backend)
    failures = report.failures
    if as_json:
        emit_json({"passed": report.passed, "failed": len(failures), "backends": list(report.backends),
                    "failures": [o.to_json() for o in failures], "counts": report.counts(),
                    "not_run": [o.to_json() for o in report.not_run],
                    "variant_breaks": [r.to_json() for r in report.variant_reports],
                    "problems": report.problems, "notes": notes})
    else:
        for note in notes:
            click.echo(f"note: {note}", err=True)
        for o in report.not_run:
            on = f" with {'+'.join(o.variants)}" if o.variants else ""
            click.echo(f"{o.case.location}: NOT RUN [{o.backend}{on}] {o.case.name}: {o.not_run}")
        for o in failures:
            on = f" with {'+'.join(o.variants)}" if o.variants else ""
            click.echo(f"{o.location or o.case.location}: FAIL [{o.backend}{on}] {o.case.name}: {o.message}")
        for variant_report in report.variant_reports:
            click.echo(variant_report.sentence())
            if variant_report.unchanged:
                click.echo(f"  declared to change but still passing: "
                           f"{', '.join(repr(n) for n in variant_report.unchanged)}")
        for problem in report.problems:
            click.echo(f"error: {problem}")
        counts = ", ".join(f"{n} on {b}" for b, n in report.counts().items())
        not_run = f", {len(report.not_run)} not run" if report.not_run else ""
        click.echo(f"{report.passed} passed, {len(failures)} failed{not_run} ({counts or 'no tests'})")
    sys.exit(EXIT_ERROR if failures or report.problems else EXIT_OK)


def _native_ran(folder, report, notes: list[str], package: str | None, backend: str) -> None:
    """--backend native|machine: the sets it did not run are named; none run at all is refused, in
    one line saying why (how to build the native build; why the game does not run natively)."""
    if backend not in report.counts() and backend == engine.MACHINE and report.unbuilt:
        raise engine.BackendError(f"no designer test ran on the native engine: {report.unbuilt[0]}")
    if backend not in report.counts():
        engine.load_program(load(str(folder)), backend, package, for_tests=True)  # says why
    if report.unbuilt:
        if backend == engine.NATIVE:
            notes.append(f"not run on the native build (not built): {', '.join(report.unbuilt)}")
        else:
            notes.append(f"not run on the native engine: {', '.join(report.unbuilt)};"
                         f" --variant V builds V's")
