"""`rulespec info`: the counts of a game, its variants and params (compiler/tools/info.py); with
--layout its state's machine layout, with --native-coverage the defines the native engine compiles
and why it does not compile the others (compiler/backends/machine)."""

from __future__ import annotations

import click

from rulespec.compiler.tools.info import info_json
from rulespec.compiler.cli.base import emit_json, json_option, load, main


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--layout", is_flag=True,
              help="Print the state's machine layout instead: a C header (with --json: its fields and bytes).")
@click.option("--native-coverage", "coverage", is_flag=True,
              help="Print instead the defines and the procedures the native engine compiles, and"
                   " where and why it does not compile the others.")
@json_option
def info(game_name: str, layout: bool, coverage: bool, as_json: bool) -> None:
    """Counts of a game: spaces, regions, cards, phases, constraints, variants, tests."""
    if coverage:
        from rulespec.compiler.backends.machine.engine import native_engine
        report = native_engine(load(game_name).model).coverage()
        if as_json:
            emit_json(report)
            return
        click.echo(f"{report['game']}: {len(report['compiled'])} of {report['defines']} defines"
                   " compile natively")
        for refused in report["refused"]:
            click.echo(refused["text"])
        quantities = report["quantities"]
        click.echo(f"{len(quantities['compiled'])} of {quantities['quantities']} quantities compile natively")
        for refused in quantities["refused"]:
            click.echo(refused["text"])
        procedures = report["procedures"]
        click.echo(f"{len(procedures['compiled'])} of {procedures['plain']} procedures that never"
                   " wait for a decision compile natively")
        for refused in procedures["refused"]:
            click.echo(refused["text"])
        policies = report["policies"]
        click.echo(f"{len(policies['compiled'])} of {policies['rules']} policy rules compile natively"
                   " (the others are answered by the generated package)")
        for refused in policies["refused"]:
            click.echo(refused["text"])
        evaluations = report["evaluations"]
        click.echo(f"{len(evaluations['compiled'])} of {evaluations['evaluations']} bot evaluations compile"
                   " natively (the others are answered by the generated package)")
        for refused in evaluations["refused"]:
            click.echo(refused["text"])
        return
    if layout:
        from rulespec.compiler.backends.machine.header import render_header
        from rulespec.compiler.backends.machine.layout import machine_layout
        made = machine_layout(load(game_name).model)
        if as_json:
            emit_json(made.to_json())
        else:
            click.echo(render_header(made), nl=False)
        return
    out = info_json(load(game_name))
    if as_json:
        emit_json(out)
        return
    click.echo(f"{out['title'] or out['game']} ({out['game']}), spec hash {out['spec_hash']}")
    click.echo(f"  players: {', '.join(out['players'])}")
    for key in ("spaces", "regions", "cards", "cards_with_events", "phases", "constraints",
                "designer_tests"):
        click.echo(f"  {key.replace('_', ' ')}: {out[key]}")
    click.echo(f"  variants: {', '.join(out['variants']) or 'none'}")
    if out["params"]:
        click.echo("  params: " + ", ".join(f"{n}={p['default_text']} ({p['type']}: {p['values']})"
                                           for n, p in out["params"].items()))
