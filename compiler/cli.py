"""The `rulespec` command line: check, compile, play, replay, test, bench, info.

The contract (commands, flags, --json keys) is in docs/CLI.md. Every failure
a user can cause ends in one plain line on stderr (spec errors: the rendered
diagnostics) and a non-zero exit; a bug in rulespec ends in "internal error".
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import click

from . import backends
from .errors import InternalError, SpecError
from .loader import (REPO_ROOT, LoadedSpec, available_variants, find_spec_dir, load_spec,
                     test_variant_sets)
from runtime import record as records
from runtime.agents import DEFAULT_MAX_DECISIONS, default_agent, parse_agents, play_out, seat_agents
from runtime.game import Game
from runtime.files import WriteError, make_dirs
from runtime.params import ParamError, params_json, parse_param
from runtime.text import safe_line, safe_lines
from runtime.state import RuleError
from runtime.values import text_of

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
LOG_LINES = 12


class UserError(Exception):
    """Bad input of any kind: shown as one line, exit 1."""


# ------------------------------------------------------------------ the guard


class _Guarded(click.Group):
    """Turns every exception into one line and an exit code, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except SpecError as err:
            _spec_error(err)
        except (UserError, RuleError, records.RecordError, backends.BackendError, WriteError,
                ParamError) as err:
            _fail(str(err))
        except KeyboardInterrupt:
            click.echo("rulespec: interrupted", err=True)
            ctx.exit(130)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            if os.environ.get("RULESPEC_DEBUG"):
                raise
            kind = "internal error" if not isinstance(err, InternalError) else "internal compiler error"
            click.echo(f"rulespec: {kind}: {type(err).__name__}: {safe_line(_one_line(str(err)))}",
                       err=True)
            click.echo("this is a bug in rulespec, not in your input: please report it with the"
                       " command you ran (RULESPEC_DEBUG=1 shows the traceback)", err=True)
            ctx.exit(EXIT_INTERNAL)


def _fail(message: str) -> NoReturn:
    click.echo(f"rulespec: error: {safe_line(_one_line(message))}", err=True)
    sys.exit(EXIT_ERROR)


def _spec_error(err: SpecError) -> NoReturn:
    sources = getattr(err, "sources", None)
    click.echo(safe_lines(sources.render_all(err) if sources is not None else str(err)), err=True)
    sys.exit(EXIT_ERROR)


def _one_line(text: str) -> str:
    return "; ".join(part.strip() for part in text.strip().splitlines() if part.strip()) or "(no message)"


def _emit_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, sort_keys=False))


# ------------------------------------------------------------------ shared steps


def _load(game_or_dir: str, variants: tuple[str, ...] = ()) -> LoadedSpec:
    """Find and load a spec (a game name or a folder); every failure as UserError/SpecError."""
    try:
        folder = find_spec_dir(game_or_dir)
    except FileNotFoundError:
        games = known_games()
        known = f" (games: {', '.join(games)})" if games else ""
        raise UserError(f"no spec found for '{game_or_dir}': not a folder with .rules files"
                        f" nor a game under spec/{known}") from None
    return load_spec(folder, variants=tuple(variants))


def known_games() -> list[str]:
    root = REPO_ROOT / "spec"
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.rules")))


def _params(meta, pairs: tuple[str, ...]) -> dict[str, Any]:
    """--param NAME=VALUE, typed and checked by the spec's declarations (runtime/params.py)."""
    return dict(parse_param(meta, pair) for pair in pairs)


def _program(loaded: LoadedSpec, backend: str, package: str | None = None):
    """The back end's program; a stale committed package is replaced by a cached build, noted."""
    return backends.load_program(loaded, backend, package,
                                 on_note=lambda note: click.echo(f"note: {note}", err=True))


def _agents(text: str, meta) -> tuple[str, ...]:
    try:
        return parse_agents(text, meta.players, getattr(meta, "bots", ()), getattr(meta, "policies", ()))
    except ValueError as err:
        raise UserError(str(err)) from None


# ------------------------------------------------------------------ readable output


def _winner_text(game: Game) -> str:
    if not game.over:
        return "not finished"
    if game.winner is None:
        return f"draw — {game.reason}"
    label = game.meta.player_labels[game.meta.players.index(game.winner)]
    return f"{label} wins — {game.reason}"


