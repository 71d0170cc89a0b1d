"""A table: one game, its seats (people or bots), and what each seat is shown.

Both play surfaces, the terminal seat (runtime/playtest/terminal.py) and the web table
(runtime/playtest/web/), drive a game through a Table. What a seat is shown is built
from `Game.view` of that seat and nothing else of the state: its own pending
decision with the option labels, the cards it can see, and the game log with
every card it did not see when the line was written blanked out (runtime/logview.py),
the lines written to it alone, and every move made, in words
(runtime/playtest/movelog.py). Undo replays the record's choices minus
the undone ones (records replay exactly), back to the seat's last decision
after which nothing new was revealed to it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from rulespec.runtime import record as records
from rulespec.runtime.board import card_attributes
from rulespec.runtime.bots.agents import (HUMAN, Agent, check_agent, check_recorded, make_agent,
                                          split_agent_list)
from rulespec.runtime.game import Game, seen_slots
from rulespec.runtime.logview import blank_unseen, cards_seen, is_private, read_line
from rulespec.runtime.meta import GameMeta
from rulespec.runtime.playtest.movelog import Entry, LogLine, Step, dice_lines, seat_lines
from rulespec.runtime.program import Program
from rulespec.runtime.state import RuleError
from rulespec.runtime.text import shown

MAX_BOT_MOVES = 100_000
LOG_SENT = 300  # the last lines of the log a seat view carries (the replay viewer has all)  # one call of `run_bots` stops after this many decisions


class TableError(Exception):
    """A request the table refuses, as one line; `status` is the HTTP status it maps to."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def parse_seats(text: str, players: tuple[str, ...], meta: Any = None,
                flag: str = "--agents") -> tuple[str, ...]:
    """'human,greedy' → one seat per player: `human` or a bot name; ValueError when wrong.

    One name takes every seat; fewer names than players fill the rest with the last
    (a five-seat game whose param plays two: 'human,greedy')."""
    names = tuple(split_agent_list(text))  # a tuned bot's `(a=1,b=2)` keeps its commas
    if not names or len(names) > len(players):
        raise ValueError(f"{flag} needs 1 to {len(players)} names (for {', '.join(players)}),"
                         f" got {len(names)}")
    names = names + (names[-1],) * (len(players) - len(names))
    for name in names:
        if name != HUMAN:
            check_agent(name, meta)
    return names


def seat_bots(names: tuple[str, ...], players: tuple[str, ...], seed: int) -> dict[str, Agent]:
    """The bots of the seats that are not people, seeded as `rulespec play` seeds them."""
    return {p: make_agent(n, seed * 7919 + i)
            for i, (p, n) in enumerate(zip(players, names)) if n != HUMAN}


