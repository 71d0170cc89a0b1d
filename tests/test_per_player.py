"""Cards once per player (`kind ...: card(...) per player`, name(p), owner(c)) and a card's
`while in ZONE { ... }` abilities: both back ends agree on tests/specs/per_player, and the
generated code tests where an instance lies instead of walking the active effects."""

from __future__ import annotations

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.frontend.loader import load_spec
from support import TESTS

SPEC = TESTS / "specs" / "per_player"


def test_designer_tests_pass_on_both_back_ends():
    result = CliRunner().invoke(main, ["test", str(SPEC)])
    assert result.exit_code == 0, result.output
    assert "6 passed, 0 failed (3 on generated, 3 on interpreted)" in result.output


def test_instances_are_laid_out_player_by_player():
    model = load_spec(SPEC).model
    ids = [e.name.name for e in model.entities]
    assert ids == ["one(red)", "two(red)", "lamp(red)", "key(red)",
                   "one(blue)", "two(blue)", "lamp(blue)", "key(blue)"]
    assert model.entity_owner == [0, 0, 0, 0, 1, 1, 1, 1]
    assert model.instances["lamp"] == (2, 6)


def test_an_ability_holds_in_its_owners_zone_only():
    model = load_spec(SPEC).model
    table = model.zones["table"].slot
    assert model.abilities == [("lamp__while0", 2, (table,)), ("key__while0", 3, (table,)),
                               ("lamp__while0", 6, (table + 1,)), ("key__while0", 7, (table + 1,))]
    assert [(card, slots) for card, slots, _, _ in model.allows[("take", "no_taking")]] == [
        (3, (table,)), (7, (table + 1,))]


def test_generated_code_tests_the_instance_location(tmp_path):
    out = tmp_path / "pkg"
    result = CliRunner().invoke(main, ["compile", str(SPEC), "-o", str(out)])
    assert result.exit_code == 0, result.output
    procedures = (out / "procedures.py").read_text()
    # the instance's location, and (for rulespec worth) that it is not blanked
    assert "state.location[E_lamp__red] == 3 and E_lamp__red not in state.blanked" in procedures
    assert "if x0 == 0:" in procedures  # owner(this) folded to the instance's player
    rules = (out / "rules.py").read_text()
    assert "value += A_bonus[E_lamp__blue]" in rules
    assert ("state.location[E_key__red] == 3\n            and E_key__red not in state.blanked\n"
            "            and x0 == 0") in rules  # allow ... despite


def test_fmt_keeps_a_short_ability_on_one_line_and_breaks_a_longer_one():
    from rulespec.compiler.frontend.fmt import format_text
    text = ('token lamp "Lamp" (bonus 2) {\n'
            '    while in table {\n        modify worth(p) by this.bonus when p == owner(this)\n    }\n'
            '    while in table {\n        on scored(p, n) { add 1 to score(p) }\n'
            '        on scored(p, n) { add 2 to score(p) }\n    }\n}\n')
    assert format_text(text) == (
        'token lamp "Lamp" (bonus 2) {\n'
        '    while in table { modify worth(p) by this.bonus when p == owner(this) }\n'
        '    while in table {\n        on scored(p, n) { add 1 to score(p) }\n'
        '        on scored(p, n) { add 2 to score(p) }\n    }\n}\n')
    assert format_text(format_text(text)) == format_text(text)
