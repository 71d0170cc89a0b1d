"""The HTML report (`simulate --report DIR`): losses are shown only when `lose` ended a game."""

from __future__ import annotations

from pathlib import Path

from rulespec.runtime.analysis.report import write_report
from rulespec.runtime.analysis.simulate import GameSummary, compare, summarise

PLAYERS = ["red", "blue"]


def games(*outcomes: str) -> list[GameSummary]:
    """One game per outcome: a winner's name, 'lost:NAME' for a `lose`, or '' for a draw."""
    out = []
    for seed, outcome in enumerate(outcomes, start=1):
        lost = outcome.startswith("lost:")
        out.append(GameSummary(seed, None if lost or not outcome else outcome, "end", 10 + seed,
                               {"turn": seed}, losers=(outcome[5:],) if lost else ()))
    return out


def report(tmp_path: Path, variant: list[GameSummary], base: list[GameSummary]) -> tuple[dict, str]:
    results = {"game": "g", "games": len(variant), "seed": 1, "agents": ["random", "random"],
               "variants": [summarise(PLAYERS, ("v",), variant), summarise(PLAYERS, (), base)],
               "comparison": compare(PLAYERS, ("v",), variant, base)}
    return results, write_report(results, tmp_path).read_text()


def test_no_game_with_a_loser_shows_no_losses(tmp_path: Path) -> None:
    results, page = report(tmp_path, games("red", "blue", "red", ""), games("blue", "blue", "red", ""))
    assert "losses" not in results["comparison"]
    assert "losses</th>" not in page and "Losses" not in page and "loss_rates.png" not in page
    assert not (tmp_path / "loss_rates.png").exists() and (tmp_path / "win_rates.png").exists()


def test_losses_are_shown_per_rule_set_and_in_the_comparison(tmp_path: Path) -> None:
    variant = games("lost:red", "lost:red", "lost:red", "lost:red")  # red always loses: 100%
    base = games("red", "lost:red", "blue", "lost:blue")
    results, page = report(tmp_path, variant, base)
    red = results["comparison"]["losses"]["red"]
    assert (red["base_rate"], red["rate"], red["difference"]) == (0.25, 1.0, 0.75)
    assert results["comparison"]["losses"]["blue"]["difference"] == -0.25
    assert "<th>red losses</th><th>blue losses</th>" in page
    assert "<td>100.0% <span" in page and "<td>25.0% <span" in page  # red's loss rate, each set
    assert "red 25.0% → 100.0% (+75.0 points" in page and "blue 25.0% → 0.0% (-25.0 points" in page
    assert '<img src="loss_rates.png"' in page and (tmp_path / "loss_rates.png").stat().st_size > 0
    assert "draws</th>" in page and "<td>0</td>" in page  # a loss is not a draw
