"""A person's seat in the terminal: the seat's own view drawn with rich, and its
decisions as numbered menus.

A seat's first decision draws its whole view; after that only what changed since
it last decided (the tracks, the cards in and out of each zone, the counters on
the map), the new log lines, a one-line status and the menu, so ten quick
decisions do not scroll ten screens by. Players are named by their labels.

Commands at the prompt: an option's key or its id answers (the keys are numbers,
or letters when some option's id is itself a number, so `0` is the option 0 and
never a place in the list); `?` shows the spec line behind the decision (`? N`
option N's card text, else its declaration); `undo` takes back the last own
decision that revealed nothing new; `save FILE` writes a record that
`rulespec play --resume FILE` continues; `view` (everything again), `map`,
`log`, `help`, `quit`. Everything drawn comes from Table.seat_view, which is
built from Game.view.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as Grid
from rich.text import Text

from rulespec.runtime.board import (attribute_text, board_of, card_attributes, flag_names, home_regions,
                                    shown_attributes, shown_counters, space_positions, value_text)
from rulespec.runtime.record import RecordError
from rulespec.runtime.results import outcome
from rulespec.runtime.playtest.table import Table, TableError, entity_info

HELP = ("an option's key or id answers · ? [N] the spec line behind the decision (option N's text)"
        " · undo · save FILE · view · map · log · help · quit")
LOG_SHOWN = 20  # the last log lines shown before a decision (every move is a line now)


class Quit(Exception):
    """The person typed quit (or closed the input)."""


@dataclass
class Drawn:
    """What a seat was last shown, as text, to tell what changed: track values by (track,
    player), the cards of each zone (or its count), counters by (space, counter, player)."""

    tracks: dict[tuple[str, str], str] = field(default_factory=dict)
    zones: dict[str, tuple[str, ...] | int] = field(default_factory=dict)
    marks: dict[tuple[str, str], str] = field(default_factory=dict)


class TerminalSeat:
    """Plays a Table's human seats at one terminal (several seats take turns: hot-seat)."""

    def __init__(self, table: Table, console: Console | None = None,
                 read: Callable[[str], str] = input):
        self.table = table
        self.console = console or Console(highlight=False)
        self.read = read
        self.shown_to: str | None = None
        self.log_seen: dict[str, int] = {}
        self.drawn: dict[str, Drawn] = {}  # per seat: what it saw at its last decision
        self.figures = card_figures(table.meta)
        self.flags = flag_names(table.meta)
        self.spaces = {table.meta.entity_ids[s]: s for s in board_of(table.meta).spaces}

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
            self.drawn.pop(seat, None)  # a cleared screen: everything again
        self.shown_to = seat
        self.show(seat)
        while self.table.pending_player == seat and not self.table.over:
            if self.command(seat, self.ask(f"{self.table.label_of(seat)}> ").strip()):
                return

    def ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Quit() from None

    def command(self, seat: str, text: str) -> bool:
        """Carry out one line; True when the table moved on (redraw)."""
        view = self.table.seat_view(seat)
        word, _, rest = text.partition(" ")
        if not text:
            return False
        if word in ("quit", "exit"):
            raise Quit()
        if word == "help":
            self.console.print(escape(HELP))
        elif word.startswith("?"):
            self.explain(view, (word[1:] + " " + rest).strip())
        elif word == "undo":
            return self.undo(seat)
        elif word == "save":
            self.save(rest.strip())
        elif word == "view":
            self.drawn.pop(seat, None)
            self.show(seat)
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
            keys = menu_keys(view["decision"]["options"])
            self.console.print(f"'{escape(text)}' is no option: type a key from {keys[0]} to"
                               f" {keys[-1]}, an option id, or help")
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

    def explain(self, view: dict[str, Any], which: str) -> None:
        """The spec line behind the decision; for an option, a card's text (what the card
        says, as the table shows it) or else the line that declares it."""
        decision = view["decision"]
        at = decision["at"]
        if which:
            option = resolve(decision, which)
            if option is None:
                self.console.print(f"no option '{escape(which)}'")
                return
            info = view["cards"].get(option)
            if info is not None and info["text"]:  # a card: what it says, then where it is declared
                self.console.print(f"[bold]{escape(info['label'])}[/bold]  {escape(info['text'])}"
                                   f"  [dim]({escape(info['at'])})[/dim]")
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
        """The seat's whole view at its first decision (and on `view`); after that what
        changed since its last, then the log's new lines and the menu."""
        view = self.table.seat_view(seat)
        console = self.console
        console.rule(f"{escape(view['title'])} — {escape(view['seat_label'])},"
                     f" decision {view['decisions'] + 1}")
        now = self.picture(view)
        before = self.drawn.get(seat)
        self.drawn[seat] = now
        if before is None:
            console.print(Columns([self.tracks_grid(view), self.zones_grid(view)], padding=(0, 4)))
            if board_of(self.table.meta).spaces:
                console.print(self.map_grid(view))
        else:
            for line in changes(before, now):
                console.print(line)
        self.print_log(view)
        self.print_decision(view, hint=before is None)

    def picture(self, view: dict[str, Any]) -> Drawn:
        """What the seat is shown now, as Drawn (labels, not ids)."""
        meta, drawn = self.table.meta, Drawn()
        labels = {t.name: t.label for t in meta.tracks}
        for name, value in view["view"]["tracks"].items():
            rows = value.items() if isinstance(value, dict) else [("", value)]
            for player, number in rows:
                drawn.tracks[(labels.get(name, name), self.player(player))] = self.value(name, number)
        for zone in view["zones"]:
            cards = zone.get("cards")
            drawn.zones[zone["label"]] = zone["count"] if cards is None else \
                tuple(self.card_text(view, c) for c in cards)
        for sid, marks in view["marks"].items():
            if sid in self.spaces:
                for label, player, value, counter in marks:
                    drawn.marks[(meta.entity_labels[self.spaces[sid]], self.player(player) or label)] = \
                        self.value(counter, value)
        return drawn

    def player(self, player: str | None) -> str:
        """A player's label ('' for none): ids are the spec's names, not the table's."""
        return self.table.label_of(player) if player else ""

    def value(self, name: str, value: Any) -> str:
        """A track's or counter's value as the seat reads it: a flag's as yes or no."""
        return value_text(value, name in self.flags)

    def tracks_grid(self, view: dict[str, Any]) -> Grid:
        grid = Grid(title="Tracks", show_header=False, box=None)
        labels = {t.name: t.label for t in self.table.meta.tracks}
        for name, value in view["view"]["tracks"].items():
            if isinstance(value, dict):
                value = "  ".join(f"{self.player(p)} {self.value(name, v)}" for p, v in value.items())
            else:
                value = self.value(name, value)
            grid.add_row(escape(labels.get(name, name)), escape(value))
        return grid

    def zones_grid(self, view: dict[str, Any]) -> Grid:
        grid = Grid(title="Zones", show_header=False, box=None)
        for zone in view["zones"]:
            if "count" in zone:
                if zone["count"]:
                    shown = zone.get("shown", [])
                    text = f"[dim]{zone['count'] - len(shown)} hidden[/dim]"
                    if shown:
                        text = ", ".join(self.card_text(view, c) for c in shown) + ", " + text
                    grid.add_row(escape(zone["label"]), text)
            elif zone["cards"]:
                grid.add_row(escape(zone["label"]), ", ".join(self.card_text(view, c) for c in zone["cards"]))
        return grid

    def card_text(self, view: dict[str, Any], card: str) -> str:
        info = view["cards"].get(card, {})
        text = escape(info.get("label", card)) + escape(self.figures.get(card, ""))
        marks = view["marks"].get(card)
        if marks:
            text += " [" + ", ".join(f"{escape(label)} {self.value(counter, value)}"
                                     for label, _, value, counter in marks) + "]"
        return text

    def map_grid(self, view: dict[str, Any], every: bool = False) -> Columns:
        """The map as a table per region: each space with its counters; by default only the
        spaces that hold counters or are offered."""
        meta, board = self.table.meta, board_of(self.table.meta)
        offered = {o["id"] for o in (view["decision"] or {}).get("options", [])}
        home = home_regions(meta)
        counters = shown_counters(meta)
        grids = []
        hexes = {space for space, shape in getattr(board, "shapes", ()) if shape == "hex"}
        if hexes:  # under the title of the region that holds them all, if one does
            homes = {home.get(s) for s in hexes}
            region = homes.pop() if len(homes) == 1 else None
            grid = Grid(title=self.region_title(view, region, counters) if region is not None else "Map",
                        box=None, show_header=False)
            grid.add_row(self.hex_rows(view, hexes, offered, counters))
            grids.append(grid)
        for region, _ in board.regions:
            grid = Grid(title=self.region_title(view, region, counters), box=None, show_header=False)
            for space in board.spaces:
                if home.get(space) != region or space in hexes:
                    continue
                sid = meta.entity_ids[space]
                marks = [m for m in view["marks"].get(sid, []) if not counters or m[3] in counters]
                if not (every or marks or sid in offered):
                    continue
                cells = "  ".join(f"{escape(self.player(p) or label)} {self.value(c, v)}" for label, p, v, c in marks)
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
                                 "  ".join(f"{escape(self.player(p) or l)} {self.value(c, v)}" for l, p, v, c in marks))
            grids.append(grid)
        return Columns(grids, padding=(0, 3))

    def region_title(self, view: dict[str, Any], region: int, counters: list[str]) -> str:
        """A region's name, its attributes (a bonus) and per player the counters on its spaces:
        'North (bonus 2) · Red 7 on 3, Blue 2 on 1'."""
        meta, board = self.table.meta, board_of(self.table.meta)
        members = dict(board.regions).get(region, ())
        attrs = [n if v == "yes" else f"{n} {v}" for n, v in board.attributes[region]]
        totals: dict[str, list[int]] = {}
        for space in members:
            for label, player, value, counter in view["marks"].get(meta.entity_ids[space], []):
                if counters and counter not in counters:
                    continue
                total = totals.setdefault(self.player(player) or label, [0, 0])
                total[0] += value
                total[1] += 1
        title = meta.entity_labels[region] + (f" ({', '.join(attrs)})" if attrs else "")
        if totals:
            title += " · " + ", ".join(f"{who} {n} on {k}" for who, (n, k) in totals.items())
        return escape(title)

    def hex_rows(self, view: dict[str, Any], hexes: set[int], offered: set[str],
                 counters: list[str]) -> Text:
        """A hex grid as rows of hexes, each row shifted as on the board: a hex shows its
        tiles (a counter's initial and its player's number), '*' when offered, else '·'."""
        meta = self.table.meta
        where = space_positions(meta)
        width = max(1.0, getattr(board_of(meta), "hex_size", 0) * 3 ** 0.5)
        rows: dict[int, list[int]] = {}
        for space in hexes:
            rows.setdefault(where[space][1], []).append(space)
        left = min(where[s][0] for s in hexes)
        lines = []
        for y in sorted(rows):
            row = sorted(rows[y], key=lambda s: where[s][0])
            shift = round((where[row[0]][0] - left) / width * 2)
            lines.append(" " * (shift * 3) + " ".join(self.hex_cell(view, s, offered, counters) for s in row))
        return Text("\n".join(lines))

    def hex_cell(self, view: dict[str, Any], space: int, offered: set[str], counters: list[str]) -> str:
        sid = self.table.meta.entity_ids[space]
        marks = [m for m in view["marks"].get(sid, []) if not counters or m[3] in counters]
        text = "".join(label[:1] + (str(self.table.players.index(p) + 1) if p in self.table.players else "")
                       for label, p, _, _ in marks)
        if sid in offered:
            text = "*" + text
        return f"{text or '·':^5}"

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
            mark = "[italic](to you)[/italic] " if line.get("private") else ""
            self.console.print(f"  {mark}{escape(line['text'])}", style=style)
        self.log_seen[seat] = len(log)

    def print_decision(self, view: dict[str, Any], hint: bool = True) -> None:
        """The prompt and the numbered options; the commands too at a whole redraw."""
        decision = view["decision"]
        self.console.print(f"[bold]{escape(decision['prompt'])}[/bold]  [dim]({escape(decision['at'])})[/dim]")
        options = decision["options"]
        items = [f"{key:>3}. {escape(o['label'])}{escape(self.figures.get(o['id'], ''))}" + _id_shown(o)
                 for key, o in zip(menu_keys(options), options)]
        self.console.print(Columns(items, padding=(0, 2)))
        if _lettered(options):
            self.console.print("[dim](a letter picks a line; a number is read as the option of that value)[/dim]")
        if hint:
            extra = "" if view["can_undo"] else f" (no undo: {view['undo_reason']})"
            self.console.print(f"[dim]{escape(HELP + extra)}[/dim]")


