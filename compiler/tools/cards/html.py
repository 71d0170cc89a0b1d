"""The proof sheets as one self-contained HTML page (jinja2, no CDN)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from rulespec.compiler.tools.cards.sheet import CardSheet

PAGE = "cards.html.j2"
_CODE = re.compile(r"`([^`]+)`")


def words_html(text: str) -> Markup:
    """Words with the `code` names in a code face; everything else escaped."""
    return Markup(_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", str(escape(text))))


@lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    folder = resources.files(__package__).joinpath("templates")
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: folder.joinpath(name).read_text()),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["words"] = words_html
    return env


def cards_html(title: str, game: str, sheets: list[CardSheet]) -> str:
    return environment().get_template(PAGE).render(title=title, game=game, sheets=sheets)


def write_cards_html(title: str, game: str, sheets: list[CardSheet], folder: Path) -> Path:
    """folder/index.html, written atomically; returns its path."""
    from rulespec.runtime.files import make_dirs, write_atomic
    make_dirs(folder)
    return write_atomic(folder / "index.html", cards_html(title, game, sheets))
