"""Search bots' deals (runtime/bots/search.py `determinize`) as the plain rule gives them.

determinize works from tables of the game worked out once and touches only what a deal moves,
for speed. Here the rule is written plainly, as its docstring says it, and both deal at positions
of seeded random games of mini, a spec with each seat's own hidden pile, and the shipped games
with hidden zones, for every seat: the same
State (every saved field, JSON-exact), the same write counts and kept filters, the same stream
after, and the position dealt from untouched.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from support import MINI, REPO, TESTS, program, random_positions

from rulespec.runtime.bots.search import determinize, hidden_slots
from rulespec.runtime.game import Game
from rulespec.runtime.state import Stream, known_cards, next_random, sees

GAMES = [MINI, TESTS / "specs" / "per_player"] + [REPO / "spec" / name for name in (
    "the_fox_in_the_forest", "heldenhain", "risk_balance_of_power", "terraforming_mars", "twilight_struggle")]


def plain_determinize(game, state, player, stream):
    """The rule of determinize's docstring, step by step over the whole state."""
    meta, world = game.meta, state.copy()
    known = known_cards(world, player)
    pending = world.pending
    if pending is not None and pending["player"] == player:
        known |= {meta.entity_ids.index(i) for i in pending["ids"] if i in meta.entity_ids}
    pools: dict[str, list[int]] = {}
    for slot in hidden_slots(game, world, player):
        zone, owner = meta.zone_of_slot(slot)
        if owner is not None or zone.ordered:
            pools.setdefault("mine" if owner == player else "theirs", []).append(slot)
    mapping = {}
    for key in sorted(pools):
        places = [(slot, i) for slot in pools[key] for i, card in enumerate(world.zones[slot])
                  if card not in known]
        cards = [world.zones[slot][i] for slot, i in places]
        for i in range(len(cards) - 1, 0, -1):
            j = next_random(stream) % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        for (slot, i), card in zip(places, cards):
            mapping[world.zones[slot][i]] = card
            world.zones[slot][i] = card
            world.location[card] = slot
    for seat, theirs in enumerate(world.knowledge):
        if seat != player and theirs:
            world.knowledge[seat] = {card: slot for card, slot in theirs.items()
                                     if card in known or sees(world, player, slot)}
    if any(old != new for old, new in mapping.items()):
        for row in world.counters:
            before = {old: row[old] for old in mapping}
            for old, new in mapping.items():
                row[new] = before[old]
        for i, kind in enumerate(meta.var_kinds):
            if kind == "card":
                world.vars[i] = mapping.get(world.vars[i], world.vars[i])
        for effect in world.effects:
            kinds = meta.effect_param_kinds[effect[0]] if meta.effect_param_kinds else ()
            effect[1] = [mapping.get(v, v) if kind == "card" else v for kind, v in zip(kinds, effect[1])] \
                + effect[1][len(kinds):]
        game.program.rebind_cards(world, mapping)
    world.forget_kept()
    world.rng = next_random(stream)
    world.dice = []
    return world


def saved(state) -> str:
    return json.dumps(state.to_json())


def planted(meta, state, cells=None):
    """The position with something bound to its cards (each counter a card's own value, each
    card var a card lying in a zone, and an effect with cards as arguments where the spec has one),
    and nothing known of cards no seat sees (every seat's own hidden pile dealt too). `cells`: per
    counter row, the cards it may hold a value for and how many values (all cards, 5 by default)."""
    world = state.copy()
    world.knowledge = [{} for _ in world.knowledge]
    lying = [card for cards in world.zones for card in cards]
    for r, row in enumerate(world.counters):
        cards, values = (meta.card_entities, 5) if cells is None else cells.get(r, ((), 1))
        for card in cards:
            row[card] = (card * 7 + r) % values
    for i, kind in enumerate(meta.var_kinds):
        if kind == "card":
            world.vars[i] = lying[(i * 13) % len(lying)]
    for e, kinds in enumerate(meta.effect_param_kinds):
        if "card" in kinds:
            world.effects.append([e, [lying[(e + k) % len(lying)] if kind == "card" else 0
                                      for k, kind in enumerate(kinds)], None])
    world.forget_kept()  # changed behind the rules' back: nothing kept of the position holds
    return world


def dealt_alike(game, state, seed: int) -> tuple[int, int]:
    """Deals of `state` for every seat by both, asserted the same: how many moved cards, and how
    many what is bound to them."""
    before, moved, rebound = saved(state), 0, 0
    for player in range(len(game.meta.players)):
        fast, plain = Stream(seed * 7919 + player), Stream(seed * 7919 + player)
        world, expected = determinize(game, state, player, fast), plain_determinize(game, state, player, plain)
        assert saved(world) == saved(expected), (game.meta.game, seed, player)
        assert (world.stamps, world.memo, world.dice, fast.rng) == \
            (expected.stamps, expected.memo, expected.dice, plain.rng)
        moved += world.zones != state.zones
        rebound += (world.counters, world.vars, world.effects, world.frames) != \
            (state.counters, state.vars, state.effects, state.frames)
    assert saved(state) == before  # dealt from a copy
    return moved, rebound


@pytest.mark.parametrize("folder", GAMES, ids=lambda folder: folder.name)
def test_determinize_deals_as_the_plain_rule(folder) -> None:
    game = Game(program(folder, "generated"), seed=1)
    moved = rebound = 0
    for seed in range(8):
        for state in random_positions(folder, seed, 10, every=23):
            for dealt in (dealt_alike(game, state, seed), dealt_alike(game, planted(game.meta, state), seed)):
                moved, rebound = moved + dealt[0], rebound + dealt[1]
    assert moved  # the deals do re-deal
    assert rebound  # and move what is bound to the cards


def test_determinize_deals_through_the_programs_own_deal_where_it_has_one() -> None:
    """A program's deal_natively makes the shuffles (the native engine's); search.determinize
    does the rest: the rng it gives, and `keep` asked to keep the deal when nothing bound moved."""
    game = Game(program(MINI, "generated"), seed=1)
    calls, kept = [], []

    def deal_natively(state, world, player, pools, known, stream):
        calls.append((state, player, stream))
        return {}, 12345, kept.append

    native = SimpleNamespace(meta=game.meta, program=SimpleNamespace(deal_natively=deal_natively))
    stream = Stream(5)
    world = determinize(native, game.state, 1, stream)
    assert calls == [(game.state, 1, stream)] and kept == [world]
    assert world.rng == 12345 and world.zones == game.state.zones and stream.rng == Stream(5).rng
    assert determinize(game, game.state, 1, Stream(5)).rng != 12345  # a program without one: search.py's own
