"""black, made cheap: a module is formatted one top-level statement at a time.

black stays the formatter of every generated line, but a recompile after a
small spec edit changes a few statements of a 15,000-line module; formatting
the whole module again would cost seconds. So the source is cut at its
top-level statements (with the comments that lead them), each piece is
formatted by black on its own and cached under the hash of its text, and the
pieces are joined with the blank lines black puts between top-level
statements. tests/test_codegen.py checks that black leaves the joined module
unchanged, so the result is exactly black's.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass

import black

from ..cache import digest, store
from ..errors import InternalError

MODE = black.Mode()
FORMAT_CACHE = "black"
_KEY = digest(black.__version__, repr(MODE))


@dataclass(frozen=True)
class Piece:
    """One top-level statement of a module, with the comments just above it."""

    text: str
    blank_before: int  # blank lines the source had before it (black keeps up to 2)
    is_block: bool  # a def or class: black puts two blank lines around it
    is_import: bool
    is_docstring: bool


def format_module(source: str, name: str) -> str:
    """The module as black formats it; `name` is for error messages only."""
    pieces = split(source, name)
    table = store(FORMAT_CACHE)
    out: list[str] = []
    previous: Piece | None = None
    for piece in pieces:
        formatted = _format_piece(piece.text, name, table)
        if previous is not None:
            out.append("\n" * _blank_lines(previous, piece))
        out.append(formatted)
        previous = piece
    table.flush()
    return "".join(out)


def _format_piece(text: str, name: str, table) -> str:
    key = digest(_KEY, text)
    found = table.get(key)
    if found is not None:
        return found.decode("utf-8")
    try:
        compile(text, name, "exec")
    except SyntaxError as err:
        line = text.splitlines()[err.lineno - 1] if err.lineno else ""
        raise InternalError(f"generated {name} does not compile: {err.msg}: {line.strip()}") from err
    formatted = black.format_str(text, mode=MODE)
    table.put(key, formatted.encode("utf-8"))
    return formatted


def _blank_lines(before: Piece, after: Piece) -> int:
    """Blank lines between two top-level statements, by black's rules."""
    if before.is_docstring:
        return 1
    if before.is_block or after.is_block:
        return 2
    if before.is_import and not after.is_import:
        return max(1, after.blank_before)
    return after.blank_before


def split(source: str, name: str) -> list[Piece]:
    """Cut the source at its top-level statements; each piece compiles on its own."""
    try:
        tree = pyast.parse(source, name)
    except SyntaxError as err:
        line = source.splitlines()[err.lineno - 1] if err.lineno else ""
        raise InternalError(f"generated {name} does not compile: {err.msg} at line {err.lineno}:"
                            f" {line.strip()}") from err
    lines = source.splitlines(keepends=True)
    pieces: list[Piece] = []
    start = 0  # the first line (0-based) not yet in a piece
    for index, node in enumerate(tree.body):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        last = node.end_lineno or node.lineno
        head = lines[start:first]
        # Comments cut off from the statement by a blank line stand alone.
        gap = max((i for i, line in enumerate(head) if not line.strip()), default=-1)
        blank = 0
        for comments in _comment_runs(head[:gap + 1]):
            blank = _leading_blanks(comments)
            pieces.append(Piece("".join(comments[blank:]), min(blank, 2), False, False, False))
        blank = _leading_blanks(head[gap + 1:]) + (_trailing_blanks(head[:gap + 1]))
        text = "".join(head[gap + 1:] + lines[first:last])
        pieces.append(Piece(
            text=text if text.endswith("\n") else text + "\n",
            blank_before=min(blank, 2),
            is_block=isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef)),
            is_import=isinstance(node, (pyast.Import, pyast.ImportFrom)),
            is_docstring=index == 0 and isinstance(node, pyast.Expr)
            and isinstance(node.value, pyast.Constant) and isinstance(node.value.value, str),
        ))
        start = last
    if any(line.strip() for line in lines[start:]):
        raise InternalError(f"generated {name} ends in text that is not a statement")
    return pieces


def _comment_runs(lines: list[str]) -> list[list[str]]:
    """Runs of comment lines, each with the blank lines before it."""
    runs: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        if line.strip() and current and not current[-1].strip() and any(x.strip() for x in current):
            runs.append(current)
            current = []
        current.append(line)
    if any(x.strip() for x in current):
        runs.append([x for x in current])
    return [_strip_trailing(run) for run in runs]


def _strip_trailing(run: list[str]) -> list[str]:
    while run and not run[-1].strip():
        run = run[:-1]
    return run


def _leading_blanks(lines: list[str]) -> int:
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count


def _trailing_blanks(lines: list[str]) -> int:
    count = 0
    for line in reversed(lines):
        if line.strip():
            break
        count += 1
    return count
