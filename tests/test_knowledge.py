"""What a seat knows (issue 43, item 3): a card shown to it, a card it saw, and where that card
went since as far as it could follow, kept per seat in the state. The Priest of
tests/specs/priest shows one player the other's hand: that player knows the card (its policy
names it, its view and the table show it, every search deal leaves it there), the other does
not; both back ends keep the same knowledge; and over random games of every spec nothing a seat
knows is false or unseen by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import rulespec.runtime.state as kernel
from rulespec.runtime.policy import PolicyAgent
from rulespec.runtime.bots.search import determinize
from rulespec.runtime.game import Game
from rulespec.runtime.playtest.table import zone_list
from rulespec.runtime.state import State, Stream, known_cards, next_random
from support import BACKENDS, MINI, REPO, TS, program
from test_differential import lockstep

PRIEST = MINI.parent / "priest"
GLIMPSE = MINI.parent / "glimpse"
SPECS = {name: REPO / "spec" / name for name in (
    "twilight_struggle", "heldenhain", "risk_balance_of_power", "terraforming_mars",
    "the_fox_in_the_forest")}
SPECS.update(priest=PRIEST, glimpse=GLIMPSE, mini=MINI)


def _slot(game: Game, name: str) -> int:
    return next(s for s in range(game.meta.zone_slots) if game.meta.zone_slot_name(s) == name)


def _after_a_priest(backend: str, seeds=range(200)) -> tuple[Game, int]:
    """A game in which Rose has just played a Priest (the first seed where she does, playing
    the Priest whenever she holds one, else the first option); and the card Ivy held then."""
    for seed in seeds:
        game = Game(program(PRIEST, backend), seed=seed)
        while not game.over:
            decision = game.decision
            priests = [o for o in decision.option_ids if o.startswith("priest")]
            if decision.player == "rose" and decision.prompt == "Play which card?" and priests:
                before = list(game.state.zones[_slot(game, "hand(ivy)")])
                game.choose(priests[0])
                if not game.over:  # Ivy has drawn her second card since
                    return game, before[0]
                break
            game.choose(decision.option_ids[0])
    raise AssertionError(f"no seed in {seeds} where Rose plays a Priest")


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_seat_that_looked_knows_the_card_and_the_other_does_not(backend):
    game, card = _after_a_priest(backend)
    rose, ivy = game.meta.players.index("rose"), game.meta.players.index("ivy")
    assert known_cards(game.state, rose) == {card}
    assert game.view("ivy")["zones"]["hand(ivy)"] and card in game.state.zones[_slot(game, "hand(ivy)")]
    assert not known_cards(game.state, ivy) & set(game.state.zones[_slot(game, "hand(rose)")])
    name = game.meta.entity_ids[card]
    assert game.view("rose")["zones"]["hand(ivy)"]["shown"] == [name]
    assert "shown" not in game.view("ivy")["zones"]["hand(rose)"]
    tables = {p: {z["key"]: z for z in zone_list(game.meta, game.view(p))} for p in ("rose", "ivy")}
    assert tables["rose"]["hand(ivy)"]["shown"] == [name]
    assert "shown" not in tables["ivy"]["hand(rose)"]


def test_the_terminal_shows_each_seat_its_own_knowledge():
    from io import StringIO

    from rich.console import Console

    from rulespec.runtime.playtest.table import Table
    from rulespec.runtime.playtest.terminal import TerminalSeat

    game, card = _after_a_priest("interpreted")
    table = Table.new(game.program, ("human", "human"), seed=game.seed).advance(list(game.choices))
    screens = {}
    for player in ("rose", "ivy"):
        out = StringIO()
        console = Console(file=out, width=140, color_system=None)
        console.print(TerminalSeat(table, console, lambda prompt: "").zones_grid(table.seat_view(player)))
        screens[player] = out.getvalue()
    label = game.meta.entity_labels[card]
    rose_line = next(line for line in screens["rose"].splitlines() if line.strip().startswith("Hand (Ivy)"))
    assert label in rose_line and "1 hidden" in rose_line  # the card she saw, and the one Ivy drew
    ivy_line = next(line for line in screens["ivy"].splitlines() if line.strip().startswith("Hand (Rose)"))
    assert "hidden" in ivy_line and not any(l in ivy_line for l in set(game.meta.entity_labels))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_knowledge_follows_the_card_while_the_seat_can_follow_it(backend):
    game, card = _after_a_priest(backend)
    rose = game.meta.players.index("rose")
    hand = _slot(game, "hand(ivy)")
    while not game.over and game.state.location[card] == hand:
        assert game.state.knowledge[rose] == {card: hand}, "Ivy's draw leaves the known card known"
        game.choose(game.decision.option_ids[0])
    if not game.over:  # Ivy played it face up: seen by both, nothing left to remember
        assert game.state.location[card] == _slot(game, "played")
        assert card not in game.state.knowledge[rose]


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_search_deal_leaves_the_known_card_in_the_other_hand(backend):
    for seed in range(200):  # the first game in which Rose decides again while Ivy keeps it
        game, card = _after_a_priest(backend, range(seed, 200))
        while not game.over and game.decision.player != "rose":
            game.choose(next(o for o in game.decision.option_ids if o != game.meta.entity_ids[card]))
        if not game.over:
            break
    rose, ivy = game.meta.players.index("rose"), game.meta.players.index("ivy")
    hand_ivy, hand_rose = _slot(game, "hand(ivy)"), _slot(game, "hand(rose)")
    assert game.state.location[card] == hand_ivy
    guessed_for_ivy = set()
    for seed in range(30):
        world = determinize(game, game.state, rose, Stream(seed))
        assert card in world.zones[hand_ivy] and world.knowledge[rose] == {card: hand_ivy}
        assert all(world.location[c] == s for c, s in world.knowledge[ivy].items())
        guessed_for_ivy |= set(determinize(game, game.state, ivy, Stream(seed)).zones[hand_rose])
    assert len(guessed_for_ivy) > 2, "Ivy, who never looked, is dealt many hands of Rose's"


def test_the_policy_names_the_card_its_seat_knows():
    """Rose's `sleuth` policy plays a Priest before a Guard and names the card it saw."""
    named = 0
    for seed in range(60):
        game = Game(program(PRIEST, "generated"), seed=seed)
        agent = PolicyAgent(seed, "sleuth")
        rose = game.meta.players.index("rose")
        while not game.over:
            decision = game.decision
            if decision.player != "rose":  # Ivy keeps her older card: the one Rose may know
                game.choose(decision.option_ids[-1])
                continue
            choice = agent.choose(game, decision)
            known = {game.meta.entity_ids[c] for c in known_cards(game.state, rose)
                     if game.state.location[c] == _slot(game, "hand(ivy)")} & set(decision.option_ids)
            if decision.prompt == "Name a card" and known:
                assert {choice} == known
                named += 1
            game.choose(choice)
    assert named >= 3, f"the policy named a known card only {named} times in 60 games"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_evaluation_reads_what_its_seat_knows(backend):
    game, _ = _after_a_priest(backend)
    evaluate = game.program.evaluate
    assert evaluate(game.state, "sleuth", game.meta.players.index("rose")) == 1
    assert evaluate(game.state, "sleuth", game.meta.players.index("ivy")) == 0