def _tracks_text(game: Game) -> list[str]:
    lines = []
    for name, value in game.tracks().items():
        if isinstance(value, dict):
            value = ", ".join(f"{p} {v}" for p, v in value.items())
        lines.append(f"  {name}: {value}")
    return lines


def _summary(game: Game, backend: str) -> list[str]:
    meta = game.meta
    variants = f", variants {'+'.join(game.variants)}" if game.variants else ""
    agents = f", agents {' vs '.join(game.agents)}" if game.agents else ""
    lines = [f"{meta.title or meta.game} — seed {game.seed}, {backend} back end{agents}{variants}",
             f"Result:    {_winner_text(game)}",
             f"Decisions: {game.decisions}"]
    if game.state.params:
        lines.append("Params:    " + ", ".join(f"{k}={text_of(v)}"
                                               for k, v in game.state.params.items()))
    lines.append("Tracks:")
    lines += _tracks_text(game)
    log = game.state.log[-LOG_LINES:]
    if log:
        lines.append(f"Last {len(log)} lines of the game log:")
        lines += [f"  {line}" for line in log]
    return lines


def _result_json(game: Game, backend: str) -> dict[str, Any]:
    meta = game.meta
    return {
        "game": meta.game, "variants": list(game.variants), "seed": game.seed,
        "backend": backend, "winner": game.winner, "reason": game.reason,
        "decisions": game.decisions, "spec_hash": meta.spec_hash,
        "over": game.over, "agents": list(game.agents or ()),
        "params": dict(game.state.params), "tracks": game.tracks(),
    }


# ------------------------------------------------------------------ commands


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulespec", prog_name="rulespec")
def main() -> None:
    """rulespec: game rules as data, a checked spec, a fast engine."""


variant_option = click.option("--variant", "variants", multiple=True, metavar="V",
                              help="A variant of spec/<game>/variants/ (repeatable).")
json_option = click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
param_option = click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
                            help="A parameter the spec declares (repeatable).")
package_option = click.option("--package", default=None, metavar="DIR",
                              help="The generated package to run (default generated/<game>).")


@main.command()
@click.argument("spec_dir")
@variant_option
@click.option("-v", "--verbose", is_flag=True, help="Say what was checked (silent by default).")
def check(spec_dir: str, variants: tuple[str, ...], verbose: bool) -> None:
    """Check a spec: silent and exit 0 when sound, else every error as file:line:col."""
    loaded = _load(spec_dir, variants)
    for extra in test_variant_sets(loaded.folder):  # tests that turn variants on for themselves
        _load(spec_dir, tuple(set(variants) | set(extra)))
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
              help="Where to write the package (default generated/<game>, or"
                   " generated/<game>__<variant>... with variants).")
def compile_cmd(spec_dir: str, variants: tuple[str, ...], output: str | None) -> None:
    """Generate the engine package; all-or-nothing."""
    loaded = _load(spec_dir, variants)
    try:
        from .codegen import compile_game
    except ImportError:
        raise UserError("the code generator (compiler.codegen.compile_game) is not available yet;"
                        " use --backend interpreted") from None
    out = Path(output) if output else backends.default_package(loaded.model.game, loaded.variants)
    # compile_game is atomic itself; the previous output lends the modules whose
    # source did not change (black is the slow part).
    try:
        written = compile_game(loaded.model, out)
    except OSError as err:
        raise UserError(f"cannot write {out}: {err.strerror or err}") from None
    verb = "wrote" if written else "up to date:"
    click.echo(f"{loaded.model.game}: {verb} {backends._shown(out)} (spec hash {loaded.model.spec_hash})")


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--agents", default="random", show_default=True, metavar="A,B",
              help="One bot for all players, or one per player: random, first, last, greedy, mc.")
@click.option("--backend", type=click.Choice(backends.BACKENDS), default="generated", show_default=True)
@click.option("--record", "record_path", default=None, metavar="FILE", help="Save the game record here.")
@param_option
@click.option("--max-decisions", default=DEFAULT_MAX_DECISIONS, show_default=True, type=int,
              help="Stop a game that runs longer than this.")