def changes(before: Drawn, now: Drawn) -> list[str]:
    """A line for the tracks that moved, one per zone whose cards changed, one for the
    counters that moved on the map (rich markup, escaped)."""
    lines = []
    moved = _moved(before.tracks, now.tracks)
    if moved:
        lines.append("[bold]Tracks[/bold]  " + " · ".join(moved))
    for label, cards in now.zones.items():
        was = before.zones.get(label, ())
        if cards == was:
            continue
        if isinstance(cards, int) or isinstance(was, int):
            lines.append(f"[bold]{escape(label)}[/bold]  {_count(was)} → {_count(cards)}")
            continue
        came, went = _minus(cards, was), _minus(was, cards)
        told = [f"+ {', '.join(came)}"] * bool(came) + [f"− {', '.join(went)}"] * bool(went)
        lines.append(f"[bold]{escape(label)}[/bold]  " + "  ".join(told or ["in another order"]))
    moved = _moved(before.marks, now.marks)
    if moved:
        lines.append("[bold]Map[/bold]  " + " · ".join(moved))
    return lines


def _moved(before: dict[tuple[str, str], str], now: dict[tuple[str, str], str]) -> list[str]:
    """'Name Player 0→3' for every value that changed ('Name Player 3' for one that came,
    'Name Player 3→0' for one gone), escaped."""
    out = []
    for key in list(now) + [k for k in before if k not in now]:
        was, value = before.get(key), now.get(key, "0")
        if was != value:
            name = " ".join(p for p in key if p)
            out.append(escape(f"{name} {value}" if was is None else f"{name} {was}→{value}"))
    return out


