"""The card table of `simulate` in designer words: the spec's labels, one row per card and use,
a minimum sample per row, and Benjamini–Hochberg false-discovery control across the table."""

from __future__ import annotations

import random

from hypothesis import given, strategies as st

from rulespec.runtime.analysis.card_uses import (MIN_CARD_GAMES, CardNames, benjamini_hochberg, card_movers, card_table,
                               movers_text)
from rulespec.runtime.analysis.simulate import GameSummary
from support import TS, loaded


def test_benjamini_hochberg_on_a_worked_example():
    q = benjamini_hochberg([0.01, 0.04, 0.03, 0.20])
    assert [round(v, 4) for v in q] == [0.04, 0.0533, 0.0533, 0.2]


@given(st.lists(st.floats(0, 1), min_size=1, max_size=60))
def test_q_values_are_never_below_the_p_values_and_keep_their_order(p_values):
    q = benjamini_hochberg(p_values)
    assert all(p <= v + 1e-12 <= 1 + 1e-12 for p, v in zip(p_values, q))
    ranked = sorted(range(len(p_values)), key=lambda i: p_values[i])
    assert all(q[a] <= q[b] + 1e-12 for a, b in zip(ranked, ranked[1:]))


def _games(rng: random.Random, count: int, cards: int, win_with: dict[str, float]) -> list[GameSummary]:
    """Games of two players where each card is used by red in about half the games; red wins
    with the card's chance (0.5 unless `win_with` says otherwise)."""
    out = []
    for seed in range(count):
        used = [f"c{i}" for i in range(cards) if rng.random() < 0.5]
        chance = max((win_with.get(c, 0.5) for c in used), default=0.5)
        winner = "red" if rng.random() < chance else "blue"
        uses = {f"played {c} red": 1 for c in used}
        out.append(GameSummary(seed, winner, "done", 10, {}, {}, uses))
    return out


def test_pure_noise_across_a_big_table_is_called_chance():
    rng = random.Random(7)
    after, before = _games(rng, 400, 200, {}), _games(rng, 400, 200, {})
    rows = card_movers(after, before)
    assert len(rows) == 200
    looking = [r for r in rows if r["p_value"] < 0.05]
    assert looking, "some rows of 200 look like movers on their own: the test needs that"
    assert not any(r["clear"] for r in rows)
    text = "\n".join(movers_text(rows))
    assert "may be chance across the table" in text and "clear of chance" not in text


def test_a_real_mover_is_clear_and_said_so():
    rng = random.Random(3)
    after = _games(rng, 400, 40, {"c5": 0.95})
    before = _games(rng, 400, 40, {})
    rows = card_movers(after, before)
    top = rows[0]
    assert (top["card"], top["clear"]) == ("c5", True) and top["q_value"] <= 0.05
    assert "clear of chance across the table" in movers_text(rows)[1]


def test_a_card_used_too_seldom_has_no_row():
    rng = random.Random(1)
    after, before = _games(rng, 2 * MIN_CARD_GAMES - 10, 3, {}), _games(rng, 400, 3, {})
    assert all(r["games"] >= MIN_CARD_GAMES and r["base_games"] >= MIN_CARD_GAMES
               for r in card_movers(after, before))
    few = [GameSummary(0, "red", "done", 1, {}, {}, {"played c0 red": 1})] * (MIN_CARD_GAMES - 1)
    assert card_movers(few, few) == []


def test_rows_carry_the_specs_words_and_one_row_per_card_and_use():
    meta = loaded(TS).model.meta()
    names = CardNames.of(meta)
    labels = dict(meta.use_labels)
    assert labels["headline_played"] == "headlined" and labels["space_attempted"] == "sent to the space race"
    uses = {"event nasser ussr": 1, "event_resolved nasser ussr": 1, "headline_played nasser ussr": 1,
            "coup_made nasser ussr": 1}
    rows = card_table([GameSummary(0, "ussr", "done", 1, {}, {}, uses)], names)
    # the built-in trace of an event and a signal the spec does not label are not rows of their own
    assert [(r["card_label"], r["use_label"], r["player_label"]) for r in rows] == [
        ("Nasser", "event took place", "USSR"), ("Nasser", "headlined", "USSR")]
    assert {"card", "use", "player", "games", "win_rate", "win_ci95"} <= set(rows[0])  # the old keys stay


def test_a_spec_that_labels_no_use_shows_every_use_under_its_id():
    rows = card_table([GameSummary(0, "red", "done", 1, {}, {}, {"event one red": 1, "played one red": 1})])
    assert [(r["card_label"], r["use_label"]) for r in rows] == [("one", "event"), ("one", "played")]


def test_simulate_says_in_text_which_movers_may_be_chance_and_keeps_its_json_keys():
    from click.testing import CliRunner

    from rulespec.compiler.cli import main
    from support import MINI
    args = ["simulate", str(MINI), "--games", "100", "--variant", "quick", "--against", "base",
            "--workers", "1"]
    text = CliRunner().invoke(main, args).output
    assert "Games in which a card was used" in text and "not the card's effect" in text
    assert "false-discovery rate 5%" in text
    assert "One, event (Red): Red wins" in text and "of chance across the table" in text
    data = __import__("json").loads(CliRunner().invoke(main, args + ["--json"]).output)
    row = data["comparison"]["cards"][0]
    assert {"card", "use", "player", "games", "win_rate", "base_games", "base_win_rate", "difference",
            "ci95", "clear"} <= set(row)  # the keys it had before
    assert {"card_label", "use_label", "player_label", "p_value", "q_value"} <= set(row)
    assert data["comparison"]["cards_min_games"] == MIN_CARD_GAMES
