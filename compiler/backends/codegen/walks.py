"""Walks: an `any` or `all` inside an expression, generated as a call of a helper in rules.py
that loops over the members and returns at the first deciding one.

A generator expression would do the same: the same tests, in the same order, stopping at the
same member. But it is a closure, made anew at each evaluation, and Cython can neither type a
function holding one nor call it as C (compiler/backends/native_types.py). A helper is a plain function;
what the loop reads from the caller - its locals, the state, the names of other modules - are
its arguments, everything rules.py holds or imports is read there. One helper per distinct
loop text. (A define that is a whole any or all is a loop itself: view.Loop.)
"""

from __future__ import annotations

import builtins
import io
import symtable
import tokenize
from dataclasses import dataclass
from typing import Callable

# A walk's own loop variable: one name whatever the spec calls it, so that the same loop written
# at several places is one helper (not used when the loop reads a name x_ from outside).
OWN = "x_"


@dataclass(frozen=True)
class Loop:
    """`for var in iterable: if test: return found`, then `return not found`: an any (found
    True) or an all (the test negated, found False), in the members' order, stopping where
    they do."""

    var: str
    iterable: str
    test: str
    found: bool


@dataclass(frozen=True)
class Walk:
    """`name(*params)`, a function running `loop`."""

    name: str
    params: tuple[str, ...]
    loop: Loop
    doc: str  # the spec's text and where it is, as a Python literal

    @property
    def call(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


class Walks:
    """The walk helpers of one generation, made once per distinct loop."""

    def __init__(self) -> None:
        self.helpers: dict[tuple[Loop, tuple[str, ...]], Walk] = {}

    def helper(self, loop: Loop, doc: str, known: Callable[[str], bool]) -> tuple[Walk, list[str]]:
        """The walk running `loop`, and the module-level names its body reads from rules.py.
        known(name): whether rules.py can read `name` as its own (defined or imported there);
        every other name read is an argument, the state first."""
        read = outer_names(loop)
        if loop.var != OWN and OWN not in read:  # the same loop at two places: one helper
            loop = Loop(OWN, loop.iterable, renamed(loop.test, loop.var, OWN), loop.found)
        params = [n for n in read if not known(n) and not hasattr(builtins, n)]
        params.sort(key=lambda n: (n != "state", n))
        key = (loop, tuple(params))
        if key not in self.helpers:
            self.helpers[key] = Walk(f"walk_{len(self.helpers)}", tuple(params), loop, doc)
        return self.helpers[key], [n for n in read if known(n)]


def renamed(text: str, old: str, new: str) -> str:
    """`text` (one expression) with every name `old` written `new`; strings untouched."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spots = [starts[t.start[0] - 1] + t.start[1]
             for t in tokenize.generate_tokens(io.StringIO(text).readline)
             if t.type == tokenize.NAME and t.string == old]
    for spot in reversed(spots):
        text = text[:spot] + new + text[spot + len(old):]
    return text


def outer_names(loop: Loop) -> list[str]:
    """The names the loop reads that it does not bind: sorted."""
    code = (f"def walk():\n    for {loop.var} in ({loop.iterable}):\n        if ({loop.test}):\n"
            "            return 1\n")
    tables = [symtable.symtable(code, "<walk>", "exec").get_children()[0]]
    found: set[str] = set()
    while tables:
        table = tables.pop()
        found.update(s.get_name() for s in table.get_symbols() if s.is_referenced() and s.is_global())
        tables.extend(table.get_children())
    return sorted(found)
