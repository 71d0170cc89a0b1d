"""A search's deal on the native engine: runtime/bots/search.py's `determinize` (the rule's one
definition) with the machine part dealt in the game's module (templates/deals.pxi.j2 `search_deal`,
the twin of search.py's _redeal and _others_knowledge on the packed state, writing the moved
cards into the State's zones and locations as _redeal does).

The searching seat's pools and what it knows are search.py's; the module shuffles the pools' cards
from the search's stream over the packed position, forgets for the other seats what the seat
neither sees nor knows, and draws the dealt position's rng; the State's zones and locations
follow, and what is bound to the cards moves in Python as in search.py. The dealt bytes
stay in the State's memo (program.py PACKED), so the search's rollouts and policies on the deal
do not pack it again, unless moving what was bound changed a counter or var.
tests/test_machine_deals.py holds the deal equal to search.py's, field by field.
"""

from __future__ import annotations

from rulespec.runtime.bots import search
from rulespec.runtime.state import State, Stream, known_cards


def determinize_natively(program, game, state: State, player: int, stream: Stream) -> State:
    """search.determinize(game, state, player, stream), its shuffles and the other seats'
    knowledge done by `program`'s (a NativeProgram's) module."""
    world = state.copy()
    tables = search._tables(game.meta, world.sight)
    known = search._offered(tables, world, player) | known_cards(world, player)
    pools = search._pools(tables, world, player)
    dealt, stream.rng, rng, moved = program.module.search_deal(program._packed(state), player, pools, known,
                                                               stream.rng, world.zones, world.location)
    search._others_knowledge(world, player, known)
    bound = search._rebind(game, tables, world, moved) if moved else False
    world.forget_kept()
    world.rng = rng
    world.dice = []
    if not bound:  # the machine part is the dealt bytes
        from rulespec.compiler.backends.machine.program import PACKED, _unchanged  # program.py imports this module
        world.memo[PACKED] = (dealt, *_unchanged(world))
    return world
