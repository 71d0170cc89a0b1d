"""Fingerprints of seeded games: one digest of a game's choices, log and result, and one of its
choices alone, so that two engines (or a spec before and after a rewrite) can be shown to play
the same games, and a difference shows whether the moves or only the words changed.

docs/same_games.py compares versions of a spec with it; tests/test_three_backends.py compares
the interpreter, the generated Python and the native build.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game

MAX_DECISIONS = 20_000


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, default=repr, sort_keys=True).encode()).hexdigest()[:16]


def fingerprint(program, seed: int, agents: str) -> dict[str, str]:
    """One seeded game between `agents` (one bot for every seat, or one per seat: "a,b").
    A rule error is a result too: it must stay the same."""
    players = program.meta.players
    per_seat = tuple(agents.split(",")) * (1 if "," in agents else len(players))
    game = Game(program, seed=seed, params={})
    try:
        play_out(game, seat_agents(per_seat, players, seed), MAX_DECISIONS)
        end = [game.winner, game.reason, game.tracks()]
    except Exception as err:  # noqa: BLE001
        end = ["error", type(err).__name__, str(err)]
    return {"all": digest([game.choices, game.state.log, end]), "choices": digest(game.choices)}


def fingerprints(program, agent_sets: list[str], seeds: int, prefix: str = "") -> dict[str, dict[str, str]]:
    """The fingerprints of seeds 1..N for each agent set, keyed "PREFIX AGENTS SEED"."""
    return {f"{prefix}{agents} {seed}": fingerprint(program, seed, agents)
            for agents in agent_sets for seed in range(1, seeds + 1)}