def _minus(cards: tuple[str, ...], others: tuple[str, ...]) -> list[str]:
    """The cards of `cards` not in `others`, in order, each copy counted (two cards may
    bear one name)."""
    left = Counter(others)
    out = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _count(content: tuple[str, ...] | int) -> str:
    return f"{content} hidden" if isinstance(content, int) else f"{len(content)} cards"


def card_figures(meta: Any) -> dict[str, str]:
    """Per card id, what is shown beside its name: ' (ops 3)', ' (value 0, guard)': the
    attributes runtime.board.card_attributes shows on a card, as the web table shows them."""
    return {card: f" ({', '.join(attribute_text(n, v) for n, v in shown)})"
            for card, shown in card_attributes(meta).items() if shown}


def _whole(text: str) -> bool:
    return text.lstrip("-").isdigit()


def resolve(decision: dict[str, Any] | None, text: str) -> str | None:
    """The option id a typed id or menu key stands for, or None. An id wins over a key, and
    a menu whose ids include numbers is keyed by letters, so no typed text means two options."""
    if decision is None:
        return None
    options = decision["options"]
    text = text.strip()
    for option in options:
        if text == option["id"]:
            return option["id"]
    keys = menu_keys(options)
    return options[keys.index(text.lower())]["id"] if text.lower() in keys else None


def menu_keys(options: list[dict[str, Any]]) -> list[str]:
    """The key typed for each option: 1, 2, 3..., or a, b, ... z, aa, ab... when some
    option's id is a whole number (a number choice offers 0, 2, 3: typing 0 means 0)."""
    if not _lettered(options):
        return [str(n) for n in range(1, len(options) + 1)]
    keys = []
    for n in range(len(options)):
        key = ""
        n += 1
        while n:
            n, digit = divmod(n - 1, 26)
            key = chr(ord("a") + digit) + key
        keys.append(key)
    return keys


def _lettered(options: list[dict[str, Any]]) -> bool:
    return any(_whole(o["id"]) for o in options)


def _id_shown(option: dict[str, Any]) -> str:
    """' [priest_2]' after an option whose id its label does not spell (copies of one card,
    a label in other words), so the id can be typed; '' when the label says it."""
    spelled = re.sub(r"[^0-9a-z]+", "_", option["label"].lower()).strip("_")
    return "" if spelled == option["id"].lower() else f" [dim]\\[{escape(option['id'])}][/dim]"
