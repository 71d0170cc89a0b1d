"""The lowered form of a routine: typed lines grouped in blocks, one template macro per kind.

A line is statement-shaped output at a nesting depth; its text fields are
Python source already emitted. Lines that end a block jump somewhere (a
Label, numbered once every block exists), and say where, so jump threading
and dead-block removal read the lines' fields, never their text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar


class Label:
    """A block to jump to; numbered once every block exists."""

    __slots__ = ("number",)

    def __init__(self) -> None:
        self.number = -1


@dataclass
class Line:
    """One statement-shaped piece of output at a nesting depth."""

    depth: int
    kind: ClassVar[str]  # the template macro that writes it: stmt_<kind>
    ends_block: ClassVar[bool] = False
    label_fields: ClassVar[tuple[str, ...]] = ()  # the fields that hold a Label to jump to

    def jumps(self) -> list[Label]:
        """The blocks control may go to next, for a line that ends a block."""
        return [getattr(self, name) for name in self.label_fields]

    def retarget(self, final: Callable[[Label], Label]) -> None:
        """Send every jump to final(label) instead."""
        for name in self.label_fields:
            setattr(self, name, final(getattr(self, name)))


# ------------------------------------------------------------------ plain lines


@dataclass
class Comment(Line):
    kind = "comment"
    text: str


@dataclass
class Assign(Line):
    kind = "assign"
    target: str
    value: str


@dataclass
class Clamp(Line):
    """A track's update, kept within its bounds."""

    kind = "clamp"
    target: str
    low: int | str  # code, for a track on an enum whose value is known at run time
    high: int | str
    value: str


@dataclass
class Floor(Line):
    """A counter's update, never below 0; with `at`, within the bound of whole numbers too."""

    kind = "floor"
    target: str
    value: str
    at: str | None = None


@dataclass
class Call(Line):
    kind = "call"
    code: str


@dataclass
class Error(Line):
    kind = "error"
    message: str
    at: str


@dataclass
class Move(Line):
    kind = "move"
    card: str
    dest: str
    bottom: bool = False  # under the zone's other cards


@dataclass
class MoveAll(Line):
    kind = "move_all"
    dest: str
    constant: bool  # a known slot: no local needed for it
    cards: str


@dataclass
class Copy(Line):
    kind = "copy"
    pairs: list[tuple[int, int]]  # (destination, source) counter rows


@dataclass
class Clear(Line):
    kind = "clear"
    slots: list[int]
    size: int


@dataclass
class If(Line):
    kind = "if"
    test: str


@dataclass
class Elif(Line):
    kind = "elif"
    test: str


@dataclass
class Else(Line):
    kind = "else"


@dataclass
class Pass(Line):
    kind = "pass"


@dataclass
class For(Line):
    kind = "for"
    target: str
    items: str


@dataclass
class Repeat(Line):
    kind = "repeat"
    count: str


@dataclass
class While(Line):
    kind = "while"
    test: str


@dataclass
class Break(Line):
    kind = "break"


@dataclass
class Return(Line):
    kind = "return"


@dataclass
class Give(Line):
    """A procedure's value: returned by a plain function; from a frame, put in the caller's
    answer slot (frame[3], read by the block after its call), then the frame pops (a value
    procedure called as a statement by the bottom frame, as its last act, gives it to none)."""

    kind = "give"
    ends_block = True
    value: str
    framed: bool = False


@dataclass
class Choose(Line):
    """Ask a player to pick one of `values`, named by `names` (ids, labels)."""

    kind = "choose"
    player: str
    values: str
    prompt: str
    names: str
    at: str
    ready: bool = False  # `values` holds them already (the test before the choice made them)
    about: str = ""  # ", (entities the prompt names)" or nothing
    forced: Label | None = None  # `unless forced`: with one option, take it and go here
    # the options' ids by value (a table's name; "None": a number's own text), for a native
    # playout that names a decision only when a traced game counts a card picked (machine/)
    id_table: str = "None"
    site: int = -1  # the native engine's number for where it is asked (machine/steps.py)

    def jumps(self) -> list[Label]:
        return [] if self.forced is None else [self.forced]

    def retarget(self, final: Callable[[Label], Label]) -> None:
        if self.forced is not None:
            self.forced = final(self.forced)


@dataclass
class Menu(Line):
    """Ask a player to pick one of the options whose condition holds (None: always)."""

    kind = "menu"
    player: str
    options: list[tuple[int, str | None]]
    prompt: str
    names: str
    at: str
    about: str = ""  # as in Choose
    forced: Label | None = None  # as in Choose: the only option offered is taken
    id_table: str = "None"  # as in Choose: the ids by option number
    site: int = -1  # as in Choose

    jumps = Choose.jumps
    retarget = Choose.retarget


# ------------------------------------------------------------------ lines that end a block


@dataclass
class Suspend(Line):
    """Wait for a decision; resume at `next`."""

    kind = "suspend"
    ends_block = True
    label_fields = ("next",)
    next: Label


@dataclass
class CallAway(Suspend):
    """Run another routine, then `next`; a tail call (the routine's last act) pops the caller first."""

    tail: bool = False

    def jumps(self) -> list[Label]:
        return [] if self.tail else [self.next]  # a tail call never comes back


@dataclass
class Push(CallAway):
    """Push the frame of a routine that may suspend."""

    kind = "push"
    frame: str = ""


@dataclass
class CallThen(CallAway):
    """Call something that may push frames (`code` says whether it did)."""

    kind = "call_then"
    code: str = ""


@dataclass
class Goto(Line):
    kind = "goto"
    ends_block = True
    label_fields = ("target",)
    target: Label
    cont: bool = True  # `continue` the block loop (not when the next block follows anyway)


@dataclass
class Dispatch(Line):
    """Jump to the first case whose test holds, else to `default`."""

    kind = "dispatch"
    ends_block = True
    cases: list[tuple[str, Label]]
    default: Label

    def jumps(self) -> list[Label]:
        return [label for _, label in self.cases] + [self.default]

    def retarget(self, final: Callable[[Label], Label]) -> None:
        self.cases = [(test, final(label)) for test, label in self.cases]
        self.default = final(self.default)


@dataclass
class Finish(Line):
    """The routine is over: pop its frame."""

    kind = "finish"
    ends_block = True


@dataclass
class BlockOut:
    """The lines of one `if pc == N:` section."""

    label: Label
    lines: list[Line] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.label.number

    def code_lines(self) -> list[Line]:
        """Its lines but the comments."""
        return [line for line in self.lines if not isinstance(line, Comment)]
