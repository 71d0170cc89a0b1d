"""Prompts that name their subject: values in braces, filled alike on both back ends, the
entities they name carried with the decision (the table shows them), fmt keeping them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.compiler.frontend.fmt import format_text
from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.playtest.table import Table
from support import BACKENDS, REPO, program

SPEC = """\
game prompts "Prompts"
players north "North", south "South"
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone shown "Shown" public
kind space: space()
space hill "Hill"
kind card: card(points: int)
card alpha "Alpha" (points 1)
card bravo "Bravo" (points 2)
start {
    move all c in card to shown
    move bravo to deck
    for c in card {
        north chooses "Keep {c} ({c.points} points) for {{3}}, {south}?" {
            option keep "Keep" { move c to hand(north) }
            option pass "Pass" { }
        }
    }
    south chooses s in 1..2 "Defend {hill.label} against {north.label}?"
    win none "done"
}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("prompts")
    (out / "prompts.rules").write_text(SPEC, encoding="utf-8")
    return out


def _asked(prog) -> list[tuple[str, list[int]]]:
    game, out = Game(prog, seed=1), []
    while game.decision:
        out.append((game.decision.prompt, game.state.pending.get("about", [])))
        game.choose(game.decision.option_ids[0])
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_prompt_shows_the_values_it_names_and_carries_its_entities(folder, backend):
    prog = program(folder, backend)
    index = {e: i for i, e in enumerate(prog.meta.entity_ids)}
    assert _asked(prog) == [
        ("Keep Alpha (1 points) for {3}, South?", [index["alpha"]]),
        ("Keep Bravo (2 points) for {3}, South?", [index["bravo"]]),
        ("Defend Hill against North?", [index["hill"]]),
    ]


def test_the_table_shows_the_subject_beside_the_prompt(folder):
    table = Table.new(program(folder, "generated"), ("human", "human"), seed=1)
    decision = table.seat_view("north")["decision"]
    assert decision["about"] == [{"id": "alpha", "label": "Alpha", "kind": "card"}]
    assert "alpha" in table.seat_view("north")["cards"]
    table.choose("north", "pass")
    assert table.seat_view("north")["decision"]["about"] == []  # bravo lies in the hidden deck
    table.choose("north", "pass")
    assert table.seat_view("south")["decision"]["about"] == [{"id": "hill", "label": "Hill", "kind": "space"}]


def test_fmt_keeps_a_prompt_as_written():
    assert format_text(SPEC, "prompts.rules") == SPEC


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_seed_games_name_the_card_kept_and_the_territory_defended(backend):
    for game_name, words in (("terraforming_mars", "Keep "), ("risk_balance_of_power", "verteidigen?")):
        game = Game(program(REPO / "spec" / game_name, backend), seed=2)
        bots = seat_agents(("random",) * len(game.players), game.players, 2)
        for _ in range(3000):
            d = game.decision
            if words in d.prompt:
                break
            game.choose(bots[d.player].choose(game, d))
        else:
            pytest.fail(f"no '{words}' decision in {game_name}")
        about = game.state.pending["about"]
        labels = [game.meta.entity_labels[e] for e in about]
        assert len(about) == 1 and labels[0] in d.prompt, d.prompt
