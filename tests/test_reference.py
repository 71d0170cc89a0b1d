"""`rulespec doc`: every kind of declaration listed with its signature, comment and spec line."""

from __future__ import annotations

import io

from rich.console import Console

from rulespec.compiler.frontend.fmt.comments import doc_comment
from rulespec.compiler.tools.reference import build_reference
from rulespec.compiler.tools.reference.render import print_reference, reference_html
from support import MINI, REPO, TS, loaded


def _reference(folder):
    spec = loaded(folder)
    return build_reference(spec.model, spec.folder)


def test_the_helpers_a_designer_looks_for_are_listed_with_their_comment_and_line():
    entries = {e.name: e for e in _reference(TS).entries()}
    gain = entries["gain_vp"]
    assert gain.signature == "procedure gain_vp(p: player, n: int)"
    assert gain.location == "spec/twilight_struggle/victory.rules:16"
    assert gain.comment.startswith("p scores n VP")  # the file's opening list names it
    assert entries["improve_defcon"].comment == "DEFCON + n (at most 5)."
    controls = entries["controls"]
    assert controls.comment.startswith("Rule 2.1.7") and "influence(p, c) >= c.stability" in controls.code
    assert any(d.startswith("used at ") for d in controls.details)


def test_every_kind_of_declaration_has_a_section():
    titles = [s.title for s in _reference(TS).sections]
    for title in ("Game", "Tracks", "Zones", "Kinds", "Defines", "Quantities", "Procedures", "Effects",
                  "Signals", "Bots", "Policies", "Variants"):
        assert title in titles
    entries = {(e.category, e.name): e for e in _reference(MINI).entries()}
    goal = entries[("param", "goal")]
    assert goal.details == ("--param goal=VALUE: from 1 to 20; default 5",)
    assert ("variant", "quick") in entries and ("signal", "played") in entries
    assert entries[("kind", "field")].details == ("3 declared: a, b, c",)


def test_the_text_and_the_page():
    reference = _reference(MINI)
    out = io.StringIO()
    shown = print_reference(reference, Console(file=out, width=100), "total")
    assert shown == 1 and "define total(p: player) -> int" in out.getvalue()
    page = reference_html(reference)
    assert 'id="define-total"' in page and "<script" not in page and "http" not in page.split("<body>")[1]


def test_a_doc_comment_is_the_comment_right_above_or_at_the_end_of_the_line():
    lines = ["# ---- section", "# says what x is", "var x: int = 1", "", "var y: int = 2  # y's own", "# far", "",
             "var z: int = 3"]
    assert doc_comment(lines, 3) == "says what x is"
    assert doc_comment(lines, 5) == "y's own"
    assert doc_comment(lines, 8) == ""
