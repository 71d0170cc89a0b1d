"""simulate, balance and worth on the native engine (compiler/backends/machine/jobs.py, program.py
WholeGames, runtime/analysis/simulate.py play_whole): where every seat is the same policy bot,
the native engine plays each game whole, traced, and its summary (winner, reason, length, tracks,
the card uses and events, the cards drawn) is the one the generated package's game gives, also
with worth's overlay (cards blanked or removed); other seats play a decision at a time on the
generated package. Commands load it where it is built, start its build as RULESPEC_NATIVE says,
and say why not in one line."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.backends import native, native_jobs
from rulespec.compiler.backends.machine import jobs
from rulespec.compiler.backends.machine.whole import WholeGames
from rulespec.compiler.cli import main
from rulespec.runtime.analysis import simulate as sim
from rulespec.runtime.analysis.worth import Overlaid

from support import MINI, REPO, loaded, machine_module, native_program, program

FOX = REPO / "spec" / "the_fox_in_the_forest"
TS = REPO / "spec" / "twilight_struggle"
RISK = REPO / "spec" / "risk_balance_of_power"


def whole_games(folder: Path) -> WholeGames:
    return WholeGames(program(folder, "generated"), native_program(folder))  # skips where none


def default_bots(folder: Path) -> tuple[str, ...]:
    meta = program(folder, "generated").meta
    return ("policy",) * len(meta.seated({}))


@pytest.mark.parametrize("folder", [FOX, RISK], ids=["fox", "risk"])
def test_whole_games_natively_summarize_as_the_generated_package(folder: Path) -> None:
    whole, agents = whole_games(folder), default_bots(folder)
    seeds = list(range(1, 41))
    natively = sim.play_whole(whole, seeds, agents, {})
    assert natively is not None and all(g.whole for g in natively)
    expected = [sim.play_game(program(folder, "generated"), seed, agents, {}) for seed in seeds]
    assert natively == expected
    assert any(g.uses for g in expected) and any(g.drawn for g in expected)  # the trace is compared


@pytest.mark.slow
def test_twilight_struggle_summaries_natively() -> None:
    whole, agents = whole_games(TS), default_bots(TS)
    seeds = list(range(1, 31))
    natively = sim.play_whole(whole, seeds, agents, {})
    assert natively == [sim.play_game(program(TS, "generated"), seed, agents, {}) for seed in seeds]


def test_worth_overlay_is_played_natively_too() -> None:
    whole, agents = whole_games(FOX), default_bots(FOX)
    cards = sorted(program(FOX, "generated").meta.card_entities)
    blanked, removed = tuple(cards[:3]), tuple(cards[5:7])
    seeds = list(range(1, 31))
    natively = sim.play_whole(Overlaid(whole, blanked, removed), seeds, agents, {})
    python = Overlaid(program(FOX, "generated"), blanked, removed)
    expected = [sim.play_game(python, seed, agents, {}) for seed in seeds]
    assert natively is not None and natively == expected
    plain = [sim.play_game(program(FOX, "generated"), seed, agents, {}) for seed in seeds]
    assert expected != plain  # the overlay changed the games, so the comparison above means something


def test_other_seats_are_played_a_decision_at_a_time() -> None:
    whole = whole_games(FOX)
    assert sim.play_whole(whole, [1, 2], ("random", "random"), {}) is None
    assert sim.play_whole(whole, [1, 2], ("policy", "random"), {}) is None
    assert sim.play_whole(program(FOX, "generated"), [1, 2], default_bots(FOX), {}) is None
    assert sim.play_whole(whole_games(MINI), [1, 2], ("policy", "policy"), {}) is None  # it has no policy


def test_run_batch_uses_the_native_engine_the_recipe_names(monkeypatch, tmp_path) -> None:
    whole = whole_games(FOX)  # builds the module into the cache first
    monkeypatch.setattr(native_jobs, "_asked", "1")
    said: list[str] = []
    ref = jobs.engine_ref(loaded(FOX), said.append)
    assert ref is not None and not said
    again = pickle.loads(pickle.dumps(ref))  # a worker process gets it pickled
    loaded_again = again.load(program(FOX, "generated"))
    agents = default_bots(FOX)
    assert sim.play_whole(loaded_again, [3, 4], agents, {}) == sim.play_whole(whole, [3, 4], agents, {})


def test_no_native_engine_when_turned_off(monkeypatch) -> None:
    monkeypatch.setattr(native_jobs, "_asked", "0")
    said: list[str] = []
    assert jobs.engine_ref(loaded(FOX), said.append) is None and said == []


def test_a_missing_build_starts_in_the_background_and_says_so(monkeypatch, tmp_path) -> None:
    if native.available():
        pytest.skip(native.available())
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(native_jobs, "_asked", "1")
    started: list[str] = []
    monkeypatch.setattr(jobs, "start_background", lambda spec, made: started.append(made.layout.game))
    said: list[str] = []
    assert jobs.engine_ref(loaded(FOX), said.append) is None
    assert len(started) == 1 and len(said) == 1
    assert "is being built in the background" in said[0] and "generated package" in said[0]


def test_simulate_plays_on_the_native_engine_and_gives_the_same_answer(monkeypatch) -> None:
    machine_module(FOX)  # built into the cache the command reads
    # the generated package's own native build is another matter: none is started here
    monkeypatch.setattr(native_jobs, "prepare", lambda *args: False)
    out = {}
    for mode in ("1", "0"):
        monkeypatch.setattr(native_jobs, "_asked", mode)
        done = CliRunner().invoke(main, ["simulate", "the_fox_in_the_forest", "--games", "60", "--json"])
        assert done.exit_code == 0, done.output
        out[mode] = json.loads(done.stdout)
    assert out["1"]["variants"][0]["machine_games"] == 60
    assert out["0"]["variants"][0]["machine_games"] == 0
    assert same_but_the_engine(out["1"], out["0"])


def same_but_the_engine(natively: dict, in_python: dict) -> bool:
    """Two simulate --json outputs equal but for the counts of games the native engine played."""
    for entry in (natively, in_python):
        for variant in entry["variants"]:
            variant.pop("machine_games")
            variant.pop("machine_search_games")
    return natively == in_python


def test_simulate_plays_a_search_bot_s_seats_on_the_native_engine(monkeypatch) -> None:
    machine_module(FOX)
    monkeypatch.setattr(native_jobs, "prepare", lambda *args: False)
    out = {}
    for mode in ("1", "0"):
        monkeypatch.setattr(native_jobs, "_asked", mode)
        done = CliRunner().invoke(main, ["simulate", "the_fox_in_the_forest", "--games", "8", "--json",
                                         "--agents", "rollout@2x2x2x1,policy"])
        assert done.exit_code == 0, done.output
        out[mode] = json.loads(done.stdout)
    assert out["1"]["variants"][0]["machine_search_games"] == 8
    assert out["0"]["variants"][0]["machine_search_games"] == 0
    assert same_but_the_engine(out["1"], out["0"])


def test_compile_native_engine_only_builds_the_native_engine(tmp_path) -> None:
    machine_module(FOX)  # skips without Cython or a compiler; built once for the suite
    done = CliRunner().invoke(main, ["compile", "--native", "--engine-only", str(FOX), "-o", str(tmp_path / "fox")])
    assert done.exit_code == 0, done.output
    assert "the_fox_in_the_forest: the native engine (state in C) built into" in done.output
    assert "built natively" not in done.output  # not the package's native build
    refused = CliRunner().invoke(main, ["compile", "--engine-only", str(FOX), "-o", str(tmp_path / "again")])
    assert refused.exit_code == 1 and "give --native too" in refused.output


class _Ready:
    """A recipe whose program is made already (simulate.run_batch loads through one)."""

    def __init__(self, program, key: str):
        self.program, self.key = program, key

    def load(self):
        return self.program

    def __repr__(self) -> str:
        return f"_Ready({self.key!r})"


@pytest.mark.parametrize("overlaid", [False, True], ids=["plain", "overlaid"])
def test_searching_bots_play_their_playouts_natively_with_the_same_games(monkeypatch, overlaid: bool) -> None:
    whole = whole_games(FOX)
    calls: list[int] = []
    for name in ("policy_playout", "scored_playout"):  # mcts's, the rollout bot's
        native_playout = getattr(whole.native, name)
        monkeypatch.setattr(whole.native, name,
                            lambda *args, playout=native_playout: calls.append(1) or playout(*args))
    python = program(FOX, "generated")
    if overlaid:
        cards = sorted(python.meta.card_entities)
        whole, python = (Overlaid(whole, (cards[0],), (cards[4],)), Overlaid(python, (cards[0],), (cards[4],)))
    agents, seeds = ("rollout@2x2x2x1", "policy"), [5, 6]
    natively = sim.run_batch(_Ready(whole, f"searching {overlaid}"), seeds, agents, {})
    assert calls  # the rollouts were played by the native engine
    assert natively == [sim.play_game(python, seed, agents, {}) for seed in seeds]
