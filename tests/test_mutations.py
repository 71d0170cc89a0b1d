"""Random mutations of real spec text: the front end reports plain errors, never crashes.

A token deleted, two names swapped, the text cut short or a line doubled: the
spec either still loads or raises SpecError whose every diagnostic renders as
`path:line:col: error: message` with the quoted line; no other exception.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, strategies as st

from compiler.errors import SpecError
from compiler.loader import load_spec

REPO = Path(__file__).resolve().parent.parent
FOLDERS = [REPO / "tests" / "specs" / "mini", REPO / "spec" / "twilight_struggle"]
# Read once: the texts must not change under hypothesis while it runs.
SOURCES = [(folder, path.relative_to(folder), path.read_text(encoding="utf-8"))
           for folder in FOLDERS if folder.is_dir()
           for path in sorted(folder.glob("*.rules")) + sorted(folder.glob("tests/*.rules"))]
TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|[A-Za-z_]\w*|\d+|\.\.|--|->|[=!<>]=|[^\s#]')
NAME = re.compile(r"[A-Za-z_]\w*")
HEADLINE = re.compile(r"(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: \S[^\n]*")


def _tokens(text: str) -> list[re.Match]:
    """The tokens of a spec text, comments left out."""
    code = re.sub(r"#[^\n]*", lambda m: " " * len(m.group()), text)
    return list(TOKEN.finditer(code))


@st.composite
def delete_token(draw, text: str) -> str:
    tokens = _tokens(text)
    token = tokens[draw(st.integers(0, len(tokens) - 1))]
    return text[:token.start()] + text[token.end():]


@st.composite
def swap_names(draw, text: str) -> str:
    names = [t for t in _tokens(text) if NAME.fullmatch(t.group())]
    a, b = sorted(draw(st.lists(st.integers(0, len(names) - 1), min_size=2, max_size=2, unique=True)))
    first, second = names[a], names[b]
    return (text[:first.start()] + second.group() + text[first.end():second.start()]
            + first.group() + text[second.end():])


@st.composite
def truncate(draw, text: str) -> str:
    return text[:draw(st.integers(0, len(text)))]


@st.composite
def duplicate_line(draw, text: str) -> str:
    lines = text.splitlines(keepends=True)
    i = draw(st.integers(0, len(lines) - 1))
    return "".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])


MUTATIONS = [delete_token, swap_names, truncate, duplicate_line]


@st.composite
def mutated_specs(draw) -> tuple[Path, Path, str]:
    """A spec folder, one of its files, and that file's text mutated once."""
    folder, relative, text = draw(st.sampled_from(SOURCES))
    mutation = draw(st.sampled_from(MUTATIONS))
    return folder, relative, draw(mutation(text))


def _assert_plain(err: SpecError, folder: Path) -> None:
    assert err.diagnostics, "a SpecError carries at least one diagnostic"
    texts = {str(p): p.read_text(encoding="utf-8") for p in folder.rglob("*.rules")}
    for diagnostic in err.diagnostics:
        match = HEADLINE.fullmatch(diagnostic.headline())
        assert match, f"not a plain headline: {diagnostic.headline()!r}"
        assert match["file"] in texts, f"not a file of the spec: {diagnostic.headline()!r}"
        lines = texts[match["file"]].count("\n") + 1
        assert 1 <= int(match["line"]) <= lines and int(match["col"]) >= 1, diagnostic.headline()
        rendered = err.sources.render(diagnostic)
        assert rendered.splitlines()[0] == diagnostic.headline()
    assert err.sources.render_all(err).splitlines()[-1].endswith("found")


@given(mutated_specs())
def test_mutated_spec_loads_or_fails_plainly(case: tuple[Path, Path, str]) -> None:
    folder, relative, text = case
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("variants", "__pycache__"))
        (copy / relative).write_text(text, encoding="utf-8")
        try:
            load_spec(copy)
        except SpecError as err:
            _assert_plain(err, copy)
