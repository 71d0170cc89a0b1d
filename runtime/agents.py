"""Bots that play through the decision protocol; they see only their view."""

from __future__ import annotations

from .state import next_random


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int):
        self._rng = seed * 0x9E3779B1 + 12345

    def choose(self, game, decision) -> str:
        holder = _Stream(self._rng)
        index = next_random(holder) % len(decision.option_ids)
        self._rng = holder.rng
        return decision.option_ids[index]


class FirstAgent:
    """Always the first legal option: deterministic and cheap, for smoke tests."""

    name = "first"

    def __init__(self, seed: int = 0):
        pass

    def choose(self, game, decision) -> str:
        return decision.option_ids[0]


class _Stream:
    __slots__ = ("rng",)

    def __init__(self, rng: int):
        self.rng = rng


AGENTS = {"random": RandomAgent, "first": FirstAgent}


def make_agent(name: str, seed: int):
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(AGENTS))})") from None


def play_out(game, agents: dict[str, object], max_decisions: int = 100_000) -> int:
    """Play until the game ends; returns the number of decisions made."""
    made = 0
    while not game.over:
        decision = game.decision
        if decision is None:
            break
        if made >= max_decisions:
            raise RuntimeError(f"game exceeded {max_decisions} decisions")
        game.choose(agents[decision.player].choose(game, decision))
        made += 1
    return made
