"""A seat count the language knows (`players … seats D in L..H`, `--param players=N`):
the collection `players`, `opponent`, agents, views, the table, simulate and the
command line see only the seated players, and both back ends agree."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.params import ParamError
from rulespec.runtime.analysis.simulate import play_game
from rulespec.runtime.playtest.table import Table
from support import BACKENDS, MINI, TS, program

SEATS = MINI.parent / "seats"
ALL = ("north", "east", "south", "west")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_only_the_seated_players_play_and_are_seen(backend: str, n: int) -> None:
    prog = program(SEATS, backend)
    for seed in range(5):
        game = Game(prog, seed=seed, params={"players": n})
        assert game.players == ALL[:n]
        agents = seat_agents(("random",) * n, game.players, seed)
        deciders = set()
        while game.decision is not None:
            deciders.add(game.decision.player)
            game.choose(agents[game.decision.player].choose(game, game.decision))
        assert deciders <= set(ALL[:n]) and game.winner in ALL[:n]
        view = game.view("north")
        assert list(view["tracks"]["score"]) == list(ALL[:n])
        assert [z for z in view["zones"] if z.startswith("hand(")] == [f"hand({p})" for p in ALL[:n]]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_both_back_ends_agree_for_every_seat_count(n: int) -> None:
    a_prog, b_prog = program(SEATS, "interpreted"), program(SEATS, "generated")
    for seed in range(10):
        a, b = (Game(p, seed=seed, params={"players": n}) for p in (a_prog, b_prog))
        agents = seat_agents(("random",) * n, a.players, seed)
        while a.decision is not None:
            assert b.state.public_part() == a.state.public_part()
            da, db = a.decision, b.decision
            assert (da.player, da.option_ids) == (db.player, db.option_ids)
            choice = agents[da.player].choose(a, da)
            a.choose(choice)
            b.choose(choice)
        assert b.decision is None and (a.winner, a.state.log) == (b.winner, b.state.log)


def test_the_seat_count_is_range_checked() -> None:
    prog = program(SEATS, "generated")
    with pytest.raises(ParamError, match="players"):
        Game(prog, params={"players": 5})
    with pytest.raises(ParamError, match="players"):
        Game(prog, params={"players": 0})
    assert Game(prog).players == ALL[:2], "the default is 2 seats"


def test_fixed_games_keep_their_two_players() -> None:
    meta = program(TS, "generated").meta
    assert meta.seats_param == "" and meta.seated({}) == meta.players and len(meta.players) == 2


def test_play_json_names_one_agent_per_seated_player() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["play", str(SEATS), "--param", "players=3", "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["agents"] == ["random"] * 3 and list(data["tracks"]["turns"]) == list(ALL[:3])
    assert data["params"]["players"] == 3
    bad = runner.invoke(main, ["play", str(SEATS), "--param", "players=3", "--agents", "random,random"])
    assert bad.exit_code == 1 and "1 or 3 names" in bad.output
    wrong = runner.invoke(main, ["play", str(SEATS), "--param", "players=9"])
    assert wrong.exit_code == 1 and "from 1 to 4" in wrong.output


def test_the_table_and_simulate_seat_only_the_seated() -> None:
    prog = program(SEATS, "generated")
    table = Table.new(prog, ("random",) * 3, seed=4, params={"players": 3})
    assert table.players == ALL[:3] and set(table.seats) == set(ALL[:3])
    with pytest.raises(ValueError, match="3 seats needed"):
        Table.new(prog, ("random",) * 4, seed=4, params={"players": 3})
    summary = play_game(prog, 4, ("random",) * 3, {"players": 3})
    assert list(summary.tracks["score"]) == list(ALL[:3]) and summary.winner in ALL[:3]


def test_a_game_with_one_seat_plays_to_its_end() -> None:
    game = Game(program(SEATS, "generated"), seed=1, params={"players": 1})
    play_out(game, seat_agents(("random",), game.players, 1), 10_000)
    assert game.winner == "north" and game.reason == "goal reached"


def test_a_variant_may_replace_the_players_line() -> None:
    from support import loaded
    tm = MINI.parent.parent.parent / "spec" / "terraforming_mars"
    base, solo = loaded(tm).model.meta(), loaded(tm, ("solo",)).model.meta()
    assert (base.seat_count(), solo.seat_count()) == (2, 1)
    assert solo.seated({"players": 3}) == ("p1", "p2", "p3")


def test_info_reports_the_spec_tallies_and_cards_by_kind() -> None:
    """`tally` figures (Terraforming Mars: 137 project cards, corporations apart) and the
    cards of each kind, beside the unchanged keys."""
    out = CliRunner().invoke(main, ["info", "terraforming_mars", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["spaces"] == 63 and data["tallies"]["project_cards"]["value"] == 137
    assert data["cards_by_kind"] == {"project": 148, "milestone": 5, "award": 5}
    assert data["cards"] == 158 and data["params"]["players"]["range"] == [1, 5]


def test_the_play_table_seats_a_person_and_bots_for_the_seated_only() -> None:
    from rulespec.compiler.tools import playtest
    meta = program(SEATS, "generated").meta
    assert playtest.default_seats(meta, {"players": 3}) == ("human", "random", "random")
    assert playtest.seats_of("human", meta, "--seats", {"players": 3}) == ("human",) * 3
    with pytest.raises(playtest.PlaytestError, match="1 to 1 names"):
        playtest.seats_of("human,random", meta, "--seats", {"players": 1})
