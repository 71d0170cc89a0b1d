"""The spec's policies natively (compiler/backends/machine/policies.py, templates/policies.pxi.j2):
where a game runs natively, the native `prefer` and `forbidden` give the generated package's
indices at seeded positions (each policy, its tunables' defaults and other values), and whole
native policy-bot games (`policy_games`, no decision crossing back to Python) make the decisions
the Python policy bot makes (runtime/policy.py's PolicyAgent, seeded as agents.seat_agents seeds
it) and end the same. Games whose steps do not compile natively yet are skipped, each saying why,
and join by themselves once they do."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends import native
from rulespec.compiler.backends.machine.engine import native_engine
from rulespec.compiler.backends.machine.build import load_defines
from rulespec.compiler.backends.machine.program import NativeProgram
from rulespec.runtime.analysis.fingerprints import fingerprint
from rulespec.runtime.analysis.fuzz import random_walk
from rulespec.runtime.bots.agents import DEFAULT_MAX_DECISIONS, play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.policy import Tuned, masked

from support import MINI, REPO, loaded, native_program, program

# A policy planted into mini: a weighted run of choice lines, weighted menu lines with `when`,
# `never` lines of both kinds, a tunable, and a rule the native engine refuses (it reads the result).
PLANTED = """
policy planted "Planted" {
    tunable edge = 2 in 0..5 "An edge"
    choosing f: field "Mark a field" {
        prefer f.value weight 2
        avoid marks(opponent(you), f) weight edge
        never f.value > 2
        prefer f.value
    }
    choosing "Pay or lose" {
        prefer pay when score(you) > edge weight 3
        avoid lose weight edge
        never lose when score(you) > 1
    }
    choosing c: card as play {
        prefer if winner == none then c.points else 0
    }
}
"""

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())


def machine(folder: Path):
    """The game's native engine, or a skip saying why there is none (or no policy to play)."""
    if not loaded(folder).model.policies:
        pytest.skip(f"{folder.name} declares no policy")
    return native_program(folder)




def played_policies(meta) -> list:
    """Each policy by name, and the first with tunables at their lowest and highest values."""
    found: list = list(meta.policies)
    for name, tunables in meta.tunables:
        ranged = [t for t in tunables if t.low is not None and t.high is not None]
        if ranged:
            found.append(Tuned(name, tuple((t.name, t.low) for t in ranged)))
            found.append(Tuned(name, tuple((t.name, t.high) for t in ranged)))
            break
    return found


def policies_only(folder: Path):
    """The game's native module as a program answering policies, though its steps may not all
    compile yet (the games are played by the generated package; only prefer and forbidden cross)."""
    why = native.available()
    if why:
        pytest.skip(why)
    if not loaded(folder).model.policies:
        pytest.skip(f"{folder.name} declares no policy")
    module, made = load_defines(loaded(folder).model)
    return NativeProgram(module, made.layout, made.steps.start, program(folder, "generated"))


def same_answers(folder: Path, seed: int, engine=None, limit: int | None = None) -> int:
    """Along a random game of the seed (its first `limit` decisions), at every decision: the native
    prefer and forbidden of each policy equal the generated package's, on the state and on the
    seat's view of it. How many decisions were compared."""
    engine = engine or machine(folder)
    python = program(folder, "generated")
    policies = played_policies(python.meta)
    compared = 0
    for game in random_walk(Game(python, seed=seed), seed):
        state = game.state
        if state.pending is None:
            continue
        view = masked(python.meta, state, state.pending["player"])
        for policy in policies:
            for position in (state, view):
                where = f"{folder.name} seed {seed} at {state.pending['at']} policy {policy}"
                assert engine.prefer(position, policy) == python.prefer(position, policy), where
                assert engine.forbidden(position, policy) == python.forbidden(position, policy), where
        compared += 1
        if compared == limit:
            break
    return compared


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("planted_policy")
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + PLANTED,
                                       encoding="utf-8")
    return folder


