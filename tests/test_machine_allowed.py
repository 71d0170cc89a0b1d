"""The native allowed checks (compiler/backends/machine/allowed.py, issue 41 stage 3): every
`allowed_<action>` the Cython dialect compiles gives, over a packed position, what the generated
package's gives over the State, for every argument tuple of the action's declared parameters (none
among them); where the Python check fails, the native one fails too. Positions come from seeded
random play, and from cards moved and blanked at random (the cards' `allow ... despite` and
abilities in force), and the effects in play (forbids inside lasting effects: test_machine_effects.py)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.compiler.backends.machine.defines import DefineCompiler, argument_values
from rulespec.compiler.backends.machine.layout import machine_layout
from rulespec.compiler.backends.machine.pack import PackError, pack
from rulespec.compiler.frontend.checks.types import TypeInfer
from rulespec.runtime.state import move_card

from support import MINI, REPO, TESTS, loaded
from test_machine_defines import agree as defines_agree, native_module, positions, rules_of

# Every spec; CHECKED: those with an allowed check that compiles (Risk and Terraforming Mars have
# no constraint; Twilight Struggle's forbid inside lasting effects: test_machine_effects.py).
FOLDERS = [MINI] + sorted(p for p in (REPO / "spec").iterdir() if p.is_dir()) + \
    sorted(p for p in (TESTS / "specs").iterdir() if any(p.glob("*.rules")))
CHECKED = [MINI, REPO / "spec" / "heldenhain", REPO / "spec" / "the_fox_in_the_forest",
           TESTS / "specs" / "injection"]  # and per_player, planted with defines asking (below)
CALLS = 400  # argument tuples of one check at one position, at most
# Where the native dialect differs from Python today, not from this module: `c in deck(owner(c))`
# with c none is false in Python (the card is tested first), while the native membership test
# (machine/dialect.py in_zone) works the zone out first and owner(none) fails.
KNOWN = {("per_player", "take"): lambda args: args[1] is None}
# Defines asking whether an action is allowed: they compile once its check does.
ASKING = """
define takes_any(p: player) -> bool = any(c in deck(p) where allowed take(p, c))
define may_take_two(p: player) -> bool = allowed take(p, two(p))
define may_take(p: player, c: card) -> bool = score(p) < 3 and allowed take(p, c)
"""


@pytest.fixture(scope="module")
def asking(tmp_path_factory) -> Path:
    """per_player (a card's `allow ... despite`, abilities' forbids) with defines asking about it."""
    folder = tmp_path_factory.mktemp("asking")
    spec = (TESTS / "specs" / "per_player" / "per_player.rules").read_text(encoding="utf-8")
    (folder / "per_player.rules").write_text(spec + ASKING, encoding="utf-8")
    return folder


def action_tuples(model, action: str, cap: int = CALLS) -> list[tuple]:
    """Every argument tuple of an action's declared parameters, none among a player's, an
    entity's or an enum value's (a rule may ask about a card it has not found), spread evenly
    when there are more than `cap`."""
    types = TypeInfer(model).param_types(model.actions[action].params)
    domains = [argument_values(model, replace(types[p.name], optional=True))
               for p in model.actions[action].params]
    every = list(itertools.product(*domains))
    return every[::max(1, -(-len(every) // cap))]


def compare(folder: Path, states, module, defines) -> int:
    """Every compiled check at each state against the generated package's; the calls made."""
    model, rules, calls = loaded(folder).model, rules_of(folder), 0
    for state in states:
        position = module.Position(pack(defines.layout, state), state.params, state.effects)
        for made in defines.allowed:
            python = getattr(rules, made.function)
            known = KNOWN.get((model.game, made.action), lambda args: False)
            for args in action_tuples(model, made.action):
                if known(args):
                    continue
                calls += 1
                try:
                    expected = python(state, *args)
                except Exception:  # noqa: BLE001 - a RuleError, or Python's own: then both fail
                    with pytest.raises(Exception):
                        module.allowed(made.action, position, *args)
                    continue
                got = module.allowed(made.action, position, *args)
                assert got is expected, f"{model.game}: allowed {made.action}{args} gives {got!r}, Python {expected!r}"
    return calls