@package_option
@json_option
def play(game_name: str, variants: tuple[str, ...], seed: int, agents: str, backend: str,
         record_path: str | None, params: tuple[str, ...], max_decisions: int,
         package: str | None, as_json: bool) -> None:
    """Play one game between bots and show the result."""
    loaded = _load(game_name, variants)
    program = _program(loaded, backend, package)
    meta = program.meta
    names = _agents(agents, meta)
    values = _params(meta, params)
    game = None
    try:
        game = Game(program, seed=seed, params=values, variants=loaded.variants, agents=names)
        play_out(game, seat_agents(names, meta.players, seed), max_decisions)
    except RuleError as err:
        if game is None:
            raise UserError(f"{err} (while setting up the game, seed {seed})") from None
        saved = ""
        if record_path:
            records.save(game, record_path, str(loaded.folder), snapshot=False)
            saved = f"; the record up to it is in {record_path}"
        raise UserError(f"{err} (after {game.decisions} decisions, seed {seed}){saved}") from None
    if record_path:
        records.save(game, record_path, str(loaded.folder))
    if as_json:
        _emit_json(dict(_result_json(game, backend), record=record_path))
        return
    for line in _summary(game, backend):
        click.echo(line)
    if record_path:
        click.echo(f"Record:    {record_path} (rulespec replay {record_path})")


@main.command()
@click.argument("file")
@click.option("--backend", type=click.Choice(backends.BACKENDS), default=None,
              help="Default: the back end that made the record.")
@click.option("--spec", "spec_dir", default=None, metavar="DIR",
              help="The spec folder (default: the one named in the record, else spec/<game>).")
@package_option
@json_option
def replay(file: str, backend: str | None, spec_dir: str | None, package: str | None,
           as_json: bool) -> None:
    """Replay a game record and show where it ends."""
    record = records.read(file)
    loaded = _load(_record_spec(record, spec_dir), record.variants)
    backend = backend or record.backend or "generated"
    program = _program(loaded, backend, package)
    records.check_program(record, program)
    game = records.replay(record, program)
    if record.snapshot is not None:
        saved = records.restore(record, program, file) if record.snapshot.get("backend") else None
        if saved is not None and not records.same_state(saved.state, game.state):
            raise UserError(f"{file}: replaying the choices does not reproduce the saved snapshot")
    if as_json:
        out = _result_json(game, backend)
        out["replayed"] = len(record.choices)
        out["pending"] = _pending_json(game)
        _emit_json(out)
        return
    click.echo(f"Replayed {len(record.choices)} choices from {file}")
    for line in _summary(game, backend):
        click.echo(line)
    decision = game.decision
    if decision is not None:
        click.echo(f"Waiting for {decision.player}: {decision.prompt} ({', '.join(decision.option_ids)})")


def _record_spec(record: records.Record, spec_dir: str | None) -> str:
    if spec_dir:
        return spec_dir
    if record.spec_dir is not None and Path(record.spec_dir).is_dir():
        return record.spec_dir
    return record.game


def _pending_json(game: Game) -> dict[str, Any] | None:
    decision = game.decision
    if decision is None:
        return None
    return {"player": decision.player, "prompt": decision.prompt, "options": list(decision.option_ids)}


@main.command("test")
@click.argument("spec_dir")
@variant_option
@click.option("--all-variants", is_flag=True,
              help="Run the base tests under every variant, one at a time, and say what each breaks.")
@click.option("--backend", type=click.Choice(("both",) + backends.BACKENDS), default="both",
              show_default=True)
@package_option
@json_option
def test_cmd(spec_dir: str, variants: tuple[str, ...], all_variants: bool, backend: str,
             package: str | None, as_json: bool) -> None:
    """Run the designer tests on both back ends; exit 1 if any fails.

    Without --variant: the base game's tests, then each variant's own tests
    with that variant on. With --variant: the base tests and the listed
    variants' tests with all of them on, and which base tests they break.
    """
    from .testrun import run_tests
    folder = _load(spec_dir).folder
    chosen = tuple(backends.BACKENDS) if backend == "both" else (backend,)
    notes: list[str] = []
    report = run_tests(folder, variants, all_variants, chosen, package, on_note=notes.append)
    failures = report.failures
    if as_json:
        _emit_json({"passed": report.passed, "failed": len(failures), "backends": list(chosen),
                    "failures": [o.to_json() for o in failures], "counts": report.counts(),
                    "variant_breaks": [r.to_json() for r in report.variant_reports],
                    "problems": report.problems, "notes": notes})
    else:
        for note in notes:
            click.echo(f"note: {note}", err=True)
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
        click.echo(f"{report.passed} passed, {len(failures)} failed ({counts or 'no tests'})")
    sys.exit(EXIT_ERROR if failures or report.problems else EXIT_OK)


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--backend", type=click.Choice(("both",) + backends.BACKENDS), default="both",
              show_default=True)
