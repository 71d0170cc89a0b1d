"""The native state primitives (compiler/backends/machine/templates/primitives.pxi.j2, issue 41
stage 3) against their one home, runtime/state.py: seeded positions of random games are packed,
the same random sequence of primitives (moves, shuffles, rolls, picks, reveals and conceals, what
a seat sees and knows, the budget) is applied to the Python State and to the native struct, and
after every step the values given are equal and the struct's bytes are pack(state)'s; an error
for an error (a RuleError's message the same)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends import native
from rulespec.compiler.backends.machine.pack import PackError, machine_values, pack, unpack
from rulespec.runtime import state as rs
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.game import Game
from rulespec.runtime.state import MAX_NESTING, MAX_ROUNDS, OUT, RuleError, State

from support import MINI, REPO, loaded, program

GAMES = [MINI, REPO / "spec" / "the_fox_in_the_forest", REPO / "spec" / "heldenhain"]


@functools.cache
def built(folder: Path):
    """A game's native module (its defines and the primitives), built once a session, and its layout."""
    why = native.available()
    if why:
        pytest.skip(why)
    from rulespec.compiler.backends.machine.build import load_defines

    module, defines = load_defines(loaded(folder).model)
    return module, defines.layout


@functools.cache
def positions(folder: Path, seeds: int = 2, count: int = 3, every: int = 9) -> tuple[State, ...]:
    """`count` positions of each of `seeds` seeded random games, one each `every` decisions."""
    out = []
    for seed in range(seeds):
        for taken, game in enumerate(random_walk(Game(program(folder, "generated"), seed=seed), seed)):
            if taken % every == 0:
                out.append(game.state.copy())
                if len(out) == (seed + 1) * count:
                    break
    return tuple(out)


# ---------------------------------------------------------------- each primitive, Python side


def _moved(state: State, card, slot: int, move) -> int:
    """A move as the native one reports it: 1 when the card moved, 0 when it lies out of the game."""
    was = state.location[card]
    move(state, card, slot)
    return 0 if was == OUT else 1


def _reveal(state: State, slot: int) -> None:
    state.revealed[slot] = True  # as the generated code writes `reveal` (codegen/lower.py)


PYTHON = {
    "zone_size": lambda s, slot: len(s.zones[slot]),
    "zone_card": lambda s, slot, i: s.zones[slot][i],
    "top_card": rs.top_card,
    "move_card": lambda s, card, slot: _moved(s, card, slot, rs.move_card),
    "move_card_bottom": lambda s, card, slot: _moved(s, card, slot, rs.move_card_bottom),
    "reveal_zone": _reveal,
    "conceal_zone": rs.conceal_zone,
    "sees": rs.sees,
    "knows": rs.knows,
    "next_random": rs.next_random,
    "shuffle": rs.shuffle,
    "roll": lambda s, sides, at="": rs.roll(s, sides, at),
    "pick_index": lambda s, n, at="": rs.pick_random(s, list(range(n)), at),
    "tick": rs.tick,
    "enter_event": rs.enter_event,
    "leave_event": rs.leave_event,
}


def calls(layout) -> st.SearchStrategy:
    """One primitive call with arguments a game's layout gives room for: cards mostly, now and
    then none or an entity that is no card; every zone slot; players and now and then none."""
    slots = st.integers(0, layout.zone_slots - 1)
    cards = st.one_of(st.sampled_from(layout.cards), st.sampled_from(layout.cards),
                      st.sampled_from([None, 0, layout.entities - 1]))
    players = st.one_of(st.integers(0, layout.players - 1), st.just(None))
    return st.one_of(
        st.tuples(st.sampled_from(["move_card", "move_card", "move_card_bottom"]), st.tuples(cards, slots)),
        st.tuples(st.sampled_from(["zone_size", "top_card", "shuffle", "reveal_zone", "conceal_zone",
                                   "conceal_zone"]), st.tuples(slots)),
        st.tuples(st.just("zone_card"), st.tuples(slots, st.integers(-3, 5))),
        st.tuples(st.just("sees"), st.tuples(players, slots)),
        st.tuples(st.just("knows"), st.tuples(players, cards)),
        st.tuples(st.just("next_random"), st.just(())),
        st.tuples(st.just("roll"), st.tuples(st.sampled_from([6, 6, 2, 20, 1, -4, 0]), st.just("x:1"))),
        st.tuples(st.just("pick_index"), st.tuples(st.integers(0, 9), st.just("x:2"))),
        st.tuples(st.just("tick"), st.just(("while", "x:3"))),
        st.tuples(st.just("enter_event"), st.just(("Card", "x:4"))),
        st.tuples(st.just("leave_event"), st.just(())),
    )


def apply(module, layout, state: State, position, steps) -> int:
    """The steps on both sides, compared after each; the steps run before an error ended them."""
    for done, (name, args) in enumerate(steps):
        if name == "leave_event" and state.nesting == 0:
            continue  # the rules leave only an event they entered
        try:
            expected = PYTHON[name](state, *args)
            data = pack(layout, state)
        except PackError:  # the Python state has no room in the layout (a zone past its capacity,
            # an entity that is no card in a zone): the native primitive refuses it before acting
            with pytest.raises(Exception):
                module.primitive(name, position, *args)
            return done
        except Exception as error:  # noqa: BLE001 - a RuleError, or Python's own
            with pytest.raises(type(error)) as native_error:
                module.primitive(name, position, *args)
            if isinstance(error, RuleError):
                assert str(native_error.value) == str(error)
            return done
        got = module.primitive(name, position, *args)
        assert got == expected and type(got) is type(expected), f"{name}{args}: {got!r}, Python {expected!r}"
        assert module.packed(position) == data, f"{name}{args}: the struct differs from pack(state)"
    return len(steps)