def agree(folder: Path, seeds, count: int) -> int:
    module, defines = native_module(folder)
    return sum(compare(folder, positions(folder, seed, count), module, defines) for seed in seeds)


@pytest.mark.parametrize("folder", CHECKED, ids=lambda p: p.name)
def test_native_allowed_checks_agree_with_the_generated_package(folder):
    module, defines = native_module(folder)
    assert defines.allowed, f"{folder.name}: no allowed check compiles natively"
    assert agree(folder, range(2), 3) > 0


def stirred(folder: Path, state, seed: int, moves: int, layout):
    """The state with `moves` random cards moved to random zone slots (where the layout has room)
    and some cards blanked: where the cards' abilities and allowances are in force."""
    import random

    picker, cards = random.Random(seed), list(layout.cards)
    slots = len(state.zones)
    for _ in range(moves):
        card, slot = picker.choice(cards), picker.randrange(slots)
        before = state.copy()
        move_card(state, card, slot)
        try:
            pack(layout, state)
        except PackError:  # no room for it there in the machine layout: never moved by the rules
            state = before
    state.blanked = tuple(sorted(picker.sample(cards, k=min(len(cards), picker.randrange(3)))))
    return state


def test_defines_asking_about_a_compiled_check_compile_and_agree(asking):
    module, defines = native_module(asking)
    assert {"takes_any", "may_take_two", "may_take"} <= {d.name for d in defines.compiled}
    assert [a.action for a in defines.allowed] == ["take"]
    assert agree(asking, range(2), 3) > 0
    assert defines_agree(asking, range(2), 3) > 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(folder=st.sampled_from([MINI, REPO / "spec" / "heldenhain", "asking"]), seed=st.integers(0, 2**32),
       moves=st.integers(1, 40))
def test_native_allowed_checks_agree_where_cards_are_stirred(asking, folder, seed, moves):
    folder = asking if folder == "asking" else folder
    module, defines = native_module(folder)
    state = positions(folder, seed % 1000, 2)[-1]
    compare(folder, [stirred(folder, state.copy(), seed, moves, defines.layout)], module, defines)


@pytest.mark.slow
@pytest.mark.parametrize("folder", CHECKED + ["asking"], ids=lambda p: getattr(p, "name", p))
def test_native_allowed_checks_agree_over_many_positions(asking, folder):
    folder = asking if folder == "asking" else folder
    module, defines = native_module(folder)
    agree(folder, range(10), 20)
    for seed in range(40):
        state = positions(folder, seed, 2)[-1]
        compare(folder, [stirred(folder, state, seed, 60, defines.layout)], module, defines)


def test_a_check_with_a_forbid_inside_a_lasting_effect_compiles():
    folder = TESTS / "specs" / "injection"
    model = loaded(folder).model
    made = DefineCompiler(model, machine_layout(model)).all()
    assert not made.refused_allowed
    assert [g.name for g in next(a for a in made.allowed if a.action == "mark").effects] == ["doubled"]


REFUSED_CHECK = """
constraint by_label "Not by label" {
    forbid play(p, c) when p.label == "Red"
}
define may_play(p: player, c: card) -> bool = allowed play(p, c)
"""


def test_a_define_asking_about_a_refused_check_is_refused_naming_why(tmp_path):
    (tmp_path / "mini.rules").write_text((MINI / "mini.rules").read_text(encoding="utf-8") + REFUSED_CHECK,
                                         encoding="utf-8")
    model = loaded(tmp_path).model
    made = DefineCompiler(model, machine_layout(model)).all()
    checks = {r.name: r for r in made.refused_allowed}
    callers = [r for r in made.refused if "asks whether action" in r.reason]
    assert callers, "no define of the game asks about a refused check"
    for caller in callers:
        action = caller.reason.split("`")[1]
        assert caller.cause == checks[action].root and checks[action].root in caller.reason


def test_every_spec_reports_its_checks():
    for folder in FOLDERS:
        model = loaded(folder).model
        compiler = DefineCompiler(model, machine_layout(model))
        report = compiler.all().coverage()["allowed"]
        assert report["checks"] == len(compiler.gen.allowed)
        assert len(report["compiled"]) + len(report["refused"]) == report["checks"]
