"""Card proof sheets: every node has words, every card of every game renders, 21 golden cards and
the walkthrough's soft Duck and Cover."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulespec.compiler.frontend import ast
from rulespec.compiler.tools.cards import card_sheets, sheet_text
from rulespec.compiler.tools.cards.sheet import declared_cards
from rulespec.compiler.tools.cards.html import cards_html, words_html
from rulespec.compiler.tools.cards.sentences import Sentences, statement_words
from rulespec.compiler.tools.cards.words import Words, expression_words
from rulespec.compiler.frontend.loader import load_spec
from support import REPO, loaded, spec_copy, walkthrough_block

GOLDEN = Path(__file__).resolve().parent / "golden" / "cards"
GAMES = sorted(p.name for p in (REPO / "spec").iterdir() if p.is_dir() and any(p.glob("*.rules")))
GOLDEN_CARDS = {
    "twilight_struggle": ["china_card", "duck_and_cover", "five_year_plan", "socialist_governments",
                          "blockade", "nato", "red_scare_purge", "cuban_missile_crisis",
                          "our_man_in_tehran", "olympic_games", "un_intervention", "nasser"],
    "heldenhain": ["roxy", "kiki_kleeblatt", "hanna_herzlich", "wunschbrunnen", "magier_mehrwert",
                   "pakt_mit_preis", "zugabe", "sonderangebot", "zusammenhalt"],
}
EFFECT_ITEMS = (ast.Modifier, ast.Forbid, ast.Trigger)


def test_every_node_has_words():
    missing = [c.__name__ for c in ast.node_classes(ast.Expr) if c.__name__ not in expression_words()]
    missing += [c.__name__ for c in ast.node_classes(ast.Stmt) if c.__name__ not in statement_words()]
    missing += [c.__name__ for c in EFFECT_ITEMS if not hasattr(Sentences, "i_" + c.__name__)]
    assert not missing, f"nodes the card sheets cannot put into words: {missing}"


def test_a_construct_without_words_is_said_so_plainly():
    words = Words(loaded(REPO / "spec" / "twilight_struggle").model)

    class Novel(ast.Expr):
        __slots__ = ()

    novel = object.__new__(Novel)
    assert words.expr(novel) == "[not put into words: Novel; see the spec text]"


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_game_renders(game):
    spec = loaded(REPO / "spec" / game)
    sheets = card_sheets(spec.model)
    assert len(sheets) == len(declared_cards(spec.model))  # a card per player: one sheet
    text = "".join(sheet_text(s) for s in sheets)
    assert "not put into words" not in text  # the renderer knows every construct the specs use
    page = cards_html(spec.model.title, game, sheets)
    assert page.count('<section class="card"') == len(sheets)


def test_the_words_use_the_specs_labels():
    sheets = {s.name: s for s in card_sheets(loaded(REPO / "spec" / "twilight_struggle").model)}
    text = sheet_text(sheets["suez_crisis"])
    assert "Remove 1 USA Influence from `c`." in text
    assert "(asked: “Suez Crisis: remove 1 US influence where?”)" in text
    text = sheet_text(sheets["socialist_governments"])
    assert "Western Europe" in text and "USA" in text
    assert "only if not `starred_event_played`(The Iron Lady)" in text


def test_code_names_are_shown_as_code_and_the_rest_escaped():
    assert str(words_html("Do `gain_vp`(<USA>, 2).")) == "Do <code>gain_vp</code>(&lt;USA&gt;, 2)."


def _soft_duck_sheet() -> str:
    """Duck and Cover under the variant docs/WALKTHROUGH.md writes, on a copy of the game."""
    folder = spec_copy("twilight_struggle", variants={"soft_duck": walkthrough_block("variant soft_duck")})
    spec = load_spec(folder, variants=("soft_duck",))
    sheet = next(s for s in card_sheets(spec.model) if s.name == "duck_and_cover")
    return sheet_text(sheet).replace(str(folder), "spec/twilight_struggle")


def test_nasser_reads_as_the_card_does():
    sheets = {s.name: s for s in card_sheets(loaded(REPO / "spec" / "twilight_struggle").model)}
    assert ("Remove (half of (USA Influence in Egypt + 1), rounded down) USA Influence from Egypt."
            in sheet_text(sheets["nasser"]))
    assert "half of (5 \u2212 DEFCON), rounded down" in _soft_duck_sheet()


def _golden_sheets() -> dict[str, str]:
    out = {}
    for game, names in GOLDEN_CARDS.items():
        sheets = {s.name: s for s in card_sheets(loaded(REPO / "spec" / game).model)}
        for name in names:
            out[f"{game}.{name}.txt"] = sheet_text(sheets[name])
    return out


def test_the_golden_cards_match_their_golden_files():
    sheets = _golden_sheets()
    sheets["twilight_struggle.soft_duck.duck_and_cover.txt"] = _soft_duck_sheet()
    assert len(sheets) == 22
    if os.environ.get("RULESPEC_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for stale in GOLDEN.glob("*.txt"):
            stale.unlink()
        for name, text in sheets.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.txt")}
    assert sorted(expected) == sorted(sheets), "run with RULESPEC_UPDATE_GOLDEN=1 to write them"
    for name, text in sheets.items():
        assert text == expected[name], (
            f"tests/golden/cards/{name} differs: rerun with RULESPEC_UPDATE_GOLDEN=1 and review the diff")


GUESSING = """\
game g "G"
players red "Red", blue "Blue"
zone hand "Hand" per player owner
zone out "Out" public
kind character: card(rank: int)
procedure guess(p: player) {
    p chooses c in character where c.rank != 1 "Name a card"
    if any(d in hand(opponent(p)) where d == c) { move c to out }
    again(p, 1)
}
procedure again(p: player, n: int) {
    repeat n { move top(hand(p)) to out }
}
character guard_1 "Guard" (rank 1) {
    event { guess(you) }
}
character guard_2 "Guard" (rank 1) {
    event { guess(red) }
}
start { resolve guard_1 for red win none "draw" }
"""


def test_an_event_that_calls_a_procedure_says_what_the_procedure_does(tmp_path):
    (tmp_path / "g.rules").write_text(GUESSING, encoding="utf-8")
    sheets = {s.name: sheet_text(s) for s in card_sheets(load_spec(tmp_path).model)}
    mine, reds = sheets["guard_1"], sheets["guard_2"]
    assert "Do `guess`" not in mine and "- Carry out `guess`:" in mine
    assert "You choose a character `c` such that the rank of `c` is not 1" in mine  # `p` reads you
    assert "your opponent's Hand" in mine
    assert "Carry out `again` (with `n` = 1)." in mine  # a procedure it calls: named, not unfolded
    assert "Carry out `guess` (with `p` = Red):" in reds and "`p` chooses a character" in reds
