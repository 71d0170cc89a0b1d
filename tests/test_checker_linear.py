"""The checker stays linear on hostile text (issue 44, item 1): long runs of word characters
before a syntax error, deep nesting, thousands of unknown names among thousands of declared
ones. Measured by a generous timeout around the real command and by counting the candidates
the hints compare, never by timing a fast run."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from rulespec.compiler.frontend import errors
from rulespec.compiler.frontend.errors import MAX_SUGGESTED, SpecError, closest, suggestion_budget
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.frontend.parse import parse_text
from support import MINI, REPO

# Seconds for one `rulespec check` of a line of up to 200,000 characters: linear work takes well
# under one; the quadratic keyword hint took minutes at that size (16 s at 40,000).
GENEROUS = 60

RUNS = {"word": "y", "name with digits": "y1", "digits": "7", "spaced words": "y "}
ENDINGS = ['""', ' ""', "-", "@", " (", "{", "", " yy", "\u00e9"]
PLACES = {"value of a var": "var v: int = {}\n", "top level": "{}\n",
          "inside an event": 'card zz "Z" (points 1, colour warm) {{\n    event {{ {} }}\n}}\n'}
NESTINGS = {"none": ("", ""), "parentheses": ("(", ")"), "ifs": ("if true { ", "}")}


def _check(folder) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulespec", "check", str(folder)], cwd=REPO,
                          capture_output=True, text=True, timeout=GENEROUS,
                          env={"PATH": "/usr/bin:/bin", "RULESPEC_NATIVE": "0",
                               "RULESPEC_CACHE": str(folder.parent / "cache")})


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(run="word", length=200_000, ending='""', place="value of a var", nesting="none", depth=0)
@given(run=st.sampled_from(sorted(RUNS)), length=st.integers(20_000, 200_000),
       ending=st.sampled_from(ENDINGS), place=st.sampled_from(sorted(PLACES)),
       nesting=st.sampled_from(sorted(NESTINGS)), depth=st.integers(0, 3_000))
def test_a_long_line_or_deep_nesting_is_checked_in_linear_time(tmp_path_factory, run, length,
                                                                ending, place, nesting, depth):
    folder = tmp_path_factory.mktemp("long") / "mini"
    shutil.copytree(MINI, folder)
    opening, closing = NESTINGS[nesting]
    body = opening * depth + RUNS[run] * (length // len(RUNS[run])) + ending + closing * depth
    with open(folder / "mini.rules", "a", encoding="utf-8") as rules:
        rules.write(PLACES[place].format(body))
    result = _check(folder)  # subprocess.TimeoutExpired fails the test: the run did not end
    assert result.returncode == 1, result.stderr[-500:]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert result.stderr.startswith(str(folder / "mini.rules") + ":")


@pytest.mark.parametrize("before, hint", [("", True), ("e" * 50_000, False)])
def test_the_word_before_an_error_gets_its_hint_unless_it_is_longer_than_any_keyword(before, hint):
    with pytest.raises(SpecError) as caught:
        parse_text(f'test "t" {{\n    {before}expcet not x\n}}\n', "t.rules")
    message = caught.value.diagnostics[0].message
    assert ("unexpected 'not' after 'expcet'; did you mean 'expect'?" == message) is hint
    assert ("did you mean" in message) is hint


def test_no_hint_is_sought_for_a_word_longer_than_any_name():
    assert closest("evnt", ["event", "effect"]) == "event"
    assert closest("e" * (MAX_SUGGESTED + 1), ["e" * MAX_SUGGESTED]) is None


def test_a_check_compares_a_bounded_number_of_candidates_for_all_its_hints(tmp_path, monkeypatch):
    """1,500 unknown names among 1,500 cards: every hint compared against every card would be
    2,250,000 comparisons; the budget keeps the whole check at SUGGESTION_BUDGET."""
    compared = []
    real = errors.difflib.get_close_matches
    monkeypatch.setattr(errors.difflib, "get_close_matches",
                        lambda word, pool, **kw: compared.append(len(pool)) or real(word, pool, **kw))
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    count = 1_500
    with open(folder / "mini.rules", "a", encoding="utf-8") as rules:
        rules.writelines(f'card k{i} "K" (points 1, colour warm)\n' for i in range(count))
        rules.writelines(f"define dd{i}(p: player) -> bool = k{i} == k{i}x\n" for i in range(count))
    with pytest.raises(SpecError) as caught:
        load_spec(folder)
    assert len(caught.value.diagnostics) >= count
    assert "did you mean" in caught.value.diagnostics[0].message  # the first hints are kept
    assert sum(compared) <= errors.SUGGESTION_BUDGET


def test_the_budget_is_per_check_and_unbounded_outside_one():
    with suggestion_budget(3):
        assert closest("evnt", ["event", "effect"]) == "event"
        assert closest("evnt", ["event", "effect"]) is None  # 2 + 2 compared: past 3
    with suggestion_budget(3):
        assert closest("evnt", ["event", "effect"]) == "event"
    assert all(closest("evnt", ["event", "effect"]) == "event" for _ in range(5))
