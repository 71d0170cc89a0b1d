"""Playtesting by hand: the tables `rulespec play --agents human,BOT` and `rulespec serve` open.

The command line parses flags and calls these; they find the spec, the back end
and the record, and hand a runtime Table to the terminal seat or the web table.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Callable

from rulespec.compiler.tools.cards.table import card_faces
from rulespec.compiler.frontend.loader import LoadedSpec
from rulespec.runtime.home import ROOT
from rulespec.runtime import record as records
from rulespec.runtime.playtest.table import HUMAN, Table, parse_seats


class PlaytestError(Exception):
    """Bad input for a table (seats, a record): one line."""


def spec_roots(loaded: LoadedSpec) -> tuple[Path, ...]:
    """Where the files that run-time locations name are found (see rulespec.compiler.frontend.locations)."""
    return (ROOT, loaded.folder.resolve().parent, Path.cwd())


def seats_of(text: str, meta, flag: str = "--agents", params: dict | None = None) -> tuple[str, ...]:
    try:
        return parse_seats(text, meta.seated(params), meta, flag)
    except ValueError as err:
        raise PlaytestError(str(err)) from None


def default_seats(meta, params: dict | None = None) -> tuple[str, ...]:
    """A person in the first seat, bots in the others (greedy where the spec has evaluations)."""
    bot = "greedy" if getattr(meta, "bots", ()) else "random"
    return (HUMAN,) + (bot,) * (meta.seat_count(params) - 1)


def table_seed(seed: int | None) -> int:
    """The seed a table a person sits at is dealt with: `--seed`, else a fresh random one, so
    no two tables deal the same hands unless asked to (a small number, easy to type again)."""
    return secrets.randbelow(1_000_000) + 1 if seed is None else seed


def seed_line(table: Table) -> str:
    seed = table.game.seed
    return f"Seed {seed} (--seed {seed} deals this table again)"


def has_human(text: str) -> bool:
    return HUMAN in (n.strip() for n in text.split(","))


def open_table(loaded: LoadedSpec, program, seats: tuple[str, ...] | None, seed: int = 1,
               params: dict[str, Any] | None = None, resume: Any = None) -> Table:
    """A new table, or the table of a record (read already) with its choices replayed."""
    where = dict(spec_roots=spec_roots(loaded), spec_dir=str(loaded.folder))
    if getattr(program, "card_faces", None) is None:  # what the table shows on each card
        program.card_faces = card_faces(loaded.model)
    try:
        if resume is not None:
            records.check_program(resume, program)
            return Table.from_record(resume, program, seats, **where)
        return Table.new(program, seats, seed=seed, params=params or {}, variants=loaded.variants, **where)
    except ValueError as err:  # a record's agents this version has no bot for, or too few
        raise PlaytestError(str(err)) from None


def play_in_terminal(table: Table) -> None:
    from rulespec.runtime.playtest.terminal import TerminalSeat
    TerminalSeat(table).play()


def serve_table(table: Table, host: str, port: int, records_dir: str,
                announce: Callable[[str], None]) -> None:
    """Serve the table until interrupted; `announce` gets each line to print (the links)."""
    from rulespec.runtime.playtest import web

    def tell(running) -> None:
        announce(f"{table.meta.title or table.meta.game}: the table is open on {running.base}")
        announce("  " + seed_line(table))
        for player in table.players:
            announce(f"  {table.label_of(player)} ({table.seats[player]}): {running.urls[player]}")
        announce(f"  host (every seat's link, hot-seat, loading records): {running.urls['host']}")
        announce("  each link is that seat's key: give it only to the person in that seat; Ctrl-C stops")
    try:
        web.serve(table, host=host, port=port, records_dir=records_dir, announce=tell)
    except web.WebUnavailable as err:
        raise PlaytestError(str(err)) from None
    except OSError as err:
        raise PlaytestError(str(err).splitlines()[0]) from None
