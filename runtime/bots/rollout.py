"""Policy improvement by paired rollouts: the policy's few best options played on the same deals.

Monte Carlo policy improvement (Tesauro and Galperin, 1996) under hidden
information: for each of DEALS fresh deals of what the searching seat cannot
see (runtime/bots/search.py's `determinize`), every candidate - the policy's first
WIDTH options in its order of preference - is played on that same deal, the
same dice and the same tie-breaks (an option a `never` line of the policy
marks is no candidate), by the policy on both sides, until the
player to move has changed DEPTH times (or, with a depth in turns, `@4x2tx2`, until DEPTH
turns have begun: runtime/bots/mcts.py's TurnClock); the leaf is scored by the spec's first
`bot` evaluation (or the one the name gives, `rollout:POLICY:BOT`) squashed into 0..1 (a
finished game: 1 won, 0 lost, 1/2 drawn). Sharing the deal makes the difference between two candidates on it
far steadier than either score alone, so a few deals can tell them apart.

The choice: among the policy's tied best options, the best mean; another
option only when its paired difference from that one is clearly positive
(mean minus Z standard errors above MARGIN; Z the budget's fourth number). After each deal a candidate
whose mean paired gain is not above 0 gets no more deals, and once only the
policy's (untied) choice is left it is played: the budget goes to the
decisions where an alternative keeps looking better. A fixed budget,
nothing timed: the same seed plays the same game.
"""

from __future__ import annotations

import math

from rulespec.runtime.bots.mcts import (ROLLOUT_CAP, TurnClock, TurnWatch, leaf_evaluation, parse_budget,
                   policy_play_out, policy_tiers, solo_stride, split_search)
from rulespec.runtime.bots.search import determinize
from rulespec.runtime.state import State, Stream, next_random

DEALS = 4  # deals each candidate is played on, at most
DEPTH = 3  # changes of the player to move in a rollout before the evaluation scores it
WIDTH = 2  # candidates: the policy's first options in its order
MARGIN = 0.02  # mean paired gain (reward 0..1) an option needs beyond Z standard errors
Z = 1.5  # standard errors of the paired gain an option must clear to overrule the policy
SCALE_WINDOW = 200  # leaves the running scale of evaluation differences averages over


def parse_rollout(name: str) -> tuple[str, int, int, int, float, bool]:
    """'rollout[:POLICY[:BOT]][@DEALSxDEPTH[t]xWIDTHxZ]' -> ('rollout[:POLICY[:BOT]]', deals, depth, width,
    z, the depth in turns), or ValueError."""
    head, deals, depth, width, z, turns = parse_budget(name, "DEALSxDEPTHxWIDTHxZ",
                                                       (DEALS, DEPTH, WIDTH, Z))
    return head, deals, depth, width, z, turns


def make_rollout_agent(name: str, seed: int) -> "RolloutAgent":
    head, deals, depth, width, z, turns = parse_rollout(name)
    kind, policy, bot = split_search(head)
    if kind != "rollout":
        raise ValueError(f"unknown agent '{name}'")
    return RolloutAgent(seed, policy, deals, depth, width, z, turns, bot)


