"""Search bots on spec-declared evaluations, fair under hidden information.

Before looking ahead, a bot re-deals every card it cannot see among the
zones it cannot see (keeping their sizes) and re-seeds the dice: it plays
against a plausible world, not the true one (determinisation).
"""

from __future__ import annotations

from operator import itemgetter

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
    tables = _tables(game.meta, world.sight)
    known = _offered(tables, world, player) | known_cards(world, player)
    pools = _pools(tables, world, player)
    # A program may deal natively: the same shuffles, knowledge and rng (the native engine's
    # deal_natively), then `keep(world)` keeps its dealt machine state for the search.
    native = getattr(game.program, "deal_natively", None)
    if native is not None:
        moved, rng, keep = native(state, world, player, pools, known, stream)
    else:
        moved, keep = {}, None
        for slots in pools:
            _redeal(world, slots, known, stream, moved)
        rng = None
    _others_knowledge(world, player, known)
    bound = _rebind(game, tables, world, moved) if moved else False
    world.forget_kept()  # cards moved behind the rules' back
    world.rng = next_random(stream) if rng is None else rng
    world.dice = []
    if keep is not None and not bound:
        keep(world)
    return world


class _Tables:
    """What determinize reads of a game's meta and zones' sight, worked out once (search bots
    deal several times a decision): each entity id's index, per seat the slots its sight hides
    that pool, with their pool's key, the card vars, and each effect's card arguments."""

    def __init__(self, meta, sight: list[int]):
        self.sight = sight
        self.index = {e: i for i, e in enumerate(meta.entity_ids)}
        self.pool_slots = [self._pool_slots(meta, sight, player) for player in range(len(meta.players))]
        self.card_vars = [i for i, kind in enumerate(meta.var_kinds) if kind == "card"]
        self.card_args = [[k for k, kind in enumerate(kinds) if kind == "card"]
                          for kinds in meta.effect_param_kinds or ()]

    @staticmethod
    def _pool_slots(meta, sight: list[int], player: int) -> list[tuple[int, str]]:
        slots = []
        for slot in range(meta.zone_slots):
            zone, owner = meta.zone_of_slot(slot)
            if sight[slot] >> player & 1 or (owner is None and not zone.ordered):
                continue  # seen unless revealed (runtime/state.py `sees`); a shared box stays as it is
            slots.append((slot, "mine" if owner == player else "theirs"))
        return slots


_TABLES: dict[int, tuple[object, _Tables]] = {}  # id(meta) -> (that meta, its tables)


def _tables(meta, sight: list[int]) -> _Tables:
    kept = _TABLES.get(id(meta))
    if kept is None or kept[0] is not meta or kept[1].sight != sight:
        kept = _TABLES[id(meta)] = (meta, _Tables(meta, sight))
    return kept[1]


def _others_knowledge(world: State, player: int, known: frozenset[int]) -> None:
    """Each other seat keeps what it knows of cards `player` sees or knows (never re-dealt)."""
    for seat, theirs in enumerate(world.knowledge):
        if seat != player and theirs:
            world.knowledge[seat] = {card: slot for card, slot in theirs.items()
                                     if card in known or sees(world, player, slot)}


def _offered(tables: _Tables, state: State, player: int) -> frozenset[int]:
    pending = state.pending
    if pending is None or pending["player"] != player:
        return frozenset()
    index = tables.index
    return frozenset(index[i] for i in pending["ids"] if i in index)


def _pools(tables: _Tables, state: State, player: int) -> list[list[int]]:
    """The slots `player` cannot see, by pool: its own, then the others' with the shared piles."""
    pools: dict[str, list[int]] = {}
    revealed = state.revealed
    for slot, key in tables.pool_slots[player]:
        if not revealed[slot]:
            pools.setdefault(key, []).append(slot)
    return [pools[k] for k in sorted(pools)]


def _redeal(world: State, slots: list[int], known: frozenset[int], stream: Stream,
            moved: dict[int, int]) -> None:
    """Shuffle the pool's cards over their places; into `moved`: old card -> the card now in
    its place, where they differ."""
    zones, location = world.zones, world.location
    places = [(slot, i) for slot in slots for i, card in enumerate(zones[slot]) if card not in known]
    pool = [zones[slot][i] for slot, i in places]
    for i in range(len(pool) - 1, 0, -1):
        j = next_random(stream) % (i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for (slot, i), card in zip(places, pool):
        cards = zones[slot]
        if cards[i] != card:
            moved[cards[i]] = card
            cards[i] = card
            location[card] = slot


def _rebind(game, tables: _Tables, world: State, moved: dict[int, int]) -> bool:
    """Move what was bound to each re-dealt card onto the card that took its place (`moved`
    holds at least two cards: they trade places); whether a counter or var changed."""
    olds, news = list(moved), list(moved.values())
    bound_to, changed = itemgetter(*olds), False
    for row in world.counters:
        values = bound_to(row)
        if values.count(values[0]) != len(values):  # else the trade changes nothing
            changed = True
            for new, value in zip(news, values):
                row[new] = value
    values = world.vars
    for i in tables.card_vars:
        if values[i] in moved:
            changed = True
            values[i] = moved[values[i]]
    card_args = tables.card_args
    if card_args:
        for effect in world.effects:
            args = effect[1]
            for k in card_args[effect[0]]:
                if k < len(args) and args[k] in moved:
                    args[k] = moved[args[k]]
    rebind = getattr(game.program, "rebind_cards", None)
    if rebind is not None:
        rebind(world, moved)
    return changed


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
