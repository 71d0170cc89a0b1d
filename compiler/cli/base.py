"""What every command shares: the guard (one line, an exit code, never a traceback), the common
options, and the steps that turn command-line text into a loaded spec, a program, agents, params."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.frontend.inputs import find_spec_dir
from rulespec.runtime.home import SPECS
from rulespec.runtime.text import safe_line, safe_lines, shown

if TYPE_CHECKING:
    from rulespec.compiler.frontend.errors import SpecError
    from rulespec.compiler.frontend.loader import LoadedSpec

# The front end (lark, the AST), the runtime and the code generator are imported
# by the steps that need them, not here: `rulespec compile` with nothing changed
# answers from file hashes alone (compiler/backends/unchanged.py), in a fraction of a second.

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class UserError(Exception):
    """Bad input of any kind: shown as one line, exit 1."""


def user_errors() -> tuple[type[Exception], ...]:
    """Every failure a user can cause, each shown as one line."""
    from rulespec.runtime import record as records
    from rulespec.runtime.files import WriteError
    from rulespec.runtime.params import ParamError
    from rulespec.runtime.state import RuleError
    return (UserError, RuleError, records.RecordError, engine.BackendError, WriteError, ParamError)


# ------------------------------------------------------------------ the guard


# The module that registers each command, imported when the command runs (or
# for --help): one command does not pay for importing the others.
# tests/test_cli.py checks this table against the commands the modules register.
COMMAND_MODULES = {
    "check": "build", "compile": "build", "play": "games", "replay": "games", "serve": "table",
    "test": "test", "bench": "runs", "fuzz": "runs", "simulate": "runs", "info": "info",
    "doc": "designer", "cards": "designer", "fmt": "designer", "lsp": "designer",
    "tune": "bots", "balance": "bots", "new": "new", "worth": "worth",
}


def import_commands(module: str) -> None:
    """Import the module of a command group, which registers its commands on `main`."""
    if module == "designer":
        from rulespec.compiler.tools.designer_commands import register
        if "lsp" not in main.commands:
            register(main)
        return
    import importlib
    importlib.import_module(f"{__package__}.{module}")


class Guarded(click.Group):
    """Turns every exception into one line and an exit code, never a traceback.

    Commands are loaded lazily (COMMAND_MODULES)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            import_commands(COMMAND_MODULES[cmd_name])
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for module in sorted(set(COMMAND_MODULES.values())):
            import_commands(module)
        return super().list_commands(ctx)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a reader that went away fails here, inside the guard
            return result
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader closed the pipe (`rulespec play ... | head`): stop quietly, as
            # Python's docs advise, with nothing more written to the closed stream.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            click.echo("rulespec: interrupted", err=True)
            ctx.exit(130)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            from rulespec.compiler.frontend.errors import InternalError, SpecError
            if isinstance(err, SpecError):
                spec_error(err)
            if isinstance(err, user_errors()):
                fail(str(err))
            if os.environ.get("RULESPEC_DEBUG"):
                raise
            kind = "internal error" if not isinstance(err, InternalError) else "internal compiler error"
            click.echo(f"rulespec: {kind}: {type(err).__name__}: {safe_line(one_line(str(err)))}",
                       err=True)
            click.echo("this is a bug in rulespec, not in your input: please report it with the"
                       " command you ran (RULESPEC_DEBUG=1 shows the traceback)", err=True)
            ctx.exit(EXIT_INTERNAL)


def fail(message: str) -> NoReturn:
    click.echo(f"rulespec: error: {safe_line(one_line(message))}", err=True)
    sys.exit(EXIT_ERROR)


def spec_error(err: SpecError) -> NoReturn:
    one_line = getattr(err, "one_line", None)  # a spec error of the command line (loader.UnknownVariant)
    if one_line is not None:
        fail(one_line)
    sources = getattr(err, "sources", None)
    click.echo(safe_lines(sources.render_all(err) if sources is not None else str(err)), err=True)
    sys.exit(EXIT_ERROR)


def one_line(text: str) -> str:
    return "; ".join(part.strip() for part in text.strip().splitlines() if part.strip()) or "(no message)"


def emit_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, sort_keys=False))


def note(text: str) -> None:
    click.echo(f"note: {text}", err=True)


