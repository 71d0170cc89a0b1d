"""`rulespec worth`: what each card is worth, the game with it against the game without its effect."""

from __future__ import annotations

from pathlib import Path

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.cli.base import (MAX_PRECISION, BoundedReal, UserError, agents as agent_names,
                                        emit_json, factory, games_option, json_option, load, main, note,
                                        param_option, params as param_values, precision_type,
                                        program as load_program, progress, seed_option,
                                        variant_option, workers_option)
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
              help="blank: the card is played as ever but its own event, action and abilities do nothing;"
                   " removed: it is out of the game before the first deal.")
@games_option(2000)
@click.option("--precision", default=3, show_default=True, type=precision_type(),
              metavar="P", help="A card stops when the 95%% interval of its worth is within ±P points.")
@click.option("--negligible", default=1, show_default=True, type=BoundedReal(0, MAX_PRECISION, "points"),
              metavar="X", help="A card stops when even its 99%% interval lies within ±X points.")
@seed_option()
@click.option("--agents", default=None, metavar="A,B",
              help="The bots, as for simulate (default: the balance bot).")
@workers_option(help="Worker processes (local) or CPUs of a private Ray.")
@click.option("--executor", type=click.Choice(("local", "ray")), default="local", show_default=True)
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--report", "report_dir", default=None, metavar="DIR",
              help="Write an HTML report with a forest plot of the cards and the JSON here.")
@click.option("--param-of", "param_of", default=None, metavar="CARD.ATTR=LO..HI",
              help="Play a card's whole-number attribute over LO..HI on the same seeds and report"
                   " the value at which the card is worth --target points.")
@click.option("--target", default=0, show_default=True, type=BoundedReal(-100, 100, "points"),
              metavar="T", help="With --param-of: the worth, in points, the value is sought for.")
@param_option
@json_option
def worth(game_name: str, variants: tuple[str, ...], against: tuple[str, ...], cards: str, mode: str,
          games: int, precision: float, negligible: float, seed: int, agents: str | None,
          workers: int, executor: str, backend: str, report_dir: str | None, param_of: str | None,
          target: float, params: tuple[str, ...], as_json: bool) -> None:
    """What each card is worth: win rates with it and with it blanked or removed, paired seeds."""
    from rulespec.compiler.frontend.card_overlays import OverlayError, card_facts, choose_cards, why_not
    from rulespec.compiler.frontend.cache import compiler_version, store
    from rulespec.runtime.analysis import simulate as sim
    from rulespec.runtime.analysis import worth as weigh
    sets = [load(game_name, variants)]
    if against:
        sets.append(load(game_name, tuple(v for v in against if v != "base")))
    metas = [load_program(s, backend, runs_games=True).meta for s in sets]  # fail here, in one line, if it cannot run
    values = param_values(metas[0], params)
    players = list(metas[0].seated(values))
    if any(list(m.seated(param_values(m, params))) != players for m in metas[1:]):
        raise UserError("cannot compare sets that seat different players")
    names = agent_names(agents or default_agent(metas[0]), metas[0], values)
    if param_of is not None:
        _param_of(sets[0], param_of, cards, mode, against, target, names, values, players, metas[0],
                  games=games, precision=precision, seed=seed, workers=workers, executor=executor,
                  backend=backend, report_dir=report_dir, as_json=as_json)
        return
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
    worlds = [weigh.World(factory(s, backend), " + ".join(s.variants)) for s in sets]
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
                       f"  q {row['q_value']:.2g} {verdict:<7}  drawn in {row['drawn']}, used in"
                       f" {row['used']} of {row['games']} games ({row['stopped_by']})")
    strongest = sorted(out["cards"], key=lambda r: -(abs(r["worth"]) if out["against"] is not None
                                                     else r["worth"]))[:3]
    for row in strongest:
        click.echo(row["sentence"])
    if out["left_out"]:
        click.echo(f"left out ({len(out['left_out'])}): {out['left_out'][0]}"
                   f"{' ...' if len(out['left_out']) > 1 else ''}")
    if out.get("report"):
        click.echo(f"Report: {out['report']}")


