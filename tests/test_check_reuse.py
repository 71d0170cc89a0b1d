"""Checks of a variant set reuse the base game's clean verdicts (compiler/frontend/checks/reuse.py), and
still report, at the base game's line, what a variant breaks in a declaration it leaves alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.compiler.frontend.checks import reuse
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec

MINI = Path(__file__).resolve().parent / "specs" / "mini"


@pytest.fixture()
def game(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))  # no "checked before" skips
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    return folder


def variant(folder: Path, name: str, text: str) -> None:
    (folder / "variants" / f"{name}.rules").write_text(f'variant {name} "{name}"\n{text}')


def headlines(folder: Path, variants: tuple[str, ...]) -> list[str]:
    try:
        load_spec(folder, variants)
    except SpecError as err:
        return [d.headline() for d in err.diagnostics]
    return []


def after_base_and_fresh(folder: Path, variants: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The variant set's problems checked right after the base game (verdicts to reuse), and
    in a process that never checked anything (nothing to reuse)."""
    load_spec(folder)
    reused_before = reuse.VERDICTS.reused
    after_base = headlines(folder, variants)
    assert reuse.VERDICTS.reused > reused_before  # the unrelated declarations were not visited again
    reuse.VERDICTS.forget()
    fresh = headlines(folder, variants)
    return after_base, fresh


def test_a_changed_signature_is_reported_in_the_base_caller(game: Path) -> None:
    variant(game, "two_draws", "replace procedure draw(p: player, n: int) {\n    move top(deck) to hand(p)\n}\n")
    after_base, fresh = after_base_and_fresh(game, ("two_draws",))
    assert after_base == fresh and after_base
    assert all("mini/mini.rules:" in h and "'draw'" in h for h in after_base), after_base


def test_a_changed_result_type_is_reported_where_the_base_uses_it(game: Path) -> None:
    variant(game, "yes_no", "replace define total(p: player) -> bool = score(p) > 0\n")
    after_base, fresh = after_base_and_fresh(game, ("yes_no",))
    assert after_base == fresh
    assert any("mini/mini.rules:" in h for h in after_base), after_base  # the phase: total(p) >= goal


def test_a_new_global_is_seen_by_a_base_local_of_that_name(game: Path) -> None:
    variant(game, "rolled", 'track r "Rolled" 0..6 start 0\n')  # the phase binds `roll r`
    after_base, fresh = after_base_and_fresh(game, ("rolled",))
    assert after_base == fresh
    assert [h for h in after_base if "mini/mini.rules:" in h and "'r' is already a track" in h], after_base


def test_only_what_the_variant_touches_is_checked_again(game: Path, monkeypatch) -> None:
    load_spec(game)
    visited: list[str] = []
    each = reuse.VERDICTS.each

    def recording(check, model, decls, visit, problems, alone=False):
        def seen(decl):
            if check == "types":
                visited.append(getattr(getattr(decl, "name", None), "name", type(decl).__name__))
            visit(decl)
        each(check, model, decls, seen, problems, alone)
    monkeypatch.setattr(reuse.VERDICTS, "each", recording)
    load_spec(game, ("quick",))  # replaces param goal, adds card five and a test
    assert "turn_phase" in visited  # it reads goal
    assert "five" in visited and "goal" in visited
    assert "draw" not in visited and "total" not in visited and "worth" not in visited


def _decisions(model) -> list[tuple]:
    from rulespec.compiler.frontend.checks.policies import decision_sites
    return [(s.location, s.prompt, s.element, s.action, s.options) for s in decision_sites(model)]


def test_the_decisions_of_a_variant_reuse_the_base_games(game: Path) -> None:
    _decisions(load_spec(game, check=False).model)
    model = load_spec(game, ("quick",), check=False, base_tests=False).model
    reused_before = reuse.VERDICTS.reused
    after_base = _decisions(model)
    assert reuse.VERDICTS.reused > reused_before  # the declarations quick leaves alone: not walked again
    reuse.VERDICTS.forget()
    assert after_base == _decisions(model)


def test_the_decisions_found_after_the_base_are_the_ones_found_afresh(monkeypatch, tmp_path: Path) -> None:
    """For every variant of a real game, whatever variants it holds: reuse never changes what is found."""
    from rulespec.compiler.frontend.loader import available_variants
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    folder = Path(__file__).resolve().parent.parent / "spec" / "twilight_struggle"
    _decisions(load_spec(folder, check=False).model)
    for name in available_variants(folder):
        model = load_spec(folder, (name,), check=False, base_tests=False).model
        after_base = _decisions(model)
        reuse.VERDICTS.forget()
        assert after_base == _decisions(model), name
        _decisions(load_spec(folder, check=False).model)  # the base's again, for the next one
