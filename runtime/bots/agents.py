"""Bots that play through the decision protocol.

An agent has `choose(game, decision) -> option id`. Fair agents look only at
`game.view(decision.player)`; the search bots (runtime/bots/search.py) copy the
state and re-deal every card their player cannot see before looking ahead.
Names: `random`, `first`, `last`, `policy` (optionally `policy:<name>`, one
of the spec's `policy` declarations: runtime/policy.py), `greedy` / `mc`
(optionally `greedy:<bot>` to pick one of the spec's `bot` evaluations) and
`mcts` (determinised UCT with the policy as rollout: runtime/bots/mcts.py;
`mcts:<policy>`, and a search budget `mcts@<playouts>x<depth>`, e.g.
`mcts:NAME@4x4`) and `rollout` (the policy's best few options compared by
policy rollouts on shared deals: runtime/bots/rollout.py; `rollout:<policy>`,
`rollout@<deals>x<depth>x<width>x<z>`). A depth with a `t` after it
(`mcts@8x2t`, `rollout@4x2tx2`) counts whole turns, not changes of the
player to move (runtime/bots/mcts.py's TurnClock).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from rulespec.runtime.game import Decision, Game
from rulespec.runtime.record import RecordError
from rulespec.runtime.state import RuleError, Stream, next_random
from rulespec.runtime.text import shown

DEFAULT_MAX_DECISIONS = 100_000
HUMAN = "human"  # a person's seat at a table: what a table's record keeps beside its bots' names


class Agent(Protocol):
    """Anything that picks one option id of a decision (and may offer
    `choose_index(game) -> int`, the same pick as an index: play_out uses it)."""

    def choose(self, game: Game, decision: Decision) -> str:
        """The id of the chosen option."""


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int):
        self._stream = Stream(seed * 0x9E3779B1 + 12345)

    @property
    def stream_start(self) -> int:
        """Where its stream starts (the native engine's playouts draw from the same)."""
        return self._stream.rng

    def choose(self, game: Game, decision: Decision) -> str:
        index = next_random(self._stream) % len(decision.option_ids)
        return decision.option_ids[index]

    def choose_index(self, game: Game) -> int:
        """The same pick as `choose`, as the pending option's index."""
        return next_random(self._stream) % len(game.state.pending["ids"])


class FirstAgent:
    """Always the first legal option: deterministic and cheap, for smoke tests."""

    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, game: Game, decision: Decision) -> str:
        return decision.option_ids[0]


class LastAgent:
    """Always the last legal option: a second cheap, different deterministic bot."""

    name = "last"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, game: Game, decision: Decision) -> str:
        return decision.option_ids[-1]


AGENTS: dict[str, type] = {"random": RandomAgent, "first": FirstAgent, "last": LastAgent}
SEARCH_AGENTS = ("greedy", "mc")
POLICY_AGENTS = ("policy", "mcts", "rollout")  # need a `policy` declaration in the spec

# The bot balance runs use unless told otherwise: the spec's first policy
# (random for a spec that declares none) - people's play, at little more
# than a random bot's cost.
BALANCE_AGENT = "policy"


def default_agent(meta) -> str:
    """The balance bot for a game: the one its spec declares (`balance bot "AGENT"`, a search
    bot too), else BALANCE_AGENT when its spec declares a policy, else random."""
    declared = getattr(meta, "balance_bot", "")
    if declared:
        return declared
    return BALANCE_AGENT if getattr(meta, "policies", ()) else "random"


class DecisionLimit(RuleError):
    """A game ran past the decision cap: the rules may never end."""


def known_agents() -> list[str]:
    return sorted(AGENTS) + list(SEARCH_AGENTS) + list(POLICY_AGENTS)


def make_agent(name: str, seed: int) -> Agent:
    plain, values = split_tuned(name)
    agent = _make_agent(plain, seed)
    if values:  # a policy bot (or a search on one) playing some tunables of its own
        from rulespec.runtime.policy import Tuned
        agent.policy = Tuned(agent.policy, values)
    return agent


_TUNED = re.compile(r"\(([^()]*)\)")
_SETTING = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?[0-9]{1,18})\s*")


