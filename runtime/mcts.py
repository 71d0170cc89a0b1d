"""Determinised Monte Carlo tree search over information sets, the spec's policy as its rollout.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every playout
re-deals what the searching seat cannot see (runtime/search.py's
`determinize`) and walks one tree shared by all the deals. A node is the
sequence of option ids chosen since the root; its children are the options
some deal offered there; UCB1 picks among the children this deal offers,
counting each child's chances by how often it was on offer, and widening
progressively: a node visited n times has tried at most 1 + isqrt(n) of its
options, the policy's choice first. The new leaf is
played on by the spec's policy for a few decisions and scored: a finished
game 1 for a win, 0 for a loss, 1/2 for a draw; an unfinished one by the
spec's first `bot` evaluation, squashed into 0..1 around its value at the
root (with two seats, the other seat's reward is the complement). Each node keeps the reward of the player who moved into it, so every
seat's choices in the tree are its own best replies. A fixed budget of
playouts per decision, and nothing is timed: the same seed plays the same game.
"""

from __future__ import annotations

import math

from .search import determinize
from .state import GameOver, State, Stream, next_random

PLAYOUTS = 12  # per decision with more than one option
DEPTH = 8  # policy decisions after the leaf before the evaluation scores it
EXPLORE = 0.7  # UCB1's exploration constant, for rewards in 0..1


def parse_mcts(name: str) -> tuple[str, int, int]:
    """'mcts[:POLICY][@PLAYOUTSxDEPTH]' -> ('mcts[:POLICY]', playouts, depth), or ValueError."""
    head, at, budget = name.partition("@")
    if not at:
        return head, PLAYOUTS, DEPTH
    playouts, x, depth = budget.partition("x")
    if not (playouts.isdigit() and int(playouts) >= 1 and (not x or (depth.isdigit() and int(depth) >= 1))):
        raise ValueError(f"'{name}': the search budget is @PLAYOUTSxDEPTH, two whole numbers of 1 or more"
                         f" (e.g. mcts@{PLAYOUTS}x{DEPTH})")
    return head, int(playouts), int(depth) if x else DEPTH


def make_mcts_agent(name: str, seed: int) -> "MctsAgent":
    head, playouts, depth = parse_mcts(name)
    kind, _, policy = head.partition(":")
    if kind != "mcts":
        raise ValueError(f"unknown agent '{name}'")
    return MctsAgent(seed, policy or None, playouts, depth)


class Node:
    """Statistics of one option taken after a sequence of options, for the seat that took it."""

    __slots__ = ("mover", "children", "visits", "avail", "reward")

    def __init__(self, mover: int):
        self.mover = mover
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0

    def ucb(self) -> float:
        return self.reward / self.visits + EXPLORE * math.sqrt(math.log(self.avail) / self.visits)


class MctsAgent:
    """ISMCTS with a fixed number of playouts per decision; ties and deals from its own stream."""

    def __init__(self, seed: int, policy: str | None = None, playouts: int = PLAYOUTS,
                 depth: int = DEPTH):
        self.stream = Stream(seed * 0x61C88647 + 5)
        self.policy, self.playouts, self.depth = policy, playouts, depth

    def choose(self, game, decision) -> str:
        ids = decision.option_ids
        if len(ids) == 1:
            return ids[0]
        search = _Search(game, self.policy or game.meta.policies[0], self.depth, self.stream)
        for _ in range(self.playouts):
            search.playout()
        return search.best()


class _Search:
    """One decision's tree and what scoring its leaves needs."""

    def __init__(self, game, policy: str, depth: int, stream: Stream):
        self.game, self.program, self.policy = game, game.program, policy
        self.depth, self.stream = depth, stream
        self.me = game.state.pending["player"]
        self.root = Node(self.me)
        self.bot = game.meta.bots[0] if game.meta.bots else None
        self.players = range(len(game.players))
        # Two seats: one evaluation a leaf, the other seat's reward its complement.
        self.scored_seats = (self.me,) if len(self.players) == 2 else tuple(self.players)
        self.base: list[float] | None = None  # each seat's evaluation at the root
        self.spread = 0.0  # mean distance of leaf evaluations from the root's (the scale)
        self.scored = 0

    def playout(self) -> None:
        world = determinize(self.game, self.game.state, self.me, self.stream)
        if self.base is None and self.bot is not None:
            self.base = [float(self.program.evaluate(world, self.bot, p)) for p in self.scored_seats]
        path = self.descend(world)
        for _ in range(self.depth if self.bot is not None else 1_000_000):
            if world.result is not None or world.pending is None:
                break
            _resume(self.program, world, self.pick(world))
        rewards = self.rewards(world)
        self.root.visits += 1
        for node in path:
            node.visits += 1
            node.reward += rewards[node.mover]

    def descend(self, world: State) -> list[Node]:
        """Selection and expansion in this deal: the nodes walked, the new leaf last."""
        node, path = self.root, []
        while world.result is None and world.pending is not None:
            ids = world.pending["ids"]
            offered = [node.children.get(i) for i in ids]
            tried = [k for k, child in enumerate(offered) if child is not None]
            for k in tried:
                offered[k].avail += 1
            if len(tried) < len(ids) and len(tried) <= math.isqrt(node.visits):
                index = self.pick(world)
                if offered[index] is not None:
                    untried = [k for k, child in enumerate(offered) if child is None]
                    index = untried[next_random(self.stream) % len(untried)]
                child = node.children[ids[index]] = Node(world.pending["player"])
                path.append(child)
                _resume(self.program, world, index)
                return path
            index = max(tried, key=lambda k: offered[k].ucb())
            node = offered[index]
            path.append(node)
            _resume(self.program, world, index)
        return path

    def pick(self, world: State) -> int:
        """The policy's choice in a deal (ties from the search's stream)."""
        if len(world.pending["ids"]) == 1:
            return 0
        best = self.program.prefer(world, self.policy)
        return best[0] if len(best) == 1 else best[next_random(self.stream) % len(best)]

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
        """The most visited option at the root; ties by mean reward, then offered order."""
        ids = self.game.state.pending["ids"]
        children = self.root.children

        def rank(k: int) -> tuple[float, float, int]:
            child = children.get(ids[k])
            if child is None or not child.visits:
                return (-1.0, 0.0, -k)
            return (child.visits, child.reward / child.visits, -k)
        return ids[max(range(len(ids)), key=rank)]


def _resume(program, world: State, index: int) -> None:
    try:
        program.resume(world, index)
    except GameOver:
        pass
