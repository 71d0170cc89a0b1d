"""`rulespec tune` and `rulespec balance`: a policy's numbers tuned by play, a param that evens a game."""

from __future__ import annotations

from pathlib import Path

import click

from rulespec.compiler.backends import engine
from rulespec.runtime.analysis.simulate import PRECISION_CAP
from rulespec.runtime.analysis.tune import MAX_BUDGET, MAX_GAMES as MAX_TUNE_GAMES, MAX_GENERATIONS

from rulespec.compiler.cli.base import (Bounded, BoundedReal, UserError, emit_json, games_option, json_option,
                   given, load, main, note, param_option, params as param_values, precision_type,
                   factory as program_factory, program as load_program, progress, seed_option, variant_option,
                   workers_option)


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--policy", default=None, metavar="NAME", help="The policy to tune (default: the first).")
@variant_option
@param_option
@click.option("--games", default=50, show_default=True, type=Bounded(1, MAX_TUNE_GAMES),
              help="Seeds each candidate plays the incumbent on per generation, once in every seat.")
@click.option("--generations", default=20, show_default=True, type=Bounded(1, MAX_GENERATIONS),
              help="CMA-ES generations at most.")
@click.option("--budget", default=600, show_default=True, type=BoundedReal(0.1, MAX_BUDGET, "CPU seconds"),
              metavar="S", help="CPU seconds the search may spend (no new generation starts after).")
@click.option("--final-games", default=200, show_default=True, type=Bounded(2, MAX_TUNE_GAMES),
              help="Fresh seeds the tuned values play the spec's on, for the gain and its interval.")
@click.option("--popsize", default=None, type=Bounded(2, 1000), metavar="K",
              help="Candidates per generation (default: CMA-ES's, 4 + 3 ln(tunables)).")
@seed_option()
@workers_option()
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--dry-run", is_flag=True, help="Report the tuned values; leave the spec as it is.")
@json_option
def tune(game_name: str, policy: str | None, variants: tuple[str, ...], params: tuple[str, ...],
         games: int, generations: int, budget: float, final_games: int, popsize: int | None,
         seed: int, workers: int, backend: str, dry_run: bool, as_json: bool) -> None:
    """Tune a policy's tunables by play (CMA-ES), and write the better values into the spec."""
    from rulespec.runtime.analysis import tune as tuner
    from rulespec.runtime.analysis.simulate import LocalExecutor, choose_workers
    from rulespec.compiler.tools.tuning import TuneError, tunables_of, write_values
    from rulespec.runtime.files import FileChanged
    loaded = load(game_name, variants)
    try:
        name, metas = tunables_of(loaded, policy)
    except TuneError as err:
        raise UserError(str(err)) from None
    meta = load_program(loaded, backend, runs_games=True).meta
    values = param_values(meta, params)
    players = list(meta.seated(values))
    used, capped = choose_workers(workers, games * len(players), 1)
    if capped:
        note(capped)
    factory = program_factory(loaded, backend)

    def report(g) -> None:
        if not as_json:
            best = max(range(len(g.gains)), key=lambda k: g.gains[k])
            click.echo(f"  generation {g.number}: best {g.gains[best]:+.1f} points"
                       f" ({tuner.shown(g.candidates[best])}); incumbent {tuner.shown(g.incumbent)}"
                       f"{' (new)' if g.promoted else ''}", err=True)

    if not as_json:
        ranges = ", ".join(f"{t.name} {t.low}..{t.high}" for t in metas)
        click.echo(f"{loaded.model.game}: tuning policy {name} ({ranges}); {games} seeds a candidate"
                   f" a generation, each in every seat", err=True)
    result = tuner.tune(factory, name, metas, players, values, LocalExecutor(used), games=games,
                        budget=budget, generations=generations, final_games=final_games, seed=seed,
                        popsize=popsize, on_generation=report)
    written = []
    if result.clearly_better and not dry_run:
        try:
            written = [str(p) for p in write_values(loaded, name, result.best)]
        except FileChanged as err:  # a designer's edit made meanwhile wins; the values are not lost
            raise UserError(f"{err}; the tuned values were {tuner.shown(result.best)}") from None
    where = {t.name.name: str(t.default.span) for t in loaded.model.policy_tunables(name)}
    out = tuner.tune_json(loaded.model.game, result, metas, where, games, seed, written, dry_run)
    if as_json:
        emit_json(out)
        return
    click.echo(out["sentence"])
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"CPU {result.cpu_seconds:.1f} s ({len(result.generations)} generations,"
               f" stopped by {result.stopped_by})")


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--param", "params", multiple=True, metavar="NAME=LO..HI",
              help="The int param to sweep, NAME=LOW..HIGH (once); others as NAME=VALUE, held fixed.")
