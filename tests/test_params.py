"""Params take only the values their spec allows, wherever they enter: the command line,
a record, a designer test (checked by `check`), a new game (runtime/params.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.runtime import record as records
from rulespec.runtime.game import Game
from rulespec.runtime.params import ParamError, check_params, params_json, parse_param
from support import MINI, REPO, program

HELDENHAIN = REPO / "spec" / "heldenhain"


@pytest.fixture(scope="module")
def mini():
    return program(MINI, "interpreted")


@pytest.mark.parametrize("pair, value", [("goal=7", 7), ("goal= 20 ", 20), ("goal=+1", 1)])
def test_a_value_in_range_is_typed(mini, pair, value):
    assert parse_param(mini.meta, pair) == ("goal", value)


@pytest.mark.parametrize("pair, words", [
    ("goal=0", "param 'goal' is a whole number from 1 to 20, not 0"),
    ("goal=-5", "not -5"),
    ("goal=" + "9" * 5000, "… ("),  # a huge number: refused, quoted bounded
    ("goal=many", "not many"),
    ("goal=1.5", "not 1.5"),
    ("nope=1", "unknown param 'nope' (mini declares: goal)"),
    ("goal", "expected NAME=VALUE"),
])
def test_a_value_out_of_range_or_of_another_type_is_refused(mini, pair, words):
    with pytest.raises(ParamError) as err:
        parse_param(mini.meta, pair)
    assert words in str(err.value) and len(str(err.value)) < 300


def test_enum_and_player_params_take_their_names_only():
    meta = program(HELDENHAIN, "interpreted").meta
    assert parse_param(meta, "deck_1=purpurpakt") == ("deck_1", "purpurpakt")
    with pytest.raises(ParamError, match="'deck_1' is one of superfreundinnen, .*, not nonexistent_deck"):
        parse_param(meta, "deck_1=nonexistent_deck")
    with pytest.raises(ParamError, match="from 1 to 9, not 12"):
        parse_param(meta, "action_points=12")


def test_a_new_game_refuses_what_the_spec_does_not_allow(mini):
    for bad in ({"goal": 99}, {"goal": True}, {"goal": "5"}, {"other": 1}):
        with pytest.raises(ParamError):
            Game(mini, seed=1, params=bad)
    assert check_params(mini.meta, {"goal": 20}) == {"goal": 20}
    with pytest.raises(ParamError, match="the seed must be a whole number"):
        Game(mini, seed="one")


def test_a_record_with_params_the_spec_does_not_allow_is_refused(mini, tmp_path):
    game = Game(mini, seed=2)
    for params, words in (({"goal": 99}, "from 1 to 20, not 99"), ({"gaol": 5}, "unknown param 'gaol'")):
        data = dict(records.to_record(game), params=params)
        path = tmp_path / "r.json"
        path.write_text(json.dumps(data))
        with pytest.raises(records.RecordError, match=words):
            records.load(path, mini)


def test_the_command_line_and_info_say_what_a_param_may_take():
    result = CliRunner().invoke(main, ["play", str(MINI), "--backend", "interpreted",
                                       "--param", "goal=" + "9" * 100_000])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and len(result.stderr) < 300
    info = json.loads(CliRunner().invoke(main, ["info", str(MINI), "--json"]).stdout)
    assert info["params"]["goal"] == {"type": "int", "default": 5, "default_text": "5", "range": [1, 20],
                                      "values": "a whole number from 1 to 20"}
    assert params_json(program(HELDENHAIN, "interpreted").meta)["deck_2"]["choices"][:2] == [
        "superfreundinnen", "schattenkabinett"]


def test_info_prints_param_values_in_the_languages_words(tmp_path):
    (tmp_path / "flags.rules").write_text(
        'game flags "Flags"\nplayers red "Red", blue "Blue"\n'
        'param extra: bool = false "Extra rule"\nparam first: player = blue "Who starts"\n'
        'start {\n    win none "draw"\n}\n', encoding="utf-8")
    text = CliRunner().invoke(main, ["info", str(tmp_path)]).stdout
    assert "extra=false (bool" in text and "first=blue (player" in text, text
    assert "False" not in text
    info = json.loads(CliRunner().invoke(main, ["info", str(tmp_path), "--json"]).stdout)
    assert info["params"]["extra"]["default"] is False and info["params"]["extra"]["default_text"] == "false"
