"""Determinised Monte Carlo tree search over information sets, the spec's policy as prior and rollout.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every playout
re-deals what the searching seat cannot see (runtime/bots/search.py's
`determinize`) and walks one tree shared by all the deals. A node is the
sequence of option ids chosen since the root; its children are the options
some deal offered there; UCB1 picks among the children this deal offers,
counting each child's chances by how often it was on offer.

The policy is the prior: a node tries its options in the policy's order of
preference (tier by tier), at most WIDTH of them, and a node visited n times
has tried at most 1 + isqrt(n) (progressive widening), so a small budget
weighs the policy's choice against its next few, not against chance. An
option a `never` line of the policy marks is not tried at all, for either
seat (`considered`). The new
leaf is played on by the policy until the player to move has changed DEPTH
times (each side's next turns, however many decisions they take), or with a
depth in turns (`mcts@8x2t`) until DEPTH whole turns have begun (TurnClock:
a defender's single decision inside another seat's turn does not end it),
and scored:
a finished game 1 for a win, 0 for a loss, 1/2 for a draw, with certainty; an
unfinished one by the spec's first `bot` evaluation (or the one the bot's
name gives, `mcts:POLICY:BOT`), squashed into 0..1 around its value at the root (with two seats, the other seat's reward is the
complement). Each node keeps the reward of the player who moved into it, so
every seat's choices in the tree are its own best replies.

The search plays the policy's choice unless another option was visited at
least as often and scored at least MARGIN more on average: a few noisy
playouts of a short horizon do not overrule the policy, a sure win or loss
within it does. Playouts go in pairs on one deal and one dice stream, and
when the first pair (the policy's choice and its runner-up) shows no rival,
the rest of the budget is not spent (unless the policy ties: then the search
decides). A fixed budget of playouts per decision, and nothing is timed: the
same seed plays the same game.
"""

from __future__ import annotations

import math
import re

from rulespec.runtime.bots.search import determinize
from rulespec.runtime.state import GameOver, State, Stream, next_random
from rulespec.runtime.text import shown

PLAYOUTS = 8  # per decision with more than one option
DEPTH = 2  # changes of the player to move (or turns, `@8x2t`) in a rollout before it is scored
WIDTH = 4  # options a node tries at most, in the policy's order
MARGIN = 0.4  # how much better (mean reward, 0..1) an option must score to overrule the policy
SCREEN = 2  # playouts after which a decision with no rival in sight keeps the policy's choice
ROLLOUT_CAP = 400  # decisions a rollout makes at most, whoever moves
SOLO_STRIDE = 20  # alone at the table, this many decisions count as a change of the player to move
EXPLORE = 0.7  # UCB1's exploration constant, for rewards in 0..1


def parse_mcts(name: str) -> tuple[str, int, int, bool]:
    """'mcts[:POLICY[:BOT]][@PLAYOUTSxDEPTH[t]]' -> ('mcts[:POLICY[:BOT]]', playouts, depth, in turns),
    or ValueError."""
    head, playouts, depth, turns = parse_budget(name, "PLAYOUTSxDEPTH", (PLAYOUTS, DEPTH))
    return head, playouts, depth, turns


_COUNTS = {1: "one", 2: "two", 3: "three"}
MAX_BUDGET = 1_000  # each number of a search budget (docs/CLI.md, "Limits")
MAX_Z = 10  # standard errors a rollout's gain must clear, at most
_Z_TEXT = re.compile(r"(?:0|[1-9][0-9]?)(?:\.[0-9]{1,2})?")