class RolloutAgent:
    """Paired policy rollouts from the policy's best few options; deals and ties from its stream."""

    def __init__(self, seed: int, policy: str | None = None, deals: int = DEALS,
                 depth: int = DEPTH, width: int = WIDTH, z: float = Z, turns: bool = False,
                 bot: str | None = None):
        self.stream = Stream(seed * 0x61C88647 + 9)
        self.policy, self.deals, self.depth, self.width = policy, deals, depth, width
        self.bot = bot  # the evaluation that scores the leaves (None: the spec's first)
        self.z, self.turns = z, turns
        self.watch = TurnWatch()  # the seat's decisions in its current turn, for turns
        self.spread, self.scored = 0.0, 0  # running mean |leaf - root| evaluation: the scale

    def choose(self, game, decision) -> str:
        ids = decision.option_ids
        run = self.watch.observe(game)
        if len(ids) == 1:
            return ids[0]
        program, me = game.program, game.state.pending["player"]
        policy = self.policy or game.meta.policies[0]
        bot = leaf_evaluation(game, self.bot)
        deal = determinize(game, game.state, me, self.stream)
        candidates, tier = policy_tiers(program, policy, deal, self.stream, self.width)
        if len(candidates) == 1:
            return ids[candidates[0]]
        tier = min(tier, len(candidates))
        base = float(program.evaluate(deal, bot, me)) if bot is not None else 0.0
        rewards: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        for n in range(self.deals):
            if n:
                deal = determinize(game, game.state, me, self.stream)
            ties = next_random(self.stream)
            for k in alive:
                clock = TurnClock(me, run) if self.turns else None
                result, value = self.leaf(program, policy, deal, candidates[k], Stream(ties), bot, me,
                                          solo_stride(game), clock)
                rewards[k].append(self.reward(result, value, base, me))
            alive = contenders(rewards, alive, tier)
            if len(alive) == 1:
                break  # no other candidate is ahead of the policy's choice: keep it
        return ids[candidates[choose(rewards, tier, self.z)]]

    def rollout(self, program, policy: str, deal: State, candidate: int, ties: Stream, scored: bool,
                stride: int | None = None, clock: TurnClock | None = None) -> State:
        """On a copy of the deal with the candidate option taken, the policy plays both sides
        until the player to move has changed `depth` times, or `depth` turns have begun by the
        `clock` (alone: every `stride` decisions count as a change; to the end, within
        ROLLOUT_CAP decisions, when the spec has no evaluation):
        the position to score."""
        return policy_play_out(program, deal, self.depth if scored else ROLLOUT_CAP, policy, ties,
                               stride if scored else None, clock if scored else None, candidate)

    def leaf(self, program, policy: str, deal: State, candidate: int, ties: Stream, bot: str | None,
             me: int, stride: int | None, clock: TurnClock | None) -> tuple[dict | None, float | None]:
        """How the candidate's rollout on the deal ended: the game's result, or else the leaf's
        evaluation for `me` (None without an evaluation). In one call where the program plays
        and scores it natively (its `scored_playout`: the same playout, nothing unpacked)."""
        native = getattr(program, "scored_playout", None)
        if bot is not None and native is not None:
            ended = native(deal, policy, ties, self.depth, stride, ROLLOUT_CAP, candidate, bot, me, clock)
            if ended is not None:
                return ended
        world = self.rollout(program, policy, deal, candidate, ties, bot is not None, stride, clock)
        if world.result is not None or bot is None:
            return world.result, None
        return None, program.evaluate(world, bot, me)

    def reward(self, result: dict | None, value: float | None, base: float, me: int) -> float:
        """The seat's reward in 0..1: a finished game's result, else its squashed evaluation gain
        (1/2 without an evaluation)."""
        if result is not None:
            if result["winner"] is None:
                return 0.0 if me in result.get("losers", ()) else 0.5
            return float(result["winner"] == me)
        if value is None:
            return 0.5
        gain = float(value) - base
        self.scored += 1
        self.spread += (abs(gain) - self.spread) / min(self.scored, SCALE_WINDOW)
        return 0.5 + 0.5 * math.tanh(gain / (self.spread + 1.0))


def _top(rewards: list[list[float]], tier: int) -> int:
    """The best mean among the policy's tied best options (the first `tier`)."""
    return max(range(tier), key=lambda k: (sum(rewards[k]) / len(rewards[k]), -k))


def contenders(rewards: list[list[float]], alive: list[int], tier: int) -> list[int]:
    """The candidates still worth a deal: the policy's tied best, and any other whose mean
    paired gain over the best of those is above 0 so far."""
    top = _top(rewards, tier)
    return [k for k in alive if k < tier or
            sum(a - b for a, b in zip(rewards[k], rewards[top])) > 0]


def choose(rewards: list[list[float]], tier: int, z: float = Z) -> int:
    """The candidate to play: the best mean among the first `tier` (the policy's tied best),
    unless a later one, played on every deal, has a clearly positive paired gain over it
    (its mean `z` standard errors above MARGIN; the largest such)."""
    top = _top(rewards, tier)
    choice, best_gain = top, 0.0
    for k in range(tier, len(rewards)):
        gains = [a - b for a, b in zip(rewards[k], rewards[top])]
        n = len(gains)
        if n < 2 or n < len(rewards[top]):
            continue  # one deal cannot show a gain is more than luck; a dropped one is out
        mean = sum(gains) / n
        error = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n)
        if mean - z * error > MARGIN and mean > best_gain:
            choice, best_gain = k, mean
    return choice
