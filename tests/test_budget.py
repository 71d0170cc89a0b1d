"""Programs that never end stop alike on both back ends: a loop-round budget between
decisions and a bound on events nested in events, each a RuleError at the spec line."""

from __future__ import annotations

import pytest

from rulespec.compiler.backends import engine
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime import state as rt
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError, State

# Each mode a program the checker cannot prove endless, which never ends.
ENDLESS = """\
game loop "Loop"
players red "Red", blue "Blue"
param mode: int = 0 "What to run"
track score "Score" per player 0..200 start 0
zone box "Box" public
kind card: card(points: int)
card one "One" (points 1) { event { resolve this for you } }
card two "Two" (points 2) {
    event { red chooses "Again?" { option yes "Yes" { resolve this for you } option no "No" { } } }
}
start {
    if mode == 0 { while score(red) < 100 { add 0 to score(red) } }
    if mode == 1 { repeat 999999999999 { add 0 to score(blue) } }
    if mode == 2 { resolve one for red }
    if mode == 3 { resolve two for red }
    if mode == 4 { repeat 30 { red chooses "Go on?" { option go "Go" { } } } }
    red chooses "Done?" { option done "Done" { win red "done" } }
}
"""
WHERE = {0: ":12:20", 1: ":13:20", 2: ":7:37", 3: ":9:55"}


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("endless") / "loop"
    folder.mkdir()
    (folder / "loop.rules").write_text(ENDLESS, encoding="utf-8")
    loaded = load_spec(folder)
    package = folder.parent / "pkg"
    compile_game(loaded.model, package)
    return {"interpreted": Interpreter(loaded.model),
            "generated": engine.load_program(loaded, "generated", package)}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(rt, "MAX_ROUNDS", 500)
    monkeypatch.setattr(rt, "MAX_NESTING", 20)


def _error(program, mode: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        game = Game(program, seed=1, params={"mode": mode})
        while not game.over:
            game.choose(game.decision.option_ids[0])
    return caught.value


@pytest.mark.parametrize("mode", sorted(WHERE))
def test_both_back_ends_stop_an_endless_program_with_the_same_located_error(programs, mode):
    errors = {name: _error(program, mode) for name, program in programs.items()}
    assert str(errors["interpreted"]) == str(errors["generated"])
    err = errors["interpreted"]
    assert err.location.endswith("loop.rules" + WHERE[mode])
    assert ("events" in err.reason) == (mode >= 2)
    assert ("500 loop rounds" in err.reason) == (mode < 2)


@pytest.mark.parametrize("backend", ["interpreted", "generated"])
def test_the_budget_starts_again_at_every_decision(programs, backend):
    game = Game(programs[backend], seed=1, params={"mode": 4})
    rt.MAX_ROUNDS = 3  # 30 rounds in all, one decision in each
    while not game.over:
        game.choose(game.decision.option_ids[0])
    assert game.winner == "red" and game.state.nesting == 0


def test_a_snapshot_without_the_budget_slots_loads():
    data = State(_meta(), 1, {}).to_json()
    for name in ("rounds", "nesting", "trace"):
        data.pop(name)
    state = State.from_json(data)
    assert state.rounds == 0 and state.nesting == 0


def _meta():
    from rulespec.runtime.meta import GameMeta
    return GameMeta("g", "G", "0", (), ("a", "b"), ("A", "B"), (), (), (), (), (), (), (), (), (),
                    (), ())
