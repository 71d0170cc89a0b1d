"""Diagnostics that point at spec text: `file:line:col: error: message` and a caret."""

from __future__ import annotations

import difflib
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterable, Iterator

from rulespec.compiler.frontend.ast import Span

MAX_SHOWN = 50


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a spec."""

    message: str
    span: Span

    def headline(self) -> str:
        return f"{self.span}: error: {self.message}"


class SpecError(Exception):
    """Bad spec input: carries every diagnostic found, ready to render."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.column)
        )
        super().__init__("\n".join(d.headline() for d in self.diagnostics))


class InternalError(Exception):
    """A bug in rulespec itself, never dressed up as a spec error."""


# Characters of a word worth a suggestion: no name or keyword is longer, and difflib's
# comparison is quadratic in the word, so a 40,000-character run is never compared.
MAX_SUGGESTED = 100


# Candidates one check may compare for its hints, all unknown names together: a spec with
# thousands of unknown names among thousands of declared ones would otherwise cost their
# product; past it the remaining errors come without a "did you mean".
SUGGESTION_BUDGET = 1_000_000
_budget: ContextVar[list[int] | None] = ContextVar("suggestion_budget", default=None)


@contextmanager
def suggestion_budget(comparisons: int = SUGGESTION_BUDGET) -> Iterator[None]:
    """Within it, `closest` compares at most `comparisons` candidates in all."""
    token = _budget.set([comparisons])
    try:
        yield
    finally:
        _budget.reset(token)


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate most like `word` (difflib's ratio at least `cutoff`), else None; None for a
    word longer than MAX_SUGGESTED, or once the suggestion budget in force is spent."""
    left = _budget.get()
    if len(word) > MAX_SUGGESTED or (left is not None and left[0] <= 0):
        return None
    pool = sorted(set(candidates))
    if left is not None:
        left[0] -= len(pool)
        if left[0] < 0:
            return None
    close = difflib.get_close_matches(word, pool, n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """'; did you mean 'x'?' when a close candidate exists, else ''."""
    close = closest(name, candidates)
    return f"; did you mean '{close}'?" if close else ""


MAX_EXCERPT = 120  # characters of a source line quoted under a diagnostic
EXCERPT_BEFORE = 40  # of them, before the caret when the line is cut


def excerpt(line: str, column: int, width: int) -> tuple[str, int, int]:
    """A source line cut to MAX_EXCERPT characters around the caret ("…" where it is cut), with
    the caret's column and width in the cut text: a 50,000-character line is not quoted whole."""
    if len(line) <= MAX_EXCERPT:
        return line, column, width
    start = max(0, min(column - 1 - EXCERPT_BEFORE, len(line) - MAX_EXCERPT))
    text = line[start:start + MAX_EXCERPT]
    column -= start
    if start > 0:
        text, column = "…" + text, column + 1
    if start + MAX_EXCERPT < len(line):
        text += "…"
    return text, column, max(1, min(width, len(text) - column + 1))


class Sources:
    """The text of every spec file read, so diagnostics can quote it."""

    def __init__(self) -> None:
        self._text: dict[str, str] = {}
        self._split: dict[str, list[str] | None] = {}

    def add(self, path: str, text: str) -> None:
        self._text[path] = text
        self._split.pop(path, None)

    def line(self, path: str, number: int) -> str | None:
        text = self._text.get(path)
        if text is None or number < 1:
            return None
        lines = text.splitlines()
        return lines[number - 1] if number <= len(lines) else None

    def texts(self) -> dict[str, str]:
        """Every file read: path -> text."""
        return dict(self._text)

    def _lines(self, path: str) -> list[str] | None:
        if path not in self._split:
            text = self._text.get(path)
            self._split[path] = None if text is None else text.splitlines()
        return self._split[path]

    def text_of(self, span) -> str:
        """The spec text a span covers, on one line (for messages that quote it)."""
        every = self._lines(span.file)
        if every is None:
            return "?"
        lines = every[span.line - 1:span.end_line]
        if not lines:
            return "?"
        if len(lines) == 1:
            return lines[0][span.column - 1:span.end_column - 1]
        lines[0] = lines[0][span.column - 1:]
        lines[-1] = lines[-1][:span.end_column - 1]
        return " ".join(line.strip() for line in lines)

    def render(self, diagnostic: Diagnostic) -> str:
        span = diagnostic.span
        out = [diagnostic.headline()]
        source = self.line(span.file, span.line)
        if source is not None:
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            text, column, width = excerpt(source, span.column, width)
            out.append(f"    {text}")
            out.append("    " + " " * (column - 1) + "^" * width)
        return "\n".join(out)

    def render_all(self, error: SpecError, limit: int = MAX_SHOWN) -> str:
        shown = [self.render(d) for d in error.diagnostics[:limit]]
        rest = len(error.diagnostics) - limit
        if rest > 0:
            shown.append(f"... and {rest} more")
        count = len(error.diagnostics)
        shown.append(f"{count} error{'s' if count != 1 else ''} found")
        return "\n".join(shown)
