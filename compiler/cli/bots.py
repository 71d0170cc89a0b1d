"""`rulespec tune` and `rulespec balance`: a policy's numbers tuned by play, a param that evens a game."""

from __future__ import annotations

import click

from .. import backends
from .base import (UserError, emit_json, json_option, load, main, note, param_option,
                   params as param_values, program as load_program, progress, variant_option)


def _capped(value: float, cap: float, what: str) -> None:
    if value > cap:
        raise UserError(f"{what} {value:g} is beyond the cap of {cap:g}")


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--policy", default=None, metavar="NAME", help="The policy to tune (default: the first).")
@variant_option
@param_option
@click.option("--games", default=50, show_default=True, type=click.IntRange(min=1),
              help="Seeds each candidate plays the incumbent on per generation, once in every seat.")
@click.option("--generations", default=20, show_default=True, type=click.IntRange(min=1),
              help="CMA-ES generations at most.")
@click.option("--budget", default=600, show_default=True, type=click.FloatRange(min=0.1), metavar="S",
              help="CPU seconds the search may spend (no new generation starts after).")
@click.option("--final-games", default=200, show_default=True, type=click.IntRange(min=2),
              help="Fresh seeds the tuned values play the spec's on, for the gain and its interval.")
@click.option("--popsize", default=None, type=click.IntRange(min=2), metavar="K",
              help="Candidates per generation (default: CMA-ES's, 4 + 3 ln(tunables)).")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--backend", type=click.Choice(backends.BACKENDS), default="generated", show_default=True)
@click.option("--dry-run", is_flag=True, help="Report the tuned values; leave the spec as it is.")
@json_option
def tune(game_name: str, policy: str | None, variants: tuple[str, ...], params: tuple[str, ...],
         games: int, generations: int, budget: float, final_games: int, popsize: int | None,
         seed: int, workers: int, backend: str, dry_run: bool, as_json: bool) -> None:
    """Tune a policy's tunables by play (CMA-ES), and write the better values into the spec."""
    from runtime import tune as tuner
    from runtime.simulate import LocalExecutor, choose_workers
    from ..tuning import TuneError, tunables_of, write_values
    _capped(games, tuner.MAX_GAMES, "--games")
    _capped(final_games, tuner.MAX_GAMES, "--final-games")
    _capped(generations, tuner.MAX_GENERATIONS, "--generations")
    _capped(budget, tuner.MAX_BUDGET, "--budget")
    loaded = load(game_name, variants)
    try:
        name, metas = tunables_of(loaded, policy)
    except TuneError as err:
        raise UserError(str(err)) from None
    meta = load_program(loaded, backend).meta
    values = param_values(meta, params)
    players = list(meta.seated(values))
    used, capped = choose_workers(workers, games * len(players), 1)
    if capped:
        note(capped)
    factory = backends.ProgramRef.of(loaded, backend)

    def report(g) -> None:
        if not as_json:
            best = max(range(len(g.gains)), key=lambda k: g.gains[k])
            click.echo(f"  generation {g.number}: best {g.gains[best]:+.1f} points"
                       f" ({_values(g.candidates[best])}); incumbent {_values(g.incumbent)}"
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
        written = [str(p) for p in write_values(loaded, name, result.best)]
    where = {t.name.name: str(t.default.span) for t in loaded.model.policy_tunables(name)}
    out = _tune_json(loaded.model.game, result, metas, where, games, seed, written, dry_run)
    if as_json:
        emit_json(out)
        return
    click.echo(out["sentence"])
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"CPU {result.cpu_seconds:.1f} s ({len(result.generations)} generations,"
               f" stopped by {result.stopped_by})")


def _values(values: dict[str, int]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _tune_json(game: str, result, metas, where: dict[str, str], games: int, seed: int,
               written: list[str], dry_run: bool) -> dict:
    final = result.final
    tuned = _values({k: v for k, v in result.best.items() if v != result.start[k]}) or "unchanged"
    if final is None:
        sentence = f"the spec's values stay: no candidate clearly beat them ({_values(result.start)})"
    else:
        said = final.sentence("the tuned policy", "the spec's values")
        if result.clearly_better:
            verb = "kept, not written (--dry-run)" if dry_run else "written"
            sentence = f"tuned {tuned} ({verb}): {said}"
        else:
            sentence = f"the spec's values stay: {tuned} is not clearly better ({said})"
    return {
        "game": game, "policy": result.policy, "seed": seed, "games": games,
        "tunables": [{"name": t.name, "low": t.low, "high": t.high, "start": result.start[t.name],
                      "tuned": result.best[t.name], "policy": t.policy, "location": where[t.name]}
                     for t in metas],
        "generations": [{"number": g.number, "candidates": g.candidates, "gains": g.gains,
                         "incumbent": g.incumbent, "promoted": g.promoted} for g in result.generations],
        "stopped_by": result.stopped_by,
        "final": None if final is None else {
            "tuned_score": final.challenger_score, "spec_score": final.incumbent_score,
            "difference": final.gain.difference, "ci95": list(final.gain.ci95),
            "p_value": final.gain.p_value, "pairs": final.gain.pairs},
        "clearly_better": result.clearly_better, "written": written, "dry_run": dry_run,
        "sentence": sentence, "cpu_seconds": result.cpu_seconds,
    }