def parse_budget(name: str, shape: str, defaults: tuple) -> tuple:
    """'KIND[:POLICY][@AxB...]' -> ('KIND[:POLICY]', a, b, ..., in turns): the numbers given after
    the `@`, the defaults for those left out at the end, and whether the DEPTH is counted in
    whole turns (a `t` after it: `mcts@8x2t`); ValueError (naming `shape`) for anything else.
    Each field is a whole number from 1 to MAX_BUDGET, except a Z: a number of standard
    errors from 0 to MAX_Z (up to two decimals)."""
    head, at, budget = name.partition("@")
    if not at:
        return (head, *defaults, False)
    fields, parts = shape.split("x"), budget.split("x")
    values, turns = [], False
    for field, part in zip(fields, parts):
        if field == "DEPTH" and part.endswith("t"):
            part, turns = part[:-1], True
        value = _z(part) if field == "Z" else _count(part)
        if value is None:
            values = None
            break
        values.append(value)
    if values is None or len(parts) > len(fields):
        raise ValueError(f"'{shown(name)}': {_budget_words(head, shape, defaults)}")
    return (head, *values, *defaults[len(values):], turns)


def _budget_words(head: str, shape: str, defaults: tuple) -> str:
    kind, fields = head.partition(":")[0], shape.split("x")
    counts = [f for f in fields if f != "Z"]
    words = (f"the search budget is @{shape}, {_COUNTS.get(len(counts), len(counts))} whole numbers"
             f" from 1 to {MAX_BUDGET:,}")
    if "Z" in fields:
        words += f" and Z, standard errors from 0 to {MAX_Z}"
    example = "x".join(str(d) for d in defaults)
    turned = "x".join(f"{d}t" if f == "DEPTH" else str(d) for f, d in zip(fields, defaults))
    return (f"{words}; a t after DEPTH counts it in whole turns"
            f" (e.g. {kind}@{example} or {kind}@{turned})")


def _count(text: str) -> int | None:
    ok = text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= MAX_BUDGET
    return int(text) if ok else None


def _z(text: str) -> float | None:
    if not text.isascii() or _Z_TEXT.fullmatch(text) is None or float(text) > MAX_Z:
        return None
    return float(text)


def split_search(head: str) -> tuple[str, str | None, str | None]:
    """'KIND[:POLICY[:BOT]]' -> (KIND, POLICY, BOT): the policy a search plays and the `bot`
    evaluation that scores its leaves, None for those left out (the spec's first of each;
    `rollout::BOT` names only the evaluation)."""
    kind, _, rest = head.partition(":")
    policy, _, bot = rest.partition(":")
    return kind, policy or None, bot or None


def leaf_evaluation(game, bot: str | None) -> str | None:
    """The evaluation a search scores its leaves with: the one its name gives, else the spec's
    first `bot` (None: the spec declares none, and a leaf counts only a finished game)."""
    return bot or (game.meta.bots[0] if game.meta.bots else None)


def make_mcts_agent(name: str, seed: int) -> "MctsAgent":
    head, playouts, depth, turns = parse_mcts(name)
    kind, policy, bot = split_search(head)
    if kind != "mcts":
        raise ValueError(f"unknown agent '{name}'")
    return MctsAgent(seed, policy, playouts, depth, turns, bot)


class Node:
    """Statistics of one option taken after a sequence of options, for the seat that took it."""

    __slots__ = ("mover", "children", "visits", "avail", "reward")

    def __init__(self, mover: int):
        self.mover = mover
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0

    def mean(self) -> float:
        return self.reward / self.visits

    def ucb(self) -> float:
        return self.mean() + EXPLORE * math.sqrt(math.log(self.avail) / self.visits)


class MctsAgent:
    """ISMCTS with a fixed number of playouts per decision; ties and deals from its own stream."""

    def __init__(self, seed: int, policy: str | None = None, playouts: int = PLAYOUTS,
                 depth: int = DEPTH, turns: bool = False, bot: str | None = None):
        self.stream = Stream(seed * 0x61C88647 + 5)
        self.policy, self.playouts, self.depth, self.turns = policy, playouts, depth, turns
        self.bot = bot  # the evaluation that scores the leaves (None: the spec's first)
        self.watch = TurnWatch()

    def choose(self, game, decision) -> str:
        ids = decision.option_ids
        run = self.watch.observe(game)
        if len(ids) == 1:
            return ids[0]
        search = _Search(game, self.policy or game.meta.policies[0], self.depth, self.stream,
                         run if self.turns else None, self.bot)
        for n in range(self.playouts):
            search.playout()
            if n + 1 == SCREEN and not search.tied and search.best() == search.first:
                break  # the first pair found no rival to the policy's own choice: keep it
        return search.best()