@param_option
@package_option
@json_option
def bench(game_name: str, games: int, seed: int, backend: str, params: tuple[str, ...],
          package: str | None, as_json: bool) -> None:
    """Games/s and decisions/s of both back ends, random bots, the same seeds."""
    from runtime import bench as benchmark
    loaded = _load(game_name)
    chosen = list(backends.BACKENDS) if backend == "both" else [backend]
    programs = {name: _program(loaded, name, package) for name in chosen}
    values = _params(programs[chosen[0]].meta, params)
    results = _run_bench(benchmark, programs, games, seed, values, show=not as_json)
    out: dict[str, Any] = {"game": loaded.model.game, "games": games, "seed": seed,
                           "generated": None, "interpreted": None, "ratio": None}
    if len(results) == 2:
        out.update(benchmark.compare(results["generated"], results["interpreted"]))
    else:
        out.update({name: r.to_json() for name, r in results.items()})
    if as_json:
        _emit_json(out)
        return
    click.echo(f"{loaded.model.game}: {games} games, seeds {seed}..{seed + games - 1}, random bots")
    for name, result in results.items():
        click.echo(f"  {name:<12} {result.games_per_s:10.2f} games/s {result.decisions_per_s:12.0f}"
                   f" decisions/s  ({result.decisions} decisions in {result.seconds:.2f}s)")
        if result.errors:
            click.echo(f"  {'':<12} {result.errors} of {result.games} games stopped on a rule error")
    if out["ratio"] is not None:
        click.echo(f"  ratio        {out['ratio']:.2f}x (generated over interpreted, games/s)")
        if not out.get("same_games"):
            click.echo("  warning: the back ends played games of different lengths on the same"
                       " seeds; run `rulespec fuzz` to find where they disagree")


def _run_bench(benchmark, programs: dict, games: int, seed: int, params: dict, show: bool) -> dict:
    results = {}
    for name, program in programs.items():
        with _progress(games, name, show=show) as advance:
            results[name] = benchmark.run(program, games, seed, params, on_game=advance)
    return results


@main.command()
@click.argument("game_name", metavar="GAME")
@json_option
def info(game_name: str, as_json: bool) -> None:
    """Counts of a game: spaces, regions, cards, phases, constraints, variants, tests."""
    loaded = _load(game_name)
    model = loaded.model
    counts = model.counts()
    out: dict[str, Any] = {
        "game": model.game, "title": model.title, "spec_hash": model.spec_hash,
        "players": list(model.players),
        "spaces": counts["spaces"], "regions": counts["regions"], "cards": counts["cards"],
        "cards_with_events": counts["cards_with_events"], "phases": counts["phases"],
        "constraints": counts["constraints"], "variants": available_variants(loaded.folder),
        "designer_tests": counts["designer_tests"],
        "cards_without_events": [model.entities[c].name.name for c in model.cards()
                                 if not model.entities[c].events],
        "params": params_json(model.meta()),
    }
    if as_json:
        _emit_json(out)
        return
    click.echo(f"{model.title or model.game} ({model.game}), spec hash {model.spec_hash}")
    click.echo(f"  players: {', '.join(model.players)}")
    for key in ("spaces", "regions", "cards", "cards_with_events", "phases", "constraints",
                "designer_tests"):
        click.echo(f"  {key.replace('_', ' ')}: {out[key]}")
    click.echo(f"  variants: {', '.join(out['variants']) or 'none'}")
    if out["params"]:
        click.echo("  params: " + ", ".join(f"{n}={p['default']} ({p['type']}: {p['values']})"
                                           for n, p in out["params"].items()))


if __name__ == "__main__":
    main()


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--max-decisions", default=20_000, show_default=True, type=int,
              help="A game longer than this is reported as overlong.")
@click.option("--backend", type=click.Choice(("both",) + backends.BACKENDS), default="both",
              show_default=True, help="Both: compare the back ends move for move.")
@click.option("--problems-dir", default=None, metavar="DIR",
              help="Write the record that reproduces each problem here.")
