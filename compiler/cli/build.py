"""`rulespec check` and `rulespec compile`: the front end's verdict, the generated package."""

from __future__ import annotations

from pathlib import Path

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.frontend.inputs import find_spec_dir
from rulespec.compiler.cli.base import UserError, load, main, variant_option


@main.command()
@click.argument("spec_dir")
@variant_option
@click.option("-v", "--verbose", is_flag=True, help="Say what was checked (silent by default).")
def check(spec_dir: str, variants: tuple[str, ...], verbose: bool) -> None:
    """Check a spec: silent and exit 0 when sound, else every error as file:line:col."""
    from rulespec.compiler.frontend.errors import SpecError  # the front end only when checking: compile's up-to-date path stays light
    from rulespec.compiler.frontend.loader import test_variant_sets
    from rulespec.compiler.frontend.variants import only_excluded
    loaded = load(spec_dir, variants)
    for extra in test_variant_sets(loaded.folder):  # tests that turn variants on for themselves
        try:
            load(spec_dir, tuple(set(variants) | set(extra)))
        except SpecError as err:
            if not only_excluded(err):  # a set a variant `excludes` is not played (nor tested)
                raise
    from rulespec.compiler.frontend.checks.board import board_warnings
    for warning in board_warnings(loaded.model):  # the spec is sound; its table may still crowd
        click.echo(f"{warning.span}: warning: {warning.message}", err=True)
    if not verbose:
        return
    counts = loaded.model.counts()
    chosen = f" with {'+'.join(loaded.variants)}" if loaded.variants else ""
    click.echo(f"{loaded.model.game}{chosen}: ok — {counts['spaces']} spaces, {counts['cards']} cards,"
               f" {counts['designer_tests']} designer tests (spec hash {loaded.model.spec_hash})")


@main.command("compile")
@click.argument("spec_dir")
@variant_option
@click.option("-o", "--output", default=None, metavar="DIR",
              help="Where to write the package (default: for a checkout's own spec/<game>,"
                   " generated/<game>, or generated/<game>__<variant>... with variants; for any"
                   " other spec, the cache). Never a file, nor a folder that holds something"
                   " else than a generated package.")
@click.option("--native", is_flag=True,
              help="Also compile the package's rule and procedure modules, and the runtime's hot"
                   " modules, with Cython (the extra rulespec[native]) into the cache, where imports"
                   " of these exact sources find them; pure Python stays the fallback"
                   " (RULESPEC_NATIVE=0 forces it).")
@click.option("--background", is_flag=True,
              help="With --native: start the native build in a detached process at low priority and"
                   " return at once (commands use it once it is in the cache).")
@click.option("--engine-only", is_flag=True,
              help="With --native: build only the native engine (state in C, what simulate, balance"
                   " and worth play the default bot's games on), not the package's native build.")
def compile_cmd(spec_dir: str, variants: tuple[str, ...], output: str | None, native: bool = False,
                background: bool = False, engine_only: bool = False) -> None:
    """Generate the engine package; all-or-nothing. With --native, also its native build and the
    native engine (state in C) where the game runs on it."""
    from rulespec.compiler.backends import unchanged
    if background and not native:
        raise UserError("--background starts the native build: give --native too")
    if engine_only and not native:
        raise UserError("--engine-only builds the native engine: give --native too")
    try:
        folder = find_spec_dir(spec_dir)
    except FileNotFoundError:
        folder = None  # load() says so
    made = unchanged.compiled_before(folder, variants, output) if folder and not native else None
    if made is not None:
        click.echo(f"{made['game']}: up to date: {made['shown']}"
                   f" (spec hash {made['spec_hash']})")
        return
    loaded = load(spec_dir, variants)
    try:
        from rulespec.compiler.backends.codegen import compile_game
    except ImportError:
        raise UserError("the code generator (rulespec.compiler.backends.codegen.compile_game) is not available yet;"
                        " use --backend interpreted") from None
    out = Path(output) if output else engine.compile_target(loaded)
    # compile_game is atomic itself (compiler/backends/codegen/output.py); the previous
    # output lends the modules whose source did not change (black is the slow part).
    try:
        # a variant package's pieces that are the base game's are in its committed seed file
        base = (engine.default_package(loaded.model.game),) if loaded.variants else ()
        written = compile_game(loaded.model, out, seeds=base)
    except OSError as err:
        raise UserError(f"cannot write {out}: {err.strerror or err}") from None
    unchanged.remember(loaded.folder, variants, output, loaded.model.game, out, engine._shown(out),
                       loaded.model.spec_hash)
    verb = "wrote" if written else "up to date:"
    click.echo(f"{loaded.model.game}: {verb} {engine._shown(out)} (spec hash {loaded.model.spec_hash})")
    if native:
        if not engine_only:
            _native(" + ".join((loaded.model.game, *loaded.variants)), out, background)
        _machine(loaded, background)


def _machine(loaded, background: bool) -> None:
    """The native engine (state in C, compiler/backends/machine) beside the package's native build,
    where the game runs on it: what simulate, balance and worth play the default bot's games on."""
    from rulespec.compiler.backends import native, native_jobs
    from rulespec.compiler.backends.machine import jobs
    from rulespec.compiler.backends.machine.engine import native_engine
    game = " + ".join((loaded.model.game, *loaded.variants))
    why = native.available()
    if why is not None:
        raise UserError(why)
    made = native_engine(loaded.model)
    if made.steps.refused:
        click.echo(f"{game}: does not run on the native engine (state in C) yet: {made.steps.refused[0]}")
        return
    if background:
        if native_jobs.mode() == "off":
            return  # said above
        started = jobs.start_background(loaded, made)
        click.echo(f"{game}: the native engine (state in C) {'is being built in the background' if started else 'is in the cache'}")
        return
    try:
        path = jobs.build_now(made)
    except native.NativeError as err:
        raise UserError(str(err)) from None
    click.echo(f"{game}: the native engine (state in C) built into {engine._shown(path.parent)}")


def _native(game: str, out: Path, background: bool) -> None:
    """The package's native build (compiler/backends/native_jobs.py: one build per job at a time)."""
    from rulespec.compiler.backends import native_jobs
    from rulespec.compiler.backends.native import MODULES, RUNTIME_MODULES, available
    why = available()
    if why is not None:
        raise UserError(why)
    if background:
        if native_jobs.mode() == "off":
            click.echo(f"{game}: RULESPEC_NATIVE=0: no native build started; the Python engine runs")
            return
        if native_jobs.ready(out):
            click.echo(f"{game}: the native build of its package is in the cache")
            return
        if not native_jobs.building(out):
            native_jobs.start_background(out)
        click.echo(f"{game}: the native build of its package is being made in the background"
                   f" ({native_jobs.shown_cpu(native_jobs.cpu_estimate(out))}, at low priority);"
                   f" commands use it once it is in the cache")
        return
    failed = native_jobs.build_now(out)
    if failed is not None:
        raise UserError(failed)
    built = native_jobs.targets(out)
    click.echo(f"{game}: {', '.join(m for m in MODULES if (out / f'{m}.py').is_file())} built natively"
               f" into {engine._shown(built[0].parent)}, with the runtime's {', '.join(RUNTIME_MODULES)}"
               f" (imported in place of their sources while those are unchanged)")