def policy_tiers(program, policy: str, world: State, stream: Stream,
                 count: int) -> tuple[list[int], int]:
    """The indices of the first `count` pending options in the policy's order (its best tier
    shuffled by the stream, then the best of the rest, and so on), and how many options the
    best tier holds; only the options a search may consider (`considered`)."""
    pending = world.pending
    left, order, first_tier = considered(program, policy, world), [], 0
    try:
        while left and len(order) < count:
            world.pending = pending if len(left) == len(pending["ids"]) else _narrowed(pending, left)
            tier = [left[i] for i in program.prefer(world, policy)]
            for i in range(len(tier) - 1, 0, -1):
                j = next_random(stream) % (i + 1)
                tier[i], tier[j] = tier[j], tier[i]
            order += tier
            first_tier = first_tier or len(tier)
            chosen = set(tier)
            left = [i for i in left if i not in chosen]
    finally:
        world.pending = pending
    return order[:count], first_tier


def considered(program, policy: str, world: State) -> list[int]:
    """The indices of the pending options a search may consider: all but those a `never` line
    of the policy marks - the designer's "no bot plays this", which a search that finds it
    wins would otherwise overrule. When the line marks every option, the rules leave nothing
    else: all of them."""
    every = list(range(len(world.pending["ids"])))
    forbidden = getattr(program, "forbidden", None)
    marked = set(forbidden(world, policy)) if forbidden is not None else ()
    kept = [i for i in every if i not in marked]
    return kept or every


def _narrowed(pending: dict, keep: list[int]) -> dict:
    """The pending decision offering only the options `keep` (for ranking the rest)."""
    narrowed = dict(pending)
    for key in ("ids", "labels", "values"):
        narrowed[key] = [pending[key][i] for i in keep]
    return narrowed


