"""Game state as plain data, and the primitive operations both back ends use.

It stays whole past 600 lines: the State and the primitives on it are one unit, which generated
code imports by name from here and the native build compiles as one extension type (state.pxd)."""

from __future__ import annotations

from typing import Any

from rulespec.runtime.meta import GameMeta

_MASK = (1 << 64) - 1
# The seeds a game takes: a 64-bit number, signed or not (the stream keeps its low 64 bits).
# Every command taking --seed and every record is held to this range.
SEED_LOW, SEED_HIGH = -2**63, 2**64 - 1
# Where a card taken out of the game before it began lies (`rulespec worth --as removed`): in
# no zone, and no move brings it back (any other card's location is a zone slot, 0 and up).
OUT = -2

# A budget both back ends keep alike, so a program that never ends stops with
# the same located error on either: loop rounds (`while`, `repeat`) between two
# decisions, and events resolved inside events still running.
MAX_ROUNDS = 1_000_000
MAX_NESTING = 50
MAX_DICE = 10_000  # dice in one roll


class RuleError(Exception):
    """A rule could not be carried out at run time (a dead end, a bad move);
    `location` names the spec line it came from."""

    def __init__(self, message: str, location: str = ""):
        super().__init__(f"{location}: {message}" if location else message)
        self.location = location
        self.reason = message


class GameOver(Exception):
    """Raised by `win` to unwind every frame; the result is already in the state."""


