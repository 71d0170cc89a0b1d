"""Kept filters and defines (compiler/backends/codegen/kept.py): a kept list is always the list the filter
makes now, a kept value the value the define gives now."""

from __future__ import annotations

import importlib

import pytest

from rulespec.compiler.backends.engine import GENERATED_ROOT, import_program
from rulespec.runtime.bots.agents import DecisionLimit, play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.state import State


def _rules(game: str):
    import_program(GENERATED_ROOT / game, game)
    return importlib.import_module(f"generated.{game}.rules")


def _fresh(state: State) -> State:
    other = state.copy()
    other.forget_kept()
    return other


@pytest.mark.parametrize("game", ["twilight_struggle", "terraforming_mars"])
def test_every_kept_list_is_the_list_made_again(game):
    """After every decision of a random game, each kept list still valid by its stamps is the
    one the helper makes on the same state with nothing kept."""
    rules = _rules(game)
    program = import_program(GENERATED_ROOT / game, game)
    g = Game(program, seed=3)
    checked = []

    def compare(game):
        state = game.state
        for key in list(state.memo):
            number, args = (key[0], key[1:]) if isinstance(key, tuple) else (key, ())
            # a kept filter's helper by its number, a kept define by its name
            helper = getattr(rules, number if isinstance(number, str) else f"kept_{number}")
            assert helper(state, *args) == helper(_fresh(state), *args), (key, game.decisions)
            checked.append(key)

    try:
        play_out(g, seat_agents(("random",) * len(g.players), g.players, 3), 600, after=compare)
    except DecisionLimit:
        pass  # long enough
    assert checked  # the game kept some lists, or the test tested nothing
    assert any(isinstance(k[0] if isinstance(k, tuple) else k, str) for k in checked)  # and values


def test_a_write_behind_the_rules_back_is_forgotten_with_forget_kept():
    """Code that changes a state other than as the rules do calls forget_kept (a search's
    re-deal): what was kept of the old state is then not read."""
    program = import_program(GENERATED_ROOT / "twilight_struggle", "twilight_struggle")
    g = Game(program, seed=1)
    g.state.memo["x"] = ("stamp", ([1], True))
    g.state.forget_kept()
    assert g.state.memo == {}
    assert g.state.copy().memo == {}


def test_snapshots_hold_no_stamps_or_kept_lists():
    program = import_program(GENERATED_ROOT / "twilight_struggle", "twilight_struggle")
    state = Game(program, seed=1).state
    data = state.to_json()
    assert "memo" not in data and "stamps" not in data
    back = State.from_json(data)
    assert back.memo == {} and len(back.stamps) >= 2


def test_a_kept_define_keeps_on_only_while_enough_look_ups_find_its_value():
    from rulespec.runtime.values import KEEP_SHARE, KEEP_TRIAL, Keeping
    keeping = Keeping(3)
    enough = KEEP_TRIAL // KEEP_SHARE  # one look-up in KEEP_SHARE, just
    for n, hits in ((0, 0), (1, enough), (2, enough - 1)):
        for look in range(KEEP_TRIAL - 1):
            keeping.looked(n, look < hits)
    assert keeping.mode == [2, 2, 2]  # still on trial
    for n in range(3):
        keeping.looked(n, False)
    assert keeping.mode == [0, 1, 0]


def _games(program, seeds) -> list:
    from rulespec.runtime.analysis.simulate import play_game
    return [(g.winner, g.reason, g.decisions, g.tracks)
            for g in (play_game(program, s, ("policy", "policy"), {}) for s in seeds)]


def test_keeping_or_not_the_games_are_the_same(monkeypatch):
    """Kept values on, off, or on trial (the default): the same games, move for move; and on
    trial some defines of Twilight Struggle's policy stop keeping while those that find their
    values keep on."""
    from rulespec.runtime.values import KEEP_SHARE, Keeping
    program = import_program(GENERATED_ROOT / "twilight_struggle", "twilight_struggle")
    rules = importlib.import_module(f"{type(program).__module__}.rules")  # the program's own
    count = len(rules.KEEPING.mode)
    games = {}
    for mode in (1, 0, 2):
        keeping = Keeping(count)
        keeping.mode = [mode] * count
        monkeypatch.setattr(rules, "KEEPING", keeping)
        monkeypatch.setattr(rules, "KEEPS", keeping.mode)
        games[mode] = _games(program, range(1, 9))
    assert games[0] == games[1] == games[2]
    assert 0 in keeping.mode  # some define's trial ended: it stopped keeping
    hits, looks = keeping.hits, keeping.looks
    paying = [n for n in range(count) if hits[n] * KEEP_SHARE >= looks[n] > 0]
    assert paying and all(keeping.mode[n] for n in paying)  # one that finds its values keeps on