class Table:
    """A game in progress with its seats; every method a seat may call checks the seat."""

    def __init__(self, game: Game, seats: tuple[str, ...], spec_roots: Iterable[Path] = (),
                 spec_dir: str | None = None):
        self.meta: GameMeta = game.meta
        self.players = game.players  # the seated players only
        if len(seats) != len(self.players):
            raise ValueError(f"{len(self.players)} seats needed, got {len(seats)}")
        self.seats = dict(zip(self.players, seats))
        self.spec_roots = tuple(Path(p) for p in spec_roots)
        self.spec_dir = spec_dir
        self.version = 0  # changes with every move, undo and load: stale requests are refused
        self.error: str | None = None  # a rule error that stopped the game
        self._index = {e: i for i, e in enumerate(self.meta.entity_ids)}
        self._cards = frozenset(self.meta.card_entities)
        # Each card's face by id: its event in words and the data it declares
        # (compiler/tools/cards/table.py, which the play commands hang on the program); a card's
        # printed `text` is shown instead of the words.
        self.card_faces: dict[str, dict[str, Any]] = getattr(game.program, "card_faces", None) or {}
        self.card_attributes = card_attributes(game.meta)  # what each card shows (runtime/board.py)
        self._start(game, list(game.choices))

    # ------------------------------------------------------------ building
    @classmethod
    def new(cls, program: Program, seats: tuple[str, ...], seed: int = 1,
            params: dict[str, Any] | None = None, variants: tuple[str, ...] = (), **kw: Any) -> Table:
        return cls(Game(program, seed=seed, params=params, variants=variants, agents=seats), seats, **kw)

    @classmethod
    def from_record(cls, record: dict[str, Any], program: Program, seats: tuple[str, ...] | None = None,
                    **kw: Any) -> Table:
        """The table of a record (already read and validated), its choices replayed; its agents
        are checked first, as `--agents` is."""
        records.check_program(record, program)
        check_recorded(records.as_record(record), program.meta)
        seats = seats or tuple(record.get("agents") or ()) or (HUMAN,) * len(program.meta.seated(record["params"]))
        fresh = Game(program, seed=record["seed"], params=record["params"],
                     variants=tuple(record["variants"]), agents=seats)
        return cls(fresh, seats, **kw).advance(record["choices"])

    def _start(self, game: Game, choices: list[str]) -> None:
        """Take `game` at its start (with `choices` still to make) and make them step by step."""
        self.game = game
        self.bots = seat_bots(tuple(self.seats.values()), self.players, game.seed)
        self.steps: list[Step] = []
        self.logs: dict[str, list[Entry]] = {p: [] for p in self.players}
        self._seen = {p: self._visible(p) for p in self.players}
        self._logged = 0  # lines of state.log already copied into the seats' logs
        self._unnamed: dict[str, list[int]] = {p: [] for p in self.players}  # hidden card moves
        self._log_new()
        if choices:
            game.choices = []
            self.advance(choices)

    def advance(self, choices: list[str]) -> Table:
        """Make `choices` from the current position; RecordError at the first that does not fit."""
        for number, option in enumerate(choices, len(self.steps) + 1):
            decision = self.game.decision
            if decision is None:
                raise records.RecordError(f"decision {number}: the game is already over but the"
                                          f" record has more choices")
            if option not in decision.option_ids:
                raise records.RecordError(f"decision {number}: '{option}' is not a legal option"
                                          f" for '{decision.prompt}'")
            self._apply(option)
        return self

    # ------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.game.over or self.error is not None

    @property
    def pending_player(self) -> str | None:
        decision = None if self.error else self.game.decision
        return decision.player if decision else None

    def is_human(self, player: str | None) -> bool:
        return player is not None and self.seats.get(player) == HUMAN

    def seat_names(self) -> tuple[str, ...]:
        """Per player: `human` or the bot's name (what a record keeps as its agents)."""
        return tuple(self.seats.values())

    def humans(self) -> list[str]:
        return [p for p, s in self.seats.items() if s == HUMAN]

    def label_of(self, player: str) -> str:
        return self.meta.player_labels[self.meta.players.index(player)]

    # ------------------------------------------------------------ moves
    def choose(self, player: str, option: str, version: int | None = None) -> None:
        """`player` answers its pending decision; TableError (nothing changes) when it may not."""
        self._check_turn(player, version)
        if not self.is_human(player):
            raise TableError(f"{player} is played by the bot '{self.seats[player]}'", 403)
        decision = self.game.decision
        if option not in decision.option_ids:
            raise TableError(f"'{option}' is not an option of '{decision.prompt}'", 400)
        self._apply(option)

    def _check_turn(self, player: str, version: int | None) -> None:
        if player not in self.seats:
            raise TableError(f"unknown seat '{player}'", 404)
        if version is not None and version != self.version:
            raise TableError(f"stale decision: the table has moved on (now at version {self.version})"
                             f"; reload to see it", 409)
        if self.over:
            raise TableError("the game is over", 409)
        if self.pending_player != player:
            raise TableError(f"not your decision: the table waits for {self.pending_player}", 403)

    def bot_step(self, version: int | None = None) -> bool:
        """One decision by the bot the game waits for; False when it waits for a person or is over."""
        if version is not None and version != self.version:
            raise TableError(f"stale request: the table has moved on (now at version {self.version})", 409)
        player = self.pending_player
        if player is None or self.is_human(player):
            return False
        try:
            option = self.bots[player].choose(self.game, self.game.decision)
        except RuleError as err:
            self._stop(err)
            return False
        self._apply(option)
        return True

    def run_bots(self, limit: int = MAX_BOT_MOVES) -> int:
        """Let the bots play until a person must decide or the game ends; how many moves they made."""
        made = 0
        while made < limit and self.bot_step():
            made += 1
        return made

    def _apply(self, option: str) -> None:
        decision = self.game.decision
        index = decision.option_ids.index(option)
        state = self.game.state
        rng, written = state.rng, len(state.log)
        marks = (state.pending or {}).get("marks", [])
        words = {p: self._move_words(p, decision.prompt, marks, decision.labels[index]) for p in self.players}
        card = self._index.get(option)
        card = card if card in self._cards else None
        named = {p for p in self.players if card in self._seen[p]}  # the card was in sight
        state.rolled = []
        try:
            self.game.choose(option)
        except RuleError as err:
            self._stop(err)
        rolled, state.rolled = state.rolled or [], None
        if card is not None:  # a line of this move named the card to a seat: the move is named too
            for player in self.players:
                seat = self.meta.players.index(player)
                if any(card in cards_seen(self.meta, state.log_marks[n], seat)
                       for n in range(written, len(state.log))):
                    named.add(player)
        reveals = set()
        for player in self.players:
            now = self._visible(player)
            if now - self._seen[player] or state.rng != rng:
                reveals.add(player)
            self._seen[player] = now
        step = Step(decision.player, option, decision.labels[index], decision.prompt,
                    decision.location, frozenset(reveals), card=card,
                    slot=state.location[card] if card is not None else -1, words=words,
                    named=named)
        self.steps.append(step)
        number = len(self.steps) - 1
        for player in self.players:
            self.logs[player].append(number)
            if card is not None and player not in named:
                self._unnamed[player].append(number)
        self._name_revealed()
        self._log_new(dice_lines(rolled, written))
        self.version += 1

    def _stop(self, err: RuleError) -> None:
        self.error = str(err)

    # ------------------------------------------------------------ undo
    def undo_target(self, player: str) -> tuple[int | None, str]:
        """The index of the step undo would take back for `player`, or None and why not."""
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            if step.player != player and self.is_human(step.player):
                return None, f"{step.player} has decided since your last decision"
            if player in step.reveals:
                return None, "something new was revealed to you since your last decision"
            if step.player == player:
                return index, ""
        return None, "you have made no decision yet"

    def undo(self, player: str, version: int | None = None) -> int:
        """Take back `player`'s last decision (and the bots' answers to it); how many steps went."""
        if player not in self.seats:
            raise TableError(f"unknown seat '{player}'", 404)
        if not self.is_human(player):
            raise TableError(f"{player} is played by the bot '{self.seats[player]}': a bot takes"
                             f" nothing back", 403)
        if version is not None and version != self.version:
            raise TableError(f"stale request: the table has moved on (now at version {self.version})", 409)
        index, why = self.undo_target(player)
        if index is None:
            raise TableError(f"nothing to undo: {why}", 409)
        kept = [s.option for s in self.steps[:index]]
        undone = len(self.steps) - index
        fresh = Game(self.game.program, seed=self.game.seed, params=self.game.params,
                     variants=self.game.variants, agents=self.game.agents)
        version, self.error = self.version, None
        self._start(fresh, kept)
        self.version = version + 1
        return undone

    # ------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        return records.to_record(self.game, self.spec_dir, snapshot=self.error is None)

    def save(self, path: str | Path) -> None:
        records.save(self.game, path, self.spec_dir, snapshot=self.error is None)

    def check_record(self, record: dict[str, Any]) -> None:
        """RecordError unless `record` is a game of this table's spec: its hash and its
        variants (a record's variant names are never taken on trust: they name files)."""
        records.check_program(record, self.game.program)
        check_recorded(records.as_record(record), self.meta)
        variants, ours = tuple(record["variants"]), tuple(self.game.variants)
        if variants != ours:
            raise records.RecordError(
                f"record plays {_variants(variants)}, this table {_variants(ours)}")

    def load(self, record: dict[str, Any]) -> None:
        """Replace the game by a record's (same spec and variants); the seats stay."""
        self.check_record(record)
        fresh = Game(self.game.program, seed=record["seed"], params=record["params"],
                     variants=tuple(self.game.variants), agents=self.game.agents)
        version, self.error = self.version, None
        self._start(fresh, list(record["choices"]))
        self.version = version + 1

    # ------------------------------------------------------------ what a seat sees
    def seat_view(self, player: str) -> dict[str, Any]:
        """Everything `player` is shown, built from its Game.view: plain JSON."""
        view = self.game.view(player)
        decision = self._own_decision(player)
        index, why = self.undo_target(player)
        log = self.log_lines(player)
        return {
            "version": self.version, "game": self.meta.game, "title": self.meta.title or self.meta.game,
            "seat": player, "seat_label": self.label_of(player), "agent": self.seats[player],
            "seats": [{"player": p, "label": self.label_of(p), "agent": s} for p, s in self.seats.items()],
            "view": view,
            "zones": zone_list(self.meta, view),
            "marks": entity_marks(self.meta, view),
            "decision": decision,
            "waiting_for": None if self.error else view["waiting_for"],
            "waiting_is_bot": not self.is_human(self.pending_player) and self.pending_player is not None,
            "cards": self.card_info(view, decision),
            "log": [dict(line.__dict__, spec=self.spec_line(line.at)) for line in log[-LOG_SENT:]],
            "log_total": len(log),
            "decisions": len(self.steps),
            "can_undo": index is not None, "undo_reason": why,
            "result": view["result"], "error": self.error,
        }

    def _own_decision(self, player: str) -> dict[str, Any] | None:
        decision = self.game.decision
        if self.error or decision is None or decision.player != player:
            return None
        options = []
        for number, (oid, label) in enumerate(zip(decision.option_ids, decision.labels), 1):
            entity = self._index.get(oid)
            options.append({"number": number, "id": oid, "label": label,
                            "kind": _category(self.meta, entity) if entity is not None else "option"})
        return {"prompt": decision.prompt, "at": decision.location,
                "spec": self.spec_line(decision.location), "options": options,
                "about": self._about(player)}

    def _about(self, player: str) -> list[dict[str, Any]]:
        """The entities the pending prompt names ("Keep {c} for 3 MC?"), that the seat may see."""
        seen = self._visible(player)
        out = []
        for entity in self.game.state.pending.get("about", ()):
            if entity in self._cards and entity not in seen:
                continue
            out.append({"id": self.meta.entity_ids[entity], "label": self.meta.entity_labels[entity],
                        "kind": _category(self.meta, entity)})
        return out

    def card_info(self, view: dict[str, Any], decision: dict[str, Any] | None) -> dict[str, Any]:
        """What the seat may read of every card its view or its decision names."""
        named: set[str] = set()
        json_strings(view, named)
        if decision:
            named.update(o["id"] for o in decision["options"])
            named.update(a["id"] for a in decision["about"])
        out = {}
        for name in sorted(named):
            entity = self._index.get(name)
            if entity is not None and entity in self._cards:
                info = entity_info(self.meta, entity)
                info["attrs"] = [list(a) for a in self.card_attributes.get(name, ())]  # as the terminal's
                face = self.card_faces.get(name)
                if face is not None:
                    info["text"] = info["text"] or face["text"]
                out[name] = dict(info, spec=self.spec_line(info["at"]))
        return out

    def log_lines(self, player: str) -> list[LogLine]:
        """The seat's whole log in words: the spec's `log` lines, every move, the dice."""
        return seat_lines(self.logs[player], self.steps, player, self.label_of)

    def spec_line(self, at: str) -> str:
        """The spec line a location names, stripped; '' when the file is not at hand."""
        return spec_source(at, self.spec_roots)

    # ------------------------------------------------------------ internals
    def _visible(self, player: str) -> frozenset[int]:
        state, meta = self.game.state, self.meta
        seen = seen_slots(meta, state, meta.players.index(player))
        return frozenset(c for slot, cards in enumerate(state.zones) if seen[slot] for c in cards)

    def _move_words(self, player: str, prompt: str, marks: list[list[Any]], label: str) -> tuple[str, str]:
        """A move's prompt and option label as `player` reads them as asked: the cards the
        prompt names that it did not see then blanked (an option that is a card is named
        apart, by Step.named; other options are the spec's words or public entities)."""
        return blank_unseen(self.meta, prompt, marks, self.meta.players.index(player)), label

    def _name_revealed(self) -> None:
        """Name the card of a hidden move to each seat that now sees it where the move left it
        (a card that moved on unseen stays hidden: where it went says nothing of the move)."""
        location = self.game.state.location
        for player, waiting in self._unnamed.items():
            kept = []
            for number in waiting:
                step = self.steps[number]
                if location[step.card] != step.slot:
                    continue
                if step.card in self._seen[player]:
                    step.named.add(player)
                else:
                    kept.append(number)
            waiting[:] = kept

    def _log_new(self, dice: list[tuple[int, LogLine]] = ()) -> None:
        """The log lines the last step wrote, each as its seat read it when it was written
        (runtime/logview.py): another seat's private lines left out; and the step's dice."""
        state = self.game.state
        at_list = getattr(state, "log_at", None) or []
        for player in self.players:
            reader = self.meta.players.index(player)
            rolls = list(dice)
            for number in range(self._logged, len(state.log)):
                while rolls and rolls[0][0] <= number - self._logged:
                    self.logs[player].append(rolls.pop(0)[1])
                marks = state.log_marks[number]
                text = read_line(self.meta, state.log[number], marks, reader)
                if text is not None:
                    at = at_list[number] if number < len(at_list) else ""
                    self.logs[player].append(LogLine(text, at, private=is_private(marks)))
            self.logs[player].extend(line for _, line in rolls)
        self._logged = len(state.log)