def test_the_proof_sheet_says_it_in_words():
    from rulespec.compiler.frontend import ast
    from rulespec.compiler.tools.cards.words import Words
    from support import loaded

    at, words = ast.Span("<test>", 1, 1, 1, 1), Words(loaded(PRIEST).model)
    you, ivy, king = (ast.NameRef(at, n) for n in ("you", "ivy", "king"))
    assert words.expr(ast.CallExpr(at, "known", (you, king))) == "you know where King is"
    assert words.expr(ast.CallExpr(at, "known", (ivy, king))) == "Ivy knows where King is"
    their_hand = ast.CallExpr(at, "hand", (ast.CallExpr(at, "opponent", (you,)),))
    assert words.expr(ast.Member(at, king, ast.CallExpr(at, "known_in", (you, their_hand)), False)) \
        == "King is in the cards you know are in your opponent's Hand"


@pytest.mark.parametrize("seed", range(12))
def test_both_back_ends_know_the_same_move_for_move(seed):
    lockstep(PRIEST, seed)  # the public part holds the knowledge; JSON copies keep it


def test_a_saved_state_keeps_what_each_seat_knows():
    game, card = _after_a_priest("generated")
    back = State.from_json(json.loads(json.dumps(game.state.to_json())))
    assert back.knowledge == game.state.knowledge and card in back.knowledge[0]


# ------------------------------------------------------------------ a concealed zone