class _Search:
    """One decision's tree and what scoring its leaves needs."""

    def __init__(self, game, policy: str, depth: int, stream: Stream, run: int | None = None,
                 bot: str | None = None):
        self.game, self.program, self.policy = game, game.program, policy
        self.depth, self.stream = depth, stream
        self.run = run  # the root seat's decisions in its turn so far, for a depth in turns
        self.me = game.state.pending["player"]
        self.root = Node(self.me)
        self.first: str | None = None  # the policy's choice at the root, in the first deal
        self.tied = False  # whether the policy's best tier at the root holds several options
        self.deal: State | None = None  # the deal the next playout shares with the last one
        self.bot = leaf_evaluation(game, bot)
        self.players = range(len(game.players))
        # Two seats: one evaluation a leaf, the other seat's reward its complement.
        self.scored_seats = (self.me,) if len(self.players) == 2 else tuple(self.players)
        self.base: list[float] | None = None  # each seat's evaluation at the root
        self.spread = 0.0  # mean distance of leaf evaluations from the root's (the scale)
        self.scored = 0

    def playout(self) -> None:
        # Playouts go in pairs on one deal and one dice stream, so the first
        # two (the policy's choice and its runner-up) meet the same luck.
        if self.deal is None:
            world = determinize(self.game, self.game.state, self.me, self.stream)
            self.deal = world.copy()
        else:
            world, self.deal = self.deal, None
        if self.base is None and self.bot is not None:
            self.base = [float(self.program.evaluate(world, self.bot, p)) for p in self.scored_seats]
        clock = None if self.run is None else TurnClock(self.me, self.run - 1)
        path = self.descend(world, clock)
        world = self.rollout(world, clock)
        rewards = self.rewards(world)
        self.root.visits += 1
        for node in path:
            node.visits += 1
            node.reward += rewards[node.mover]

    def rollout(self, world: State, clock: "TurnClock | None" = None) -> State:
        """The policy plays on until the player to move has changed `depth` times, or `depth`
        turns have begun with a `clock` (to the end when the spec declares no evaluation):
        the position to score."""
        scored = self.bot is not None
        return policy_play_out(self.program, world, self.depth if scored else ROLLOUT_CAP, self.policy,
                               self.stream, solo_stride(self.game) if scored else None,
                               clock if scored else None)

    def descend(self, world: State, clock: "TurnClock | None" = None) -> list[Node]:
        """Selection and expansion in this deal: the nodes walked, the new leaf last (each
        decision made told to the `clock`, when the depth counts turns)."""
        node, path = self.root, []
        while world.result is None and world.pending is not None:
            ids = world.pending["ids"]
            if clock is not None:
                clock.step(world.pending["player"])
            allowed = considered(self.program, self.policy, world)
            if len(allowed) == len(ids):
                offered = [node.children.get(i) for i in ids]
            else:  # what a `never` line marks in this deal is not walked into either
                keep = set(allowed)
                offered = [node.children.get(i) if k in keep else None for k, i in enumerate(ids)]
            tried = [k for k, child in enumerate(offered) if child is not None]
            for k in tried:
                offered[k].avail += 1
            if len(tried) < min(len(allowed), WIDTH) and len(tried) <= math.isqrt(node.visits):
                order, tier = policy_tiers(self.program, self.policy, world, self.stream,
                                           len(tried) + 1)
                if node is self.root and self.first is None:
                    self.tied = tier > 1
                untried = [k for k in order if offered[k] is None]
                if untried:
                    index = untried[0]
                    child = node.children[ids[index]] = Node(world.pending["player"])
                    if node is self.root and self.first is None:
                        self.first = ids[index]
                    path.append(child)
                    _resume(self.program, world, index)
                    return path
            index = max(tried, key=lambda k: offered[k].ucb())
            node = offered[index]
            path.append(node)
            _resume(self.program, world, index)
        return path

    def rewards(self, world: State) -> list[float]:
        result = world.result
        if result is not None:
            winner, losers = result["winner"], result.get("losers", ())
            if winner is None:
                return [0.0 if p in losers else 0.5 for p in self.players]
            return [float(winner == p) for p in self.players]
        if self.bot is None or self.base is None:
            return [0.5 for _ in self.players]
        values = [float(self.program.evaluate(world, self.bot, p)) - base
                  for p, base in zip(self.scored_seats, self.base)]
        self.scored += 1
        self.spread += (sum(abs(v) for v in values) / len(values) - self.spread) / self.scored
        scale = self.spread + 1.0
        rewards = [0.5 + 0.5 * math.tanh(v / scale) for v in values]
        if len(self.scored_seats) == 1:
            return [rewards[0] if p == self.me else 1.0 - rewards[0] for p in self.players]
        return rewards

    def best(self) -> str:
        """The policy's choice, unless another option was visited as often and scored MARGIN more."""
        children = self.root.children
        default = children[self.first]
        choice, top = self.first, default
        for option, child in children.items():
            if child.visits < default.visits or child.mean() < default.mean() + MARGIN:
                continue
            if top is default or (child.visits, child.mean()) > (top.visits, top.mean()):
                choice, top = option, child
        return choice


def policy_pick(program, world: State, policy: str, ties: Stream) -> int:
    """The policy's choice at the pending decision, a tie broken by `ties`."""
    if len(world.pending["ids"]) == 1:
        return 0
    best = program.prefer(world, policy)
    return best[0] if len(best) == 1 else best[next_random(ties) % len(best)]


def policy_play_out(program, world: State, changes: int, policy: str, ties: Stream,
                    stride: int | None = None, clock: "TurnClock | None" = None,
                    first: int | None = None) -> State:
    """play_out with policy_pick choosing for whoever moves (ties broken by `ties`); with
    `first`, on a copy of `world` whose pending option `first` is taken first (`world` is left
    as it is). In one call where the program plays it natively (its `policy_playout`: the same
    position and the same draws), else decision by decision here (a `clock`'s turns, a policy
    rule it does not run)."""
    native = getattr(program, "policy_playout", None)
    if clock is None and native is not None:
        reached = native(world, policy, ties, changes, stride, ROLLOUT_CAP, first)
        if reached is not None:
            return reached
    if first is not None:
        world = world.copy()
        _resume(program, world, first)
    return play_out(program, world, changes, lambda w: policy_pick(program, w, policy, ties), stride, clock)


