"""The native dialect's count, any, all, sum, max and min: each a small `cdef` function with a C
loop (Cython makes a Python generator of a generator expression, even inside a `cdef` function,
so the expression is never written as one). The loop reads the state and the locals the
expression reads, passed as arguments; one function per distinct loop text, like the
generated package's walks (codegen/walks.py).

A for clause of this dialect is a loop head, `c_x in K_country`, or a walk over a zone's card
positions with the card each stands for: `at_c_x in range(state.count_hand[p])` then the line
`c_x = CARDS[state.zone_hand[p][at_c_x]]` (dialect.py, clause).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

# The locals a loop may read from the function it is written in: a define's parameters (v_), the
# variables of the loops around it (c_) and their positions in a zone (at_c_): codegen/names.py.
LOCAL = re.compile(r"(v|c|at_c)_\w+")
RESULT = {"count": "int64_t", "sum": "int64_t", "max": "int64_t", "min": "int64_t",
          "any": "bint", "all": "bint", "argmax": "int64_t", "argmin": "int64_t"}


@dataclass(frozen=True)
class NativeLoop:
    """`name(state, *params)`: the loop's C function, its text."""

    name: str
    params: tuple[str, ...]
    text: str

    @property
    def call(self) -> str:
        return f"{self.name}({', '.join(('state',) + self.params)})"


def read_locals(*texts: str) -> list[str]:
    """The locals some Cython text reads, in order of first reading."""
    found: list[str] = []
    for text in texts:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.NAME and LOCAL.fullmatch(token.string) and token.string not in found:
                found.append(token.string)
    return found


def loop_body(kind: str, var: str, clause: str, condition: str | None, item: str | None,
              default: str | None) -> tuple[list[str], list[str]]:
    """(the loop's declarations and statements, the names it binds)."""
    head, _, binding = clause.partition("\n")
    bound = [var] + ([f"at_{var}"] if binding else [])
    lines = [f"cdef int64_t {', '.join(bound)}"]
    if kind in ("count", "sum"):
        lines.append("cdef int64_t total = 0")
    elif kind in ("max", "min"):
        lines += ["cdef int64_t best = 0, value", "cdef bint seen = False"]
    elif kind in ("argmax", "argmin"):  # the first member of the highest (lowest) value: extreme_of
        lines += ["cdef int64_t best = 0, value, found = NONE", "cdef bint seen = False"]
    lines.append(f"for {head}:")
    body = [binding] if binding else []
    test = condition if condition is not None else "True"
    if kind == "count":
        body += [f"if {test}:", "    total += 1"]
    elif kind == "sum":
        body += [f"if {test}:", f"    total += <int64_t>({item})"]
    elif kind == "any":
        body += [f"if {test}:", "    return True"]
    elif kind == "all":
        body += [f"if not ({test}):", "    return False"]
    elif kind in ("argmax", "argmin"):
        better = ">" if kind == "argmax" else "<"
        body += [f"if {test}:", f"    value = {item}",
                 f"    if not seen or value {better} best:", f"        best, found, seen = value, {var}, True"]
    else:
        better = ">" if kind == "max" else "<"
        body += [f"if {test}:", f"    value = {item}",
                 f"    if not seen or value {better} best:", "        best, seen = value, True"]
    lines += ["    " + line for text in body for line in text.split("\n")]
    ends = {"count": ["return total"], "sum": ["return total"], "any": ["return False"],
            "all": ["return True"], "argmax": ["return found"], "argmin": ["return found"]}
    lines += ends.get(kind, [f"value = {default}", "return best if seen else value"])
    return lines, bound


class Loops:
    """The loop functions of one module, made once per distinct text."""

    def __init__(self) -> None:
        self.made: dict[str, NativeLoop] = {}

    def loop(self, kind: str, var: str, clause: str, condition: str | None, item: str | None = None,
             default: str | None = None) -> NativeLoop:
        lines, bound = loop_body(kind, var, clause, condition, item, default)
        params = tuple(n for n in read_locals(clause, condition or "", item or "", default or "")
                       if n not in bound)
        signature = ", ".join(["const Machine* state"] + [f"int64_t {p}" for p in params])
        key = "\n".join([signature] + lines)
        if key not in self.made:
            name = f"loop_{len(self.made)}"
            text = "\n".join([f"cdef {RESULT[kind]} {name}({signature}) except? -2:"]
                             + ["    " + line for line in lines])
            self.made[key] = NativeLoop(name, params, text)
        return self.made[key]

    def reach(self, var: str, condition: str, start: str, location: str) -> NativeLoop:
        """`reachable(var from start where condition)`: a function filling a Reach
        (templates/expressions.pxi.j2) as the runtime's reachable walks, depth first from start,
        each space passable tested once; the spaces in index order."""
        params = tuple(n for n in read_locals(condition) if n != var)
        signature = ", ".join(["const Machine* state", "int64_t start"] + [f"int64_t {p}" for p in params])
        lines = ["cdef Reach out", "cdef int64_t todo[ENTITY_COUNT]",
                 f"cdef int64_t top = 1, here, at, {var}",
                 "if start == NONE:",
                 f"    raise RuleError('cannot look for what is reachable from none', {location})",
                 "for at in range(ENTITY_COUNT):", "    out.has[at] = 0",
                 "out.has[adjacent_row(start)] = 1", "todo[0] = start",
                 "while top:", "    top -= 1", "    here = todo[top]",
                 "    for at in range(ADJ_N[here]):", f"        {var} = ADJ[here][at]",
                 f"        if not out.has[{var}] and ({condition}):",
                 f"            out.has[{var}] = 1", f"            todo[top] = {var}", "            top += 1",
                 "out.count = 0",
                 "for at in range(ENTITY_COUNT):", "    if out.has[at]:",
                 "        out.item[out.count] = at", "        out.count += 1",
                 "return out"]
        key = "\n".join([signature] + lines)
        if key not in self.made:
            name = f"reach_{len(self.made)}"
            text = "\n".join([f"cdef Reach {name}({signature}) except *:"] + ["    " + line for line in lines])
            self.made[key] = NativeLoop(name, params, text)
        made = self.made[key]
        return NativeLoop(made.name, (start,) + made.params, made.text)

    def union(self, var: str, first: str, second: str) -> NativeLoop:
        """`a + b` of two collections, walked by their for clauses `first` and `second` (each
        binding `var`): a Members struct (templates/expressions.pxi.j2) holding a's members, then
        b's not among a's, as the runtime's union_of."""
        bound = {var, f"at_{var}"}
        params = tuple(n for n in read_locals(first, second) if n not in bound)
        signature = ", ".join(["const Machine* state"] + [f"int64_t {p}" for p in params])
        lines = ["cdef Members out", f"cdef int64_t {var}, at_{var}, first", "out.count = 0"]
        for clause, test in ((first, None), (second, f"not among(&out, first, {var})")):
            head, _, binding = clause.partition("\n")
            lines.append(f"for {head}:")
            lines += ["    " + line for line in binding.split("\n") if line]
            if test is None:
                lines.append(f"    add_member(&out, {var})")
            else:
                lines += [f"    if {test}:", f"        add_member(&out, {var})"]
            lines.append("first = out.count")
        lines.append("return out")
        key = "\n".join([signature] + lines)
        if key not in self.made:
            name = f"union_{len(self.made)}"
            text = "\n".join([f"cdef Members {name}({signature}) except *:"] + ["    " + line for line in lines])
            self.made[key] = NativeLoop(name, params, text)
        return self.made[key]
