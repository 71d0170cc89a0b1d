"""An emitted expression as a value: its text and what is known of it.

Emitters return `Code`, never bare strings, so nothing downstream re-reads
generated text: a constant carries its value (and folds), a fresh list says
so (a snapshot needs no copy), a read of a table with a frozenset twin
names the twin (membership and counting may use it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulespec.compiler.frontend.constant import ARITHMETIC as OPERATIONS, COMPARISONS

# Python's precedence levels, lowest first, as far as the emitters need them.
P_COND, P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM = 1, 2, 3, 4, 5, 10, 11, 12, 20

_UNKNOWN = object()


@dataclass(frozen=True)
class Table:
    """A module-level table of members, its frozenset twin, and the index read (if any)."""

    name: str
    set_name: str
    index: str | None = None


@dataclass(frozen=True)
class Code:
    """Python source of an expression: its text, precedence, and facts about it."""

    text: str
    prec: int = P_ATOM
    is_bool: bool = False
    value: Any = _UNKNOWN  # the value, when it is a constant
    fresh: bool = False  # a new list that nothing else holds
    table: Table | None = None  # the table it reads its members from

    @staticmethod
    def constant(value: Any, text: str | None = None) -> Code:
        """A literal, or a named constant standing for one."""
        negative = isinstance(value, int) and value < 0
        prec = P_UNARY if negative and text is None else P_ATOM
        return Code(repr(value) if text is None else text, prec, isinstance(value, bool), value)

    @property
    def is_constant(self) -> bool:
        return self.value is not _UNKNOWN

    @property
    def number(self) -> int | None:
        """The value when it is a constant integer (not a bool), else None."""
        value = self.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def at(self, prec: int) -> str:
        """The text, parenthesised unless it binds at least as tightly as `prec`."""
        return self.text if self.prec >= prec else f"({self.text})"

    def __str__(self) -> str:
        return self.text


def numbers(codes: list[Code]) -> list[int] | None:
    """The values of constant integers, or None unless every one is."""
    values = [c.number for c in codes]
    return None if any(v is None for v in values) else values  # type: ignore[misc]


# The language's arithmetic as Python writes it (`/` floors): the operator, its precedence, and
# its value, from compiler/frontend/constant.py, the one home the interpreter and the checks share.
ARITHMETIC: dict[str, tuple[str, int, Callable[[int, int], int]]] = {
    op: (python, precedence, OPERATIONS[op]) for op, (python, precedence) in
    {"+": ("+", P_ADD), "-": ("-", P_ADD), "*": ("*", P_MUL), "/": ("//", P_MUL), "%": ("%", P_MUL)}.items()
}


def fold_arithmetic(op: str, left: Code, right: Code) -> Code | None:
    """left op right as a constant, when both are and the result cannot fail at run time."""
    values = numbers([left, right])
    if values is None or (op in ("/", "%") and values[1] == 0):
        return None  # a division by zero fails when it runs, as in the interpreter
    return Code.constant(ARITHMETIC[op][2](*values))


def fold_comparison(op: str, left: Code, right: Code) -> Code | None:
    """A comparison of two constants: numbers in any order, other values for (in)equality."""
    if numbers([left, right]) is not None or (op in ("==", "!=") and left.is_constant and right.is_constant):
        return Code.constant(COMPARISONS[op](left.value, right.value))
    return None


def clamp(low: int, high: int, value: Code) -> Code | None:
    """max(low, min(high, value)) of a constant."""
    if value.number is None:
        return None
    return Code.constant(max(low, min(high, value.number)))
