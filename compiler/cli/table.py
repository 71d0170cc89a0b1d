"""`rulespec serve` and `rulespec play --agents human,BOT`: tables a person plays at.

Wiring only: compiler/tools/playtest.py opens the table, runtime/playtest/terminal.py and
runtime/playtest/web/ run it.
"""

from __future__ import annotations

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.tools import playtest
from rulespec.compiler.cli.base import Bounded, UserError, load, load_recorded, main, package_option, param_option, params as param_values
from rulespec.compiler.cli.base import program as load_program
from rulespec.compiler.cli.base import seed_option, variant_option
from rulespec.runtime import record as records
from rulespec.runtime.bots.agents import check_recorded


def play_by_hand(game_name: str | None, variants: tuple[str, ...], seed: int | None, agents: str | None,
                 backend: str, params: tuple[str, ...], package: str | None, resume: str | None,
                 record_path: str | None = None) -> None:
    """`rulespec play` with a person in a seat, or `--resume FILE`: the terminal seat;
    --record FILE saves the game as it stands when the person leaves or it ends."""
    table = _table(game_name, variants, seed, agents, backend, params, package, resume)
    click.echo(playtest.seed_line(table))
    playtest.play_in_terminal(table)
    if record_path:
        table.save(record_path)
        click.echo(f"Record:    {record_path} (rulespec play --resume {record_path})")


def _table(game_name: str | None, variants: tuple[str, ...], seed: int | None, seats: str | None,
           backend: str, params: tuple[str, ...], package: str | None, resume: str | None,
           flag: str = "--agents"):
    record = None
    if resume is not None:
        record = records.read(resume)
        variants = record.variants
    elif game_name is None:
        raise click.UsageError("Missing argument 'GAME' (or --resume FILE).")
    if record is not None and not game_name:
        loaded = load_recorded(resume, record)
    else:
        loaded = load(game_name, variants)
    program = load_program(loaded, backend, package, runs_games=True)
    meta = program.meta
    values = param_values(meta, params)
    try:
        if record is not None:  # its agents as --agents is checked, before any game is played
            records.check_program(record, program)
            check_recorded(record, meta, resume)
        chosen = playtest.seats_of(seats, meta, flag, values) if seats else None
        if record is None and chosen is None:
            chosen = playtest.default_seats(meta, values)
        seed = playtest.table_seed(seed)
        return playtest.open_table(loaded, program, chosen, seed, values, record)
    except playtest.PlaytestError as err:
        raise UserError(str(err)) from None
    except records.RecordError as err:
        raise UserError(str(err)) from None


@main.command()
@click.argument("game_name", metavar="GAME", required=False)
@variant_option
@click.option("--seats", default=None, metavar="A,B",
              help="Per player: human or a bot; the last fills the seats left (default: the"
                   " first human, bots in the others).")
@seed_option(None, help="The game's seed.  [default: a random one, printed]")
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@param_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (anything but loopback opens the table to the network).")
@click.option("--port", default=8000, show_default=True, type=Bounded(0, 65535))
@click.option("--records", "records_dir", default="records", show_default=True, metavar="DIR",
              help="Where the table saves records.")
@click.option("--resume", default=None, metavar="FILE", help="Open the table at a record.")
@package_option
def serve(game_name: str | None, variants: tuple[str, ...], seats: str | None, seed: int | None, backend: str,
          params: tuple[str, ...], host: str, port: int, records_dir: str, resume: str | None,
          package: str | None) -> None:
    """The web table: a link per seat, each showing that seat's view only."""
    table = _table(game_name, variants, seed, seats, backend, params, package, resume, "--seats")
    try:
        playtest.serve_table(table, host, port, records_dir, announce=click.echo)
    except playtest.PlaytestError as err:
        raise UserError(str(err)) from None
