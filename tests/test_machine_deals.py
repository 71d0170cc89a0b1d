"""A search's deal on the native engine (NativeProgram.deal_natively, templates/deals.pxi.j2) is
search.determinize's in Python: at positions of seeded random games on the native engine of mini, a spec
with each seat's own hidden pile and the shipped games with hidden zones (Twilight Struggle under
`slow`), as they are and with something bound to their cards and nothing known (test_deals.py's
`planted`), for every seat, the same State (every saved field, JSON-exact), write counts and
stream after; the dealt bytes it keeps in the memo are the State's machine part packed.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support import MINI, REPO, TESTS, native_program
from test_deals import planted, saved

from rulespec.compiler.backends.machine.packing import pack_state
from rulespec.compiler.backends.machine.program import PACKED
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.bots.search import determinize
from rulespec.runtime.game import Game
from rulespec.runtime.state import Stream

GAMES = [MINI, TESTS / "specs" / "per_player"] + [REPO / "spec" / name for name in (
    "the_fox_in_the_forest", "heldenhain", "risk_balance_of_power", "terraforming_mars")]
TS = REPO / "spec" / "twilight_struggle"


def native_positions(program, seed: int, count: int, every: int) -> list:
    """`count` positions of a seeded random game on the native engine, one each `every` decisions,
    each with its machine part packed in its memo as the engine leaves it."""
    out = []
    for taken, game in enumerate(random_walk(Game(program, seed=seed), seed)):
        if taken % every == 0:
            out.append(game.state.copy())
            if len(out) == count:
                break
    return out


def deals_alike(program, state, seed: int) -> tuple[int, int]:
    """Every seat's deal of `state` natively and by search.determinize's Python (a game whose program
    has no native deal), asserted the same: how many moved cards, how many kept their bytes."""
    game = SimpleNamespace(meta=program.meta, program=program)
    in_python = SimpleNamespace(meta=program.meta, program=program.python)  # the same rebind_cards
    before, moved, kept = saved(state), 0, 0
    for player in range(len(program.meta.players)):
        native, python = Stream(seed * 104729 + player), Stream(seed * 104729 + player)
        world = determinize(game, state, player, native)
        expected = determinize(in_python, state, player, python)
        assert saved(world) == saved(expected), (program.meta.game, seed, player)
        assert (world.stamps, world.dice, native.rng) == (expected.stamps, expected.dice, python.rng)
        assert set(world.memo) <= {PACKED} and not expected.memo
        if PACKED in world.memo:
            assert world.memo[PACKED][0] == pack_state(program.module, program.layout, world)
            assert program._packed(world) is world.memo[PACKED][0]  # read, not packed again
            kept += 1
        moved += world.zones != state.zones
    assert saved(state) == before  # dealt from a copy
    return moved, kept


def counter_cells(program) -> dict[int, tuple[list[int], int]]:
    """Per counter row, the cards its layout field has cells for, and how many values a cell holds
    in test_deals.planted (a flag's two)."""
    cards, cells = set(program.meta.card_entities), {}
    for field in program.layout.fields:
        if field.part in ("counters", "counter_bits"):
            for row in range(field.slot, field.slot + field.rows):
                cells[row] = ([e for e in field.members if e in cards], 2 if field.part == "counter_bits" else 5)
    return cells


def deal_everywhere(folder, seeds: int, count: int, every: int) -> None:
    program = native_program(folder)
    cells, moved, kept, bound = counter_cells(program), 0, 0, 0
    for seed in range(seeds):
        for state in native_positions(program, seed, count, every):
            m, k = deals_alike(program, state, seed)
            moved, kept = moved + m, kept + k
            m, k = deals_alike(program, planted(program.meta, state, cells), seed)
            moved, bound = moved + m, bound + len(program.meta.players) - k
    assert moved and kept  # the deals re-deal, mostly without packing again
    if any(cards for cards, _ in cells.values()) or "card" in program.meta.var_kinds:
        assert bound  # planted counters and vars that move are packed again when read


@pytest.mark.parametrize("folder", GAMES, ids=lambda folder: folder.name)
def test_native_deals_are_search_determinize_deals(folder) -> None:
    deal_everywhere(folder, 6, 8, 17)


@pytest.mark.slow
def test_native_deals_are_search_determinize_deals_in_twilight_struggle() -> None:
    deal_everywhere(TS, 6, 10, 29)