def _after_a_herald(backend: str) -> tuple[Game, int, list[int]]:
    """A game of tests/specs/glimpse just after a Herald showed its player's hand to the table
    (the first seed and turn where one is played); its player and the cards then in its hand."""
    for seed in range(100):
        game = Game(program(GLIMPSE, backend), seed=seed)
        while not game.over:
            decision = game.decision
            heralds = [o for o in decision.option_ids if o.startswith("herald")]
            if decision.prompt == "Play which card?" and heralds:
                player = game.meta.players.index(decision.player)
                game.choose(heralds[0])
                return game, player, list(game.state.zones[_slot(game, f"hand({decision.player})")])
            game.choose(decision.option_ids[-1])
    raise AssertionError("no seed plays a Herald")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_concealed_zone_is_still_known_where_it_lies(backend):
    game, player, held = _after_a_herald(backend)
    other = 1 - player
    hand = _slot(game, f"hand({game.meta.players[player]})")
    assert not game.state.revealed[hand]
    assert kernel.known_in(game.state, other, hand) == sorted(held)
    assert not game.state.knowledge[player]  # it always sees its own hand: nothing to record
    view = game.view(game.meta.players[other])["zones"][f"hand({game.meta.players[player]})"]
    assert sorted(view["shown"]) == sorted(game.meta.entity_ids[c] for c in held)
    assert game.program.evaluate(game.state, "recall", other) == len(held)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_card_set_aside_unseen_from_a_concealed_hand_forgets_it(backend):
    """The Herald's player draws, plays a Baron and sets a card aside face down: the other
    player cannot tell which went, and knows nothing of that hand any more (one card left is
    still possible to tell only when the hand is emptied)."""
    for seed in range(100):
        game = Game(program(GLIMPSE, backend), seed=seed)
        flashed = None
        while not game.over:
            decision, player = game.decision, game.meta.players.index(game.decision.player)
            wanted = "herald" if flashed is None else "baron" if flashed == player else ""
            mine = [o for o in decision.option_ids if wanted and o.startswith(wanted)]
            if decision.prompt == "Play which card?" and mine:
                game.choose(mine[0])
                if wanted == "herald":
                    flashed = player
                    continue
                hand = _slot(game, f"hand({decision.player})")
                assert kernel.known_in(game.state, 1 - player, hand), "known before the Baron"
                game.choose(game.decision.option_ids[0])  # a card aside face down
                assert not kernel.known_in(game.state, 1 - player, hand)
                return
            game.choose(decision.option_ids[-1])
    raise AssertionError("no seed plays a Herald, then a Baron for the same player")


@pytest.mark.parametrize("seed", range(8))
def test_both_back_ends_keep_a_concealed_zone_known_alike(seed):
    lockstep(GLIMPSE, seed)


# ------------------------------------------------------------------ the property


class Witness:
    """What each seat saw, kept apart from the engine: a card lying in a zone the seat saw just
    before or after a move, or shown to it. The interpreter calls the kernel's move and show
    through the module, so wrapping them there watches every one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, players: int):
        self.seen: list[set[int]] = [set() for _ in range(players)]
        for name in ("move_card", "move_card_bottom"):
            monkeypatch.setattr(kernel, name, self._moving(getattr(kernel, name)))
        monkeypatch.setattr(kernel, "show_card", self._showing(kernel.show_card))
        monkeypatch.setattr(kernel, "conceal_zone", self._concealing(kernel.conceal_zone))

    def _saw(self, state: State, card: int) -> None:
        slot = state.location[card]
        for seat, seen in enumerate(self.seen):
            if slot >= 0 and kernel.sees(state, seat, slot):
                seen.add(card)

    def _moving(self, move):
        def watched(state, card, slot):
            self._saw(state, card)
            move(state, card, slot)
            self._saw(state, card)
        return watched

    def _concealing(self, conceal):
        """A zone concealed was seen by every seat until now; each seat knows its cards after."""
        def watched(state, slot):
            revealed = state.revealed[slot]
            if revealed:
                for seen in self.seen:
                    seen.update(state.zones[slot])
            conceal(state, slot)
            for seat in range(len(self.seen)):
                if revealed:
                    assert sorted(kernel.known_in(state, seat, slot)) == sorted(state.zones[slot]), \
                        f"seat {seat} saw the cards of zone {slot} and forgot them as it was concealed"
        return watched

    def _showing(self, show):
        def watched(state, card, location, *to):
            show(state, card, location, *to)
            for seat, seen in enumerate(self.seen):
                if card is not None and (not to or to[0] == seat):
                    seen.add(card)
        return watched


def assert_knowledge_true_and_seen(game: Game, witness: Witness) -> None:
    state = game.state
    for seat, known in enumerate(state.knowledge):
        for card, slot in known.items():
            assert state.location[card] == slot, f"seat {seat} knows {card} in {slot}, it is not there"
            assert not state.sight[slot] >> seat & 1, "knowledge of a card in a zone the seat always sees"
            assert card in witness.seen[seat], f"seat {seat} knows card {card}, which it never saw"
        view = game.view(game.meta.players[seat])
        for name, zone in view["zones"].items():
            if isinstance(zone, dict):
                shown = {game.meta.entity_ids.index(c) for c in zone.get("shown", ())}
                assert shown <= witness.seen[seat], f"{name} shows seat {seat} a card it never saw"


@pytest.mark.parametrize("name", sorted(SPECS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture], phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 2**31), chooser=st.integers(0, 2**31), steps=st.integers(0, 60))
def test_nothing_a_seat_knows_is_false_or_unseen(name, seed, chooser, steps, monkeypatch):
    if name == "twilight_struggle" and not TS.exists():
        pytest.skip("no Twilight Struggle spec")
    with monkeypatch.context() as patch:
        interpreter = program(SPECS[name], "interpreted")
        witness = Witness(patch, len(interpreter.meta.players))
        game = Game(interpreter, seed=seed)
        stream = Stream(chooser)
        for _ in range(steps):
            assert_knowledge_true_and_seen(game, witness)
            if game.over:
                break
            ids = game.decision.option_ids
            game.choose(ids[next_random(stream) % len(ids)])
        assert_knowledge_true_and_seen(game, witness)
