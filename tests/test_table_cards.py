"""Cards at the table: each shows its event in words (the proof sheet's renderer), or the
printed `text` a spec gives it, and its attributes but none that is 0."""

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


def test_every_card_in_a_hand_shows_its_event_in_words_and_no_zero_attribute():
    table = _table(TS)
    view = table.seat_view("ussr")
    hand = view["view"]["zones"]["hand(ussr)"]
    assert hand and all(view["cards"][c]["text"] for c in hand)
    info = table.card_info({"zones": {"x": ["duck_and_cover", "asia_scoring"]}}, None)
    words = info["duck_and_cover"]["text"].split("\n")  # the proof sheet's words, a step a line
    assert len(words) == 2 and "degrade_defcon(1)" in words[0] and "gain_vp(USA, 5" in words[1]
    assert ["ops", "3"] in info["duck_and_cover"]["attrs"]
    assert not any(k == "ops" for k, _ in info["asia_scoring"]["attrs"]), "ops 0 is not shown"
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
