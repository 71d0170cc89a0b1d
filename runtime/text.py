"""Text from outside (records, option ids, spec lines) made safe to print on one terminal line.

A record or a spec may hold anything: a 100 KB option id, NUL, escape
sequences, bidi overrides that make a line read backwards. Errors quote such
text through `shown` (one value, bounded) and the command line passes every
line it prints through `safe_line` (no control or format characters, bounded).
"""

from __future__ import annotations

import unicodedata

SHOWN = 60  # characters of one quoted value
LINE = 2000  # characters of one printed line

# Characters a terminal would act on or hide: controls, formats (bidi overrides,
# zero-width), surrogates, private and unassigned code points, line separators.
_UNSAFE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _escaped(ch: str) -> str:
    if ch == "\t":
        return "\\t"
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` with every character a terminal would act on written as an escape."""
    if text.isprintable() and text.isascii():
        return text
    return "".join(_escaped(ch) if unicodedata.category(ch) in _UNSAFE or not ch.isprintable() else ch for ch in text)


def bounded(text: str, limit: int) -> str:
    """At most `limit` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def shown(value: object, limit: int = SHOWN) -> str:
    """One value from outside, to quote in a message: printable and at most `limit` long."""
    return bounded(printable(value if isinstance(value, str) else repr(value)), limit)


def safe_line(text: str, limit: int = LINE) -> str:
    """One line to print: no control characters (tabs and newlines escaped too), bounded."""
    return bounded(printable(text), limit)


def safe_lines(text: str, limit: int = LINE) -> str:
    """Several lines to print, each made safe; the newlines between them stay."""
    return "\n".join(safe_line(line, limit) for line in text.split("\n"))
