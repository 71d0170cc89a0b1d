"""`rulespec info`: the counts of a game, its variants and params (compiler/tools/info.py)."""

from __future__ import annotations

import click

from rulespec.compiler.tools.info import info_json
from rulespec.compiler.cli.base import emit_json, json_option, load, main


@main.command()
@click.argument("game_name", metavar="GAME")
@json_option
def info(game_name: str, as_json: bool) -> None:
    """Counts of a game: spaces, regions, cards, phases, constraints, variants, tests."""
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
