"""`lose`: a game that ends with players losing and nobody winning, on both back ends,
in `play`'s text and --json, in simulate's rates, and in what the search bots score."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.results import game_json, winner_text
from rulespec.runtime.bots.search import WIN, _score
from rulespec.runtime.analysis.simulate import play_game, summarise
from support import BACKENDS, TESTS, program

LOSE = TESTS / "specs" / "lose"
# Seeds whose random game ends with red rolling a one, and one where red reaches 12.
RED_LOSES, RED_WINS = 1, 5


def played(backend: str, seed: int, players: int = 2) -> Game:
    game = Game(program(LOSE, backend), seed=seed, params={"players": players})
    play_out(game, seat_agents(("random",) * players, game.players, seed), 10_000)
    return game


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_lose_names_the_loser_and_no_winner(backend: str) -> None:
    game = played(backend, RED_LOSES)
    assert game.over and game.winner is None and game.losers == ["red"]
    assert game.state.result["losers"] == [0] and game.reason == "rolled a one"
    assert winner_text(game) == "Red loses — rolled a one"
    data = game_json(game, backend)
    assert data["winner"] is None and data["losers"] == ["red"]
    assert game.view("blue")["result"] == {"winner": None, "losers": ["red"], "reason": "rolled a one"}


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_win_names_no_loser(backend: str) -> None:
    game = played(backend, RED_WINS)
    assert game.winner == "red" and game.losers == [] and winner_text(game).startswith("Red wins")


def test_both_back_ends_end_every_game_alike() -> None:
    for seed in range(1, 31):
        a, b = played("interpreted", seed), played("generated", seed)
        assert (a.choices, a.state.result) == (b.choices, b.state.result), seed


def test_simulate_counts_a_loss_not_a_draw() -> None:
    prog = program(LOSE, "generated")
    games = [play_game(prog, seed, ("random", "random"), {"players": 2}) for seed in range(1, 41)]
    out = summarise(["red", "blue"], (), games)
    lost = {p: sum(p in g.losers for g in games) for p in ("red", "blue")}
    assert lost["red"] + lost["blue"] > 0
    assert out["loss_rate"] == {p: lost[p] / 40 for p in ("red", "blue")}
    assert out["draws"] == sum(1 for g in games if g.winner is None and not g.losers)
    assert out["draws"] < sum(1 for g in games if g.winner is None)


def test_the_search_bots_score_a_loss_as_lost() -> None:
    game = played("generated", RED_LOSES)
    assert _score(game.program, game.state, "", 0) == -WIN
    assert _score(game.program, game.state, "", 1) == 0.0


def test_play_prints_and_reports_the_loss() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["play", str(LOSE), "--seed", str(RED_LOSES)])
    assert text.exit_code == 0 and "Result:    Red loses — rolled a one" in text.output
    out = runner.invoke(main, ["play", str(LOSE), "--seed", str(RED_LOSES), "--json"])
    data = json.loads(out.output)
    assert data["winner"] is None and data["losers"] == ["red"]


def test_a_recorded_loss_replays_as_a_loss(tmp_path) -> None:
    runner = CliRunner()
    record = tmp_path / "lost.json"
    played_out = runner.invoke(main, ["play", str(LOSE), "--seed", str(RED_LOSES), "--record", str(record)])
    assert played_out.exit_code == 0, played_out.output
    out = runner.invoke(main, ["replay", str(record), "--spec", str(LOSE), "--json"])
    data = json.loads(out.output[out.output.index("{"):])
    assert data["winner"] is None and data["losers"] == ["red"] and data["reason"] == "rolled a one"


def test_simulate_refuses_to_pair_sets_that_seat_different_players():
    """Solo seats one player, the two-player game two: one clear line, not a KeyError."""
    result = CliRunner().invoke(main, ["simulate", "terraforming_mars", "--variant", "solo",
                                       "--against", "base", "--games", "2", "--workers", "1"])
    assert result.exit_code == 1
    assert "cannot compare solo with the base game: they seat different players" in result.output
    assert "Traceback" not in result.output
