"""Variants as overlays: added, replaced and removed declarations; conflicts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import available_variants, load_spec

MINI = Path(__file__).resolve().parent / "specs" / "mini"


@pytest.fixture()
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    return folder


def headlines(err: SpecError) -> list[str]:
    return [d.headline() for d in err.diagnostics]


def write(folder: Path, name: str, text: str) -> None:
    (folder / "variants" / f"{name}.rules").write_text(text)


def test_variant_replaces_adds_and_brings_its_tests(game: Path) -> None:
    base = load_spec(game).model
    quick = load_spec(game, ("quick",)).model
    assert quick.literal(quick.params["goal"].default) == 3
    assert "five" in quick.entity_index and "five" not in base.entity_index
    assert len(quick.tests) == len(base.tests) + 1
    assert quick.spec_hash != base.spec_hash


def test_variant_order_does_not_matter(game: Path) -> None:
    write(game, "extra", 'variant extra "Extra"\ncard six "Six" (points 6, colour cold)\n')
    a = load_spec(game, ("quick", "extra")).model
    b = load_spec(game, ("extra", "quick")).model
    assert a.spec_hash == b.spec_hash and list(a.entity_index) == list(b.entity_index)


def test_two_variants_changing_one_thing_are_reported_at_both_places(game: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load_spec(game, ("quick", "slow"))
    lines = headlines(caught.value)
    assert any(line.startswith(str(game / "variants/quick.rules") + ":2:1:") or
               "quick.rules:2:1: error: variant 'quick'" in line for line in lines)
    assert any("slow.rules:2:1: error: variant 'slow' replaces 'goal', which variant 'quick'"
               " also changes" in line for line in lines)


def test_replacing_what_the_base_lacks_is_an_error(game: Path) -> None:
    write(game, "bad", 'variant bad "Bad"\nreplace param gaol: int = 3 "x"\nremove fourr\n')
    with pytest.raises(SpecError) as caught:
        load_spec(game, ("bad",))
    lines = headlines(caught.value)
    assert any("2:1: error: variant 'bad' replaces 'gaol', which the base game does not have;"
               " did you mean 'goal'?" in line for line in lines)
    assert any("3:1: error: variant 'bad' removes 'fourr', which the base game does not have;"
               " did you mean 'four'?" in line for line in lines)


def test_unknown_variant_lists_the_available_ones(game: Path) -> None:
    assert available_variants(game) == ["quick", "slow"]
    with pytest.raises(SpecError) as caught:
        load_spec(game, ("quik",))
    assert "unknown variant 'quik'; did you mean 'quick'? (available: quick, slow)" in caught.value.diagnostics[0].message


def test_remove_and_replace_event_and_link(game: Path) -> None:
    (game / "six.rules").write_text('card six "Six" (points 6, colour cold) { event { add 6 to score(you) } }\n')
    write(game, "edit", 'variant edit "Edit"\nremove six\n'
          'replace event one { add 5 to score(you) }\nlink a -- c\n')
    assert "six" in load_spec(game).model.entity_index
    model = load_spec(game, ("edit",)).model
    assert "six" not in model.entity_index
    a, c = model.entity_index["a"], model.entity_index["c"]
    assert c in model.adjacency[a] and a in model.adjacency[c]
    event = model.event_of(model.entity_index["one"])
    assert "IntLit(value=5)" in event.dump()


def test_event_declarations_attach_to_their_card(game: Path) -> None:
    (game / "events.rules").write_text("event three { add 3 to score(you) }\n")
    model = load_spec(game).model
    assert model.event_of(model.entity_index["three"]) is not None
    (game / "more.rules").write_text("event thre { add 1 to score(you) }\nevent one { }\n")
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    messages = [d.message for d in caught.value.diagnostics]
    assert "event for unknown card 'thre'; did you mean 'three'?" in messages
    assert any(m.startswith("card 'one' already has an event (at ") for m in messages)


def test_excludes_stops_a_combination_at_the_excludes_line(game: Path) -> None:
    write(game, "first", 'variant first "First game"\n'
          'excludes quick "the rulebook keeps the quick game for later"\n')
    assert "goal" in load_spec(game, ("first",)).model.params
    assert "goal" in load_spec(game, ("first", "slow")).model.params
    with pytest.raises(SpecError) as caught:
        load_spec(game, ("quick", "first"))
    lines = headlines(caught.value)
    assert len(lines) == 1
    assert lines[0].endswith("first.rules:2:10: error: variant 'first' cannot be combined with 'quick':"
                             " the rulebook keeps the quick game for later")


def test_excludes_names_an_existing_other_variant(game: Path) -> None:
    write(game, "first", 'variant first "First"\nexcludes quik, first "no"\n')
    with pytest.raises(SpecError) as caught:
        load_spec(game, ("first",))
    messages = [d.message for d in caught.value.diagnostics]
    assert "variant 'first' excludes unknown variant 'quik'; did you mean 'quick'?" in messages
    assert "variant 'first' excludes itself" in messages


def test_excludes_in_the_base_game_is_an_error(game: Path) -> None:
    (game / "more.rules").write_text('excludes quick "no"\n')
    with pytest.raises(SpecError) as caught:
        load_spec(game)
    assert any("'excludes' belongs in a variant file" in d.message for d in caught.value.diagnostics)


def test_entities_a_variant_leaves_alone_are_the_base_games_own(game: Path) -> None:
    # (one object for one entity across the models of a process: the per-node caches need it)
    write(game, "new_two", 'variant new_two "New two"\nreplace event two { add 2 to score(you) }\n')
    base = {e.name.name: e for e in load_spec(game).model.entities}
    under = {e.name.name: e for e in load_spec(game, ("new_two",)).model.entities}
    assert under["one"] is base["one"] and under["four"] is base["four"]  # events of their own
    assert under["three"] is base["three"] and under["a"] is base["a"]
    assert under["two"] is not base["two"] and under["two"].events != base["two"].events
    assert {e.name.name: e for e in load_spec(game).model.entities}["two"] is base["two"]