def _param_of(loaded, param_of: str, cards: str, mode: str, against, target: float, names, values,
              players, meta, *, games, precision, seed, workers, executor, backend, report_dir,
              as_json) -> None:
    """--param-of CARD.ATTR=LO..HI: each value reprinted on the card, on the same seeds, against
    the card blanked (or removed) as printed; the value nearest a worth of --target."""
    from rulespec.compiler.frontend.card_overlays import (OverlayError, attribute_range, card_facts,
                                                          choose_cards)
    from rulespec.compiler.frontend.cache import compiler_version, store
    from rulespec.runtime.analysis import simulate as sim
    from rulespec.runtime.analysis import worth as weigh
    if against:
        raise UserError("--param-of weighs one card in one set of rules: leave out --against")
    if target != target:
        raise UserError("--target takes points, not nan")
    try:
        span = attribute_range(loaded.model, param_of)
        if cards != "all" and cards.strip() != span.card:
            raise OverlayError(f"--param-of plays card '{span.card}': --cards names another ({cards})")
        choose_cards(loaded.model, span.card, mode)  # it must take the overlay it is weighed against
    except OverlayError as err:
        raise UserError(str(err)) from None
    facts = card_facts(loaded.model)[span.card]
    card = weigh.Card(facts.card, facts.label, facts.side, facts.group, (facts.indexes,))
    side = facts.side if facts.side in players else players[0]
    key = "\0".join([compiler_version(), *loaded.variants, *names, repr(sorted(values.items()))])
    reprints = []
    for value in span.values:
        again = load(str(loaded.folder), loaded.variants) if value == span.printed else _reprinted(
            loaded, span.setting(value))
        reprints.append(weigh.Reprint(value, engine.ProgramRef.of(again, backend),
                                      f"{again.model.spec_hash}\0{key}"))
    used, capped = sim.choose_workers(workers, games, len(reprints) + 1, executor)
    if capped:
        note(capped)
    runner = sim.LocalExecutor(used) if executor == "local" else _ray_executor(used)
    try:
        with progress(games * (len(reprints) + 1), "worth", show=not as_json) as advance:
            seeds, reference, stopped = weigh.sweep_reprints(
                card, mode, engine.ProgramRef.of(loaded, backend), reprints, side, names, values,
                runner, seed=seed, games=games, precision=precision / 100, target=target / 100,
                store=store("worth"), base_key=f"{loaded.model.spec_hash}\0{key}",
                on_done=lambda n: [advance() for _ in range(n)])
    finally:
        runner.close()
    labels = dict(zip(meta.players, meta.player_labels))
    out = {"game": loaded.model.game, "mode": mode, "agents": list(names),
           "variants": list(loaded.variants), "seed": seed, "games_asked": games,
           "precision": precision, "backend": backend, "workers": used,
           "param_of": weigh.sweep_json(card, span.attribute, span.printed, reprints, reference, seeds,
                                        side, labels.get(side, side), target / 100, stopped)}
    if report_dir:
        from rulespec.runtime.analysis.worth_report import write_sweep_report
        out["report"] = str(write_sweep_report(out, Path(report_dir)))
    if as_json:
        emit_json(out)
        return
    found = out["param_of"]
    click.echo(found["sentence"])
    for row in found["values"]:
        lo, hi = (x * 100 for x in row["ci95"])
        mark = " (printed)" if row["printed"] else ""
        click.echo(f"  {found['attribute']} = {row['value']}: {row['worth'] * 100:+.1f}"
                   f" [{lo:+.1f}..{hi:+.1f}]{mark}")
    if out.get("report"):
        click.echo(f"Report: {out['report']}")


def _reprinted(loaded, setting):
    """The loaded spec with one card's number reprinted (checked like any spec)."""
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.compiler.frontend.errors import SpecError
    try:
        return load_spec(loaded.folder, loaded.variants, attributes=(setting,))
    except SpecError as err:
        first = err.diagnostics[0]
        raise UserError(f"{setting[0]}.{setting[1]} = {setting[2]} does not check:"
                        f" {first.span}: {first.message}") from None
