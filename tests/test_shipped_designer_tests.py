"""Every shipped game's designer tests pass on the generated package with every variant set it
offers (`rulespec test GAME --all-variants`): a variant that breaks a base test either declares
it (`changes test "..."`) or is a regression. A base test added later that a variant breaks by
design shows up here, not first in a designer's run."""

from __future__ import annotations

import pytest

from rulespec.compiler.tools.testrun import run_tests

from support import REPO

GAMES = sorted(p.name for p in (REPO / "spec").iterdir() if any(p.glob("*.rules")))


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_set_passes_or_declares_what_it_changes(game: str) -> None:
    report = run_tests(REPO / "spec" / game, all_variants=True, chosen=("generated",))
    assert report.passed > 0
    assert [f"{o.case.key} [{'+'.join(o.variants) or 'base'}]: {o.message}" for o in report.failures] == []
    assert report.problems == []
