"""Cards at the table: each shows its event in words (the proof sheet's renderer), or the
printed `text` a spec gives it, and the attributes the terminal shows too (one rule)."""

from __future__ import annotations

from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.playtest import open_table
from support import REPO, program

TS = REPO / "spec" / "twilight_struggle"
HELDENHAIN = REPO / "spec" / "heldenhain"


def _table(folder):
    prog = program(folder, "generated")
    prog.card_faces = None  # open_table fills it from the spec
    return open_table(load_spec(folder), prog, ("human", "random"), seed=1)


def test_every_card_in_a_hand_shows_its_event_in_words_and_the_attributes_that_tell_it_apart():
    table = _table(TS)
    view = table.seat_view("ussr")
    hand = view["view"]["zones"]["hand(ussr)"]
    assert hand and all(view["cards"][c]["text"] for c in hand)
    info = table.card_info({"zones": {"x": ["duck_and_cover", "asia_scoring"]}}, None)
    words = info["duck_and_cover"]["text"].split("\n")  # the proof sheet's words, a step a line
    assert words[0] == "Carry out degrade_defcon (with n = 1):" and words[1].startswith("  - If n")
    assert "Carry out gain_vp (with p = USA, n = 5 − DEFCON):" in words
    assert ["ops", "3"] in info["duck_and_cover"]["attrs"]
    assert ["ops", "0"] in info["asia_scoring"]["attrs"], "a 0 that tells a card apart is shown"
    assert not any(k == "number" for k, _ in info["duck_and_cover"]["attrs"]), "a serial number is not"
    assert table.card_info({"zones": {"x": ["china_card"]}}, None)["china_card"]["text"] == "No event."
    assert info["duck_and_cover"]["spec"].startswith("card duck_and_cover")


def test_a_printed_text_is_shown_instead_of_the_words():
    table = _table(HELDENHAIN)
    meta = table.meta
    printed = next(c for c in meta.card_entities
                   if dict(meta.board.attributes[c]).get("text"))
    cid = meta.entity_ids[printed]
    info = table.card_info({"zones": {"x": [cid]}}, None)[cid]
    assert info["text"] == dict(meta.board.attributes[printed])["text"]


def test_the_terminal_and_the_table_show_the_same_attributes_of_every_card():
    from rulespec.runtime.board import attribute_text
    from rulespec.runtime.playtest.terminal import card_figures
    for folder in (TS, HELDENHAIN):
        table = _table(folder)
        figures = card_figures(table.meta)
        ids = [table.meta.entity_ids[c] for c in table.meta.card_entities]
        info = table.card_info({"zones": {"x": ids}}, None)
        for card in ids:
            shown = ", ".join(attribute_text(n, v) for n, v in info[card]["attrs"])
            assert figures.get(card, "") == (f" ({shown})" if shown else ""), card


def test_a_board_that_shows_a_card_field_decides_what_every_card_shows(tmp_path):
    from rulespec.compiler.backends.interpret import Interpreter
    from rulespec.runtime.board import card_attributes
    (tmp_path / "g.rules").write_text("""\
game g "G"
players red "Red", blue "Blue"
zone hand "Hand" per player owner
kind character: card(value: int, rank: int, guard: bool = false)
character spy "Spy" (value 0, rank 5)
character guard "Guard" (value 1, rank 5, guard)
board 400 by 300 show guard, value {
    hand(red) at 100, 250
    hand(blue) at 100, 50
}
start { win none "draw" }
""", encoding="utf-8")
    meta = Interpreter(load_spec(tmp_path).model).meta
    assert card_attributes(meta) == {"spy": [("value", "0")], "guard": [("guard", "yes"), ("value", "1")]}