def split_tuned(name: str) -> tuple[str, tuple[tuple[str, int], ...]]:
    """'policy:NAME(w=5,t=2)@..' -> ('policy:NAME@..', (('w', 5), ('t', 2))), or ValueError."""
    found = _TUNED.search(name)
    if found is None:
        return name, ()
    plain = name[:found.start()] + name[found.end():]
    settings = [_SETTING.fullmatch(part) for part in found.group(1).split(",")]
    if "(" in plain or ")" in plain or not all(settings) or plain.partition(":")[0].partition("@")[0] not in POLICY_AGENTS:
        raise ValueError(f"'{name}': tunables are set as NAME=NUMBER after a policy bot's name,"
                         f" e.g. policy:NAME(weight_a=6,limit=2)")
    values = tuple((m.group(1), int(m.group(2))) for m in settings)
    if len({k for k, _ in values}) != len(values):
        raise ValueError(f"'{name}': a tunable is set twice")
    return plain, values


def split_agent_list(text: str) -> list[str]:
    """'a,policy(w=1,t=2),b' -> ['a', 'policy(w=1,t=2)', 'b']: commas inside () stay."""
    names, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [n.strip() for n in names if n.strip()]


def _make_agent(name: str, seed: int) -> Agent:
    kind, _, bot = name.partition(":")
    if kind in SEARCH_AGENTS:
        from rulespec.runtime.bots.search import make_search_agent
        return make_search_agent(kind, seed, bot or None)
    if kind == "policy":
        from rulespec.runtime.policy import PolicyAgent
        return PolicyAgent(seed, bot or None)
    if kind == "mcts" or name.startswith("mcts@"):
        from rulespec.runtime.bots.mcts import make_mcts_agent
        return make_mcts_agent(name, seed)
    if kind == "rollout" or name.startswith("rollout@"):
        from rulespec.runtime.bots.rollout import make_rollout_agent
        return make_rollout_agent(name, seed)
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(known_agents())})") from None


def parse_agents(text: str, players: tuple[str, ...], bots: tuple[str, ...] = (),
                 policies: tuple[str, ...] = (), tunables: tuple = ()) -> tuple[str, ...]:
    """'random' or 'random,greedy' → one agent name per player, or ValueError. `tunables` is the
    meta's, to check the values a tuned policy bot sets (`policy:NAME(w=5)`)."""
    names = tuple(split_agent_list(text))
    if len(names) == 1:
        names = names * len(players)
    if len(names) != len(players):
        raise ValueError(f"--agents needs 1 or {len(players)} names (for {', '.join(players)}),"
                         f" got {len(names)}")
    for name in names:
        _check_offered(name, bots, policies, tunables)
    return names


def spec_offers(meta: Any) -> tuple[tuple[str, ...], tuple[str, ...], tuple]:
    """What a game's spec offers its bots: its `bot` evaluations, its `policy` names and each
    policy's tunables (for the values a tuned policy bot sets)."""
    return getattr(meta, "bots", ()), getattr(meta, "policies", ()), getattr(meta, "tunables", ())


def check_agent(name: str, meta: Any = None) -> None:
    """ValueError, in one line, unless `name` is a bot the game of `meta` can seat (the
    whole meta is handed over, so no caller can leave out part of what the spec offers)."""
    _check_offered(name, *spec_offers(meta))


def check_recorded(record: Any, meta: Any, where: str = "record") -> None:
    """A record's agents checked as `--agents` is (one per seated player, each a person's seat
    or a bot this game can seat, its tunables within range), so a record from outside ends as
    one RecordError line before any game is played, never as a KeyError when its bot is made.
    `record` is a checked records.Record whose params check_program has accepted."""
    if not record.agents:
        return
    seated = meta.seated(record.params)
    if len(record.agents) != len(seated):
        raise RecordError(f"{where}: the record names {len(record.agents)} agents for"
                          f" {len(seated)} seats ({', '.join(seated)})")
    for name in record.agents:
        if name == HUMAN:
            continue
        try:
            check_agent(name, meta)
        except ValueError as err:
            raise RecordError(f"{where}: agent '{shown(name)}': {err}") from None


