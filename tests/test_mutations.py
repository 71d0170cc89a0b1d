"""Random mutations of real spec text and records: plain errors, never a crash.

A token deleted, two names swapped, the text cut short, a line doubled, bytes
that are not UTF-8, a construct nested hundreds deep, a number thousands of
digits long: the spec either still loads or raises SpecError whose every
diagnostic renders as `path:line:col: error: message` with the quoted line;
no other exception. A record cut, re-typed or nested deep is read or refused
with one RecordError line, never another exception.
"""

from __future__ import annotations

import functools
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, strategies as st

from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec

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


@st.composite
def invalid_utf8(draw, text: str) -> bytes:
    raw = text.encode("utf-8")
    at = draw(st.integers(0, len(raw)))
    bad = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82", b"\x80\x80"]))
    return raw[:at] + bad + raw[at:]


@st.composite
def deep_nesting(draw, text: str) -> str:
    depth = draw(st.integers(1, 600))
    shape = draw(st.sampled_from(["sum", "parens", "ifs"]))
    if shape == "sum":
        value = " + ".join(["1"] * depth)
    elif shape == "parens":
        value = "(" * depth + "1" + ")" * depth
    else:
        value = "if true then " * depth + "1" + " else 0" * depth
    return text + f"\ndefine deep_value(p: player) -> int = {value}\n"


@st.composite
def huge_literal(draw, text: str) -> str:
    numbers = [t for t in _tokens(text) if t.group().isdigit()]
    digits = "9" * draw(st.integers(15, 6000))
    if not numbers:
        return text + f"\n# no number here\ndefine big(p: player) -> int = {digits}\n"
    number = numbers[draw(st.integers(0, len(numbers) - 1))]
    return text[:number.start()] + digits + text[number.end():]


MUTATIONS = [delete_token, swap_names, truncate, duplicate_line, invalid_utf8, deep_nesting,
             huge_literal]


@st.composite
def mutated_specs(draw) -> tuple[Path, Path, str | bytes]:
    """A spec folder, one of its files, and that file's text mutated once."""
    folder, relative, text = draw(st.sampled_from(SOURCES))
    mutation = draw(st.sampled_from(MUTATIONS))
    return folder, relative, draw(mutation(text))


def _assert_plain(err: SpecError, folder: Path) -> None:
    assert err.diagnostics, "a SpecError carries at least one diagnostic"
    texts = {str(p): p.read_text(encoding="utf-8", errors="replace") for p in folder.rglob("*.rules")}
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
def test_mutated_spec_loads_or_fails_plainly(case: tuple[Path, Path, str | bytes]) -> None:
    folder, relative, text = case
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("variants", "__pycache__"))
        (copy / relative).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        try:
            load_spec(copy)
        except SpecError as err:
            _assert_plain(err, copy)


# ------------------------------------------------------------------ records


@functools.cache
def _a_record_text() -> str:
    """A real record of mini, saved mid-game (with its snapshot)."""
    import json
    from rulespec.runtime.game import Game
    from rulespec.runtime.record import to_record
    from support import MINI, program
    game = Game(program(MINI, "interpreted"), seed=3, agents=("random", "random"))
    while not game.over and len(game.choices) < 4:
        game.choose(game.decision.option_ids[0])
    return json.dumps(to_record(game))


def _a_record() -> dict:
    import json
    return json.loads(_a_record_text())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)


@st.composite
def corrupt_records(draw) -> str:
    """The text of a real record, corrupted once: a field re-typed, dropped, nested deep, cut."""
    import json
    record = _a_record()
    how = draw(st.sampled_from(["retype", "drop", "nest", "cut", "huge", "param", "agents", "snapshot"]))
    if how == "retype":
        record[draw(st.sampled_from(sorted(record)))] = draw(JSON_VALUES)
    elif how == "drop":
        del record[draw(st.sampled_from(sorted(record)))]
    elif how == "param":
        record["params"][draw(st.text(max_size=10))] = draw(JSON_VALUES)
    elif how == "agents":
        record["agents"] = draw(JSON_VALUES)
    elif how == "snapshot":
        state = record["snapshot"]["state"]
        state[draw(st.sampled_from(sorted(state)))] = draw(JSON_VALUES)
    text = json.dumps(record)
    if how == "nest":
        depth = draw(st.integers(1, 200_000))
        text = text[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    elif how == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "huge":
        text = text.replace('"seed": 3', '"seed": ' + "9" * draw(st.integers(20, 6000)), 1)
    return text


@given(corrupt_records())
def test_a_corrupt_record_is_read_or_refused_in_one_line(text: str) -> None:
    from rulespec.runtime import record as records
    from support import MINI, program
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "record.json"
        path.write_text(text, encoding="utf-8")
        try:
            rec = records.read(path)
            prog = program(MINI, "interpreted")
            game = records.replay(rec, prog)
            if rec.snapshot is not None and rec.snapshot.get("backend") == prog.backend:
                records.same_state(records.restore(rec, prog).state, game.state)
        except records.RecordError as err:
            message = str(err)
            assert "\n" not in message and len(message) < 2000, message[:200]
            assert message.isprintable(), repr(message[:200])

