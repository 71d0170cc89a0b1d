"""Search bots on spec-declared evaluations, fair under hidden information.

Before looking ahead, a bot re-deals every card it cannot see among the
zones it cannot see (keeping their sizes) and re-seeds the dice: it plays
against a plausible world, not the true one (determinisation).
"""

from __future__ import annotations

from rulespec.runtime.game import seen_slots
from rulespec.runtime.state import GameOver, State, Stream, known_cards, next_random, sees

WIN = 1_000_000.0


def hidden_slots(game, state: State, player: int) -> list[int]:
    """Zone slots whose cards `player` cannot see."""
    return [slot for slot, seen in enumerate(seen_slots(game.meta, state, player)) if not seen]


def determinize(game, state: State, player: int, stream: Stream) -> State:
    """A copy of `state` with unseen cards re-dealt and fresh dice.

    Cards are re-dealt only where they could be: an opponent's hidden zones
    pool with the shared draw piles (hidden, ordered) - the opponent's hand
    could hold any card still in the deck; the player's own hidden zones (its
    own draw pile) pool among themselves; shared hidden piles that are not
    ordered (a box of cards not yet in the game) stay as they are. A card the
    pending decision offers the player is known to it and stays too, and so
    does every card the player knows (shown to it, or seen and followed:
    State.knowledge) - a card it knows is in an opponent's hand is there in
    every deal. The other seats keep only what they know of cards the player
    sees or knows too, so no deal tells it what they know beyond that.

    What is bound to a re-dealt card goes with its place, not its name: the
    card now lying where card X lay takes X's counters, and every var, effect
    argument and suspended frame's local that held X holds it instead.
    """
    world = state.copy()
    known = _offered(game.meta, world, player) | known_cards(world, player)
    mapping: dict[int, int] = {}
    for slots in _pools(game, world, player):
        mapping.update(_redeal(world, slots, known, stream))
    _others_knowledge(world, player, known)
    if any(old != new for old, new in mapping.items()):
        _rebind(game, world, mapping)
    world.forget_kept()  # cards moved behind the rules' back
    world.rng = next_random(stream)
    world.dice = []
    return world


def _others_knowledge(world: State, player: int, known: frozenset[int]) -> None:
    """Each other seat keeps what it knows of cards `player` sees or knows (never re-dealt)."""
    for seat, theirs in enumerate(world.knowledge):
        if seat != player and theirs:
            world.knowledge[seat] = {card: slot for card, slot in theirs.items()
                                     if card in known or sees(world, player, slot)}


def _offered(meta, state: State, player: int) -> frozenset[int]:
    pending = state.pending
    if pending is None or pending["player"] != player:
        return frozenset()
    index = {e: i for i, e in enumerate(meta.entity_ids)}
    return frozenset(index[i] for i in pending["ids"] if i in index)


def _pools(game, state: State, player: int) -> list[list[int]]:
    meta, pools = game.meta, {}
    for slot in hidden_slots(game, state, player):
        zone, owner = meta.zone_of_slot(slot)
        if owner is None and not zone.ordered:
            continue
        key = "mine" if owner == player else "theirs"
        pools.setdefault(key, []).append(slot)
    return [pools[k] for k in sorted(pools)]


def _redeal(world: State, slots: list[int], known: frozenset[int], stream: Stream) -> dict[int, int]:
    """Shuffle the pool's cards over their places; old card -> the card now in its place."""
    places = [(slot, i) for slot in slots for i, card in enumerate(world.zones[slot])
              if card not in known]
    pool = [world.zones[slot][i] for slot, i in places]
    for i in range(len(pool) - 1, 0, -1):
        j = next_random(stream) % (i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    mapping = {}
    for (slot, i), card in zip(places, pool):
        mapping[world.zones[slot][i]] = card
        world.zones[slot][i] = card
        world.location[card] = slot
    return mapping


def _rebind(game, world: State, mapping: dict[int, int]) -> None:
    """Move what was bound to each re-dealt card onto the card that took its place."""
    meta = game.meta
    for row in world.counters:
        before = {old: row[old] for old in mapping}
        for old, new in mapping.items():
            row[new] = before[old]
    for i, kind in enumerate(meta.var_kinds):
        if kind == "card" and world.vars[i] in mapping:
            world.vars[i] = mapping[world.vars[i]]
    for effect in world.effects:
        kinds = meta.effect_param_kinds[effect[0]] if meta.effect_param_kinds else ()
        effect[1] = [mapping.get(v, v) if k == "card" else v for k, v in zip(kinds, effect[1])] \
            + effect[1][len(kinds):]
    rebind = getattr(game.program, "rebind_cards", None)
    if rebind is not None:
        rebind(world, mapping)


def _score(program, state: State, bot: str, player: int) -> float:
    result = state.result
    if result is not None:
        if result["winner"] is None:
            return -WIN if player in result.get("losers", ()) else 0.0
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
