"""`rulespec fmt`: one canonical layout for .rules files, comments kept, meaning never changed.

format_text parses a file, prints its AST back with the comments hung on
their statements (printer.py says the layout rules), then parses the result
again: if the meaning moved or a comment went missing, that is a bug of the
formatter and nothing is written.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.frontend.parse import SPEC_SUFFIX, parse_text
from rulespec.compiler.frontend.fmt.comments import attach, blank_lines_above, scan
from rulespec.compiler.frontend.fmt.layout import render
from rulespec.compiler.frontend.fmt.printer import RUN_END, TRAILING, Printer

WIDTH = 100
ALIGN_LIMIT = 80  # code longer than this keeps its comment two spaces after it


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical text of one .rules file; SpecError when it does not parse."""
    tree = parse_text(text, path)
    out = _print(tree, text)
    if out == text:  # already canonical: nothing could have changed
        return out
    again = parse_text(out, path)
    if shape(again) != shape(tree):
        raise InternalError(f"{path}: formatting would change the meaning of the file")
    return out


def _print(tree: ast.SpecFile, text: str) -> str:
    comments = scan(text)
    printer = Printer(attach(tree, comments), blank_lines_above(text))
    out = align_trailing_comments(render(printer.file(tree), WIDTH))
    if printer.emitted != len(comments):
        raise InternalError(f"{tree.path}: the formatter placed {printer.emitted} of "
                            f"{len(comments)} comments")
    return out


def align_trailing_comments(text: str) -> str:
    """The comments after code of one run (a paragraph of items) start in one column, two
    spaces past the longest code of the run; the printer marked each with its run."""
    lines = text.split("\n")
    column: dict[str, int] = {}
    for line in lines:
        if TRAILING in line:
            code, rest = line.split(TRAILING, 1)
            run = rest.split(RUN_END, 1)[0]
            if len(code.rstrip()) <= ALIGN_LIMIT:  # a long line does not push the others right
                column[run] = max(column.get(run, 0), len(code.rstrip()) + 2)
    out = []
    for line in lines:
        if TRAILING in line:
            code, rest = line.split(TRAILING, 1)
            run, comment = rest.split(RUN_END, 1)
            code = code.rstrip()
            line = code.ljust(column.get(run, 0)) + comment if len(code) <= ALIGN_LIMIT \
                else code + "  " + comment
        out.append(line)
    return "\n".join(out)


def shape(node: Any) -> Any:
    """A node as nested tuples without spans: equal shapes, equal meaning."""
    if isinstance(node, ast.Span):
        return None
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name not in ("span", "path"))
    if isinstance(node, tuple):
        return tuple(shape(item) for item in node)
    return node


# ------------------------------------------------------------------ files


@dataclass(frozen=True)
class FileResult:
    """One file looked at: its path and whether its text was already canonical."""

    path: Path
    changed: bool


def rules_files(folder: Path) -> list[Path]:
    """Every .rules file under a folder (tests and variants too), sorted."""
    if folder.is_file():
        return [folder]
    return sorted(p for p in folder.rglob(f"*{SPEC_SUFFIX}") if p.is_file())


def format_paths(paths: list[Path], write: bool) -> list[FileResult]:
    """Format each file; with write, rewrite the ones that change, each only while it still
    holds the text formatted (syntax errors: SpecError; a file edited meanwhile: FileChanged)."""
    from rulespec.runtime.files import read_exact, write_if_unchanged
    results = []
    for path in paths:
        text = read_exact(path)
        formatted = format_text(text, str(path))
        changed = formatted != text
        if changed and write:
            write_if_unchanged([(path, text, formatted)])
        results.append(FileResult(path, changed))
    return results