def play_out(program, world: State, changes: int, pick, stride: int | None = None,
             clock: "TurnClock | None" = None) -> State:
    """`pick(world)` chooses for whoever moves until the player to move has changed
    `changes` times (with a `clock`: until `changes` turns have begun), the game ends, or
    ROLLOUT_CAP decisions were made; returns the position reached (with a clock, where the
    last turn began: a copy taken before its first decision, when only the next decision
    told that a turn had begun). With `stride` (a game of one seat, where the player to move
    never changes), every `stride` decisions count as a change."""
    mover = world.pending["player"] if world.pending is not None else None
    before: State | None = None  # the position before a decision that may begin the last turn
    for made in range(ROLLOUT_CAP):
        if world.result is not None or world.pending is None:
            return world
        player = world.pending["player"]
        if clock is None:
            earlier, now, mover = 0, int(player != mover), player
        else:
            earlier, now = clock.step(player)
        if stride and made and made % stride == 0:
            now = 1
        if earlier:  # the last decision began a turn
            changes -= 1
            if changes <= 0:
                return before if before is not None else world
        if now:
            changes -= 1
            if changes <= 0:
                return world
        before = world.copy() if clock is not None and clock.maybe and changes == 1 else None
        _resume(program, world, pick(world))
    return world


class TurnClock:
    """Counts the turns a sequence of decisions begins, told the seat of each decision in turn.

    A seat's turn is the decisions it makes one after another, and a turn of two or more
    decisions is not ended by a single decision of another seat after which the turn's seat
    moves again (a defender's dice in the middle of an attack, a reply an event asks for):
    so another seat's turn begins when it makes two decisions in a row, or makes one after a
    turn of a single decision (games where each turn is one decision), or one that a third
    seat follows. Generic: only who makes each decision is seen.
    """

    __slots__ = ("owner", "run", "pending")

    def __init__(self, owner: int, run: int = 1):
        self.owner, self.run = owner, run  # whose turn, and its decisions so far
        self.pending: int | None = None  # a seat whose one decision may begin its turn

    @property
    def maybe(self) -> bool:
        """Whether the last decision told may have begun a turn (the next one says)."""
        return self.pending is not None

    def step(self, mover: int) -> tuple[int, int]:
        """`mover` makes the next decision: (1 when the decision before it turns out to have
        begun a turn, else 0; 1 when this one begins a turn, else 0)."""
        earlier = 0
        if self.pending is not None:
            if mover == self.owner:  # an interruption: the turn goes on
                self.pending, self.run = None, self.run + 1
                return 0, 0
            self.owner, self.run, self.pending, earlier = self.pending, 1, None, 1
        if mover == self.owner:
            self.run += 1
            return earlier, 0
        if self.run >= 2:
            self.pending = mover
            return earlier, 0
        self.owner, self.run = mover, 1
        return earlier, 1


class TurnWatch:
    """What a search bot sees of its own turn in the real game: the decisions its seat has
    made in its current turn, by TurnClock's rule, from the positions of its own decisions in
    the game (one decision of another seat between two of its own, after two or more of its
    own, is an interruption)."""

    def __init__(self):
        self.last: int | None = None  # the position of the seat's last decision
        self.run = 0

    def observe(self, game) -> int:
        """Tell the watch the seat decides now; its decisions in this turn, this one included."""
        at = game.decisions
        if self.last is not None and (at == self.last + 1 or (at == self.last + 2 and self.run >= 2)):
            self.run += 1
        else:
            self.run = 1
        self.last = at
        return self.run


def solo_stride(game) -> int | None:
    """SOLO_STRIDE for a game one seat plays, else None: the horizon counts changes of the
    player to move, and alone the player never changes - every rollout would run to the
    end, where a policy that seldom wins scores every option the same."""
    return SOLO_STRIDE if len(game.players) == 1 else None


def _resume(program, world: State, index: int) -> None:
    try:
        program.resume(world, index)
    except GameOver:
        pass
