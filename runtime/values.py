"""Values as both back ends read them: zones held in values, collections, text, errors.

The interpreter and every generated package call these, so each rule about a
value (how a zone is written as one, what `log` prints for none, which
message a bad read fails with) has one home.
"""

from __future__ import annotations

import linecache
from typing import Any, Callable, Mapping, NoReturn, Sequence

from rulespec.runtime.state import MAX_ROUNDS, RuleError, State

# A zone as a value (a `zone` parameter or local) is "@<slot>": plain data.
ZONE_TAG = "@"


def zone_value(slot: int) -> str:
    """The value that stands for the zone at `slot`."""
    return f"{ZONE_TAG}{slot}"


def is_zone(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(ZONE_TAG)


def zone_slot(value: Any, location: str) -> int:
    """The slot of a zone held in a value."""
    if is_zone(value):
        return int(value[len(ZONE_TAG):])
    raise RuleError("not a zone", location)


def in_zone(state: State, card: int | None, slot: int) -> bool:
    return card is not None and state.location[card] == slot


def collection_of(state: State, value: Any, regions: Mapping[int, Sequence[int]], location: str) -> list:
    """The members of a zone or region held in a value, as a fresh list."""
    if is_zone(value):
        return list(state.zones[int(value[len(ZONE_TAG):])])
    if value in regions:
        return list(regions[value])
    raise RuleError(f"not a collection: {text_of(value)}", location)


def union_of(first: Sequence, second: Sequence) -> list:
    """`a + b` of two collections: a's members, then b's not in a (each member once)."""
    out = list(first)
    if not out:
        return list(second)
    seen = set(out)
    out.extend(x for x in second if x not in seen)
    return out


def member_of(state: State, item: Any, value: Any, region_sets: Mapping[int, frozenset],
              location: str) -> bool:
    """`item in value` for a zone or region held in a value."""
    if value in region_sets:
        return item in region_sets[value]
    if is_zone(value):
        return in_zone(state, item, int(value[len(ZONE_TAG):]))
    raise RuleError(f"not a collection: {text_of(value)}", location)


def reachable(start: int | None, adjacency: Sequence[Sequence[int]], passable: Callable[[int], Any],
              location: str) -> list[int]:
    """`start` and every space joined to it by a chain of adjacent spaces that are each
    `passable` (the start need not be), in index order: a path in a filtered map graph."""
    if start is None:
        raise RuleError("cannot look for what is reachable from none", location)
    seen = {start}
    todo = [start]
    while todo:
        for near in adjacency[todo.pop()]:
            if near not in seen and passable(near):
                seen.add(near)
                todo.append(near)
    return sorted(seen)


def extreme_of(pairs: Sequence[tuple[int, Any]], highest: bool) -> Any:
    """argmax / argmin: of (value, member) pairs, the member of the highest (or lowest) value,
    the first of them on a tie; None when there is none."""
    found, best = None, None
    for value, member in pairs:
        if best is None or (value > best if highest else value < best):
            found, best = member, value
    return found


def text_of(value: Any) -> str:
    """A value as `log` writes it and an option id names it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def label_of(labels: Sequence[str], player: int | None) -> str:
    """A player as `log` writes it: its label, or none."""
    return "none" if player is None else labels[player]


def fill_prompt(pieces: Sequence[str], shown: Sequence[Any]) -> str | tuple[str, list[list[int]]]:
    """A prompt with the values it names ("Keep {c} for 3 MC?"): its pieces around their texts.
    A text given as (text, entity) names that entity: the prompt comes back with where it
    does, [start, end, entity] each (state.ask keeps the cards among them)."""
    out = [pieces[0]]
    named: list[list[int]] = []
    length = len(pieces[0])
    for text, piece in zip(shown, pieces[1:]):
        if type(text) is tuple:
            text, entity = text
            named.append([length, length + len(text), entity])
        out += (text, piece)
        length += len(text) + len(piece)
    return ("".join(out), named) if named else "".join(out)


def option_names(values: list, ids: Sequence[str] | None = None,
                 labels: Sequence[str] | None = None) -> tuple[list[str], list[str]]:
    """The ids and labels of a choice's options: by table, or numbers by themselves."""
    if ids is None or labels is None:
        names = [str(v) for v in values]
        return names, names
    return [ids[v] for v in values], [labels[v] for v in values]


# ------------------------------------------------------------------ reads that may fail


def attr_of(table: Sequence | Mapping, entity: int | None, name: str, location: str) -> Any:
    """table[entity], where `entity` may be none."""
    if entity is None:
        raise RuleError(f"none has no attribute '{name}'", location)
    return table[entity]


def owner_of(owners: Sequence[int | None], card: int | None, location: str) -> int:
    """The player a card of a kind `per player` belongs to."""
    owner = None if card is None else owners[card]
    if owner is None:
        what = "none" if card is None else "a card of a kind that is not 'per player'"
        raise RuleError(f"owner() of {what}: it belongs to no player", location)
    return owner


def rule_error(message: str, location: str) -> NoReturn:
    raise RuleError(message, location)


def unknown_name(name: str, location: str) -> NoReturn:
    raise RuleError(f"unknown name '{name}'", location)


def unknown_function(name: str, location: str) -> NoReturn:
    raise RuleError(f"unknown function '{name}'", location)


def some_card(card: int | None, location: str) -> int:
    """A card to move, which may be none (the top of an empty zone): none is an error."""
    if card is None:
        raise RuleError("cannot move none: no card", location)
    return card


# ------------------------------------------------------------------ the game's own values


def opponent_of(player: int | None, players: int) -> int | None:
    """The next player round the table; the opponent of none is none."""
    return None if player is None else (player + 1) % players


def winner_of(state: State) -> int | None:
    return state.result["winner"] if state.result else None


def losers_of(state: State) -> list[int]:
    """The players a `lose` named (none after a `win`, or before the end)."""
    return list(state.result.get("losers", ())) if state.result else []


def deciding_of(state: State) -> int | None:
    """The player the pending decision waits for, or none."""
    return state.pending["player"] if state.pending else None


def end_reason_of(state: State) -> str:
    return state.result["reason"] if state.result else ""


def event_allowed(state: State, whens: Mapping[int, Callable[..., Any]], card: int, player: int) -> bool:
    """Whether a card's event condition holds for `player` (true without one)."""
    when = whens.get(card)
    return True if when is None else bool(when(state, player, card))


# ------------------------------------------------------------------ kept defines that pay

KEEP_TRIAL = 2000  # look-ups of a kept define counted before it is decided whether keeping pays
KEEP_SHARE = 8  # keeping goes on when at least one look-up in this many found the value kept


class Keeping:
    """Whether each kept define of a generated module still keeps its values (compiler/backends/codegen/
    kept.py): `mode[n]` 2 on trial, 1 keeping, 0 not. On trial its look-ups are counted; after
    KEEP_TRIAL it keeps on when at least one in KEEP_SHARE found its value, and stops keeping for
    the rest of the process when not. A define asked once per option of a decision whose move
    changes what it reads never finds its value: keeping would cost it a key, a look-up and a
    store every time, and every copy of the state the values stored. Kept or not, a define's
    value is the same; only the time it takes differs."""

    __slots__ = ("mode", "hits", "looks")

    def __init__(self, count: int):
        self.mode = [2] * count
        self.hits = [0] * count
        self.looks = [0] * count

    def looked(self, n: int, found: bool) -> None:
        """One look-up of define `n` on trial, which found its value or not."""
        if found:
            self.hits[n] += 1
        looks = self.looks[n] = self.looks[n] + 1
        if looks >= KEEP_TRIAL:
            self.mode[n] = 1 if self.hits[n] * KEEP_SHARE >= looks else 0


# ------------------------------------------------------------------ the bound of whole numbers

# Whole numbers a rule keeps are signed 64-bit (docs/LANGUAGE.md, "Values and types"): a value
# past this is a rule error where it is kept - in a var, a counter, a local, an argument - so a
# loop that squares a number stops at once instead of filling memory. A range collection holds
# at most MAX_ROUNDS numbers and a roll at most MAX_DICE
# dice (rulespec.runtime.state), so neither runs without end.
INT_LOW, INT_HIGH = -2**63, 2**63 - 1


def bounded(value: Any, location: str) -> Any:
    """`value` as it is, unless it is a whole number past the bound: then a RuleError."""
    if type(value) is int and not INT_LOW <= value <= INT_HIGH:
        raise RuleError(f"a whole number of {value.bit_length():,} bits, past the bound of"
                        f" {INT_LOW:,}..{INT_HIGH:,} (signed 64 bits): a value that grows without"
                        f" end?", location)
    return value


def int_range(low: int, high: int, location: str) -> range:
    """The numbers low..high, both included: a RuleError past MAX_ROUNDS of them."""
    bounded(low, location)
    bounded(high, location)
    if high - low >= MAX_ROUNDS:
        raise RuleError(f"the range {low}..{high} holds {high - low + 1:,} numbers, more than"
                        f" the {MAX_ROUNDS:,} a range may hold", location)
    return range(low, high + 1)


# ------------------------------------------------------------------ failures of the rules' own values

NONE_READ = "a value here is none, where a player, space or card is needed"
DIVISION_BY_ZERO = "division by zero: the divisor here is 0"

# What a rule's values can fail with when they run, past the checker: none where a player, space
# or card is needed, a divisor that is 0. Both back ends catch these around what runs spec code
# and turn them into a RuleError at the spec line (rule_error_of); nothing is tested beforehand,
# so the engine pays nothing while no rule fails.
RULE_FAILURES = (TypeError, KeyError, ZeroDivisionError)


def rule_error_of(err: Exception, location: str = "") -> Exception:
    """One of RULE_FAILURES that came of the spec's values as a RuleError at its spec line: the
    given one, else the `# spec:` line above the generated statement that failed. Any other
    error is returned as it was (a bug stays a bug)."""
    if isinstance(err, ZeroDivisionError):
        if not location and not _raised_in_generated(err.__traceback__):
            return err  # a division in the runtime's own code: a bug
        return RuleError(DIVISION_BY_ZERO, location or _generated_spec_line(err.__traceback__))
    if not _of_none(err):
        return err
    return RuleError(NONE_READ, location or _generated_spec_line(err.__traceback__))


def _of_none(err: Exception) -> bool:
    if isinstance(err, KeyError):
        return err.args == (None,)
    return isinstance(err, TypeError) and "NoneType" in str(err)


def _is_generated(code) -> bool:
    lines = linecache.getlines(code.co_filename)
    return bool(lines) and lines[0].startswith(GENERATED_MARK)


def _raised_in_generated(tb) -> bool:
    """Whether the innermost frame of a traceback is generated code."""
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return _is_generated(tb.tb_frame.f_code)


def _generated_spec_line(tb) -> str:
    """The spec line of the innermost generated statement in a traceback ('' if none is found)."""
    found = ""
    while tb is not None:
        lines = linecache.getlines(tb.tb_frame.f_code.co_filename)
        if lines and lines[0].startswith(GENERATED_MARK):
            for line in reversed(lines[:tb.tb_lineno]):
                text = line.strip()
                if text.startswith("# spec: "):
                    found = text[len("# spec: "):]
                    break
        tb = tb.tb_next
    return found


GENERATED_MARK = "# Generated by rulespec"
