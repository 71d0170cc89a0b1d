"""Search bots on spec-declared evaluations, fair under hidden information.

Before looking ahead, a bot re-deals every card it cannot see among the
zones it cannot see (keeping their sizes) and re-seeds the dice: it plays
against a plausible world, not the true one (determinisation).
"""

from __future__ import annotations

from .state import GameOver, State, Stream, next_random

WIN = 1_000_000.0



def hidden_slots(game, state: State, player: int) -> list[int]:
    """Zone slots whose cards `player` cannot see."""
    meta, slots = game.meta, []
    for slot in range(len(state.zones)):
        zone, owner = meta.zone_of_slot(slot)
        visible = state.revealed[slot] or zone.visibility == "public" or (
            zone.visibility == "owner" and owner == player)
        if not visible:
            slots.append(slot)
    return slots


def determinize(game, state: State, player: int, stream: Stream) -> State:
    """A copy of `state` with unseen cards re-dealt and fresh dice.

    Cards are re-dealt only where they could be: an opponent's hidden zones
    pool with the shared draw piles (hidden, ordered) - the opponent's hand
    could hold any card still in the deck; the player's own hidden zones (its
    own draw pile) pool among themselves; shared hidden piles that are not
    ordered (a box of cards not yet in the game) stay as they are.
    """
    world = state.copy()
    for slots in _pools(game, world, player):
        _redeal(world, slots, stream)
    world.rng = next_random(stream)
    world.dice = []
    return world


def _pools(game, state: State, player: int) -> list[list[int]]:
    meta, pools = game.meta, {}
    for slot in hidden_slots(game, state, player):
        zone, owner = meta.zone_of_slot(slot)
        if owner is None and not zone.ordered:
            continue
        key = "mine" if owner == player else "theirs"
        pools.setdefault(key, []).append(slot)
    return [pools[k] for k in sorted(pools)]


def _redeal(world: State, slots: list[int], stream: Stream) -> None:
    pool = [card for slot in slots for card in world.zones[slot]]
    for i in range(len(pool) - 1, 0, -1):
        j = next_random(stream) % (i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for slot in slots:
        size = len(world.zones[slot])
        world.zones[slot] = pool[at:at + size]
        for card in world.zones[slot]:
            world.location[card] = slot
        at += size


def _score(program, state: State, bot: str, player: int) -> float:
    result = state.result
    if result is not None:
        if result["winner"] is None:
            return 0.0
        return WIN if result["winner"] == player else -WIN
    return float(program.evaluate(state, bot, player))


def _after(program, world: State, index: int) -> State:
    try:
        program.resume(world, index)
    except GameOver:
        pass
    return world


class GreedyAgent:
    """One ply: the option whose resulting position the evaluation likes best."""

    def __init__(self, seed: int, bot: str | None = None):
        self.stream = Stream(seed * 0x2545F491 + 7)
        self.bot = bot

    def choose(self, game, decision) -> str:
        program, state = game.program, game.state
        bot = self.bot or program.meta.bots[0]
        player = state.pending["player"]
        world = determinize(game, state, player, self.stream)
        best, best_score = 0, None
        for index in range(len(decision.option_ids)):
            score = _score(program, _after(program, world.copy(), index), bot, player)
            if best_score is None or score > best_score:
                best, best_score = index, score
        return decision.option_ids[best]


class MonteCarloAgent:
    """Flat Monte Carlo: short random playouts from each option, then evaluate."""

    def __init__(self, seed: int, bot: str | None = None, playouts: int = 4, depth: int = 30):
        self.stream = Stream(seed * 0x5851F42D + 11)
        self.bot, self.playouts, self.depth = bot, playouts, depth

    def choose(self, game, decision) -> str:
        program, state = game.program, game.state
        bot = self.bot or program.meta.bots[0]
        player = state.pending["player"]
        totals = [0.0] * len(decision.option_ids)
        for _ in range(self.playouts):
            world = determinize(game, state, player, self.stream)
            for index in range(len(totals)):
                totals[index] += self._playout(program, _after(program, world.copy(), index), bot, player)
        best = max(range(len(totals)), key=lambda i: (totals[i], -i))
        return decision.option_ids[best]

    def _playout(self, program, world: State, bot: str, player: int) -> float:
        for _ in range(self.depth):
            if world.result is not None or world.pending is None:
                break
            options = len(world.pending["ids"])
            world = _after(program, world, next_random(self.stream) % options)
        return _score(program, world, bot, player)


def make_search_agent(kind: str, seed: int, bot: str | None):
    if kind == "greedy":
        return GreedyAgent(seed, bot)
    if kind == "mc":
        return MonteCarloAgent(seed, bot)
    raise ValueError(f"unknown search agent '{kind}'")
