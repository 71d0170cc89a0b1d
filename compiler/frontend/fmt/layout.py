"""A small pretty-printing algebra (Wadler's, as prettier runs it): text, lines, nests, groups, fills.

A document is a tree of these values; `render` lays it out in a width.
A group is written on one line when it fits, else its lines break; a fill
breaks only the separators whose next item does not fit. A hard line always
breaks, and so does every group around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

Doc = Union[str, "Line", "Concat", "Nest", "Align", "Group", "Fill"]

FLAT, BREAK = 0, 1


@dataclass(frozen=True, slots=True)
class Line:
    """A place to break: `flat` is what it prints when its group stays on one line."""

    flat: str = " "
    hard: bool = False


@dataclass(frozen=True, slots=True)
class Concat:
    parts: tuple[Doc, ...]


@dataclass(frozen=True, slots=True)
class Nest:
    indent: int
    doc: Doc


@dataclass(frozen=True, slots=True)
class Align:
    """Lines broken inside continue at the column where the document starts."""

    doc: Doc


@dataclass(frozen=True, slots=True)
class Group:
    doc: Doc
    hard: bool  # holds a hard line: never flat


@dataclass(frozen=True, slots=True)
class Fill:
    """item, separator, item, separator, ..., item: each separator breaks only when needed."""

    parts: tuple[Doc, ...]
    hard: bool


LINE = Line(" ")
SOFT = Line("")
HARD = Line("", hard=True)


def concat(*parts: Doc) -> Doc:
    flat = tuple(p for p in parts if p != "")
    if len(flat) <= 1:
        return flat[0] if flat else ""
    return Concat(flat)


def nest(indent: int, *parts: Doc) -> Nest:
    return Nest(indent, concat(*parts))


def group(*parts: Doc) -> Group:
    doc = concat(*parts)
    return Group(doc, has_hard(doc))


def fill(items: list[Doc], separator: Doc = LINE) -> Doc:
    """The items with a separator between each two, broken only where they do not fit."""
    parts: list[Doc] = []
    for item in items:
        if parts:
            parts.append(separator)
        parts.append(item)
    return fill_parts(parts)


def fill_parts(parts: list[Doc]) -> Doc:
    """A fill from item, separator, item, ... (separators may differ)."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return Fill(tuple(parts), any(has_hard(p) for p in parts))


def glue(doc: Doc, text: str) -> Doc:
    """`doc` with `text` written after its last word, inside the innermost group or fill
    that holds that word, so the line the text ends is measured with it."""
    if isinstance(doc, str) or isinstance(doc, Line):
        return concat(doc, text)
    if isinstance(doc, Concat):
        return Concat(doc.parts[:-1] + (glue(doc.parts[-1], text),))
    if isinstance(doc, Nest):
        return Nest(doc.indent, glue(doc.doc, text))
    if isinstance(doc, Align):
        return Align(glue(doc.doc, text))
    if isinstance(doc, Group):
        return Group(glue(doc.doc, text), doc.hard)
    return Fill(doc.parts[:-1] + (glue(doc.parts[-1], text),), doc.hard)


def join(separator: Doc, items: list[Doc]) -> Doc:
    out: list[Doc] = []
    for item in items:
        if out:
            out.append(separator)
        out.append(item)
    return concat(*out)


def has_hard(doc: Doc) -> bool:
    if isinstance(doc, str):
        return False
    if isinstance(doc, Line):
        return doc.hard
    if isinstance(doc, (Group, Fill)):
        return doc.hard
    if isinstance(doc, (Nest, Align)):
        return has_hard(doc.doc)
    return any(has_hard(p) for p in doc.parts)


# ------------------------------------------------------------------ layout


def render(doc: Doc, width: int) -> str:
    """The document laid out in `width` columns; trailing spaces are dropped."""
    out: list[str] = []
    column = 0
    stack: list[tuple[int, int, Doc]] = [(0, BREAK, doc)]
    while stack:
        indent, mode, item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            column += len(item)
        elif isinstance(item, Concat):
            stack.extend((indent, mode, p) for p in reversed(item.parts))
        elif isinstance(item, Nest):
            stack.append((indent + item.indent, mode, item.doc))
        elif isinstance(item, Align):
            stack.append((column, mode, item.doc))
        elif isinstance(item, Group):
            flat = not item.hard and _fits(item.doc, stack, width - column)
            stack.append((indent, FLAT if flat else BREAK, item.doc))
        elif isinstance(item, Fill):
            _fill(indent, mode, item, stack, width - column)
        elif isinstance(item, _Separator):
            _separator(indent, mode, item, stack, width - column)
        elif mode == FLAT and not item.hard:
            out.append(item.flat)
            column += len(item.flat)
        else:
            out.append("\n" + " " * indent)
            column = indent
    return "\n".join(line.rstrip() for line in "".join(out).split("\n"))


@dataclass(frozen=True, slots=True)
class _Separator:
    """The rest of a fill, from a separator on: its break is decided once the item before is written."""

    fill: Fill


def _fill(indent: int, mode: int, item: Fill, stack: list, room: int) -> None:
    """Push a fill's first item (flat when it fits) and, after it, the decision on the next separator."""
    first, *rest = item.parts
    if rest:
        stack.append((indent, mode, _Separator(Fill(tuple(rest), item.hard))))
    stack.append((indent, FLAT if not has_hard(first) and _fits(first, [], room) else BREAK, first))


def _separator(indent: int, mode: int, rest: _Separator, stack: list, room: int) -> None:
    """The separator breaks unless it and the next item fit on the line as it stands."""
    separator, *others = rest.fill.parts
    flat = not has_hard(separator) and _fits(concat(separator, others[0]), [], room)
    stack.append((indent, mode, Fill(tuple(others), rest.fill.hard)))
    stack.append((indent, FLAT if flat else BREAK, separator))


def _fits(doc: Doc, rest: list, room: int) -> bool:
    """Whether doc, flat, and what follows it up to the next break, fit in room columns."""
    todo: list[tuple[int, Doc]] = [(FLAT, doc)]
    rest_index = len(rest)
    while room >= 0:
        if not todo:
            if rest_index == 0:
                return True
            rest_index -= 1
            _, mode, item = rest[rest_index]
            todo.append((mode, item))
            continue
        mode, item = todo.pop()
        if isinstance(item, str):
            room -= len(item)
        elif isinstance(item, Concat):
            todo.extend((mode, p) for p in reversed(item.parts))
        elif isinstance(item, (Nest, Align)):
            todo.append((mode, item.doc))
        elif isinstance(item, (Group, Fill, _Separator)):
            fill = item.fill if isinstance(item, _Separator) else item
            inner = item.doc if isinstance(item, Group) else concat(*fill.parts)
            todo.append((BREAK if fill.hard else mode, inner))
        elif mode == BREAK or item.hard:
            return True
        else:
            room -= len(item.flat)
    return False