def run(folder: Path, start: int, steps) -> None:
    module, layout = built(folder)
    state = positions(folder)[start % len(positions(folder))].copy()
    position = module.Position(pack(layout, state), state.params)
    if apply(module, layout, state, position, steps) == len(steps):  # no error left them apart
        other = State(program(folder, "generated").meta, 0, {})
        unpack(layout, module.packed(position), other)
        assert machine_values(layout, other) == machine_values(layout, state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), folder=st.sampled_from(GAMES), start=st.integers(0, 5))
def test_native_primitives_agree_with_runtime_state(data, folder, start):
    _, layout = built(folder)
    run(folder, start, data.draw(st.lists(calls(layout), min_size=1, max_size=40), label="steps"))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), folder=st.sampled_from(GAMES), start=st.integers(0, 5))
def test_native_primitives_agree_over_long_sequences(data, folder, start):
    _, layout = built(folder)
    run(folder, start, data.draw(st.lists(calls(layout), min_size=20, max_size=200), label="steps"))


# ---------------------------------------------------------------- cases a random sequence rarely meets


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_shuffles_and_dice_draw_as_python_does(folder):
    """Every zone shuffled, dice of every size rolled, picks made: the same stream, the same order."""
    module, layout = built(folder)
    for state in positions(folder)[:2]:
        state = state.copy()
        position = module.Position(pack(layout, state), state.params)
        steps = [("shuffle", (slot,)) for slot in range(layout.zone_slots)]
        steps += [("roll", (sides, "")) for sides in (1, 2, 6, 20, -3)] + [("pick_index", (n, "")) for n in (1, 7)]
        steps += [("next_random", ())] * 3 + [("shuffle", (slot,)) for slot in range(layout.zone_slots)]
        assert apply(module, layout, state, position, steps) == len(steps)


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_a_seat_follows_a_card_it_watched_leave_into_a_hidden_zone(folder):
    """A card moved from a zone only one seat sees into one nobody sees: that seat knows it there
    (machine data now); moving another card out of that zone unseen makes it forget."""
    module, layout = built(folder)
    state = positions(folder)[0].copy()
    own = [s for s, sight in enumerate(layout.sight) if sight > 0 and sight & (sight - 1) == 0]
    hidden = [s for s, sight in enumerate(layout.sight) if sight == 0]
    if not own or not hidden:
        pytest.skip("no zone seen by one seat alone, or none hidden from all")
    position = module.Position(pack(layout, state), state.params)
    card, other = layout.cards[0], layout.cards[-1]
    steps = [("move_card", (card, own[0])), ("move_card", (card, hidden[0])),
             ("knows", (layout.sight[own[0]].bit_length() - 1, card)),
             ("move_card_bottom", (other, hidden[0])), ("move_card", (other, own[0])),
             ("reveal_zone", (hidden[0],)), ("conceal_zone", (hidden[0],))]
    assert apply(module, layout, state, position, steps) == len(steps)
    assert any(state.knowledge), "the seat knows a card where it cannot see it"
    other_state = State(program(folder, "generated").meta, 0, {})
    unpack(layout, module.packed(position), other_state)
    assert other_state.knowledge == state.knowledge


def test_the_budget_fails_as_python_does_at_its_limits():
    module, layout = built(MINI)
    for name, attribute, limit, args in (("tick", "rounds", MAX_ROUNDS, ("while", "mini.rules:3")),
                                         ("enter_event", "nesting", MAX_NESTING, ("Card", "mini.rules:4"))):
        state = positions(MINI)[0].copy()
        setattr(state, attribute, limit - 1)
        position = module.Position(pack(layout, state), state.params)
        assert apply(module, layout, state, position, [(name, args), (name, args)]) == 1
    state = positions(MINI)[0].copy()
    state.nesting = 3
    position = module.Position(pack(layout, state), state.params)
    assert apply(module, layout, state, position, [("leave_event", ())] * 2 + [("enter_event", ("C", ""))]) == 3


def test_a_strict_roll_with_no_die_queued_fails_as_python_does():
    module, layout = built(MINI)
    state = positions(MINI)[0].copy()
    state.dice_strict = True
    position = module.Position(pack(layout, state), state.params)
    assert apply(module, layout, state, position, [("roll", (6, "mini.rules:9"))]) == 0


def test_a_card_out_of_the_game_never_moves():
    module, layout = built(MINI)
    state = positions(MINI)[0].copy()
    card = layout.cards[0]
    rs.overlay(state, removed=(card,))
    position = module.Position(pack(layout, state), state.params)
    steps = [("move_card", (card, 0)), ("move_card_bottom", (card, 0)), ("knows", (0, card))]
    assert apply(module, layout, state, position, steps) == len(steps)
