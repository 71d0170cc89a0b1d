"""A designer adds a legal variant, a card and a designer test to a game: the machinery takes the
copy as it takes the game itself, and no test of the machinery depends on which variants, cards
or tests spec/ happens to hold.

The variant is the issue's: Europe's region values become presence 4, domination 9, and it
declares the base tests that change with them (`changes test`). The card is a Late War card: an
Early or Mid War one would change what the game's own setup tests count ("35 Early War cards"),
a designer's test for the designer to update, not the machinery's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.frontend.checks import reuse
from rulespec.compiler.frontend.checks.policies import decision_sites
from rulespec.compiler.cli import main
from rulespec.compiler.frontend.loader import available_variants, load_spec
from support import spec_copy

EUROPE_HEAVY = '''\
variant europe_heavy "Europe scores more: presence 4, domination 9"
replace region europe "Europe" (presence 4, domination 9, control 0)
changes test "Europe scoring without control: domination 7 plus battlegrounds",
    "a point toward control the card can finish is worth more than one it cannot",
    "a point where the player has control is worth something only against a break",
    "an African battleground is worth about half before Africa Scoring comes into the deck",
    "breaking the opponent's control costs 2 a point and is worth their control",
    "final scoring: 20 VP during it does not end the game"

test "europe_heavy: domination of Europe is worth 9" {
    expect europe.domination == 9
}
'''
NEW_CARD = '''
card designers_card "Designer's Card" (number 111, ops 2, side usa, war late) {
    event { add 1 to influence(usa, canada) }
}
'''
NEW_TEST = '''\
test "a designer's new test: the new card adds US influence in Canada" {
    resolve designers_card for usa
    expect influence(usa, canada) == 1
}
'''


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    folder = spec_copy("twilight_struggle", variants={"europe_heavy": EUROPE_HEAVY},
                       tests={"designer_added": NEW_TEST}, root=tmp_path_factory.mktemp("designer"))
    with (folder / "cards.rules").open("a", encoding="utf-8") as cards:
        cards.write(NEW_CARD)
    return folder


def test_the_copy_checks_with_the_new_variant_card_and_test(copy: Path, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    base = load_spec(copy)
    assert "designers_card" in base.model.entity_index
    assert "europe_heavy" in available_variants(copy)
    heavy = load_spec(copy, ("europe_heavy",))
    europe = heavy.model.entity_index["europe"]
    assert heavy.model.entity_attrs[europe]["domination"] == 9


def _decisions(model) -> list[tuple]:
    return [(s.location, s.prompt, s.element, s.action, s.options) for s in decision_sites(model)]


def test_the_reuse_property_holds_for_the_designers_variant(copy: Path, monkeypatch, tmp_path) -> None:
    """test_check_reuse's property, on the copy: reuse after the base finds what a fresh walk finds."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    _decisions(load_spec(copy, check=False).model)
    model = load_spec(copy, ("europe_heavy",), check=False, base_tests=False).model
    after_base = _decisions(model)
    reuse.VERDICTS.forget()
    assert after_base == _decisions(model)


@pytest.mark.slow
def test_rulespec_check_and_test_pass_on_the_copy(copy: Path) -> None:
    """What `make test` asks of a game, on the copy: check (with the variant sets its tests turn
    on) and the designer tests on both back ends, the base game's and the new variant's."""
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(copy), "--variant", "europe_heavy"])
    assert checked.exit_code == 0, checked.output
    tested = runner.invoke(main, ["test", str(copy), "--variant", "europe_heavy"])
    assert tested.exit_code == 0, tested.output
    assert "europe_heavy breaks none of the" in tested.output and "6 more changed as it declares" in tested.output
    base = runner.invoke(main, ["test", str(copy)])
    assert base.exit_code == 0, base.output
