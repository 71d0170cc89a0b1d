"""The reference on the terminal (rich) or as one self-contained HTML page (jinja2, no CDN)."""

from __future__ import annotations

import textwrap
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from rulespec.compiler.tools.reference.collect import Reference

PAGE = "reference.html.j2"
INDENT = 4


def print_reference(reference: Reference, console: Console, only: str | None = None) -> int:
    """Write the reference; `only` keeps the entries whose name or section contains it.
    Returns how many entries were shown."""
    if not any(_matches(only, s.title, e.name) for s in reference.sections for e in s.entries):
        return 0
    console.print(Text(f"{reference.title} ({reference.game}): spec reference", style="bold"))
    shown = 0
    for section in reference.sections:
        entries = [e for e in section.entries if _matches(only, section.title, e.name)]
        if not entries:
            continue
        console.print(Rule(Text(section.title, style="bold cyan"), align="left"))
        console.print(Text(section.blurb, style="dim"))
        for entry in entries:
            shown += 1
            head = Text(entry.signature, style="bold")
            head.append(f"  {entry.location}", style="dim")
            console.print(head)
            room = max(console.width - INDENT, 40)
            for line in entry.comment.splitlines():
                _indented(console, textwrap.wrap(line, room) or [""], "italic")
            for line in entry.code.splitlines():
                _indented(console, [line], "green")
            for detail in entry.details:
                _indented(console, textwrap.wrap(detail, room), "dim")
    return shown


def _indented(console: Console, lines: list[str], style: str) -> None:
    for line in lines:
        console.print(Text(" " * INDENT + line, style=style), overflow="ignore", crop=False)


def _matches(only: str | None, section: str, name: str) -> bool:
    if not only:
        return True
    needle = only.lower()
    return needle in name.lower() or needle in section.lower()


@lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    folder = resources.files(__package__).joinpath("templates")
    return jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: folder.joinpath(name).read_text()),
                              autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def reference_html(reference: Reference) -> str:
    return environment().get_template(PAGE).render(reference=reference)


def write_reference_html(reference: Reference, folder: Path) -> Path:
    """folder/index.html, written atomically; returns its path."""
    from rulespec.runtime.files import make_dirs, write_atomic
    make_dirs(folder)
    return write_atomic(folder / "index.html", reference_html(reference))
