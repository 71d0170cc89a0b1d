"""Interval and paired-difference statistics against known values."""

from __future__ import annotations

import math

import pytest

from rulespec.runtime.analysis.stats import describe_change, lopsided, paired_difference, two_proportions, wilson


def test_wilson_matches_the_textbook_values() -> None:
    low, high = wilson(40, 100)
    assert low == pytest.approx(0.3094, abs=1e-4) and high == pytest.approx(0.4980, abs=1e-4)
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_paired_difference_of_identical_samples_is_exactly_zero() -> None:
    diff = paired_difference([1, 0, 1], [1, 0, 1])
    assert diff.difference == 0 and diff.ci95 == (0, 0) and diff.p_value == 1.0


def test_paired_difference_detects_a_clear_shift() -> None:
    after = [1.0] * 60 + [0.0] * 40
    before = [1.0] * 40 + [0.0] * 60
    diff = paired_difference(after, before)
    assert diff.difference == pytest.approx(0.2)
    assert diff.ci95[0] > 0 and diff.p_value < 0.001 and diff.discordant == 20


def test_the_sentence_states_direction_size_interval_and_sample() -> None:
    diff = paired_difference([1.0] * 60 + [0.0] * 40, [1.0] * 40 + [0.0] * 60)
    text = describe_change("usa", 0.4, 0.6, diff, "chinese_civil_war", 100)
    assert text.startswith("chinese_civil_war raises usa's win rate from 40.0% to 60.0% (+20.0 points, 95% CI +")
    assert text.endswith(", significant) over 100 paired games")
    same = describe_change("usa", 0.5, 0.5, paired_difference([1.0, 0.0], [1.0, 0.0]), "v", 2)
    assert same.startswith("v leaves usa's win rate at 50.0% (+0.00 points")


def test_paired_samples_must_match() -> None:
    with pytest.raises(ValueError):
        paired_difference([1.0], [])


def test_pairs_to_settle_follows_the_spread_and_the_size() -> None:
    diff = paired_difference([1.0] * 55 + [0.0] * 45, [1.0] * 50 + [0.0] * 50)
    needed = diff.pairs_to_settle()
    assert needed == math.ceil(((1.959963984540054 + 0.8416212335729143) * diff.sd / 0.05) ** 2)
    assert diff.pairs_to_settle(0.10) < needed  # a larger effect needs fewer games
    assert paired_difference([1.0, 0.0], [1.0, 0.0]).pairs_to_settle() is None


def test_a_not_significant_sentence_says_how_many_games_would_settle_it() -> None:
    diff = paired_difference([1.0] * 52 + [0.0] * 48, [1.0] * 50 + [0.0] * 50)
    text = describe_change("usa", 0.5, 0.52, diff, "v", 100)
    assert "not significant" in text and "paired games would settle a change of this size" in text


def test_two_proportions_and_lopsided_bots() -> None:
    difference, (lo, hi) = two_proportions(60, 100, 40, 100)
    assert difference == pytest.approx(0.2) and 0.05 < lo < 0.2 < hi < 0.35
    assert lopsided({"ussr": 0.625, "usa": 0.375}).startswith("with these bots the base game is lopsided: ussr wins 62.5%")
    assert lopsided({"ussr": 0.55, "usa": 0.45}) is None
