"""`rulespec new`: a starter game in a new folder, and the commands to try next."""

from __future__ import annotations

from pathlib import Path

import click

from .base import UserError, main


@main.command()
@click.argument("name")
@click.option("--dir", "parent", default=".", show_default=True, metavar="PARENT",
              help="The folder to write NAME/ in.")
def new(name: str, parent: str) -> None:
    """Write a runnable starter game in a new folder NAME (docs/FIRST_GAME.md)."""
    from ..starter import StarterError, next_commands, write_starter
    try:
        target = write_starter(name, Path(parent))
    except StarterError as err:
        raise UserError(str(err)) from None
    shown = name if parent == "." else str(Path(parent) / name)
    click.echo(f"Wrote {shown}/: a two-player card game with a board, a policy bot,"
               " a variant and designer tests. Next:")
    for command in next_commands(shown):
        click.echo(f"  {command}")
    click.echo("docs/FIRST_GAME.md grows it into a game of your own.")
