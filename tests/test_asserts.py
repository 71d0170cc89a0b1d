"""`assert` declarations: rules about the spec's data, checked by `rulespec check`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec

MINI = Path(__file__).resolve().parent / "specs" / "mini"


def test_a_false_assert_is_an_error_at_its_declaration(tmp_path: Path) -> None:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    (folder / "asserts.rules").write_text(
        'assert four "the game has 4 cards" = count(c in card) == 4\n'
        'assert warm "every warm card is worth at least 2" = all(c in card where c.colour != warm or c.points >= 2)\n')
    with pytest.raises(SpecError) as caught:
        load_spec(folder)
    message = caught.value.diagnostics[0].message
    assert message == "every warm card is worth at least 2 (assert 'warm' does not hold)"
    assert caught.value.diagnostics[0].span.line == 2 and len(caught.value.diagnostics) == 1