@param_option
@json_option
def fuzz(game_name: str, variants: tuple[str, ...], games: int, seed: int, max_decisions: int,
         backend: str, problems_dir: str | None, params: tuple[str, ...], as_json: bool) -> None:
    """Random legal games on both back ends, compared move for move, invariants checked."""
    from runtime.fuzz import FuzzReport, coverage_table, fuzz_game
    loaded = _load(game_name, variants)
    chosen = list(backends.BACKENDS) if backend == "both" else [backend]
    programs = [_program(loaded, name) for name in chosen]
    values = _params(programs[0].meta, params)
    report = FuzzReport()
    with _progress(games, "fuzz", show=not as_json) as advance:
        for k in range(games):
            fuzz_game(programs[0], programs[1] if len(programs) > 1 else None, seed + k, values,
                      max_decisions, report, loaded.variants)
            advance()
    paths = _write_problems(report, problems_dir, loaded)
    counts = report.counts()
    coverage = coverage_table(programs[0].meta, report)
    out = {"game": loaded.model.game, "variants": list(loaded.variants), "games": games,
           "seed": seed, "backends": chosen, "problems": len(report.problems), **counts,
           "decisions": report.decisions, "coverage": coverage,
           "problem_list": [{"kind": p.kind, "seed": p.seed, "decision": p.decision,
                             "message": p.message, "record": path}
                            for p, path in zip(report.problems, paths)]}
    if as_json:
        _emit_json(out)
    else:
        _fuzz_summary(out, coverage)
    sys.exit(EXIT_ERROR if report.problems else EXIT_OK)


def _write_problems(report, folder: str | None, loaded: LoadedSpec) -> list[str | None]:
    if folder is None:
        return [None] * len(report.problems)
    make_dirs(folder)
    paths = []
    for n, problem in enumerate(report.problems):
        path = Path(folder) / f"{problem.kind}-{problem.seed}-{n}.json"
        record = dict(problem.record, format=records.FORMAT, spec_dir=str(loaded.folder))
        paths.append(str(records.write(record, path)))
    return paths


def _fuzz_summary(out: dict[str, Any], coverage: dict[str, dict[str, int]]) -> None:
    click.echo(f"{out['game']}: {out['games']} games ({out['decisions']} decisions) on"
               f" {' and '.join(out['backends'])}, seeds {out['seed']}..{out['seed'] + out['games'] - 1}")
    for kind in ("crashes", "dead_ends", "invariant_violations", "disagreements", "overlong"):
        click.echo(f"  {kind.replace('_', ' ')}: {out[kind]}")
    for problem in out["problem_list"][:20]:
        where = f" -> {problem['record']}" if problem["record"] else ""
        click.echo(f"  [{problem['kind']}] seed {problem['seed']}, decision {problem['decision']}:"
                   f" {_one_line(problem['message'])}{where}")
    never = sorted(card for card, row in coverage.items() if not any(row.values()))
    if never:
        click.echo(f"  never seen in play ({len(never)}): {', '.join(never[:30])}"
                   f"{' ...' if len(never) > 30 else ''}")


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--against", "against", multiple=True, metavar="V",
              help="The variant set to compare with: 'base' for the base game (repeatable).")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--agents", default=None, metavar="A,B",
              help="The bots (default: the balance bot, runtime.agents.default_agent: the spec's"
                   " first policy, random for a spec without one).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--executor", type=click.Choice(("local", "ray")), default="local", show_default=True)
@click.option("--backend", type=click.Choice(backends.BACKENDS), default="generated", show_default=True)
@click.option("--report", "report_dir", default=None, metavar="DIR",
              help="Write an HTML report with plots and the JSON here.")
@click.option("--precision", default=None, type=click.FloatRange(min=0.01, max=50), metavar="P",
              help="With --against: play paired games until the 95%% interval of the difference"
                   " is within ±P points, or --games pairs are played.")
