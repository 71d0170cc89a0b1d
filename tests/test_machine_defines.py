"""The native defines (compiler/backends/machine/defines.py, issue 41 stage 2): every define the
Cython dialect compiles gives, over a packed position, what the generated package's define gives
over the State; where the Python define fails, the native one fails too. And every game's
coverage list: what is not compiled, where, and why in words."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends.machine.defines import argument_tuples, native_defines
from rulespec.compiler.backends.machine.layout import machine_layout
from rulespec.compiler.backends.machine.pack import pack
from rulespec.compiler.cli import main

from support import machine_module, random_positions, MINI, REPO, TESTS, loaded, program

GAMES = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir())
TEST_SPECS = sorted(p for p in (TESTS / "specs").iterdir() if any(p.glob("*.rules")))
CALLS = 300  # argument tuples of one define at one position, at most


def positions(folder: Path, seed: int, count: int, every: int = 7, params: dict | None = None):
    return random_positions(folder, seed, count, every, params)


def rules_of(folder: Path):
    """The generated package's rules module: its defines, pure Python (conftest sets RULESPEC_NATIVE=0)."""
    package = sys.modules[type(program(folder, "generated")).__module__]
    return importlib.import_module(package.__name__ + ".rules")


def native_module(folder: Path):
    return machine_module(folder)


def agree(folder: Path, seeds: range, count: int, params: dict | None = None) -> int:
    """Compares every compiled define at `count` positions of each seed's game; the calls made."""
    module, defines = native_module(folder)
    model, rules = loaded(folder).model, rules_of(folder)
    layout, calls = defines.layout, 0
    for seed in seeds:
        for state in positions(folder, seed, count, params=params):
            position = module.Position(pack(layout, state), state.params, state.effects)
            for made in defines.compiled:
                python = getattr(rules, made.function)
                for args in argument_tuples(model, model.defines[made.name], CALLS):
                    calls += 1
                    try:
                        expected = python(state, *args)
                    except Exception as error:  # noqa: BLE001 - a RuleError, or Python's own
                        with pytest.raises(Exception):
                            module.define(made.name, position, *args)
                        continue
                    got = module.define(made.name, position, *args)
                    assert got == expected and type(got) is type(expected), \
                        f"{model.game} seed {seed}: {made.name}{args} gives {got!r}, Python {expected!r}"
    return calls


@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_defines_agree_with_the_generated_package(folder):
    assert agree(folder, range(1), 3) > 0


# Params other than the defaults: the native defines read the run's, given with the position.
PARAMS = {"heldenhain": {"deck_1": "schattenkabinett", "deck_2": "superfreundinnen", "action_points": 5},
          "the_fox_in_the_forest": {"target": 7},
          "terraforming_mars": {"players": 3, "generation_limit": 4}}


@pytest.mark.parametrize("game", sorted(PARAMS))
def test_native_defines_read_the_run_s_params(game):
    assert agree(REPO / "spec" / game, range(2), 3, PARAMS[game]) > 0


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folder=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_native_defines_agree_on_random_seeds(folder, seed):
    agree(folder, range(seed, seed + 1), 2)


@pytest.mark.slow
@pytest.mark.parametrize("folder", GAMES, ids=lambda p: p.name)
def test_native_defines_agree_over_many_positions(folder):
    agree(folder, range(10), 30)


@pytest.mark.parametrize("folder", GAMES + TEST_SPECS, ids=lambda p: p.name)
def test_every_game_has_a_coverage_list(folder):
    model = loaded(folder).model
    defines = native_defines(model, machine_layout(model))
    report = defines.coverage()
    assert report["defines"] == len(model.defines)
    assert len(report["compiled"]) + len(report["refused"]) == len(model.defines)
    for refused in report["refused"]:
        assert refused["text"].startswith(f"{refused['location']}: define `{refused['define']}` ")
        assert refused["location"].count(":") == 2 and refused["reason"]


PLANTED = """
define planted_text(p: player) -> bool =
    score(p) > 0 and p.label == "Red"
define planted_effect(p: player) -> bool = active doubled(p)
define planted_result(p: player) -> bool = winner == p
define planted_caller(p: player) -> bool = planted_result(p) or score(p) > 1
define warm_in_hand(p: player) -> int = count(c in hand(p) where c.colour == warm)
"""


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("planted")
    (folder / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + PLANTED,
                                       encoding="utf-8")
    return folder


def test_a_planted_unsupported_construct_is_named_with_its_location(planted):
    model = loaded(planted).model
    report = {r.name: r for r in native_defines(model, machine_layout(model)).refused}
    lines = (planted / "mini.rules").read_text(encoding="utf-8").splitlines()
    text_line = next(i for i, line in enumerate(lines, 1) if 'p.label == "Red"' in line)
    column = lines[text_line - 1].index('"Red"') + 1  # the text, the construct that stopped it
    assert report["planted_text"].location.endswith(f"mini.rules:{text_line}:{column}")
    assert "text" in report["planted_text"].reason
    assert "the result" in report["planted_result"].reason
    assert "planted_result" in report["planted_caller"].reason
    assert "planted_effect" not in report  # lasting effects: machine/effects.py
    assert "warm_in_hand" not in report and "total" not in report  # a zone walked, an attribute summed


def test_info_native_coverage_lists_what_is_not_compiled(planted):
    runner = CliRunner()
    text = runner.invoke(main, ["info", str(planted), "--native-coverage"])
    assert text.exit_code == 0, text.output
    assert "define `planted_result` reads the result" in text.output
    assert "mini.rules:" in text.output
    as_json = json.loads(runner.invoke(main, ["info", str(planted), "--native-coverage", "--json"]).output)
    assert "warm_in_hand" in as_json["compiled"]
    assert any(r["define"] == "planted_text" for r in as_json["refused"])


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_a_planted_spec_builds_and_agrees(planted):
    assert agree(planted, range(2), 4) > 0


def test_repeat_works_a_define_out_as_define_does():
    folder = REPO / "spec" / "twilight_struggle"
    module, defines = native_module(folder)
    model = loaded(folder).model
    state = positions(folder, 3, 2)[-1]
    position = module.Position(pack(defines.layout, state), state.params, state.effects)
    for made in defines.compiled[:20]:
        for args in argument_tuples(model, model.defines[made.name], 5):
            try:
                once = module.define(made.name, position, *args)
            except Exception:  # noqa: BLE001 - then both fail
                with pytest.raises(Exception):
                    module.repeat(made.name, 3, position, *args)
                continue
            assert module.repeat(made.name, 3, position, *args) == once


def test_a_zone_of_cards_past_position_127_is_walked_as_cards():
    """Terraforming Mars has 158 cards: a zone's positions past 127 are read as unsigned."""
    folder = REPO / "spec" / "terraforming_mars"
    module, defines = native_module(folder)
    model, rules = loaded(folder).model, rules_of(folder)
    state = positions(folder, 0, 1)[0]
    slot = model.zones["played"].slot
    for card in defines.layout.cards[-3:]:
        for other in state.zones:
            if card in other:
                other.remove(card)
        state.zones[slot].append(card)
        state.location[card] = slot
    position = module.Position(pack(defines.layout, state), state.params, state.effects)
    for made in defines.compiled:
        for args in argument_tuples(model, model.defines[made.name], CALLS):
            try:
                expected = getattr(rules, made.function)(state, *args)
            except Exception:  # noqa: BLE001 - then the native one fails too
                with pytest.raises(Exception):
                    module.define(made.name, position, *args)
                continue
            assert module.define(made.name, position, *args) == expected, (made.name, args)
