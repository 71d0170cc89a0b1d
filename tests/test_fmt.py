"""The formatter: every node has a printer, the layout rules, comments kept, meaning never changed.

The repository's own spec files are checked by test_fmt_check.py (`fmt --check`
over spec/ and tests/specs/); here hypothesis re-lays them out at random
(whitespace, line breaks, comments between tokens) and the formatter must
bring every variation back to a text of the same meaning, idempotently.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.fmt import format_text, shape
from rulespec.compiler.frontend.fmt.comments import scan
from rulespec.compiler.frontend.fmt.exprs import printable_expressions
from rulespec.compiler.frontend.fmt.printer import Printer
from rulespec.compiler.frontend.fmt.statements import printable_statements
from rulespec.compiler.frontend.parse import parse_text
from support import REPO

SPEC_FILES = sorted([*REPO.glob("spec/**/*.rules"), *REPO.glob("tests/specs/**/*.rules")])
ITEMS = (ast.Modifier, ast.Forbid, ast.Trigger, ast.Option, ast.EventBlock, ast.ChoiceRule,
         ast.MenuRule, ast.Preference, ast.OptionPreference, ast.RequireConnected,
         ast.RequireInRegion, *(getattr(ast, n) for n in ("Placement",) if hasattr(ast, n)))


# ------------------------------------------------------------------ exhaustiveness


def test_every_node_has_a_printer():
    missing = [c.__name__ for c in ast.node_classes(ast.Expr) if c.__name__ not in printable_expressions()]
    missing += [c.__name__ for c in ast.node_classes(ast.Stmt) if c.__name__ not in printable_statements()]
    missing += [c.__name__ for c in ast.node_classes(ast.Decl) if not hasattr(Printer, "decl_" + c.__name__)]
    missing += [c.__name__ for c in ITEMS if not hasattr(Printer, "item_" + c.__name__)]
    assert not missing, f"nodes the formatter cannot write: {missing}"


# ------------------------------------------------------------------ layout


def fmt(text: str) -> str:
    return format_text(text, "t.rules")


def test_layout_is_canonical():
    messy = ('game  g "G"\nplayers a "A",b "B"\n\n\n\ntrack t "T" per player 0 .. 5 start 0\n'
             'procedure p(x: player) {   add 1 to t(x)\n}\n'
             'define d(x: player) -> bool = t(x) > 1 and t(x) < 4\n')
    assert fmt(messy) == (
        'game g "G"\nplayers a "A", b "B"\n\ntrack t "T" per player 0..5 start 0\n'
        'procedure p(x: player) { add 1 to t(x) }\n'
        'define d(x: player) -> bool = t(x) > 1 and t(x) < 4\n')


def test_long_lines_break_before_and_or_where_and_when():
    cond = " and ".join(f"influence(usa, c{i}) > {i}" for i in range(6))
    text = fmt(f"procedure p() {{\n  you chooses c in country where {cond} \"Pick one\"\n}}\n")
    lines = text.splitlines()
    assert all(len(line) <= 100 for line in lines)
    assert lines[1] == "    you chooses c in country"
    assert lines[2].startswith("        where influence(usa, c0) > 0 and")
    assert lines[-2].strip() == '"Pick one"'


def test_an_else_if_chain_is_written_a_branch_a_line():
    text = fmt("define worth(n: int) -> int = if n == 0 then 1 else if n == 1 then 2 else 4\n"
               "define pair(n: int) -> int = if n == 0 then 1 else 2\n"
               "define nested(n: int) -> int = 1 + (if n == 0 then 1 else if n == 1 then 2 else 3)\n")
    assert text == ("define worth(n: int) -> int =\n"
                    "    if n == 0 then 1\n"
                    "    else if n == 1 then 2\n"
                    "    else 4\n"
                    "define pair(n: int) -> int = if n == 0 then 1 else 2\n"  # no chain: one line when it fits
                    "define nested(n: int) -> int =\n"
                    "    1 + (if n == 0 then 1\n"
                    "         else if n == 1 then 2\n"  # lined up under its `if`
                    "         else 3)\n")
    assert fmt(text) == text


def test_unless_forced_and_or_skip_never_start_a_line():
    head = "    you chooses c in hand(you) where c.value != 1 and c != "
    fits = "c" * (96 - len(head))  # the where fills the line: its tail does not fit after it
    long = "c" + "".join(f" and c.value != {i}" for i in range(8))  # the where breaks itself
    for cond, prompt in ((fits, ""), (fits[:-11], ' "Pick one"'), (long, ""), (long, ' "Pick one"')):
        for tail in ("unless forced", "or skip"):
            text = fmt(f"procedure p() {{\n{head}{cond}{prompt} {tail}\n}}\n")
            lines = text.splitlines()
            assert all(len(line) <= 100 for line in lines), text
            assert not any(line.strip().startswith(tail) for line in lines), text
            assert lines[-2].endswith(tail), text
    text = fmt("procedure p() {\n    pick c at random in hand(you) where c.value != 1 and c != " + "c" * 50 + " or skip\n}\n")
    assert not any(line.strip() == "or skip" for line in text.splitlines()), text


def test_parentheses_only_where_the_meaning_needs_them():
    text = fmt("define d() = ((a + b) * c) - (d - e) == -(-f) and not (x or y) and (p.q).r\n")
    assert text == "define d() = (a + b) * c - (d - e) == -(-f) and not (x or y) and p.q.r\n"


def test_comments_stay_with_their_statements():
    text = fmt("# file head\n\ngame g \"G\"   # the title\n"
               "procedure p() {\n    # before x\n    roll x\n\n\n    log x  # after\n    # at the end\n}\n"
               "define d() =\n    1 # inside an expression\n    + 2\n# the last words\n")
    assert text == ("# file head\n\ngame g \"G\"  # the title\n"
                    "procedure p() {\n    # before x\n    roll x\n\n    log x  # after\n    # at the end\n}\n"
                    "# inside an expression\ndefine d() = 1 + 2\n# the last words\n")


def test_a_block_with_a_comment_never_shares_a_line():
    text = fmt("procedure p() {\n  roll x  # why\n}\n")
    assert text == "procedure p() {\n    roll x  # why\n}\n"


def test_trailing_comments_of_consecutive_lines_line_up():
    text = fmt('var a: int = 1 # one\nvar longer_name: int = 2 # two\n\nvar c: int = 3    # three\n')
    assert text == ('var a: int = 1            # one\nvar longer_name: int = 2  # two\n\n'
                    'var c: int = 3  # three\n')


def test_a_hash_inside_a_string_is_no_comment():
    text = fmt('game g "G # 1"\n')
    assert text == 'game g "G # 1"\n' and scan(text) == []


def test_syntax_errors_are_spec_errors():
    with pytest.raises(SpecError):
        fmt("procedure p( {\n")


# ------------------------------------------------------------------ meaning never changes

_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|->|--|\.\.|\S')
_GAPS = st.sampled_from([" ", "  ", "\n", "\n\n", "\n    ", "\t", " # a comment\n", "\n# own line\n"])


@functools.cache
def declarations() -> list[str]:
    """The text of every declaration of the repository's spec files."""
    found = []
    for path in SPEC_FILES:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        for decl in parse_text(text, str(path)).decls:
            span = decl.span
            chunk = lines[span.line - 1:span.end_line]
            chunk[-1] = chunk[-1][:span.end_column - 1]
            chunk[0] = chunk[0][span.column - 1:]
            found.append("\n".join(chunk))
    return found


@st.composite
def relaid(draw) -> str:
    """A declaration of the repository with random whitespace and comments between its tokens."""
    tokens = _TOKEN.findall(draw(st.sampled_from(declarations())))
    out = []
    for token in tokens:
        out.append(token)
        out.append("\n" if token.startswith("#") else draw(_GAPS))
    return "".join(out)


@settings(max_examples=int(os.environ.get("FMT_EXAMPLES", "60")))
@given(relaid())
def test_formatting_never_changes_the_meaning(text):
    formatted = fmt(text)  # format_text itself refuses a result of another meaning
    assert shape(parse_text(formatted, "t.rules")) == shape(parse_text(text, "t.rules"))
    assert fmt(formatted) == formatted
    assert len(scan(formatted)) == len(scan(text))