@param_option
@json_option
def simulate(game_name: str, variants: tuple[str, ...], against: tuple[str, ...], games: int,
             seed: int, agents: str, workers: int, executor: str, backend: str,
             report_dir: str | None, precision: float | None, params: tuple[str, ...],
             as_json: bool) -> None:
    """Many games with paired seeds; win rates, intervals, and a variant against its base."""
    from runtime import simulate as sim
    loaded = _load(game_name, variants)
    base = None
    if against:
        base_variants = tuple(v for v in against if v != "base")
        base = _load(game_name, base_variants)
    program = _program(loaded, backend)
    if base is not None:
        _program(base, backend)  # fail here, in one line, if it cannot run
    meta = program.meta
    names = _agents(agents or default_agent(meta), meta)
    values = _params(meta, params)
    sets = [loaded] + ([base] if base is not None else [])
    factories = [backends.ProgramRef.of(s, backend) for s in sets]
    asked = workers
    workers, note = sim.choose_workers(asked, games, len(factories), executor)
    if note:
        click.echo(f"note: {note}", err=True)
    runner = sim.LocalExecutor(workers) if executor == "local" else _ray_executor(workers)
    total = games * len(factories)
    players = list(meta.players)
    if precision is not None and base is None:
        raise UserError("--precision needs --against: it is the precision of a difference")
    with _progress(total, "simulate", show=not as_json) as advance:
        results, stopped = sim.simulate_until(
            factories, games, seed, names, values, runner, players,
            None if precision is None else precision / 100,
            on_done=lambda n: [advance() for _ in range(n)])
    played = len(results[0])
    out: dict[str, Any] = {
        "game": loaded.model.game, "games": played, "games_asked": games, "seed": seed,
        "agents": list(names), "precision": precision, "stopped_by": stopped,
        "backend": backend, "executor": executor, "workers": workers, "workers_asked": asked,
        "variants": [sim.summarise(players, s.variants, r) for s, r in zip(sets, results)],
    }
    if base is not None:
        out["comparison"] = sim.compare(players, loaded.variants, results[0], results[1])
        out["comparison"]["against"] = list(base.variants) or ["base"]
        if precision is not None:
            out["comparison"]["sentence"] += (
                f"; the interval is within ±{precision:g} points" if stopped == "precision" else
                f"; the interval did not narrow to ±{precision:g} points within {played:,} pairs"
                f" (raise --games to settle it)")
    if report_dir:
        from runtime.report import write_report
        out["report"] = str(write_report(out, Path(report_dir)))
    if as_json:
        _emit_json(out)
        return
    _simulate_summary(out)


def _ray_executor(workers: int):
    from runtime.simulate import RayExecutor
    try:
        return RayExecutor(workers)
    except RuntimeError as err:
        raise UserError(str(err)) from None


def _simulate_summary(out: dict[str, Any]) -> None:
    click.echo(f"{out['game']}: {out['games']} games per set, agents {' vs '.join(out['agents'])},"
               f" seeds {out['seed']}..{out['seed'] + out['games'] - 1}")
    for entry in out["variants"]:
        name = " + ".join(entry["variants"]) or "base game"
        rates = ", ".join(f"{p} {r * 100:.1f}% [{lo * 100:.1f}..{hi * 100:.1f}]"
                          for p, r in entry["win_rate"].items()
                          for lo, hi in [entry["win_ci95"][p]])
        click.echo(f"  {name}: {rates}; draws {entry['draws']}; mean length"
                   f" {entry['mean_length']:.0f} decisions")
        reasons = ", ".join(f"{k} {v}" for k, v in entry["end_reasons"].items())
        click.echo(f"    ended by: {reasons}")
    if "comparison" in out:
        click.echo(out["comparison"]["sentence"])
        for warning in out["comparison"].get("warnings", []):
            click.echo(f"warning: {warning}")
        movers = [r for r in out["comparison"].get("cards", []) if r["clear"]][:5]
        for row in movers:
            click.echo(f"  {row['card']} ({row['use']} by {row['player']}): {row['player']} wins"
                       f" {row['win_rate'] * 100:.1f}% (base {row['base_win_rate'] * 100:.1f}%,"
                       f" {row['difference'] * 100:+.1f} points)")
    if out.get("report"):
        click.echo(f"Report: {out['report']}")


class _progress:
    """A rich progress bar on a terminal; nothing under --json or when piped."""

    def __init__(self, total: int, label: str, show: bool):
        self.total, self.label = total, label
        self.show = show and sys.stderr.isatty()
        self.bar = None

    def __enter__(self):
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

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


# The designer's commands (doc, cards, fmt, lsp) live in their own module.
from .designer_commands import register as _register_designer_commands  # noqa: E402

_register_designer_commands(main)