class State:
    """Everything that changes during a game; copyable and JSON-serialisable.

    Values: players are ints (their index), entities ints (their index),
    enum values strings, none is None. Its native build is an extension type with these
    fields typed (state.pxd): so a copy is made with State.__new__, never object.__new__.
    """

    # What a snapshot holds (to_json, from_json).
    SAVED = (
        "tracks", "vars", "counters", "zones", "location", "revealed",
        "effects", "rng", "dice", "frames", "pending", "result", "log",
        "decisions", "params", "trace", "dice_strict", "rounds", "nesting", "log_at", "rolled",
        "shown", "blanked", "log_marks", "knowledge", "sight",
    )
    # Not saved: write counts and the filters kept while they hold (compiler/backends/codegen/kept.py).
    # stamps[0] counts writes of the zones, [1] of the effects, the rest those of each track,
    # counter and var as generated code numbers them (never more than the state has slots).
    __slots__ = SAVED + ("stamps", "memo")
    # Slots a snapshot may lack (older records): their values when absent.
    OPTIONAL = {"trace": None, "dice_strict": False, "rounds": 0, "nesting": 0, "log_at": None,
                "rolled": None, "shown": None, "blanked": (),
                "log_marks": None, "knowledge": None, "sight": None}

    def __init__(self, meta: GameMeta, seed: int, params: dict[str, Any]):
        players = len(meta.players)
        self.tracks: list[int] = []
        for track in meta.tracks:
            self.tracks += [track.start] * (players if track.per_player else 1)
        self.vars: list[Any] = [initial for _, initial in meta.vars]
        self.counters: list[list[int]] = [
            [0] * len(meta.entity_ids) for _ in range(meta.counter_slots)
        ]
        self.zones: list[list[int]] = [[] for _ in range(meta.zone_slots)]
        self.location: list[int] = [-1] * len(meta.entity_ids)
        for card in meta.card_entities:
            self.zones[0].append(card)
            self.location[card] = 0
        # Cards whose own event, action and `while in` abilities do nothing (`rulespec worth
        # --as blank`, overlay()): dealt and played as ever, for everything but their own effect.
        self.blanked: tuple[int, ...] = ()
        self.revealed: list[bool] = [False] * meta.zone_slots
        # Single cards made known (`show`): [card, the slot it lay in, the player or None for
        # everyone], while the card has not moved since (rulespec.runtime.state.known_cards).
        self.shown: list[list[Any]] = []
        # What each seat knows (docs/LANGUAGE.md, "What a seat knows"): per zone slot, the seats
        # that see its cards by the zone's declared visibility, as bits (never changes); per
        # seat, the cards it has seen that lie where it cannot see them now, card -> slot.
        self.sight: list[int] = sight_of(meta)
        self.knowledge: list[dict[int, int]] = [{} for _ in range(players)]
        self.effects: list[list[Any]] = []  # [effect, args, lifetime or None]
        self.rng: int = seed & _MASK
        self.dice: list[int] = []  # fixed rolls, used first (designer tests)
        self.dice_strict = False  # a roll with no fixed die left is an error (designer tests)
        self.frames: list[Any] = []  # back-end specific, plain data
        self.pending: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.log: list[str] = []
        self.log_at: list[str] = []  # per log line, the spec location of the `log` that wrote it
        # Per log line, None or [the player it is written to or None, the cards it names as
        # [start, end, card, slot, sight]] (log_seen): who could read each card when it was written.
        self.log_marks: list[Any] = []
        self.decisions: int = 0
        self.params: dict[str, Any] = dict(params)
        self.trace: dict[str, int] | None = None  # "what card" -> count, when traced
        self.rounds: int = 0  # loop rounds since the last decision (MAX_ROUNDS)
        self.nesting: int = 0  # events running inside events (MAX_NESTING)
        self.stamps: list[int] = fresh_stamps(self)
        self.memo: dict[Any, Any] = {}
        # The dice rolled, [location, value, log lines written before it], while a play
        # surface listens (runtime/playtest/table.py shows them in the move log); None: nobody does.
        self.rolled: list[list[Any]] | None = None

    # ---------------------------------------------------------- copies
    def copy(self) -> State:
        """An independent copy, cheap enough for search bots (values are immutable)."""
        other = State.__new__(State)
        other.tracks = self.tracks[:]
        other.vars = self.vars[:]
        other.counters = [cells[:] for cells in self.counters]
        other.zones = [cards[:] for cards in self.zones]
        other.location = self.location[:]
        other.revealed = self.revealed[:]
        other.shown = self.shown[:]  # its entries are never changed, only dropped
        other.sight = self.sight  # never changed
        other.knowledge = [known.copy() for known in self.knowledge]
        other.effects = [[e, args[:], life] for e, args, life in self.effects]
        other.rng = self.rng
        other.dice = self.dice[:]
        other.dice_strict = self.dice_strict
        other.frames = copy_plain(self.frames)
        other.pending = None if self.pending is None else dict(self.pending)
        other.result = None if self.result is None else dict(self.result)
        other.log = self.log[:]
        other.log_at = self.log_at[:]
        other.log_marks = self.log_marks[:]  # its entries are never changed
        other.decisions = self.decisions
        other.params = dict(self.params)
        other.trace = None if self.trace is None else dict(self.trace)
        other.rounds = self.rounds
        other.nesting = self.nesting
        other.stamps = self.stamps[:]
        other.memo = dict(self.memo)  # kept lists are never changed, only replaced
        other.rolled = None  # a copy is a look ahead: nobody reads its dice
        other.blanked = self.blanked
        return other

    def to_json(self) -> dict[str, Any]:
        saved = {name: getattr(self, name) for name in self.SAVED}
        saved["blanked"] = list(self.blanked)  # kept as a tuple; saved as JSON has it
        return saved

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        for name in cls.SAVED:
            value = data.get(name, cls.OPTIONAL.get(name))
            if name == "effects":
                value = [[e, list(a), life] for e, a, life in value]
            setattr(state, name, value)
        if state.log_at is None:  # a snapshot from before log lines had locations
            state.log_at = [""] * len(state.log)
        if state.log_marks is None:  # a snapshot from before lines named cards as seen
            state.log_marks = [None] * len(state.log)
        if state.shown is None:  # a snapshot from before `show`
            state.shown = []
        if state.knowledge is not None:  # JSON keys are text
            state.knowledge = [{int(card): slot for card, slot in known.items()}
                               for known in state.knowledge]
        state.blanked = tuple(state.blanked)
        state.stamps = fresh_stamps(state)
        state.memo = {}
        return state

    def forget_kept(self) -> None:
        """Drop the kept filters: for code that changes the state other than as rules do
        (a search re-dealing hidden cards), so nothing kept of the old state is read."""
        self.memo = {}

    def public_part(self) -> dict[str, Any]:
        """What both back ends must agree on (frames are back-end specific)."""
        return {
            "tracks": self.tracks, "vars": self.vars, "counters": self.counters,
            "zones": self.zones, "revealed": self.revealed, "shown": self.shown,
            "knowledge": self.knowledge,
            "effects": self.effects, "rng": self.rng, "result": self.result,
            "decisions": self.decisions,
        }


