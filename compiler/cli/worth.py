"""`rulespec worth`: what each card is worth, the game with it against the game without its effect."""

from __future__ import annotations

from pathlib import Path

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.cli.base import (UserError, agents as agent_names, emit_json, games_option,
                                        json_option, load, main, note, param_option,
                                        params as param_values, program as load_program, progress,
                                        seed_option, variant_option)
from rulespec.compiler.cli.runs import _ray_executor  # simulate's: the same Ray, the same one-line errors
from rulespec.runtime.bots.agents import default_agent


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--against", "against", multiple=True, metavar="V",
              help="Weigh every card under the variants and under this set too ('base': the base"
                   " game) and report the change of each card's worth (repeatable).")
@click.option("--cards", "cards", default="all", show_default=True, metavar="all|ID,...",
              help="The cards to weigh: all (every card that can take --as), or their ids.")
@click.option("--as", "mode", default="blank", show_default=True, metavar="blank|removed",
              help="blank: the card is played as ever but its own event and action do nothing;"
                   " removed: it is out of the game before the first deal.")
@games_option(2000)
@click.option("--precision", default=3, show_default=True, type=click.FloatRange(min=0.01, max=50),
              metavar="P", help="A card stops when the 95%% interval of its worth is within ±P points.")
@click.option("--negligible", default=1, show_default=True, type=click.FloatRange(min=0, max=50),
              metavar="X", help="A card stops when even its 99%% interval lies within ±X points.")
@seed_option()
@click.option("--agents", default=None, metavar="A,B",
              help="The bots, as for simulate (default: the balance bot).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (local) or CPUs of a private Ray.")
@click.option("--executor", type=click.Choice(("local", "ray")), default="local", show_default=True)
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--report", "report_dir", default=None, metavar="DIR",
              help="Write an HTML report with a forest plot of the cards and the JSON here.")
@param_option
@json_option
def worth(game_name: str, variants: tuple[str, ...], against: tuple[str, ...], cards: str, mode: str,
          games: int, precision: float, negligible: float, seed: int, agents: str | None,
          workers: int, executor: str, backend: str, report_dir: str | None,
          params: tuple[str, ...], as_json: bool) -> None:
    """What each card is worth: win rates with it and with it blanked or removed, paired seeds."""
    from rulespec.compiler.frontend.card_overlays import OverlayError, card_facts, choose_cards, why_not
    from rulespec.compiler.frontend.cache import compiler_version, store
    from rulespec.runtime.analysis import simulate as sim
    from rulespec.runtime.analysis import worth as weigh
    if precision != precision or negligible != negligible:  # nan passes click's FloatRange
        raise UserError("--precision and --negligible take points, not nan")
    sets = [load(game_name, variants)]
    if against:
        sets.append(load(game_name, tuple(v for v in against if v != "base")))
    metas = [load_program(s, backend).meta for s in sets]  # fail here, in one line, if it cannot run
    values = param_values(metas[0], params)
    players = list(metas[0].seated(values))
    if any(list(m.seated(param_values(m, params))) != players for m in metas[1:]):
        raise UserError("cannot compare sets that seat different players")
    names = agent_names(agents or default_agent(metas[0]), metas[0], values)
    try:
        chosen, left_out = choose_cards(sets[0].model, cards, mode)
    except OverlayError as err:
        raise UserError(str(err)) from None
    elsewhere = [card_facts(s.model) for s in sets[1:]]
    table = []
    for facts in chosen:
        others = [found.get(facts.card) for found in elsewhere]
        if any(o is None or why_not(o, mode) for o in others):
            left_out.append(f"card '{facts.card}' cannot be weighed as {mode} in every set compared")
            continue
        table.append(weigh.Card(facts.card, facts.label, facts.side, facts.group,
                                (facts.indexes,) + tuple(o.indexes for o in others)))
    worlds = [weigh.World(engine.ProgramRef.of(s, backend), " + ".join(s.variants)) for s in sets]
    keys = tuple("\0".join([compiler_version(), s.model.spec_hash, *s.variants, *names,
                            repr(sorted(values.items()))]) for s in sets)
    used, capped = sim.choose_workers(workers, games, len(table) + 1, executor)
    if capped:
        note(capped)
    runner = sim.LocalExecutor(used) if executor == "local" else _ray_executor(used)
    total = games * (len(table) + 1) * len(worlds)
    try:
        with progress(total, "worth", show=not as_json) as advance:
            result = weigh.weigh(table, worlds, mode, players, names, values, runner, seed=seed,
                                 games=games, precision=precision / 100, negligible=negligible / 100,
                                 store=store("worth"), keys=keys,
                                 on_done=lambda n: [advance() for _ in range(n)])
    finally:
        runner.close()
    labels = dict(zip(metas[0].players, metas[0].player_labels))
    out = weigh.table_json(result, game=sets[0].model.game, agents=names, variants=sets[0].variants,
                           against=(sets[1].variants if against else None), seed=seed, games=games,
                           precision=precision, negligible=negligible, player_labels=labels,
                           left_out=left_out)
    out["backend"], out["workers"] = backend, used
    if report_dir:
        from rulespec.runtime.analysis.worth_report import write_report
        out["report"] = str(write_report(out, Path(report_dir)))
    if as_json:
        emit_json(out)
        return
    _summary(out)


def _summary(out: dict) -> None:
    what = "blanked" if out["mode"] == "blank" else "removed"
    rule = " + ".join(out["variants"]) or "the base game"
    if out["against"] is not None:
        rule = f"{rule}, minus its worth in {' + '.join(out['against']) or 'the base game'}"
    click.echo(f"{out['game']}: what each card is worth in {rule} (as printed against {what}),"
               f" agents {' vs '.join(out['agents'])}, seeds from {out['seed']};"
               f" {len(out['cards'])} rows, {out['games_played']:,} games")
    for side in out["players"]:
        rows = [r for r in out["cards"] if r["side"] == side]
        if not rows:
            continue
        click.echo(f"{out['player_labels'].get(side, side)}:")
        for row in rows:
            lo, hi = (x * 100 for x in row["ci95"])
            verdict = "clear" if row["clear"] else "chance?"
            click.echo(f"  {row['card_label']:<28} {row['worth'] * 100:+6.1f} [{lo:+.1f}..{hi:+.1f}]"
                       f"  q {row['q_value']:.2g} {verdict:<7}  used in {row['used']} of {row['games']}"
                       f" games ({row['stopped_by']})")
    strongest = sorted(out["cards"], key=lambda r: -(abs(r["worth"]) if out["against"] is not None
                                                     else r["worth"]))[:3]
    for row in strongest:
        click.echo(row["sentence"])
    if out["left_out"]:
        click.echo(f"left out ({len(out['left_out'])}): {out['left_out'][0]}"
                   f"{' ...' if len(out['left_out']) > 1 else ''}")
    if out.get("report"):
        click.echo(f"Report: {out['report']}")
