"""A card's action beside its event (`action [when COND] { … }`, `resolve action CARD for
PLAYER`, `has_action`, `action_allowed`): both back ends alike, `fmt`, and the generated
package (a game without actions gets none of their machinery)."""

from __future__ import annotations

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game
from support import MINI, TESTS, loaded, program

CARD_ACTIONS = TESTS / "specs" / "card_actions"


def played(backend: str, seed: int) -> Game:
    game = Game(program(CARD_ACTIONS, backend), seed=seed)
    play_out(game, seat_agents(("random", "random"), game.players, seed), 10_000)
    return game


def test_the_designer_tests_pass_on_both_back_ends() -> None:
    result = CliRunner().invoke(main, ["test", str(CARD_ACTIONS)])
    assert result.exit_code == 0, result.output
    assert "8 passed, 0 failed (4 on generated, 4 on interpreted)" in result.output


def test_both_back_ends_play_every_game_alike() -> None:
    scores = set()
    for seed in range(1, 21):
        a, b = played("interpreted", seed), played("generated", seed)
        assert (a.choices, a.state.result, a.state.tracks) == (b.choices, b.state.result, b.state.tracks)
        assert a.over and a.tracks()["uses"]["red"] == 9
        scores.add(a.tracks()["score"]["red"])
    assert len(scores) > 1  # the choices matter: the mill's grinding pays


def test_fmt_keeps_an_action_beside_the_event() -> None:
    text = ('game g "G"\nplayers a "A"\nkind tool: card()\nzone box "Box" hidden\n'
            'track t "T" 0..9 start 0\n'
            'tool lamp "Lamp" {\n    event { add 1 to t }\n    action when t > 0 { add 2 to t }\n}\n'
            'start {\n    resolve action lamp for a\n    win none "x"\n}\n')
    assert format_text(text) == text


def test_only_a_game_with_actions_gets_their_machinery(tmp_path) -> None:
    compile_game(loaded(CARD_ACTIONS).model, tmp_path / "card_actions")
    procedures = (tmp_path / "card_actions" / "procedures.py").read_text()
    assert "def resolve_action" in procedures and "ACTION_STEPS" in procedures
    compile_game(loaded(MINI).model, tmp_path / "mini")
    assert "resolve_action" not in (tmp_path / "mini" / "procedures.py").read_text()
    assert "action_allowed" not in (tmp_path / "mini" / "rules.py").read_text()
