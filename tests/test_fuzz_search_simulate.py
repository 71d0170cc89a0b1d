"""The fuzzer finds what differs, search bots stay fair, simulations are paired and reproducible."""

from __future__ import annotations

import markupsafe
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.bots.agents import RandomAgent
from rulespec.runtime.analysis.fuzz import FuzzReport, coverage_table, fuzz_game
from rulespec.runtime.game import Game
from rulespec.runtime.bots.search import GreedyAgent, determinize, hidden_slots
from rulespec.runtime.state import Stream
from rulespec.runtime.analysis.simulate import LocalExecutor, compare, simulate, simulate_until, summarise

MINI = Path(__file__).resolve().parent / "specs" / "mini"
BOT = 'bot points "Points ahead" = total(you) - total(opponent(you))\n'


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("spec") / "mini"
    shutil.copytree(MINI, folder)
    (folder / "bot.rules").write_text(BOT)
    return folder


def program(folder: Path, variants=()) -> Interpreter:
    return Interpreter(load_spec(folder, variants).model)


def test_fuzz_of_a_sound_spec_finds_nothing_and_covers_the_events(mini: Path) -> None:
    a, b = program(mini), program(mini)
    report = FuzzReport()
    for seed in range(60):
        fuzz_game(a, b, seed, {}, 5000, report)
    assert report.games == 60 and report.counts() == dict.fromkeys(report.counts(), 0)
    table = coverage_table(a.meta, report)
    assert table["one"]["event"] > 0 and table["three"]["event"] == 0
    assert table["three"]["played"] > 0  # the `played` signal traces the card


def test_fuzz_reports_a_disagreement_with_a_reproducing_record(mini: Path) -> None:
    report = FuzzReport()
    for seed in range(30):
        fuzz_game(program(mini), program(mini, ("quick",)), seed, {}, 5000, report)
    assert report.counts()["disagreements"] > 0
    problem = report.problems[0]
    assert problem.record["seed"] == problem.seed and len(problem.record["choices"]) == problem.decision


def test_determinisation_redeals_only_what_the_player_cannot_see(mini: Path) -> None:
    game = Game(program(mini), seed=4)
    state, me = game.state, game.state.pending["player"]
    world = determinize(game, state, me, Stream(99))
    hidden = set(hidden_slots(game, state, me))
    for slot, cards in enumerate(state.zones):
        if slot in hidden:
            assert len(world.zones[slot]) == len(cards)
        else:
            assert world.zones[slot] == cards
    pool = sorted(c for s in hidden for c in state.zones[s])
    assert sorted(c for s in hidden for c in world.zones[s]) == pool
    assert all(world.location[c] == s for s, cards in enumerate(world.zones) for c in cards)


def test_greedy_beats_random_on_fixed_seeds(mini: Path) -> None:
    prog, wins = program(mini), 0
    for seed in range(60):
        game = Game(prog, seed=seed)
        me = prog.meta.players[seed % 2]
        bots = {p: GreedyAgent(seed, "points") if p == me else RandomAgent(seed) for p in prog.meta.players}
        while not game.over:
            d = game.decision
            bot = bots[d.player]
            game.choose(bot.choose(game, d) if isinstance(bot, GreedyAgent) else bot.choose(None, d))
        wins += game.winner == me
    assert wins > 33  # well above even: the evaluation steers play


@dataclass(frozen=True)
class Factory:
    folder: Path
    variants: tuple[str, ...] = ()

    def load(self):
        return program(self.folder, self.variants)


def test_simulation_is_paired_and_independent_of_worker_count(mini: Path) -> None:
    sets = [Factory(mini, ("quick",)), Factory(mini)]
    one = simulate(sets, 80, 5, ("random", "random"), {}, LocalExecutor(1), batch_size=7)
    two = simulate(sets, 80, 5, ("random", "random"), {}, LocalExecutor(2), batch_size=30)
    assert one == two
    assert [g.seed for g in one[0]] == [g.seed for g in one[1]] == list(range(5, 85))
    summary = summarise(["red", "blue"], ("quick",), one[0])
    assert summary["games"] == 80 and sum(summary["end_reasons"].values()) == 80
    assert 0 <= summary["win_ci95"]["red"][0] <= summary["win_rate"]["red"] <= summary["win_ci95"]["red"][1]
    result = compare(["red", "blue"], ("quick",), one[0], one[1])
    assert result["sentence"].startswith("quick ") and "over 80 paired games" in result["sentence"]


def test_precision_stops_when_the_interval_is_narrow_enough(mini: Path) -> None:
    sets = [Factory(mini, ("quick",)), Factory(mini)]
    wide, why = simulate_until(sets, 1000, 5, ("random", "random"), {}, LocalExecutor(1),
                               ["red", "blue"], precision=0.5)
    assert why == "precision" and len(wide[0]) == len(wide[1]) == 200  # one round is enough
    capped, why = simulate_until(sets, 300, 5, ("random", "random"), {}, LocalExecutor(1),
                                 ["red", "blue"], precision=0.001)
    assert why == "games" and len(capped[0]) == 300
    assert capped[0][:200] == wide[0]  # rounds continue the same seeds


def test_the_comparison_leads_with_the_side_that_gains_and_lists_cards(mini: Path, tmp_path) -> None:
    from rulespec.runtime.analysis.report import write_report
    sets = [Factory(mini, ("quick",)), Factory(mini)]
    results = simulate(sets, 120, 1, ("random", "random"), {}, LocalExecutor(1))
    comparison = compare(["red", "blue"], ("quick",), results[0], results[1])
    gains = [p for p, row in comparison["by_player"].items() if row["difference"] > 0]
    assert comparison["player"] == (gains[0] if gains else comparison["player"])
    summary = summarise(["red", "blue"], ("quick",), results[0])
    assert {row["use"] for row in summary["cards"]} >= {"event", "played"}
    assert all(0 < row["games"] <= 120 for row in summary["cards"])
    out = {"game": "mini", "games": 120, "seed": 1, "agents": ["random", "random"],
           "variants": [summary, summarise(["red", "blue"], (), results[1])],
           "comparison": comparison}
    page = write_report(out, tmp_path / "report").read_text()
    assert str(markupsafe.escape(comparison["sentence"])) in page and "difference.png" in page
    assert (tmp_path / "report" / "lengths.png").exists()


def test_a_card_played_without_an_event_or_a_signal_is_seen_in_play(tmp_path: Path) -> None:
    """peek's cards have no event and no signal: picking one in a decision is playing it."""
    from support import write_peek
    a = program(write_peek(tmp_path / "peek"))
    report = FuzzReport()
    for seed in range(10):
        fuzz_game(a, None, seed, {}, 5000, report)
    table = coverage_table(a.meta, report)
    assert all(row["chosen"] > 0 for row in table.values()), table
    assert not [card for card, row in table.items() if not any(row.values())]  # fuzz's "never seen in play"