def _check_offered(name: str, bots: tuple[str, ...], policies: tuple[str, ...], tunables: tuple) -> None:
    plain, values = split_tuned(name)
    _check_agent(plain, bots, policies)
    if values:
        check_tuned(plain, values, policies, tunables)


def check_tuned(name: str, values, policies: tuple[str, ...], tunables: tuple) -> None:
    """Every value a tuned policy bot sets names a tunable of its policy, within its range."""
    from rulespec.runtime.bots.mcts import split_search
    policy = split_search(name.partition("@")[0])[1] or (policies[0] if policies else "")
    declared = {t.name: t for t in dict(tunables).get(policy, ())}
    for key, value in values:
        tunable = declared.get(key)
        if tunable is None:
            known = ", ".join(declared) or "none"
            raise ValueError(f"policy '{policy}' has no tunable '{key}' (its tunables: {known})")
        if not tunable.low <= value <= tunable.high:
            raise ValueError(f"tunable '{key}' of policy '{policy}' takes {tunable.low}..{tunable.high},"
                             f" not {value}")


def _check_agent(name: str, bots: tuple[str, ...], policies: tuple[str, ...]) -> None:
    if name == "mcts" or name.startswith(("mcts:", "mcts@")):
        from rulespec.runtime.bots.mcts import parse_mcts
        name = parse_mcts(name)[0]
    if name == "rollout" or name.startswith(("rollout:", "rollout@")):
        from rulespec.runtime.bots.rollout import parse_rollout
        name = parse_rollout(name)[0]
    kind, _, bot = name.partition(":")
    evaluation = None
    if kind in ("mcts", "rollout"):  # a search on a policy may name its evaluation too
        from rulespec.runtime.bots.mcts import split_search
        kind, bot, evaluation = split_search(name)
    if kind in POLICY_AGENTS:
        if not policies:
            raise ValueError(f"agent '{kind}' needs a `policy` in the spec, and it declares none")
        if bot and bot not in policies:
            raise ValueError(f"unknown policy '{bot}' (the spec declares: {', '.join(policies)})")
        if evaluation:
            _check_evaluation(kind, evaluation, bots)
        return
    if kind not in SEARCH_AGENTS:
        make_agent(name, 0)
        return
    _check_evaluation(kind, bot, bots)


def _check_evaluation(kind: str, bot: str | None, bots: tuple[str, ...]) -> None:
    """A bot that scores positions: the spec declares an evaluation, and the one named."""
    if not bots:
        raise ValueError(f"agent '{kind}' needs a `bot` evaluation in the spec, and it declares none")
    if bot and bot not in bots:
        raise ValueError(f"unknown bot evaluation '{bot}' (the spec declares: {', '.join(bots)})")


def seat_agents(names: tuple[str, ...], players: tuple[str, ...], seed: int) -> dict[str, Agent]:
    """One agent per player; each draws from its own stream derived from the game seed."""
    return {p: make_agent(n, seed * SEAT_STRIDE + i) for i, (p, n) in enumerate(zip(players, names))}


SEAT_STRIDE = 7919  # a seat's agent seed: the game's seed times this, plus the seat's index


def play_out(game: Game, agents: dict[str, Agent], max_decisions: int = DEFAULT_MAX_DECISIONS,
             after: Any = None) -> int:
    """Play until the game ends; returns the number of decisions made.

    `after(game)`, when given, runs after every decision (property tests use it).
    """
    made = 0
    players = game.meta.players
    while not game.over:
        pending = game.state.pending
        if pending is None:
            raise RuleError("the game stopped without a result: nothing is pending and no `win` ended it")
        if made >= max_decisions:
            raise DecisionLimit(f"the game did not end within {max_decisions} decisions")
        agent = agents[players[pending["player"]]]
        by_index = getattr(agent, "choose_index", None)  # no Decision built, no id looked up
        if by_index is not None:
            game.choose_index(by_index(game))
        else:
            game.choose(agent.choose(game, game.decision))
        made += 1
        if after is not None:
            after(game)
    return made
