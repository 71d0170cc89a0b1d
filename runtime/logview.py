"""A log line as one reader reads it: each card it names as that reader saw it when the
line was written (state.log_seen keeps where the card lay and who could see it there).

Public then, named to that reader forever; hidden from it then, hidden forever, whatever
became of the card since. It works on what the line says about cards, never on words, so
a hidden card named like a space stays hidden while the space is named. A value a line
read that a reader may not see (a hidden track, another player's `owner` track) reads as
HIDDEN_VALUE to that reader: the line's marks say which seats may read it. A line written to
one player (`log to p`) is that player's alone.
"""

from __future__ import annotations

from typing import Any

from rulespec.runtime.meta import GameMeta

HIDDEN_CARD = "(a hidden card)"
HIDDEN_VALUE = "(hidden)"  # a value the line read that the reader may not see (a hidden track)
EVERYONE = None  # the reader of the whole log: a record's full view, the host


def saw(meta: GameMeta, reader: int | None, slot: int, sight: bool | list[int]) -> bool:
    """Whether `reader` saw a card lying in `slot`, with the `sight` it had there then."""
    if reader is EVERYONE or sight is True or reader in sight:
        return True
    zone, owner = meta.zone_of_slot(slot)
    return zone.visibility == "public" or (zone.visibility == "owner" and owner == reader)


def read_line(meta: GameMeta, text: str, marks: Any, reader: int | None) -> str | None:
    """The line as `reader` (a player index, or EVERYONE) reads it; None when it was written
    to another player."""
    if marks is None:
        return text
    if marks[0] is not None and reader is not EVERYONE and marks[0] != reader:
        return None
    return blank_unseen(meta, text, marks[1], reader, secrets_of(marks))


def whole_line(meta: GameMeta, text: str, marks: Any) -> str:
    """The line as the whole log shows it (a record's summary, the host): every card named,
    a line written to one player saying whose it is."""
    if is_private(marks):
        return f"(to {meta.player_labels[marks[0]]}) {text}"
    return text


def blank_unseen(meta: GameMeta, text: str, cards: list[list[Any]], reader: int | None,
                 secrets: list[list[Any]] = ()) -> str:
    """`text` with every card span `reader` did not see then read as HIDDEN_CARD, and every
    value it may not read as HIDDEN_VALUE (a secret card part: the value's word wins)."""
    blanks = {start: (end, HIDDEN_CARD) for start, end, _card, slot, sight in cards
              if not saw(meta, reader, slot, sight)}
    blanks.update((start, (end, HIDDEN_VALUE)) for start, end, seats in secrets
                  if not may_read(reader, seats))
    out, at = [], 0
    for start in sorted(blanks):
        end, word = blanks[start]
        out += (text[at:start], word)
        at = end
    return "".join(out) + text[at:] if out else text


def may_read(reader: int | None, seats: list[int]) -> bool:
    """Whether `reader` may read a secret part written for `seats`."""
    return reader is EVERYONE or reader in seats


def secrets_of(marks: Any) -> list[list[Any]]:
    """A line's secret parts, [start, end, the seats that may read it] (none in older marks)."""
    return marks[2] if marks is not None and len(marks) > 2 else []


def cards_seen(meta: GameMeta, marks: Any, reader: int) -> set[int]:
    """The cards a line named to `reader` (what it saw of them as the line was written)."""
    if marks is None or (marks[0] is not None and marks[0] != reader):
        return set()
    unread = {start for start, _, seats in secrets_of(marks) if not may_read(reader, seats)}
    return {card for start, _, card, slot, sight in marks[1]
            if start not in unread and saw(meta, reader, slot, sight)}


def is_private(marks: Any) -> bool:
    return marks is not None and marks[0] is not None


def marks_problem(meta: GameMeta, marks: Any, text: str) -> bool:
    """Whether a snapshot's marks of one line do not fit the game (a record read from a file)."""
    if marks is None:
        return False
    if not (isinstance(marks, list) and len(marks) in (2, 3) and isinstance(marks[1], list)):
        return True
    to, cards = marks[0], marks[1]
    players = len(meta.players)
    if to is not None and not (_whole(to) and 0 <= to < players):
        return True
    for card in cards:
        if not (isinstance(card, list) and len(card) == 5 and all(_whole(x) for x in card[:4])):
            return True
        start, end, entity, slot, sight = card
        if not (0 <= start <= end <= len(text) and 0 <= entity < len(meta.entity_ids)
                and 0 <= slot < meta.zone_slots):
            return True
        if sight is not True and not (isinstance(sight, list) and all(_whole(p) for p in sight)):
            return True
    secrets = marks[2] if len(marks) == 3 else []
    for secret in secrets if isinstance(secrets, list) else [None]:
        if not (isinstance(secret, list) and len(secret) == 3 and _whole(secret[0]) and _whole(secret[1])
                and 0 <= secret[0] <= secret[1] <= len(text) and isinstance(secret[2], list)
                and all(_whole(p) and 0 <= p < players for p in secret[2])):
            return True
    return False


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