@click.group(cls=Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulespec", prog_name="rulespec")
def main() -> None:
    """rulespec: game rules as data, a checked spec, a fast engine."""


# ------------------------------------------------------------------ counts with a stated cap


class Bounded(click.ParamType):
    """A whole number within stated limits (docs/CLI.md, "Limits"). Past them: one line, exit 1,
    before any work starts; so `--games 10**20` is refused, not an OverflowError or a run
    that never ends. Text that is no number at all is a usage error (exit 2), as click's own."""

    name = "integer"
    what = "a whole number"

    def __init__(self, low: int | float, high: int | float, unit: str | None = None):
        self.low, self.high = low, high
        self.unit = unit or self.what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None):
        number = self.read(value, param, ctx)
        if not (math.isfinite(number) and self.low <= number <= self.high):
            name = param.opts[0] if param is not None and param.opts else "the value"
            raise UserError(f"{name} takes {self.unit} from {_limit(self.low)} to {_limit(self.high)},"
                            f" not {shown(str(value).strip())}")
        return number

    def read(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            self.fail(f"'{shown(text)}' is not a whole number", param, ctx)
        return int(text) if len(text) <= 40 else self.high + 1  # never parse 10,000 digits


def _limit(number: int | float) -> str:
    """A limit as the docs write it: 1,000,000, 86,400, 0.01."""
    return f"{int(number):,}" if number == int(number) else f"{number:g}"


class BoundedReal(Bounded):
    """A number with a fraction (points, CPU seconds) within stated limits, read by Bounded's
    rule: NaN and the infinities are outside every range (click's FloatRange let NaN through,
    since every comparison with it is false), so `--precision nan` is one line and exit 1."""

    name = "number"
    what = "a number"

    def read(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        text = str(value).strip()
        try:
            return float(text)
        except ValueError:
            self.fail(f"'{shown(text)}' is not a number", param, ctx)


MAX_GAMES = 1_000_000
MAX_DECISIONS = 10_000_000
MAX_WORKERS = 10_000  # processes or Ray CPUs asked for; each command caps them at what it can use
MAX_PRECISION = 50  # points: a 95% interval of ±50 says nothing about a win rate


def workers_option(help: str | None = None):
    return click.option("--workers", default=1, show_default=True, type=Bounded(1, MAX_WORKERS),
                        help=help)


def precision_type() -> BoundedReal:
    return BoundedReal(0.01, MAX_PRECISION, "points")


def games_option(default: int, help: str | None = None):
    return click.option("--games", default=default, show_default=True, type=Bounded(1, MAX_GAMES),
                        help=help)


def given(name: str) -> bool:
    """Whether the command line gave the option (not its default)."""
    from click.core import ParameterSource
    return click.get_current_context().get_parameter_source(name) is not ParameterSource.DEFAULT


def seed_option(default: int | None = 1, help: str | None = None):
    from rulespec.runtime.state import SEED_HIGH, SEED_LOW
    return click.option("--seed", default=default, show_default=default is not None,
                        type=Bounded(SEED_LOW, SEED_HIGH), help=help)


def max_decisions_option(default: int, help: str):
    return click.option("--max-decisions", default=default, show_default=True,
                        type=Bounded(1, MAX_DECISIONS), help=help)


variant_option = click.option("--variant", "variants", multiple=True, metavar="V",
                              help="A variant of spec/<game>/variants/ (repeatable).")
json_option = click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
param_option = click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
                            help="A parameter the spec declares, within the values it allows"
                                 " (repeatable; `rulespec info` lists them).")
package_option = click.option("--package", default=None, metavar="DIR",
                              help="The generated package to run (default generated/<game>).")


# ------------------------------------------------------------------ shared steps


def load(game_or_dir: str, variants: tuple[str, ...] = ()) -> LoadedSpec:
    """Find and load a spec (a game name or a folder); every failure as UserError/SpecError."""
    from rulespec.compiler.frontend.loader import load_spec
    return load_spec(spec_folder(game_or_dir), variants=tuple(variants))


def load_recorded(file: str, record: Any, spec_dir: str | None = None) -> LoadedSpec:
    """The spec a record plays on: `spec_dir` (--spec), else the folder the record names, else
    its game. A folder only the record names that holds no sound spec is one line: its errors
    are those of a folder the user never named (a record naming its variants folder)."""
    named = record.spec_dir
    if spec_dir or named is None or not _is_folder(named):
        return load(spec_dir or record.game, record.variants)
    from rulespec.compiler.frontend.errors import SpecError
    try:
        return load(named, record.variants)
    except SpecError as err:
        if getattr(err, "one_line", None) is not None:  # an unknown variant says so itself
            raise
        raise UserError(f"{file}: the record's spec_dir {shown(named, 200)} holds no sound spec of"
                        f" '{shown(record.game)}' (rulespec check {shown(named, 200)} says why)") from None


def _is_folder(path: str) -> bool:
    try:
        return Path(path).is_dir()
    except OSError:  # a name the system will not look up (too long): no folder of that name
        return False


def spec_folder(game_or_dir: str):
    """The folder of a spec (a game name or a folder), found without parsing it; UserError if none."""
    try:
        return find_spec_dir(game_or_dir)
    except FileNotFoundError:
        games = known_games()
        known = f" (games: {', '.join(games)})" if games else ""
        raise UserError(f"no spec found for '{game_or_dir}': not a folder with .rules files"
                        f" nor a game under spec/{known}") from None


def known_games() -> list[str]:
    if not SPECS.is_dir():
        return []
    return sorted(p.name for p in SPECS.iterdir() if p.is_dir() and any(p.glob("*.rules")))


def params(meta, pairs: tuple[str, ...]) -> dict[str, Any]:
    """--param NAME=VALUE, typed and checked by the spec's declarations (runtime/params.py)."""
    from rulespec.runtime.params import parse_param
    return dict(parse_param(meta, pair) for pair in pairs)


def program(loaded: LoadedSpec, backend: str, package: str | None = None, runs_games: bool = False):
    """The back end's program; a stale committed package is replaced by a cached build, noted.

    runs_games: a command that plays games (simulate, bench, play...) runs the generated package
    natively when its build is in the cache, else starts or awaits that build as RULESPEC_NATIVE
    says (compiler/backends/native_jobs.py), saying so in one line on stderr."""
    if runs_games and backend == "generated":
        from rulespec.compiler.backends import native_jobs
        where = Path(package) if package is not None else engine.current_package(loaded)
        native_jobs.prepare(where, loaded.model.game, lambda line: click.echo(f"rulespec: {line}", err=True))
    return engine.load_program(loaded, backend, package, on_note=note)


def factory(loaded: LoadedSpec, backend: str):
    """A recipe for the program the workers of a command that plays many games load: on the
    generated back end, the native engine over its package where that is built (else started
    as RULESPEC_NATIVE says, compiler/backends/machine/jobs.py; said in one line on stderr)."""
    return engine.ProgramRef.of(loaded, backend, natively=lambda line: click.echo(f"rulespec: {line}", err=True))


def shown_backend(program, backend: str) -> str:
    """The back end as text output names it: "native" where the generated one runs natively."""
    from rulespec.compiler.backends import native_jobs
    return engine.NATIVE if backend == "generated" and native_jobs.running_natively(program) else backend


def agents(text: str, meta, values: dict[str, Any] | None = None) -> tuple[str, ...]:
    """One agent name per seated player (under the params `values`)."""
    from rulespec.runtime.bots.agents import parse_agents, spec_offers
    try:
        return parse_agents(text, meta.seated(values), *spec_offers(meta))
    except ValueError as err:
        raise UserError(str(err)) from None


class progress:
    """A rich progress bar on a terminal; nothing under --json or when piped, unless
    RULESPEC_PROGRESS=lines asks for a plain line on stderr at every tenth of the way (the
    demo's log reads how far a long run is)."""

    def __init__(self, total: int, label: str, show: bool):
        self.total, self.label = total, label
        self.lines = show and not sys.stderr.isatty() and os.environ.get("RULESPEC_PROGRESS") == "lines"
        self.show = show and sys.stderr.isatty()
        self.bar = None

    def __enter__(self):
        if self.lines:
            return self._line_advance()
        if not self.show:
            return lambda: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
        self.bar = Progress("[progress.description]{task.description}", BarColumn(),
                            MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        task = self.bar.add_task(self.label, total=self.total)
        return lambda: self.bar.advance(task)

    def _line_advance(self):
        started, done, step = time.monotonic(), 0, max(1, self.total // 10)

        def advance() -> None:
            nonlocal done
            done += 1
            if done % step == 0 or done == self.total:
                print(f"   {self.label}: {done} of at most {self.total},"
                      f" {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        return advance

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
