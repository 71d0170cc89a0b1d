"""The native log lines that name cards, shows, and what a move does to them
(compiler/backends/machine/templates/logs.pxi.j2, issue 41 stage 3) against their one home,
runtime/state.py (log_seen, secret_part, card_sight, show_card, log_shown, _unshow): seeded
positions of random games are packed, the same random sequence of lines, shows, moves, reveals
and conceals is applied to the Python State and to the native struct with its Objects, and after
every step the log, its spec locations and marks, the shown cards and the struct's bytes (what a
show makes a seat know) are equal; an error for an error, a RuleError's message the same.

The native side is given its arguments as the native lowering writes them: a card, entity or
player that is none is NONE (-1), never None."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends.machine.pack import PackError, pack
from rulespec.runtime import state as rs
from rulespec.runtime.state import RuleError, State

from support import MINI, REPO, TS
from test_machine_primitives import built, positions

GAMES = [MINI, REPO / "spec" / "the_fox_in_the_forest", REPO / "spec" / "heldenhain", TS]
NONE = -1  # none as the native engine's values carry it
TEXTS = ["Alpha", "two words", "", "none", "Été", "(x)"]


# ---------------------------------------------------------------- a step on each side
#
# A log part is ("text", s), ("named", s, entity or None) or ("secret", part, seats).


def python_part(part):
    if part[0] == "text":
        return part[1]
    if part[0] == "named":
        return part[1], part[2]
    return rs.secret_part(python_part(part[1]), *part[2])


def native(value):
    return NONE if value is None else value


def native_part(module, position, objects, part):
    """The part as the native lowering writes it: none as NONE, a secret made by its secret_part."""
    if part[0] == "text":
        return part[1]
    if part[0] == "named":
        return part[1], native(part[2])
    inner = native_part(module, position, objects, part[1])
    return module.log_call("secret_part", position, objects, inner, *map(native, part[2]))


def python_step(state: State, name: str, args):
    if name == "log_seen":
        parts, at, *to = args
        return rs.log_seen(state, [python_part(p) for p in parts], at, *to)
    if name == "move_card_seen":
        return rs.move_card(state, *args)
    if name == "move_card_bottom_seen":
        return rs.move_card_bottom(state, *args)
    if name == "reveal_zone":
        state.revealed[args[0]] = True  # as the generated code writes `reveal` (codegen/lower.py)
        return None
    return {"show_card": rs.show_card, "log_shown": rs.log_shown, "card_sight": rs.card_sight,
            "conceal_zone": rs.conceal_zone}[name](state, *args)


def native_step(module, position, objects, name: str, args):
    if name in ("reveal_zone", "conceal_zone"):
        return module.primitive(name, position, *args)
    if name == "log_seen":
        parts, at, *to = args
        parts = [native_part(module, position, objects, p) for p in parts]
        return module.log_call(name, position, objects, parts, at, *map(native, to))
    if name in ("move_card_seen", "move_card_bottom_seen"):
        module.log_call(name, position, objects, *args)
        return None  # Python's gives nothing
    return module.log_call(name, position, objects, *map(native, args))


def objects_of(module, state: State):
    return module.Objects(log=list(state.log), log_at=list(state.log_at), log_marks=list(state.log_marks),
                          shown=[list(entry) for entry in state.shown])


def apply(module, layout, state: State, position, objects, steps) -> int:
    """The steps on both sides, compared after each; the steps run before an error ended them."""
    for done, (name, args) in enumerate(steps):
        try:
            expected = python_step(state, name, args)
            data = pack(layout, state)
        except PackError:  # a zone past its capacity: the native move refuses it before acting
            with pytest.raises(Exception):
                native_step(module, position, objects, name, args)
            return done
        except Exception as error:  # noqa: BLE001 - a RuleError, or Python's own
            with pytest.raises(type(error)) as native_error:
                native_step(module, position, objects, name, args)
            if isinstance(error, RuleError):
                assert str(native_error.value) == str(error)
            return done
        got = native_step(module, position, objects, name, args)
        where = f"{name}{args}"
        assert got == expected, f"{where}: {got!r}, Python {expected!r}"
        assert objects.log == state.log and objects.log_at == state.log_at, f"{where}: the logs differ"
        assert objects.log_marks == state.log_marks, f"{where}: the marks differ"
        assert objects.shown == state.shown, f"{where}: the shown cards differ"
        assert module.packed(position) == data, f"{where}: the struct differs from pack(state)"
    return len(steps)


def run(folder: Path, start: int, steps) -> int:
    module, layout = built(folder)
    state = positions(folder)[start % len(positions(folder))].copy()
    position = module.Position(pack(layout, state), state.params)
    return apply(module, layout, state, position, objects_of(module, state), steps)


# ---------------------------------------------------------------- random sequences


def steps_of(layout) -> st.SearchStrategy:
    """One step with arguments the layout gives room for: cards mostly, now and then none or an
    entity that is no card; players, now and then none; every zone slot."""
    slots = st.integers(0, layout.zone_slots - 1)
    cards = st.sampled_from(layout.cards)
    entities = st.one_of(cards, cards, st.sampled_from([None, 0, layout.entities - 1]))
    players = st.integers(0, layout.players - 1)
    seats = st.lists(st.one_of(players, st.just(None)), max_size=3)
    texts = st.sampled_from(TEXTS)
    plain = st.one_of(st.tuples(st.just("text"), texts), st.tuples(st.just("named"), texts, entities))
    part = st.one_of(plain, plain, st.tuples(st.just("secret"), plain, seats))
    to = st.one_of(st.just(()), st.just(()), st.just(()), st.tuples(players), st.tuples(players),
                   st.just((None,)))  # none: an error, which ends the sequence
    at = st.just("x.rules:7")
    return st.one_of(
        st.tuples(st.just("log_seen"), st.builds(lambda parts, at, to: (parts, at, *to),
                                                 st.lists(part, max_size=5), at, to)),
        st.tuples(st.just("show_card"), st.builds(lambda card, at, to: (card, at, *to), entities, at, to)),
        st.tuples(st.just("show_card"), st.builds(lambda card, at, to: (card, at, *to), cards, at, to)),
        st.tuples(st.just("log_shown"), st.tuples(cards, players, texts, texts, at)),
        st.tuples(st.just("card_sight"), st.tuples(cards, slots)),
        st.tuples(st.sampled_from(["move_card_seen", "move_card_seen", "move_card_bottom_seen"]),
                  st.tuples(cards, slots)),
        st.tuples(st.sampled_from(["reveal_zone", "conceal_zone"]), st.tuples(slots)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), folder=st.sampled_from(GAMES), start=st.integers(0, 5))
def test_native_log_lines_and_shows_agree_with_runtime_state(data, folder, start):
    _, layout = built(folder)
    run(folder, start, data.draw(st.lists(steps_of(layout), min_size=1, max_size=30), label="steps"))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), folder=st.sampled_from(GAMES), start=st.integers(0, 5))
def test_native_log_lines_and_shows_agree_over_long_sequences(data, folder, start):
    _, layout = built(folder)
    run(folder, start, data.draw(st.lists(steps_of(layout), min_size=20, max_size=150), label="steps"))


# ---------------------------------------------------------------- cases a random sequence rarely meets


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_a_card_shown_in_a_hidden_zone_is_named_as_seen_until_it_moves(folder):
    """A card in a zone no seat sees, shown to one seat and then to all: the seat knows it there,
    each line naming it keeps who saw it; revealed, everyone; a move drops its shows."""
    module, layout = built(folder)
    hidden = [s for s, sight in enumerate(layout.sight) if sight == 0]
    if not hidden:
        pytest.skip("no zone hidden from every seat")
    state = positions(folder)[0].copy()
    card, other, last = layout.cards[0], layout.cards[-1], layout.players - 1
    named = [("text", "Saw"), ("named", "it", card), ("named", "nothing", None), ("text", "end")]
    steps = [("move_card_seen", (card, hidden[0])), ("show_card", (card, "x:1", last)),
             ("log_seen", (named, "x:2")), ("card_sight", (card, hidden[0])),
             ("show_card", (card, "x:3", 0)), ("show_card", (card, "x:3", 0)),
             ("log_shown", (card, 0, "It", "First", "x:4")),
             ("show_card", (card, "x:5")), ("log_seen", (named, "x:6", last)),
             ("reveal_zone", (hidden[0],)), ("log_seen", (named, "x:7")), ("conceal_zone", (hidden[0],)),
             ("move_card_bottom_seen", (other, hidden[0])), ("move_card_seen", (card, hidden[-1])),
             ("log_seen", (named, "x:8")), ("card_sight", (card, hidden[-1]))]
    position = module.Position(pack(layout, state), state.params)
    objects = objects_of(module, state)
    assert apply(module, layout, state, position, objects, steps[:8]) == 8
    assert all(card in known for known in state.knowledge), "each seat knows the card shown to it"
    assert apply(module, layout, state, position, objects, steps[8:]) == len(steps) - 8
    assert state.log_marks[-1][1][0][4] == [], "after its move, the card was shown to nobody there"


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_secret_parts_keep_only_their_seats(folder):
    module, layout = built(folder)
    state = positions(folder)[0].copy()
    card = layout.cards[0]
    secret = [("text", "Score"), ("secret", ("text", "7"), [1 % layout.players, None, 0, 0]),
              ("secret", ("named", "Card", card), []), ("secret", ("named", "Nobody", None), [None])]
    steps = [("log_seen", (secret, "x:1")), ("log_seen", (secret, "x:2", 0))]
    position = module.Position(pack(layout, state), state.params)
    assert apply(module, layout, state, position, objects_of(module, state), steps) == len(steps)
    assert module.log_call("secret_part", position, module.Objects(), "7", NONE, 1, 0, 1) == ("7", NONE, [0, 1])
    assert module.log_call("secret_part", position, module.Objects(), ("A", card), NONE) == ("A", card, [])


@pytest.mark.parametrize("step", [("show_card", (None, "x.rules:3")), ("show_card", (0, "x.rules:4", None)),
                                  ("log_seen", ([("text", "Hi")], "x.rules:5", None))])
def test_none_where_a_card_or_player_is_needed_fails_as_python_does(step):
    module, layout = built(MINI)
    state = positions(MINI)[0].copy()
    card = layout.cards[0]
    name, args = step
    args = (card,) + args[1:] if args[0] == 0 else args
    position = module.Position(pack(layout, state), state.params)
    assert apply(module, layout, state, position, objects_of(module, state), [(name, args)]) == 0


def test_a_card_out_of_the_game_keeps_its_show_and_never_moves():
    """move_card_seen gives 1 when the card moved (its shows dropped), 0 when it lies out of the game."""
    module, layout = built(MINI)
    state = positions(MINI)[0].copy()
    out, card = layout.cards[0], layout.cards[1]
    rs.overlay(state, removed=(out,))
    position = module.Position(pack(layout, state), state.params)
    objects = objects_of(module, state)
    steps = [("show_card", (out, "x:1")), ("show_card", (card, "x:2", 0)), ("move_card_seen", (out, 0)),
             ("log_seen", ([("named", "Gone", out), ("named", "Here", card)], "x:3"))]
    assert apply(module, layout, state, position, objects, steps) == len(steps)
    assert module.log_call("move_card_seen", position, objects, out, 1) == 0 and objects.shown == state.shown
    assert module.log_call("move_card_seen", position, objects, card, 1) == 1
    assert objects.shown == [[out, rs.OUT, None]]