@click.option("--seat", default=None, metavar="PLAYER",
              help="Whose share of the decided games is the split (default: the first player).")
@games_option(2000, help="Seeds each value still in may play; with --precision and without"
                         f" --games: {PRECISION_CAP:,}.")
@click.option("--precision", default=None, type=precision_type(), metavar="P",
              help="Stop once the leading value's 95% interval is within ±P points (up to --games"
                   f" seeds when given, else {PRECISION_CAP:,}).")
@click.option("--agents", default=None, metavar="A,B", help="The bots, as for simulate.")
@seed_option()
@workers_option()
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--report", "report_dir", default=None, metavar="DIR",
              help="Write DIR/index.html with the plot, and DIR/results.json.")
@json_option
def balance(game_name: str, variants: tuple[str, ...], params: tuple[str, ...], seat: str | None,
            games: int, precision: float | None, agents: str | None, seed: int, workers: int,
            backend: str, report_dir: str | None, as_json: bool) -> None:
    """The value of an int param that evens the game: each value on the same seeds, sequentially."""
    from rulespec.runtime.analysis import balance as sweeping
    from rulespec.runtime.bots.agents import default_agent
    from rulespec.runtime.params import split_sweep
    from rulespec.runtime.analysis.simulate import GamesCap, LocalExecutor, choose_workers
    from rulespec.compiler.cli.base import agents as agent_names
    loaded = load(game_name, variants)
    meta = load_program(loaded, backend, runs_games=True).meta
    name, low, high, fixed = split_sweep(meta, params)
    players = list(meta.seated({**fixed, name: low}))
    try:
        values, seat = sweeping.check_sweep(name, low, high, seat, players)
    except sweeping.SweepError as err:
        raise UserError(str(err)) from None
    names = agent_names(agents or default_agent(meta), meta, fixed)
    used, capped = choose_workers(workers, sweeping.ROUND, len(values))
    if capped:
        note(capped)
    factory = program_factory(loaded, backend)
    cap = GamesCap.of(games if given("games") else None, games, precision)
    with progress(cap.games * len(values), "balance", show=not as_json) as advance:
        result = sweeping.sweep(factory, name, values, seat, players, names, fixed, LocalExecutor(used),
                                games=cap.games, seed=seed,
                                precision=None if precision is None else precision / 100,
                                on_done=lambda n: [advance() for _ in range(n)])
    out = sweeping.sweep_json(loaded.model.game, result, names, loaded.variants, seed, cap, precision)
    if report_dir:
        out["report"] = str(sweeping.write_report(out, Path(report_dir)))
    if as_json:
        emit_json(out)
        return
    click.echo(out["sentence"])
    for row in out["values"]:
        share = "no decided game" if row["share"] is None else (
            f"{row['share'] * 100:5.1f}% [{row['ci95'][0] * 100:.1f}..{row['ci95'][1] * 100:.1f}]")
        out_after = f", out after {row['out_after']:,} games" if row["out_after"] is not None else ""
        click.echo(f"  {name} = {row['value']}: {seat} {share} of {row['decided']:,} decided"
                   f" ({row['games']:,} games{out_after})")
    if out.get("report"):
        click.echo(f"Report: {out['report']}")
