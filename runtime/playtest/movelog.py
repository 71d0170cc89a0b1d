"""The move log: every decision made at a table, in words, as one seat may read it.

Both play surfaces show it (runtime/playtest/table.py builds it, the terminal seat and the
web table print it). It comes from the decision protocol alone, so it knows no
game: a move is its player, the prompt it answered and the option it took, with
the spec line of the decision. Consecutive answers of one player to the same
decision read as one line ("North: Add a troop where? ×3 → Hill 2, Lake"). What a seat may not see stays hidden: a card option it
cannot see reads "(a hidden card)" until the card is shown to it where the move
left it (a face-down choice revealed) or a line the move wrote names it to the seat (a card
played face up and gathered away in the same move), and the prompt reads as it did when
the move was made, with every card it names that the seat could not see then blanked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

from rulespec.runtime.logview import HIDDEN_CARD

__all__ = ["HIDDEN_CARD", "Entry", "LogLine", "Step", "dice_lines", "seat_lines"]


@dataclass
class Step:
    """One decision made at the table, and what it showed to whom."""

    player: str
    option: str
    label: str
    prompt: str
    at: str
    reveals: frozenset[str]  # the seats this step showed something new
    card: int | None = None  # the option taken, when it is a card
    slot: int = -1  # the zone slot that card lay in after the move
    words: dict[str, tuple[str, str]] = field(default_factory=dict)  # per seat: (prompt, label)
    named: set[str] = field(default_factory=set)  # the seats that may read the card taken


@dataclass
class LogLine:
    """A line of the log as one seat may read it."""

    text: str
    at: str = ""
    own: bool = False  # the seat's own decision, not a line the rules wrote
    kind: str = "rule"  # "rule" (a spec `log` line), "move" (a decision), "dice"
    private: bool = False  # written to this seat alone (`log to p`, `show c to p`)


Entry = Union[LogLine, int]  # a seat's log: its lines, and moves by step number


def seat_lines(entries: list[Entry], steps: list[Step], seat: str,
               label_of: Callable[[str], str]) -> list[LogLine]:
    """A seat's log in words: its lines, each run of moves of one decision merged into one."""
    out: list[LogLine] = []
    run: list[Step] = []
    for entry in entries:
        if isinstance(entry, int):
            step = steps[entry]
            if run and not _same_decision(run[-1], step, seat):
                out.append(_move_line(run, seat, label_of))
                run = []
            run.append(step)
            continue
        if run:
            out.append(_move_line(run, seat, label_of))
            run = []
        out.append(entry)
    if run:
        out.append(_move_line(run, seat, label_of))
    return out


def _same_decision(a: Step, b: Step, seat: str) -> bool:
    return (a.player, a.at, a.words[seat][0]) == (b.player, b.at, b.words[seat][0])


def _move_line(run: list[Step], seat: str, label_of: Callable[[str], str]) -> LogLine:
    first = run[0]
    prompt = first.words[seat][0]
    counts: dict[str, int] = {}
    for step in run:
        if step.card is None:
            taken = step.words[seat][1]
        else:
            taken = step.label if seat in step.named else HIDDEN_CARD
        counts[taken] = counts.get(taken, 0) + 1
    taken = ", ".join(f"{label} {n}" if n > 1 else label for label, n in counts.items())
    times = f" ×{len(run)}" if len(run) > 1 else ""
    return LogLine(f"{label_of(first.player)}: {prompt}{times} → {taken}", first.at,
                   own=first.player == seat, kind="move")


def dice_lines(rolled: list[list[object]], log_start: int) -> list[tuple[int, LogLine]]:
    """The dice a move rolled, one line per roll statement: (the log line it came after, line)."""
    out: list[tuple[int, LogLine]] = []
    last: tuple[object, object] | None = None
    for at, value, written in rolled:
        if last == (at, written):
            out[-1][1].text += f", {value}"
            continue
        out.append((int(written) - log_start, LogLine(f"Dice: {value}", str(at), kind="dice")))
        last = (at, written)
    return out