def fresh_stamps(state: State) -> list[int]:
    """Write counts at zero, one for the zones, one for the effects, one per track, counter
    and var slot (at least one per declaration, whatever numbering generated code uses)."""
    return [0] * (2 + len(state.tracks) + len(state.counters) + len(state.vars))


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data - lists and dicts of immutable values - such as frames.

    Several times faster than copy.deepcopy, which search bots pay on every
    look ahead (a frame holds only lists, dicts, numbers, strings and None)."""
    kind = type(value)
    if kind is list:
        return [copy_plain(v) if type(v) in _NESTED else v for v in value]
    if kind is dict:
        return {k: copy_plain(v) if type(v) in _NESTED else v for k, v in value.items()}
    return value


_NESTED = frozenset({list, dict})


# ------------------------------------------------------------------ dice


def next_random(state: State) -> int:
    """splitmix64: small, fast, and its whole state is one int."""
    state.rng = (state.rng + 0x9E3779B97F4A7C15) & _MASK
    z = state.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Stream:
    """A random stream of its own (bots, the fuzzer): the one attribute `next_random` advances."""

    __slots__ = ("rng",)

    def __init__(self, rng: int):
        self.rng = rng & _MASK


def roll(state: State, sides: int = 6, at: str = "") -> int:
    """A die: the next fixed one if any are queued, else the seeded stream.

    `at` is the spec line of the roll, named when a designer test rolls a die
    it did not fix."""
    if state.dice:
        value = state.dice.pop(0)
    elif state.dice_strict:
        raise RuleError("a die is rolled here but the test queued none: add `dice N` before"
                        " the step that rolls it, or `dice random` to the test", at)
    else:
        value = next_random(state) % sides + 1
    if state.rolled is not None:
        state.rolled.append([at, value, len(state.log)])
    return value


def roll_sorted(state: State, count: int, width: int, at: str = "") -> list[int]:
    """`count` dice, highest first, as `width` values: the highest ones, or 0 where none is left."""
    if not 0 <= count <= MAX_DICE:
        shown = count if abs(count) < 10**12 else "so many"  # str() of a huge int is slow
        raise RuleError(f"cannot roll {shown} dice (at most {MAX_DICE:,} at once)", at)
    rolls = sorted((roll(state, 6, at) for _ in range(count)), reverse=True)
    return (rolls + [0] * width)[:width]


def pick_random(state: State, members: list, at: str = "") -> Any:
    """One of `members` drawn uniformly from the seeded stream (as `shuffle` draws, never from
    a test's queued dice); none to draw from is a rule error at `at`."""
    if not members:
        raise RuleError("nothing to pick at random from: the collection is empty here"
                        " (write `or skip` to go on without)", at)
    return members[next_random(state) % len(members)]


def shuffle(state: State, slot: int) -> None:
    cards = state.zones[slot]
    for i in range(len(cards) - 1, 0, -1):
        j = next_random(state) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    state.stamps[0] += 1


# ------------------------------------------------------------------ cards


def overlay(state: State, blanked: tuple[int, ...] = (), removed: tuple[int, ...] = ()) -> None:
    """Before the game begins: the `blanked` cards' own events, actions and abilities will do
    nothing, and the `removed` cards leave the first zone for OUT (`rulespec worth`)."""
    state.blanked = tuple(sorted(set(state.blanked) | set(blanked)))
    for card in removed:
        if state.location[card] >= 0:
            state.zones[state.location[card]].remove(card)
        state.location[card] = OUT
    state.stamps[0] += 1


def move_card(state: State, card: int, slot: int) -> None:
    old = state.location[card]
    if old >= 0:
        state.zones[old].remove(card)
    elif old == OUT:
        return
    state.zones[slot].append(card)
    state.location[card] = slot
    state.stamps[0] += 1
    if state.trace is not None:
        note_drawn(state, card, old, slot)
    if state.shown:
        _unshow(state, card)
    follow_card(state, card, old, slot)


def move_card_bottom(state: State, card: int, slot: int) -> None:
    """Put `card` under the others of zone `slot` (a zone lists its cards bottom to top)."""
    old = state.location[card]
    if old >= 0:
        state.zones[old].remove(card)
    elif old == OUT:
        return
    state.zones[slot].insert(0, card)
    state.location[card] = slot
    state.stamps[0] += 1
    if state.trace is not None:
        note_drawn(state, card, old, slot)
    if state.shown:
        _unshow(state, card)
    follow_card(state, card, old, slot)


def show_card(state: State, card: int | None, location: str, *to: int | None) -> None:
    """`show card [to player]`: the card known to everyone (or to that player) where it lies;
    the zone itself stays hidden. The seat knows it from then on, wherever it can follow it
    (follow_card): it sees it in its views, and a search bot re-dealing what it cannot see
    leaves it in place (runtime/bots/search.py). `shown` keeps the show while the card stays."""
    if card is None:
        raise RuleError("'show' needs a card, not none", location)
    player = to[0] if to else None
    if to and player is None:
        raise RuleError("'show ... to' needs a player, not none", location)
    entry = [card, state.location[card], player]
    if entry not in state.shown:
        state.shown.append(entry)
    slot = entry[1]
    if slot >= 0:
        for seat, known in enumerate(state.knowledge):
            if (player is None or seat == player) and not sees(state, seat, slot):
                known[card] = slot


def _unshow(state: State, card: int) -> None:
    """A moved card is no longer known where it was shown."""
    state.shown = [e for e in state.shown if e[0] != card]


# ------------------------------------------------------------------ what a seat knows

EVERYONE = -1  # a sight whose every seat's bit is set: a public zone's


def sight_of(meta: GameMeta) -> list[int]:
    """Per zone slot, the seats that see its cards by the zone's declared visibility, as bits:
    EVERYONE for a public zone, its owner's bit for an `owner` zone of a player, none else."""
    sight = []
    for slot in range(meta.zone_slots):
        zone, owner = meta.zone_of_slot(slot)
        sight.append(EVERYONE if zone.visibility == "public" else
                     1 << owner if zone.visibility == "owner" and owner is not None else 0)
    return sight


def follow_card(state: State, card: int, old: int, new: int) -> None:
    """Each seat's knowledge after `card` moved from slot `old` to `new`. A seat that sees it
    in `new` needs no record; one that saw it leave `old`, or knew it was there and can tell
    it moved (`old` is empty now: sizes are public), knows it is in `new`; any other seat
    cannot tell which card left `old`, so it no longer knows any card it knew there."""
    sight, revealed = state.sight, state.revealed
    if not any(state.knowledge) and (old < 0 or not (sight[old] or revealed[old])
                                     or sight[new] == EVERYONE or revealed[new]):
        return  # nothing known, and nobody saw the card go where it cannot see it: most moves
    seen_new = EVERYONE if revealed[new] else sight[new]
    if seen_new == EVERYONE:
        for known in state.knowledge:
            if known:
                known.pop(card, None)
        return
    if old < 0:
        watched, emptied = 0, False
    else:
        watched = EVERYONE if revealed[old] else sight[old]
        emptied = not state.zones[old]
    for seat, known in enumerate(state.knowledge):
        if seen_new >> seat & 1:
            if known:
                known.pop(card, None)
        elif watched >> seat & 1 or (emptied and card in known):
            known[card] = new
        elif known:
            for gone in [c for c, slot in known.items() if slot == old]:
                del known[gone]


def conceal_zone(state: State, slot: int) -> None:
    """`conceal ZONE`: the zone is seen again only by its declared visibility. A seat that saw
    its cards while it was revealed keeps knowing each where it lies (follow_card then follows
    it, or forgets it when a card leaves the zone unseen)."""
    if state.revealed[slot]:
        state.revealed[slot] = False
        cards, seen = state.zones[slot], state.sight[slot]
        for seat, known in enumerate(state.knowledge):
            if not seen >> seat & 1:
                for card in cards:
                    known[card] = slot
    state.stamps[0] += 1


def sees(state: State, player: int, slot: int) -> bool:
    """Whether `player` sees the cards of zone `slot` now (its visibility, or revealed)."""
    return state.revealed[slot] or state.sight[slot] >> player & 1 == 1


def knows(state: State, player: int, card: int) -> bool:
    """`known(p, c)`: whether `p` sees the card where it lies, or saw it and followed it there."""
    slot = state.location[card]
    return slot >= 0 and (sees(state, player, slot) or card in state.knowledge[player])


def known_in(state: State, player: int, slot: int) -> list[int]:
    """`known_in(p, zone)`: the zone's cards `p` knows lie there: all of them when it sees the
    zone, else those it followed there, in card order (a hidden zone's order stays hidden)."""
    if sees(state, player, slot):
        return list(state.zones[slot])
    return sorted(card for card, where in state.knowledge[player].items() if where == slot)


def known_cards(state: State, player: int) -> frozenset[int]:
    """The cards `player` knows that lie in zones it cannot see (shown to it, or followed)."""
    return frozenset(state.knowledge[player])


def top_card(state: State, slot: int) -> int | None:
    cards = state.zones[slot]
    return cards[-1] if cards else None


def note_event(state: State, card: int, player: int | None = None) -> None:
    """Count a fired event when the game is traced (fuzz coverage, simulations);
    "event <card> by <player>" too, so simulations can tell whose use it was."""
    if state.trace is not None:
        _count(state.trace, f"event {card}", player)


def note_signal(state: State, signal: str, cards: list[int | None], player: int | None = None) -> None:
    """Count an emitted signal per card argument, when the game is traced; `player`
    is the signal's first player argument, if it has one."""
    if state.trace is not None:
        for card in cards:
            if card is not None:
                _count(state.trace, f"{signal} {card}", player)


DRAWN = "drawn "  # the trace's key of a card drawn: a draw, not a use of the card (note_drawn)


def note_drawn(state: State, card: int, old: int, new: int) -> None:
    """Count a card drawn, when the game is traced: "drawn <card> by <player>" when it comes into
    a zone only one player sees (a hand: `per player owner`) from one that player did not see
    alone (a deck, the table, another's hand; not another zone of its own, hand to headline)."""
    seen = state.sight[new]
    if seen > 0 and (old < 0 or state.sight[old] != seen):
        _count(state.trace, f"{DRAWN}{card}", seen.bit_length() - 1)


def note_choice(meta, state: State, index: int) -> None:
    """Count a card a player picked in a decision, when the game is traced: "chosen <card> by
    <player>". A card played without an event, or for its numbers, is seen in play so."""
    if state.trace is None or state.pending is None:
        return
    value, option = state.pending["values"][index], state.pending["ids"][index]
    if (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(meta.entity_ids)
            and meta.entity_ids[value] == option and value in meta.card_entities):
        _count(state.trace, f"chosen {value}", state.pending["player"])


def _count(trace: dict[str, int], key: str, player: int | None) -> None:
    trace[key] = trace.get(key, 0) + 1
    if isinstance(player, int) and not isinstance(player, bool):
        by = f"{key} by {player}"
        trace[by] = trace.get(by, 0) + 1


# ------------------------------------------------------------------ effects


def activate(state: State, effect: int, args: list[Any], lifetime: str | None) -> None:
    state.effects.append([effect, list(args), lifetime])
    state.stamps[1] += 1


def cancel(state: State, effect: int, args: list[Any] | None) -> None:
    state.effects = [
        e for e in state.effects
        if not (e[0] == effect and (args is None or e[1] == list(args)))
    ]
    state.stamps[1] += 1


def expire(state: State, lifetime: str) -> None:
    state.effects = [e for e in state.effects if e[2] != lifetime]
    state.stamps[1] += 1


def is_active(state: State, effect: int, args: list[Any] | None) -> bool:
    for e in state.effects:
        if e[0] == effect and (args is None or e[1] == list(args)):
            return True
    return False


# ------------------------------------------------------------------ the log


def log_line(state: State, text: str, at: str) -> None:
    """A line of the game log that names no card, with the spec line of the `log` that wrote it."""
    state.log.append(text)
    state.log_at.append(at)
    state.log_marks.append(None)


def log_seen(state: State, parts: list[Any], at: str, *to: int | None) -> None:
    """A line of the game log, its parts joined by spaces; a part (text, entity) names that
    entity, (text, entity or None, seats) is a value only those seats may read (secret_part).
    Each card named keeps where it lay and who could see it there now, so every
    reader reads it as it was seen when written (runtime/logview.py), wherever it goes
    later; `to`: the one player the line is written to (`log to p`)."""
    if to and to[0] is None:
        raise RuleError("'log to' needs a player, not none", at)
    texts: list[str] = []
    cards: list[list[Any]] = []
    secrets: list[list[Any]] = []
    length = -1
    for part in parts:
        length += 1  # the space before it
        if type(part) is tuple:
            if len(part) == 3:
                secrets.append([length, length + len(part[0]), part[2]])
            part, entity = part[0], part[1]
            slot = -1 if entity is None else state.location[entity]
            if slot >= 0:  # a card in a zone (other entities are public)
                cards.append([length, length + len(part), entity, slot, card_sight(state, entity, slot)])
        texts.append(part)
        length += len(part)
    state.log.append(" ".join(texts))
    state.log_at.append(at)
    marks = [to[0] if to else None, cards] if to or cards or secrets else None
    if secrets:
        marks.append(secrets)
    state.log_marks.append(marks)


def secret_part(shown: str | tuple[str, Any], *seats: int | None) -> tuple[str, Any, list[int]]:
    """A `log` part that reads what only the seats of the player locals `seats` may see (a
    hidden track, another's owner track: compiler/frontend/labels.log_readers), as log_seen
    takes it: every other reader reads it blanked (runtime/logview.py)."""
    text, entity = shown if type(shown) is tuple else (shown, None)
    return text, entity, sorted({seat for seat in seats if seat is not None})


def card_sight(state: State, card: int, slot: int) -> bool | list[int]:
    """Who sees `card` in `slot` now beyond the zone's own visibility: True for everyone (the
    zone revealed, or the card shown to all), else the players it was shown to."""
    if state.revealed[slot]:
        return True
    players = []
    for shown_card, shown_slot, player in state.shown:
        if shown_card == card and shown_slot == slot:
            if player is None:
                return True
            players.append(player)
    return sorted(players)


def log_shown(state: State, card: int, player: int, card_label: str, player_label: str,
              at: str) -> None:
    """`show card to player` leaves that player a private line naming the card, so what it
    was shown stays in its log after the card moves on."""
    log_seen(state, [f"Shown to {player_label}:", (card_label, card)], at, player)


# ------------------------------------------------------------------ decisions


def ask(state: State, player: int, prompt: str | tuple[str, list[list[int]]], ids: list[str],
        labels: list[str], values: list[Any], location: str, about: tuple[Any, ...] = ()) -> None:
    """Make the game wait for `player` to pick one of `ids`; `about`: the entities its
    prompt names (the table shows them beside it). A prompt that names entities comes with
    where it names them (values.fill_prompt): the cards among them are kept as log_seen
    keeps them, so the move's line reads as the prompt was seen when asked."""
    named: list[list[int]] = []
    if type(prompt) is tuple:
        prompt, named = prompt
    if not ids:
        raise RuleError(f"dead end: no legal option for '{prompt}'", location)
    state.pending = {
        "player": player, "prompt": prompt, "ids": ids, "labels": labels,
        "values": values, "at": location,
    }
    if about:
        state.pending["about"] = list(dict.fromkeys(e for e in about if e is not None))
    marks = [[start, end, entity, state.location[entity], card_sight(state, entity, state.location[entity])]
             for start, end, entity in named if entity is not None and state.location[entity] >= 0]
    if marks:
        state.pending["marks"] = marks
    state.rounds = 0


# ------------------------------------------------------------------ the budget


def tick(state: State, loop: str, location: str) -> None:
    """One more round of a `while` or `repeat` loop; an error past MAX_ROUNDS without a decision."""
    state.rounds += 1
    if state.rounds > MAX_ROUNDS:
        raise RuleError(f"{MAX_ROUNDS:,} loop rounds without a decision, the last in this"
                        f" '{loop}': a loop that never ends?", location)


def enter_event(state: State, card: str, location: str) -> None:
    """An event starts inside the events still running; an error past MAX_NESTING."""
    state.nesting += 1
    if state.nesting > MAX_NESTING:
        raise RuleError(f"the event of {card} would run inside {MAX_NESTING} other events:"
                        f" events that resolve each other without end?", location)


def leave_event(state: State) -> None:
    """An event has run to its end."""
    state.nesting -= 1


def end_game(state: State, winner: int | None, reason: str, location: str,
             losers: tuple[int, ...] = ()) -> None:
    """The game ends now: `win` names a winner (or none, a draw), `lose` the players who lose."""
    state.result = {"winner": winner, "losers": sorted(set(losers)), "reason": reason, "at": location}
    state.pending = None
    state.frames = []
    raise GameOver()


def lose_game(state: State, losers: tuple[int, ...], reason: str, location: str) -> None:
    """`lose p, q "reason"`: those players lose and nobody wins."""
    end_game(state, None, reason, location, losers)
