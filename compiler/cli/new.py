"""`rulespec new`: a starter game in a new folder, and the commands to try next."""

from __future__ import annotations

from pathlib import Path

import click

from rulespec.compiler.cli.base import UserError, known_games, main


@main.command()
@click.argument("name")
@click.option("--dir", "parent", default=".", show_default=True, metavar="PARENT",
              help="The folder to write NAME/ in.")
@click.option("--from", "source", default=None, metavar="GAME",
              help="Start from a copy of one of rulespec's own games (its spec, tests and"
                   " variants; the `game` line renamed to NAME) instead of the starter.")
def new(name: str, parent: str, source: str | None) -> None:
    """Write a runnable starter game in a new folder NAME (docs/FIRST_GAME.md)."""
    from rulespec.compiler.tools.starter import StarterError, next_commands, write_copy, write_starter
    from rulespec.runtime.home import DOCS, SPECS
    if source is not None and source not in known_games():
        raise UserError(f"--from: '{source}' is not one of rulespec's games"
                        f" ({', '.join(known_games()) or 'none installed'})")
    try:
        target = write_starter(name, Path(parent)) if source is None else write_copy(
            name, Path(parent), SPECS / source)
    except StarterError as err:
        raise UserError(str(err)) from None
    shown = name if parent == "." else str(Path(parent) / name)
    what = (f"a copy of {source}" if source else
            "a two-player card game with a board, a policy bot, a variant and designer tests")
    click.echo(f"Wrote {shown}/: {what}. Next:")
    for command in next_commands(shown):
        click.echo(f"  {command}")
    click.echo(f"{_shown_doc(DOCS / 'FIRST_GAME.md')} grows it into a game of your own.")


def _shown_doc(path: Path) -> str:
    """docs/FIRST_GAME.md in a checkout, else where the installed copy is."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
