"""Hidden information: a seat's view holds nothing the rules hide from it, and a search
bot's determinised world agrees with that view while re-dealing what is bound to unseen cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game, seen_slots, unseen_cards
from rulespec.runtime.bots.search import determinize
from rulespec.runtime.state import RuleError, Stream, known_cards, next_random
from rulespec.runtime.playtest.table import json_strings
from support import BACKENDS, MINI, REPO, TS, program

HELDENHAIN = REPO / "spec" / "heldenhain"
FOX = REPO / "spec" / "the_fox_in_the_forest"
GAMES = {"mini": (MINI, 40), "twilight_struggle": (TS, 120), "heldenhain": (HELDENHAIN, 120),
         "the_fox_in_the_forest": (FOX, 80)}

# North picks a secret card and marks it; south decides while the frame that
# asked still holds north's card in a local.
SECRET = """\
game secret "Secret"
players north "North", south "South"
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone secret "Secret" per player owner
zone table "Table" public
counter mark "Mark" on card
var last: card? = none
kind card: card(points: int)
card c1 "C1" (points 1)
card c2 "C2" (points 2)
card c3 "C3" (points 3)
card c4 "C4" (points 4)
card c5 "C5" (points 5)
card c6 "C6" (points 6)
card c7 "C7" (points 7)
start {
    move all c in card to deck
    shuffle deck
    for p in players { repeat 2 { move top(deck) to hand(p) } }
    north chooses c in hand(north) "Pick a secret card"
    move c to secret(north)
    add 1 to mark(c)
    set last to c
    south chooses d in hand(south) "Answer"
    move d to table
    if c.points > d.points { win north "higher" } else { win south "lower" }
}
"""


def secret_ids(meta, state, seat: int) -> set[str]:
    """The ids no view of `seat` may hold: cards it neither sees nor knows, less the ones its own
    decision offers (and ids a player, effect, track, counter or var bears too)."""
    declared = set(meta.players) | set(meta.effects) | {t.name for t in meta.tracks}
    declared |= {c.name for c in meta.counters} | {n for n, _ in meta.vars}
    unseen = unseen_cards(meta, state, seen_slots(meta, state, seat)) - known_cards(state, seat)
    secret = {meta.entity_ids[c] for c in unseen}
    if state.pending is not None and state.pending["player"] == seat:
        secret -= set(state.pending["ids"])
    return secret - declared


def assert_views_hide(game: Game) -> None:
    """For every seat: no id of a card it neither sees nor knows appears anywhere in its view
    (unless the seat's own decision offers it), and card vars are ids, never indexes."""
    meta, state = game.meta, game.state
    for seat, player in enumerate(meta.players):
        view = game.view(player)
        json.dumps(view)  # a view is plain JSON
        assert all(state.location[c] == slot for c, slot in state.knowledge[seat].items()), \
            f"{player} knows a card where it is not"  # tests/test_knowledge.py: and only what it saw
        leaked = secret_ids(meta, state, seat) & json_strings(view)
        assert not leaked, f"{player} sees hidden cards {sorted(leaked)} at decision {game.decisions}"
        for (name, _), kind in zip(meta.vars, meta.var_kinds):
            if kind == "card":
                assert not isinstance(view["vars"][name], int), f"var {name} shows a raw index"


def _random_position(folder: Path, seed: int, steps: int, chooser: int) -> Game | None:
    game = Game(program(folder, "interpreted"), seed=seed)
    stream = Stream(chooser)
    for _ in range(steps):
        if game.over:
            break
        assert_views_hide(game)
        ids = game.decision.option_ids
        game.choose(ids[next_random(stream) % len(ids)])
    return game


@pytest.mark.parametrize("game_name", sorted(GAMES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: games are long
@given(seed=st.integers(0, 2**31), chooser=st.integers(0, 2**31), data=st.data())
def test_no_view_holds_what_the_rules_hide(game_name, seed, chooser, data):
    folder, longest = GAMES[game_name]
    steps = data.draw(st.integers(0, longest), label="decisions")
    game = _random_position(folder, seed, steps, chooser)
    assert_views_hide(game)
    if not game.over:
        seat = game.state.pending["player"]
        world = determinize(game, game.state, seat, Stream(seed))
        twin = Game.__new__(Game)
        twin.__dict__.update(game.__dict__, state=world)
        player = game.meta.players[seat]
        assert twin.view(player) == game.view(player), "the re-dealt world shows the bot something else"


def _secret_program(tmp_path: Path, backend: str):
    folder = tmp_path / "secret"
    folder.mkdir()
    (folder / "secret.rules").write_text(SECRET, encoding="utf-8")
    loaded = load_spec(folder)
    if backend == "interpreted":
        return Interpreter(loaded.model)
    from rulespec.compiler.backends import engine
    from rulespec.compiler.backends.codegen import compile_game
    compile_game(loaded.model, tmp_path / "pkg")
    return engine.load_program(loaded, "generated", tmp_path / "pkg")


def _held_card(prog, state) -> int:
    """The card the suspended frame holds in its local `c`."""
    frame = state.frames[-1]
    if prog.backend == "interpreted":
        return frame["env"]["c"]
    cards, _ = _card_slots(prog)[frame[0]]  # c, then d: in the order they are bound
    return frame[2][cards[0]]


def _card_slots(prog) -> dict:
    import importlib
    return importlib.import_module(type(prog).__module__.rsplit(".", 1)[0] + ".procedures").CARD_SLOTS


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_secret_card_hides_with_its_counters_vars_and_frame_locals(tmp_path, backend):
    prog = _secret_program(tmp_path, backend)
    game = Game(prog, seed=3)
    game.choose(game.decision.option_ids[0])
    picked = game.state.zones[game.meta.zones[3].slot][0]
    view = game.view("south")
    assert view["counters"]["mark"] == {} and view["vars"]["last"] == {"hidden": True}
    assert game.view("north")["counters"]["mark"] == {game.meta.entity_ids[picked]: 1}
    assert game.view("north")["vars"]["last"] == game.meta.entity_ids[picked]
    assert _held_card(prog, game.state) == picked
    south = game.meta.players.index("south")
    moved = 0
    for seed in range(40):
        world = determinize(game, game.state, south, Stream(seed))
        secret = world.zones[game.meta.zones[3].slot][0]  # what lies in north's secret now
        assert world.counters[0][secret] == 1 and sum(world.counters[0]) == 1
        assert world.vars[0] == secret
        assert _held_card(prog, world) == secret, "the frame still holds the true card"
        moved += secret != picked
    assert moved, "the secret card was never re-dealt"
    assert _held_card(prog, game.state) == picked  # the real game is untouched


def test_heldenhain_start_character_is_not_seen_by_the_other_side():
    game = Game(program(HELDENHAIN, "interpreted"), seed=1)
    bots_stream = Stream(1)
    for _ in range(12):
        assert_views_hide(game)
        try:
            ids = game.decision.option_ids
            game.choose(ids[next_random(bots_stream) % len(ids)])
        except RuleError:
            break
