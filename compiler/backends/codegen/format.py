"""black, made cheap: a module is formatted one top-level statement at a time.

black stays the formatter of every generated line, but a recompile after a
small spec edit changes a few statements of a 15,000-line module; formatting
the whole module again would cost seconds. So the source is cut at its
top-level statements (with the comments that lead them), each piece is
formatted by black on its own and cached under the hash of its text, and the
pieces are joined with the blank lines black puts between top-level
statements. tests/test_edit_loop.py checks that black leaves the joined module
unchanged, so the result is exactly black's.

black formats a text twice unless its first pass changes nothing, so each piece
is handed over closer to black's own form: single-quoted string literals (as
repr() writes them) are given the quotes black would choose (`prefer_double_quotes`);
a piece black leaves as it is then costs one pass instead of two.

A piece missing from the cache is looked up in the seeds (seed.py: the
packages already written, which are black's output) before black is asked.
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from rulespec.compiler.frontend.cache import digest, store
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.backends.codegen.seed import Layout, Seeds

FORMAT_CACHE = "black"


@lru_cache(maxsize=1)
def _black():
    """black and its settings, imported only when something needs formatting."""
    import black
    return black, black.Mode(**_MODE)


@lru_cache(maxsize=1)
def black_settings() -> str:
    """The cache key of black's settings, without importing black (its version from the
    package's metadata), so a module found whole in the cache needs no black at all."""
    from importlib.metadata import version
    return digest(version("black"), f"Mode({_MODE})" if _MODE else "Mode()")


_MODE: dict[str, object] = {}  # black.Mode's arguments for every module (its defaults)


@dataclass(frozen=True)
class Piece:
    """One top-level statement of a module, with the comments just above it."""

    text: str
    blank_before: int  # blank lines the source had before it (black keeps up to 2)
    is_block: bool  # a def or class: black puts two blank lines around it
    is_import: bool
    is_docstring: bool


@dataclass(frozen=True)
class Formatted:
    """A module's text as black formats it, and where each piece of it came from."""

    text: str
    layout: Layout  # (cache key, length in text) of each piece, in order


def format_module(source: str, name: str, seeds: Seeds | None = None) -> Formatted:
    """The module as black formats it; `name` is for error messages only."""
    pieces = [dataclasses.replace(p, text=prefer_double_quotes(p.text)) for p in split(source, name)]
    table = store(FORMAT_CACHE)
    settings = black_settings()
    keys = [digest(settings, piece.text) for piece in pieces]
    known = table.get_many(keys)
    out: list[str] = []
    lengths: list[int] = []
    previous: Piece | None = None
    for piece, key in zip(pieces, keys):
        found = known.get(key)
        if found is not None:
            formatted = found.decode("utf-8")
        else:
            formatted = (seeds.find(key) if seeds is not None else None) or _format_piece(
                piece.text, key, name, table)
        if previous is not None:
            out.append("\n" * _blank_lines(previous, piece))
        out.append(formatted)
        lengths.append(len(formatted))
        previous = piece
    table.flush()
    return Formatted("".join(out), tuple(zip(keys, lengths)))


def _format_piece(text: str, key: str, name: str, table) -> str:
    """black's text of one piece not in the cache, remembered there under `key`."""
    black, mode = _black()
    try:
        formatted = black.format_str(text, mode=mode)
    except black.InvalidInput as failed:  # Python's own message says better what is wrong
        try:
            compile(text, name, "exec")
        except SyntaxError as err:
            line = text.splitlines()[err.lineno - 1] if err.lineno else ""
            raise InternalError(f"generated {name} does not compile: {err.msg}: {line.strip()}") from err
        raise InternalError(f"black cannot format generated {name}: {failed}") from failed
    table.put(key, formatted.encode("utf-8"))
    return formatted


