"""A person's seat in the terminal: the seat's own view drawn with rich, and its
decisions as numbered menus.

Commands at the prompt: a number or an option id answers; `?` shows the spec
line behind the decision (`? N` behind option N); `undo` takes back the last own
decision that revealed nothing new; `save FILE` writes a record that
`rulespec play --resume FILE` continues; `map`, `log`, `help`, `quit`.
Everything drawn comes from Table.seat_view, which is built from Game.view.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as Grid

from .board import board_of, home_regions, shown_attributes, shown_counters
from .record import RecordError
from .results import outcome
from .table import Table, TableError, entity_info

HELP = ("a number or an option id answers · ? [N] the spec line behind the decision (or option N)"
        " · undo · save FILE · map · log · help · quit")
LOG_SHOWN = 8


class Quit(Exception):
    """The person typed quit (or closed the input)."""


class TerminalSeat:
    """Plays a Table's human seats at one terminal (several seats take turns: hot-seat)."""

    def __init__(self, table: Table, console: Console | None = None,
                 read: Callable[[str], str] = input):
        self.table = table
        self.console = console or Console(highlight=False)
        self.read = read
        self.shown_to: str | None = None
        self.log_seen: dict[str, int] = {}

    # ------------------------------------------------------------ the loop
    def play(self) -> None:
        """Until the game ends or the person quits."""
        try:
            while True:
                self.table.run_bots()
                if self.table.over:
                    self.finish()
                    return
                self.turn(self.table.pending_player)
        except Quit:
            self.console.print("Left the table; `save FILE` before quitting keeps a game.")

    def turn(self, seat: str) -> None:
        if self.shown_to not in (None, seat) and len(self.table.humans()) > 1:
            self.ask(f"Pass the seat to {self.table.label_of(seat)} and press Enter ")
            self.console.clear()
        self.shown_to = seat
        self.show(seat)
        while self.table.pending_player == seat and not self.table.over:
            if self.command(seat, self.ask(f"{seat}> ").strip()):
                return

    def ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Quit() from None

    def command(self, seat: str, text: str) -> bool:
        """Carry out one line; True when the table moved on (redraw)."""
        view = self.table.seat_view(seat)
        decision = view["decision"]
        word, _, rest = text.partition(" ")
        if not text:
            return False
        if word in ("quit", "exit"):
            raise Quit()
        if word == "help":
            self.console.print(escape(HELP))
        elif word.startswith("?"):
            self.explain(decision, (word[1:] + " " + rest).strip())
        elif word == "undo":
            return self.undo(seat)
        elif word == "save":
            self.save(rest.strip())
        elif word == "map":
            self.console.print(self.map_grid(view, every=True))
        elif word == "log":
            self.print_log(view, every=True)
        else:
            return self.answer(seat, view, text)
        return False

    def answer(self, seat: str, view: dict[str, Any], text: str) -> bool:
        option = resolve(view["decision"], text)
        if option is None:
            self.console.print(f"'{escape(text)}' is no option: type a number from 1 to"
                               f" {len(view['decision']['options'])}, an option id, or help")
            return False
        try:
            self.table.choose(seat, option, view["version"])
        except TableError as err:
            self.console.print(f"refused: {escape(str(err))}")
            return False
        return True

    def undo(self, seat: str) -> bool:
        try:
            undone = self.table.undo(seat)
        except TableError as err:
            self.console.print(escape(str(err)))
            return False
        self.console.print(f"undone: {undone} decision{'s' if undone != 1 else ''}")
        self.log_seen[seat] = 0
        return True

    def save(self, path: str) -> None:
        if not path:
            self.console.print("save needs a file name: save FILE")
            return
        try:
            self.table.save(path)
        except RecordError as err:
            self.console.print(escape(str(err)))
            return
        self.console.print(f"saved: {escape(path)} (rulespec play --resume {escape(path)} continues it)")

    def explain(self, decision: dict[str, Any], which: str) -> None:
        at = decision["at"]
        if which:
            option = resolve(decision, which)
            if option is None:
                self.console.print(f"no option '{escape(which)}'")
                return
            entity = self.table.meta.entity_ids.index(option) if option in self.table.meta.entity_ids else None
            if entity is not None:
                info = entity_info(self.table.meta, entity)
                at = info["at"] or at
        line = self.table.spec_line(at)
        self.console.print(f"[bold]{escape(at)}[/bold]" + (f"\n    {escape(line)}" if line else ""))

    def finish(self) -> None:
        seat = self.shown_to or (self.table.humans() or self.table.players)[0]
        view = self.table.seat_view(seat)
        self.print_log(view)
        if view["error"]:
            self.console.print(f"[bold red]The game stopped:[/bold red] {escape(view['error'])}")
            return
        result = view["result"]
        who = outcome(result["winner"], result.get("losers", []), self.table.label_of)
        who = who[:1].upper() + who[1:]
        self.console.print(Panel(f"{escape(who)} — {escape(result['reason'])}"
                                 f" after {view['decisions']} decisions", title="Game over"))

    # ------------------------------------------------------------ drawing
    def show(self, seat: str) -> None:
        view = self.table.seat_view(seat)
        console = self.console
        console.rule(f"{escape(view['title'])} — {escape(view['seat_label'])} ({seat}),"
                     f" decision {view['decisions'] + 1}")
        console.print(Columns([self.tracks_grid(view), self.zones_grid(view)], padding=(0, 4)))
        board = board_of(self.table.meta)
        if board.spaces:
            console.print(self.map_grid(view))
        self.print_log(view)
        self.print_decision(view)

    def tracks_grid(self, view: dict[str, Any]) -> Grid:
        grid = Grid(title="Tracks", show_header=False, box=None)
        labels = {t.name: t.label for t in self.table.meta.tracks}
        for name, value in view["view"]["tracks"].items():
            if isinstance(value, dict):
                value = "  ".join(f"{p} {v}" for p, v in value.items())
            grid.add_row(escape(labels.get(name, name)), escape(str(value)))
        return grid

    def zones_grid(self, view: dict[str, Any]) -> Grid:
        grid = Grid(title="Zones", show_header=False, box=None)
        for zone in view["zones"]:
            if "count" in zone:
                if zone["count"]:
                    grid.add_row(escape(zone["label"]), f"[dim]{zone['count']} hidden[/dim]")
            elif zone["cards"]:
                grid.add_row(escape(zone["label"]), ", ".join(self.card_text(view, c) for c in zone["cards"]))
        return grid

    def card_text(self, view: dict[str, Any], card: str) -> str:
        info = view["cards"].get(card, {})
        text = escape(info.get("label", card))
        marks = view["marks"].get(card)
        if marks:
            text += " [" + ", ".join(f"{escape(label)} {value}" for label, _, value, _ in marks) + "]"
        return text

    def map_grid(self, view: dict[str, Any], every: bool = False) -> Columns:
        """The map as a table per region: each space with its counters; by default only the
        spaces that hold counters or are offered."""
        meta, board = self.table.meta, board_of(self.table.meta)
        offered = {o["id"] for o in (view["decision"] or {}).get("options", [])}
        home = home_regions(meta)
        counters = shown_counters(meta)
        grids = []
        for region, _ in board.regions:
            grid = Grid(title=escape(meta.entity_labels[region]), box=None, show_header=False)
            for space in board.spaces:
                if home.get(space) != region:
                    continue
                sid = meta.entity_ids[space]
                marks = [m for m in view["marks"].get(sid, []) if not counters or m[3] in counters]
                if not (every or marks or sid in offered):
                    continue
                cells = "  ".join(f"{escape(p or label)} {v}" for label, p, v, _ in marks)
                star = "[bold]*[/bold]" if sid in offered else " "
                grid.add_row(star + escape(meta.entity_labels[space]) + self.shown(space), cells)
            if grid.row_count:
                grids.append(grid)
        loose = [s for s in board.spaces if s not in home]
        if loose:
            grid = Grid(title="Spaces", box=None, show_header=False)
            for space in loose:
                sid = meta.entity_ids[space]
                marks = [m for m in view["marks"].get(sid, []) if not counters or m[3] in counters]
                if every or marks or sid in offered:
                    grid.add_row(escape(meta.entity_labels[space]),
                                 "  ".join(f"{escape(p or l)} {v}" for l, p, v, _ in marks))
            grids.append(grid)
        return Columns(grids, padding=(0, 3))

    def shown(self, space: int) -> str:
        """The attributes the spec's board shows, after the space's name: ' (3, marked)' (a number, then a flag's name)."""
        shows = shown_attributes(board_of(self.table.meta), space)
        if not shows:
            return ""
        return " [dim](" + ", ".join(escape(n if v == "yes" else v) for n, v in shows) + ")[/dim]"

    def print_log(self, view: dict[str, Any], every: bool = False) -> None:
        seat, log = view["seat"], view["log"]
        start = 0 if every else max(self.log_seen.get(seat, 0), len(log) - LOG_SHOWN)
        for line in log[start:]:
            style = "dim" if line["own"] else ""
            self.console.print(f"  {escape(line['text'])}", style=style)
        self.log_seen[seat] = len(log)

    def print_decision(self, view: dict[str, Any]) -> None:
        decision = view["decision"]
        self.console.print(f"[bold]{escape(decision['prompt'])}[/bold]  [dim]({escape(decision['at'])})[/dim]")
        items = [f"{o['number']:>3}. {escape(o['label'])}" for o in decision["options"]]
        self.console.print(Columns(items, padding=(0, 2)))
        extra = "" if view["can_undo"] else f" (no undo: {view['undo_reason']})"
        self.console.print(f"[dim]{escape(HELP + extra)}[/dim]")


def resolve(decision: dict[str, Any] | None, text: str) -> str | None:
    """The option id a typed number or id stands for, or None."""
    if decision is None:
        return None
    options = decision["options"]
    text = text.strip()
    if text.isdigit():
        number = int(text)
        return options[number - 1]["id"] if 1 <= number <= len(options) else None
    for option in options:
        if text == option["id"]:
            return option["id"]
    return None