# ------------------------------------------------------------------ views, arranged


def zone_list(meta: GameMeta, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The view's zones in declaration order, each with its label, owner and cards or count."""
    zones = {z.name: z for z in meta.zones}
    out = []
    for key, content in view["zones"].items():
        name, _, owner = key.partition("(")
        zone = zones[name]
        owner = owner.rstrip(")") or None
        label = zone.label + (f" ({meta.player_labels[meta.players.index(owner)]})" if owner else "")
        entry = {"key": key, "zone": name, "label": label, "owner": owner,
                 "visibility": zone.visibility}
        if isinstance(content, list):
            entry["cards"] = content
        else:
            entry["count"] = content["count"]
            if content.get("shown"):
                entry["shown"] = content["shown"]  # cards of it this seat knows (shown, or followed)
        out.append(entry)
    return out


def entity_marks(meta: GameMeta, view: dict[str, Any]) -> dict[str, list[list[Any]]]:
    """The counters of the view by entity: [counter label, player or None, value, counter] each."""
    per_player = {c.name: c for c in meta.counters}
    out: dict[str, list[list[Any]]] = {}
    for name, table in view["counters"].items():
        counter = per_player[name]
        rows = table.items() if counter.per_player else [(None, table)]
        for player, cells in rows:
            for entity, value in cells.items():
                out.setdefault(entity, []).append([counter.label, player, value, name])
    return out


# ------------------------------------------------------------------ helpers


def plain_record(record: Any) -> dict[str, Any]:
    """A record as a plain JSON dict, whether it came as a dict or a records.Record."""
    return dict(record.to_json()) if hasattr(record, "to_json") else dict(record)


def _variants(names: tuple[str, ...]) -> str:
    return "the base game" if not names else "the variants " + ", ".join(f"'{shown(n)}'" for n in names)


def _category(meta: GameMeta, entity: int) -> str:
    board = getattr(meta, "board", None)
    if entity in meta.card_entities:
        return "card"
    if board is not None and entity in board.spaces:
        return "space"
    return "entity"


def entity_info(meta: GameMeta, entity: int) -> dict[str, Any]:
    """An entity's label, kind, attributes (none that is 0) and spec location, as a table
    shows them."""
    board = getattr(meta, "board", None)
    attrs = board.attributes[entity] if board is not None else ()
    text = next((v for k, v in attrs if k == "text"), "")
    return {"id": meta.entity_ids[entity], "label": meta.entity_labels[entity],
            "kind": meta.entity_kinds[entity],
            "attrs": [[k, v] for k, v in attrs if k != "text" and v != "0"], "text": text,
            "at": board.entity_at[entity] if board is not None else ""}


def json_strings(value: Any, out: set[str] | None = None) -> set[str]:
    """Every string in a JSON value, keys included (what a page could show)."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.add(str(key))
            json_strings(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            json_strings(item, out)
    return out


_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::\d+)?$")


_SOURCES: dict[tuple[str, tuple[Path, ...]], str] = {}


def spec_source(at: str, roots: Iterable[Path]) -> str:
    """The line of spec text at `file:line[:col]`, looked for under each root; '' if absent."""
    key = (at, tuple(roots))
    if key not in _SOURCES:
        _SOURCES[key] = _source(at, key[1])
    return _SOURCES[key]


def _source(at: str, roots: tuple[Path, ...]) -> str:
    match = _LOCATION.match(at or "")
    if not match:
        return ""
    for root in roots:
        path = Path(root) / match["file"]
        if path.suffix == ".rules" and path.is_file():
            lines = _read_lines(path)
            number = int(match["line"])
            if 1 <= number <= len(lines):
                return lines[number - 1].strip()
    return ""


_LINES: dict[Path, list[str]] = {}


def _read_lines(path: Path) -> list[str]:
    if path not in _LINES:
        try:
            _LINES[path] = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            _LINES[path] = []
    return _LINES[path]
