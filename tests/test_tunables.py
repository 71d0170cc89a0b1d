"""Tunables and weighted lines: what a weighted tier prefers, alike on both back ends; the values a
tuned agent plays; the layout, the reference and the highlighting of the new words.

The game asks for a number 0..6 and a menu; the policy weighs the number
(greed, caution) and the menu (a threshold `limit`, weights), so each expected
choice is worked out by hand from the weights.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.bots.agents import make_agent, parse_agents
from rulespec.runtime.game import Game
from rulespec.runtime.policy import Tuned
from support import BACKENDS, program

WEIGHED = """\
game weighed "Weighed"
players red "Red", blue "Blue"
track score "Score" per player 0..99 start 0
start {
    red chooses n in 0..6 "How many?"
    add n to score(red)
    red chooses "Then?" {
        option go "Go" { add 1 to score(red) }
        option wait "Wait" { }
        option stop "Stop" { }
    }
    win none "done"
}
policy base "Base" {
    tunable limit = 2 in 0..9 "Go while the score is below this"
    choosing n: int "How many?" {
        prefer n weight greed = 4 in 0..20
        avoid n * n weight caution = 1 in 1..10
        prefer n
    }
    choosing "Then?" {
        prefer go when score(you) < limit weight 3
        prefer wait weight 2
        avoid stop weight limit
    }
}
policy keen "Keen" extends base { }
"""


@pytest.fixture(scope="module")
def weighed(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("weighed")
    (folder / "weighed.rules").write_text(WEIGHED, encoding="utf-8")
    return folder


def _best(prog, game: Game, policy) -> list[str]:
    return [game.decision.option_ids[i] for i in prog.prefer(game.state, policy)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_of_weighted_lines_is_one_tier_of_summed_values(weighed, backend):
    prog = program(weighed, backend)
    game = Game(prog, seed=1)
    # 4n - n^2 is highest at n = 2; with greed 10 at n = 5, with greed 0 at n = 0.
    assert _best(prog, game, "base") == ["2"]
    assert _best(prog, game, "keen") == ["2"]  # the base's tunables, for the policy extending it
    assert _best(prog, game, Tuned("base", (("greed", 10),))) == ["5"]
    assert _best(prog, game, Tuned("keen", (("greed", 0),))) == ["0"]
    # 3n - n^2 ties at 1 and 2: the unweighted line after the run breaks the tie.
    assert _best(prog, game, Tuned("base", (("greed", 3),))) == ["2"]
    game.choose("0")  # score 0
    # go 3 (0 < 2) against wait 2 and stop -2: go.
    assert _best(prog, game, "base") == ["go"]
    # limit 0: go's `when` fails, so go 0, wait 2, stop 0: wait.
    assert _best(prog, game, Tuned(None, (("limit", 0),))) == ["wait"]


def test_both_back_ends_prefer_alike_under_any_weights(weighed):
    interpreted, generated = (program(weighed, b) for b in BACKENDS)
    for greed in range(0, 21, 3):
        for limit in range(0, 10, 2):
            policy = Tuned("keen", (("greed", greed), ("limit", limit)))
            for n in ("0", "3", "6"):
                games = [Game(p, seed=2) for p in (interpreted, generated)]
                first = [p.prefer(g.state, policy) for p, g in zip((interpreted, generated), games)]
                for g in games:
                    g.choose(n)
                second = [p.prefer(g.state, policy) for p, g in zip((interpreted, generated), games)]
                assert first[0] == first[1] and second[0] == second[1], (greed, limit, n)


def test_the_defaults_come_from_the_meta_both_back_ends_share(weighed):
    meta = program(weighed, "generated").meta
    tunables = dict(meta.tunables)
    assert [(t.name, t.default, t.low, t.high, t.policy) for t in tunables["keen"]] == [
        ("limit", 2, 0, 9, "base"), ("greed", 4, 0, 20, "base"), ("caution", 1, 1, 10, "base")]
    assert tunables["base"] == tunables["keen"]
    assert program(weighed, "interpreted").meta.tunables == meta.tunables


def test_a_tuned_agent_is_named_with_its_values_and_checked(weighed):
    meta = program(weighed, "generated").meta
    names = parse_agents("policy:keen(greed=10,limit=3),rollout:base(caution=2)@2x1x2",
                         meta.players, meta.bots, meta.policies, meta.tunables)
    assert names == ("policy:keen(greed=10,limit=3)", "rollout:base(caution=2)@2x1x2")
    agent = make_agent(names[0], 1)
    assert agent.policy == Tuned("keen", (("greed", 10), ("limit", 3)))
    assert make_agent(names[1], 1).policy == Tuned("base", (("caution", 2),))
    for text, message in (
            ("policy(greed=21)", "tunable 'greed' of policy 'base' takes 0..20, not 21"),
            ("policy:keen(nope=1)", "policy 'keen' has no tunable 'nope' (its tunables: limit, greed, caution)"),
            ("policy(greed)", "'policy(greed)': tunables are set as NAME=NUMBER"),
            ("random(greed=1)", "'random(greed=1)': tunables are set as NAME=NUMBER"),
            ("policy(greed=1,greed=2)", "a tunable is set twice")):
        with pytest.raises(ValueError) as err:
            parse_agents(text, meta.players, meta.bots, meta.policies, meta.tunables)
        assert message in str(err.value)


def test_the_seats_of_a_table_take_a_tuned_bot_whole(weighed):
    from rulespec.runtime.playtest.table import parse_seats
    meta = program(weighed, "generated").meta
    assert parse_seats("human,policy:keen(greed=10,limit=3)", meta.players, meta, "--seats") == (
        "human", "policy:keen(greed=10,limit=3)")
    with pytest.raises(ValueError, match="tunable 'greed' of policy 'keen' takes 0..20, not 99"):
        parse_seats("human, policy:keen(limit=3,greed=99)", meta.players, meta, "--seats")


def test_the_highlighting_knows_the_new_words():
    from rulespec.compiler.tools.textmate import keywords
    assert {"tunable", "weight", "never"} <= set(keywords())


def test_tunables_keep_their_layout_and_are_in_the_reference(weighed):
    assert format_text(WEIGHED) == WEIGHED
    messy = WEIGHED.replace("tunable limit = 2 in 0..9", "tunable   limit=2 in 0 .. 9").replace(
        "weight greed = 4 in 0..20", "weight  greed =4 in 0..20")
    assert format_text(messy) == WEIGHED
    from rulespec.compiler.tools.reference import build_reference
    from support import loaded
    entries = {e.name: e for e in build_reference(loaded(weighed).model, weighed).entries()}
    assert entries["limit"].signature == 'tunable limit = 2 in 0..9 "Go while the score is below this"'
    assert "rulespec tune GAME --policy base" in entries["greed"].details[0]