def python_policy_game(folder: Path, seed: int, policy: str = "policy"):
    """A seeded game of policy bots on the generated package: the picks' indices and the result."""
    python = program(folder, "generated")
    picks: list[int] = []
    agents = seat_agents((policy,) * len(python.meta.players), python.meta.players, seed)
    for agent in agents.values():
        pick = agent.choose_index
        agent.choose_index = lambda game, pick=pick: picks.append(pick(game)) or picks[-1]
    game = Game(python, seed=seed, params={})
    play_out(game, agents)
    return picks, game.state.result


def seated(meta, seeds, agent: str = "policy") -> list[tuple[int, list[int]]]:
    """Each game's seed and where each seat's policy bot starts its stream (agents.seat_agents)."""
    return [(seed, [bot.stream.rng for bot in seat_agents((agent,) * len(meta.players), meta.players,
                                                          seed).values()]) for seed in seeds]


def same_policy_games(folder: Path, seeds, policy=None, agent: str = "policy") -> None:
    engine = machine(folder)
    games = engine.policy_games(seated(engine.meta, seeds, agent), {}, policy, DEFAULT_MAX_DECISIONS,
                                keep_picks=True)
    for seed, (picks, result, why) in zip(seeds, games):
        assert why is None, f"{folder.name} seed {seed}: {why}"
        expected_picks, expected_result = python_policy_game(folder, seed, agent)
        assert picks == expected_picks, f"{folder.name} seed {seed}: other decisions"
        assert result == expected_result, f"{folder.name} seed {seed}: another result"


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_policy_games_are_the_policy_bot_s_games(folder):
    same_policy_games(folder, (1, 2, 3))


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_policy_bots_on_the_native_engine_play_the_generated_package_s_games(folder):
    engine = machine(folder)
    python = program(folder, "generated")
    for seed in (1, 2):
        assert fingerprint(engine, seed, "policy") == fingerprint(python, seed, "policy"), f"seed {seed}"


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_policy_games_with_tuned_values(folder):
    engine = machine(folder)
    for tuned in played_policies(engine.meta):
        if isinstance(tuned, Tuned):
            values = ",".join(f"{k}={v}" for k, v in tuned.values)
            same_policy_games(folder, (4,), tuned, f"policy:{tuned.name}({values})")


@pytest.mark.slow  # ~3 min over the five games: the fixed seeds above cover each in the default suite
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_policies_on_random_seeds(folder):
    machine(folder)  # a game that does not run natively skips before hypothesis draws

    @settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**40))
    def agree(seed):
        same_answers(folder, seed, limit=20)
        same_policy_games(folder, (seed,))

    agree()


def test_every_game_s_policy_rules_are_compiled_or_refused_with_a_reason():
    for folder in GAMES:
        made = native_engine(loaded(folder).model).policies
        report = made.coverage()
        assert report["rules"] == len(made.rules) + len(made.refused)
        for refused in report["refused"]:
            assert refused["reason"] and refused["location"], refused
        for table in made.sites.values():  # every site answered natively or refused, by a rule made
            for site in table.values():
                assert site is None or 0 <= site[0] < len(made.rules)


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_policies_answer_at_positions_of_every_game(folder):
    """Every game's compiled rules (weighted menus among them), its steps native or not."""
    engine = policies_only(folder)
    assert sum(same_answers(folder, seed, engine, 50) for seed in (1, 2)) > 0


@pytest.mark.slow  # its module is built afresh each run (its spec's path is new): ~20 s
def test_planted_policy_rules_answer_as_the_generated_package(planted):
    engine = policies_only(planted)
    report = engine.module.POLICY_SITES["planted"]
    assert sorted(site is None for site in report.values()) == [False, False, True]
    refused = native_engine(loaded(planted).model).coverage()["policies"]["refused"]
    assert [r["rule"] for r in refused] == ["planted 3"] and "the result" in refused[0]["reason"]
    assert refused[0]["location"].endswith(f"mini.rules:{planted_line(planted, 'winner == none')}")
    assert sum(same_answers(planted, seed, engine) for seed in range(1, 9)) > 0


def planted_line(folder: Path, text: str) -> str:
    """file:line:column of `text` in the planted spec."""
    lines = (folder / "mini.rules").read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, 1) if text in line)
    return f"{number}:{lines[number - 1].index(text) + 1}"


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_policies_along_many_games(folder):
    for seed in range(2, 12):
        same_answers(folder, seed, limit=200)
    same_policy_games(folder, range(5, 45))
