"""What a played or replayed game shows: its result as JSON (the --json keys) and as lines."""

from __future__ import annotations

from typing import Any, Callable

from rulespec.runtime.game import Game
from rulespec.runtime.logview import whole_line
from rulespec.runtime.values import text_of

LOG_LINES = 12  # lines of the game log a summary ends with


def game_json(game: Game, backend: str) -> dict[str, Any]:
    """The result of a game: the keys docs/CLI.md promises for `play` (and `replay`)."""
    meta = game.meta
    return {
        "game": meta.game, "variants": list(game.variants), "seed": game.seed,
        "backend": backend, "winner": game.winner, "losers": game.losers,
        "reason": game.reason,
        "decisions": game.decisions, "spec_hash": meta.spec_hash,
        "over": game.over, "agents": list(game.agents or ()),
        "params": dict(game.state.params), "tracks": game.tracks(),
    }


def pending_json(game: Game) -> dict[str, Any] | None:
    """The decision a game waits for: who decides, the prompt, the option ids."""
    decision = game.decision
    if decision is None:
        return None
    return {"player": decision.player, "prompt": decision.prompt, "options": list(decision.option_ids)}


def winner_text(game: Game) -> str:
    if not game.over:
        return "not finished"
    labels = dict(zip(game.meta.players, game.meta.player_labels))
    return f"{outcome(game.winner, game.losers, labels.__getitem__)} — {game.reason}"


def outcome(winner: str | None, losers: list[str], label: Callable[[str], str]) -> str:
    """'Red wins', 'Red loses' (a `lose`, nobody wins), or 'draw'."""
    if winner is not None:
        return f"{label(winner)} wins"
    if losers:
        verb = "loses" if len(losers) == 1 else "lose"
        return f"{' and '.join(label(p) for p in losers)} {verb}"
    return "draw"


def tracks_lines(game: Game) -> list[str]:
    lines = []
    for name, value in game.tracks().items():
        if isinstance(value, dict):
            value = ", ".join(f"{p} {v}" for p, v in value.items())
        lines.append(f"  {name}: {value}")
    return lines


def summary_lines(game: Game, backend: str, log_lines: int = LOG_LINES) -> list[str]:
    """A game's result for a person: who won and why, decisions, params, tracks, the log's end."""
    meta = game.meta
    variants = f", variants {'+'.join(game.variants)}" if game.variants else ""
    agents = f", agents {' vs '.join(game.agents)}" if game.agents else ""
    lines = [f"{meta.title or meta.game} — seed {game.seed}, {backend} back end{agents}{variants}",
             f"Result:    {winner_text(game)}",
             f"Decisions: {game.decisions}"]
    if game.state.params:
        lines.append("Params:    " + ", ".join(f"{k}={text_of(v)}"
                                               for k, v in game.state.params.items()))
    lines.append("Tracks:")
    lines += tracks_lines(game)
    state = game.state
    log = [whole_line(meta, text, marks)
           for text, marks in zip(state.log[-log_lines:], state.log_marks[-log_lines:])]
    if log:
        lines.append(f"Last {len(log)} lines of the game log:")
        lines += [f"  {line}" for line in log]
    return lines