# One string literal or comment, whichever starts first (so quotes inside a comment,
# or a '#' inside a string, are left alone); a letter before a quote is a prefix.
_LITERAL = re.compile(r'[A-Za-z0-9_]?(?:"""(?:[^"\\]|\\.)*?"""|\'\'\'(?:[^\'\\]|\\.)*?\'\'\''
                      r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|#.*)')
_ESCAPE_OR_CHAR = re.compile(r"\\.|[^\\]", re.S)


def prefer_double_quotes(text: str) -> str:
    """The text with each plain single-quoted string literal in double quotes where black
    would put it in double quotes (black's rule: unless that needs more backslashes).
    The value of every literal is unchanged; comments and other strings are untouched."""
    if "'" not in text:
        return text
    return _LITERAL.sub(_requote, text)


def _requote(found: re.Match) -> str:
    literal = found.group()
    if not literal.startswith("'") or literal.startswith("'''"):
        return literal  # a comment, a double-quoted or prefixed string, a triple-quoted one
    parts = _ESCAPE_OR_CHAR.findall(literal[1:-1])
    body = "".join("'" if part == "\\'" else '\\"' if part == '"' else part for part in parts)
    if body.count("\\") > literal.count("\\"):
        return literal
    return f'"{body}"'


def _blank_lines(before: Piece, after: Piece) -> int:
    """Blank lines between two top-level statements, by black's rules."""
    if before.is_docstring:
        return 1
    if before.is_block or after.is_block:
        return 2
    if before.is_import and not after.is_import:
        return max(1, after.blank_before)
    return after.blank_before


@dataclass(frozen=True)
class _Statement:
    first: int  # 0-based line of its first line (a decorator's, if any)
    last: int  # 0-based line after its last line
    kind: str  # block, import, docstring or other


def split(source: str, name: str) -> list[Piece]:
    """Cut the source at its top-level statements; each piece compiles on its own."""
    lines = source.splitlines(keepends=True)
    statements = _scan(lines)
    if statements is None:
        statements = _parse(source, name)
    pieces: list[Piece] = []
    start = 0  # the first line (0-based) not yet in a piece
    for statement in statements:
        first, last = statement.first, statement.last
        head = lines[start:first]
        # Comments cut off from the statement by a blank line stand alone.
        gap = max((i for i, line in enumerate(head) if not line.strip()), default=-1)
        blank = 0
        for comments in _comment_runs(head[:gap + 1]):
            blank = _leading_blanks(comments)
            pieces.append(Piece("".join(comments[blank:]), min(blank, 2), False, False, False))
        blank = _leading_blanks(head[gap + 1:]) + (_trailing_blanks(head[:gap + 1]))
        text = "".join(head[gap + 1:] + lines[first:last])
        pieces.append(Piece(text if text.endswith("\n") else text + "\n", min(blank, 2),
                            statement.kind == "block", statement.kind == "import",
                            statement.kind == "docstring"))
        start = last
    if any(line.strip() for line in lines[start:]):
        raise InternalError(f"generated {name} ends in text that is not a statement")
    return pieces


# Strings and comments, so brackets inside them are not counted.
_NOISE = re.compile(r'"""(?:[^"\\]|\\.)*?"""|\'\'\'(?:[^\'\\]|\\.)*?\'\'\'|"(?:[^"\\\n]|\\.)*"'
                    r"|'(?:[^'\\\n]|\\.)*'|#.*")
_CONTINUES = ("else", "elif", "except", "finally")


def _scan(lines: list[str]) -> list[_Statement] | None:
    """Top-level statements found by bracket depth: fast, for the code this generator writes.

    None when a line holds what the scan does not follow (a string spanning
    lines); Python's own parser then cuts the module."""
    statements: list[_Statement] = []
    depth, decorated, current = 0, False, None
    for number, line in enumerate(lines):
        code = _NOISE.sub("", line)
        if '"""' in code or "\'\'\'" in code or code.rstrip().endswith("\\"):
            return None
        head = line[:1]
        word = line.split(None, 1)[0].rstrip(":") if line.strip() else ""
        starts = depth == 0 and head not in ("", " ", "\t", "\n", "#", ")", "]", "}") \
            and word not in _CONTINUES and not decorated
        if starts:
            kind = "other"
            if word in ("def", "class", "async") or head == "@":
                kind = "block"
            elif word in ("import", "from"):
                kind = "import"
            elif not statements and head in ("'", '"'):
                kind = "docstring"
            current = [number, number + 1, kind]
            statements.append(current)
        if depth == 0 and head not in (" ", "\t") and line.strip() and not line.startswith("#"):
            decorated = head == "@"
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        if depth < 0:
            return None
        if current is not None and line.strip() and not (head == "#" and depth == 0):
            current[1] = number + 1
    if depth != 0:
        return None
    return [_Statement(*s) for s in statements]


def _parse(source: str, name: str) -> list[_Statement]:
    try:
        tree = pyast.parse(source, name)
    except SyntaxError as err:
        line = source.splitlines()[err.lineno - 1] if err.lineno else ""
        raise InternalError(f"generated {name} does not compile: {err.msg} at line {err.lineno}:"
                            f" {line.strip()}") from err
    out = []
    for index, node in enumerate(tree.body):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
        kind = "other"
        if isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef)):
            kind = "block"
        elif isinstance(node, (pyast.Import, pyast.ImportFrom)):
            kind = "import"
        elif index == 0 and isinstance(node, pyast.Expr) and isinstance(node.value, pyast.Constant) \
                and isinstance(node.value.value, str):
            kind = "docstring"
        out.append(_Statement(first, node.end_lineno or node.lineno, kind))
    return out


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
