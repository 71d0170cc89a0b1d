"""Games in which a card was used: per card and use, in how many games a side used it and how often
that side won. These are rates of the games a card was used in, not the card's effect (a card is
used in games already going one way, and a variant changes when cards are used): `rulespec worth`
measures what a card does, against the game with it blanked or removed on the same seeds.

A use is a signal with a card and a player that the spec labels (`signal kept(p: player,
c: card) "kept for later"`), shown under the spec's words; a spec that labels none shows every traced
use under its id (`event` for an event carried out). Under a variant against its base, each row's
change in the user's win rate is tested, and the whole table at once with Benjamini–Hochberg: a
row is `clear` when it survives a false-discovery rate of 5% across every row compared, so a big
swing on a small sample among two hundred rows is called what it may be, chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from rulespec.runtime.analysis.stats import two_proportions, wilson

MIN_CARD_GAMES = 30  # fewer uses than this, under the variant or the base, say nothing about a card
FALSE_DISCOVERY_RATE = 0.05
SHOWN_MOVERS = 5  # rows the text output shows


@dataclass(frozen=True)
class CardNames:
    """The spec's words for the table: card labels, use labels, player labels (ids as keys)."""

    cards: dict[str, str] = field(default_factory=dict)
    uses: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, *metas) -> CardNames:
        """The names of one or more game metas (a variant's and its base's): the first wins."""
        cards, uses, players = {}, {}, {}
        for meta in reversed(metas):
            cards.update(zip(meta.entity_ids, meta.entity_labels))
            uses.update(meta.use_labels)
            players.update(zip(meta.players, meta.player_labels))
        return cls(cards, uses, players)

    def shown(self, use: str) -> bool:
        return not self.uses or use in self.uses

    def words(self, card: str, use: str, player: str) -> dict[str, str]:
        return {"card_label": self.cards.get(card, card), "use_label": self.uses.get(use, use),
                "player_label": self.players.get(player, player)}


def _uses(results: Iterable, names: CardNames) -> dict[tuple[str, str, str], list[int]]:
    """(card, use, player) -> [games with that use by that player, of them won by that player]."""
    table: dict[tuple[str, str, str], list[int]] = {}
    read: dict[str, tuple[str, str, str] | None] = {}  # each key split once: they recur every game
    for g in results:
        for key in g.uses:
            if key not in read:
                use, card, player = key.rsplit(" ", 2)
                read[key] = (card, use, player) if names.shown(use) else None
            counted = read[key]
            if counted is None:
                continue
            row = table.get(counted)
            if row is None:
                row = table[counted] = [0, 0]
            row[0] += 1
            row[1] += g.winner == counted[2]
    return table


def card_table(results: list, names: CardNames | None = None) -> list[dict[str, Any]]:
    """Per card and use: in how many games the side used it, and that side's win rate in them."""
    names = names or CardNames()
    rows = []
    for (card, use, player), (games, won) in sorted(_uses(results, names).items()):
        rows.append({"card": card, "use": use, "player": player, **names.words(card, use, player),
                     "games": games, "win_rate": won / games, "win_ci95": list(wilson(won, games))})
    return rows


def card_movers(results: list, base: list, names: CardNames | None = None) -> list[dict]:
    """Per card and use with enough games on both sides: the using side's win rate under the
    variant minus under the base, its interval, p-value and Benjamini–Hochberg q-value; the
    largest changes first."""
    names = names or CardNames()
    after, before = _uses(results, names), _uses(base, names)
    rows = []
    for key in sorted(set(after) & set(before)):
        (n, a), (m, b) = after[key], before[key]
        if n < MIN_CARD_GAMES or m < MIN_CARD_GAMES:
            continue
        difference, ci = two_proportions(a, n, b, m)
        card, use, player = key
        rows.append({"card": card, "use": use, "player": player, **names.words(card, use, player),
                     "games": n, "win_rate": a / n, "base_games": m, "base_win_rate": b / m,
                     "difference": difference, "ci95": list(ci), "p_value": two_proportion_p(a, n, b, m)})
    for row, q in zip(rows, benjamini_hochberg([r["p_value"] for r in rows])):
        row["q_value"] = q
        row["clear"] = q <= FALSE_DISCOVERY_RATE
    return sorted(rows, key=lambda r: (-abs(r["difference"]), r["card"], r["use"], r["player"]))


def two_proportion_p(a: int, n: int, b: int, m: int) -> float:
    """The two-sided p-value of a/n against b/m (pooled normal test); 1 when nothing varies."""
    pooled = (a + b) / (n + m)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
    if se == 0:
        return 1.0
    return math.erfc(abs(a / n - b / m) / se / math.sqrt(2))


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """The q-value of each p-value (Benjamini–Hochberg step-up), in the given order: a row is
    a discovery at false-discovery rate F when its q-value is at most F."""
    count = len(p_values)
    order = sorted(range(count), key=lambda i: p_values[i])
    q = [1.0] * count
    running = 1.0
    for rank in range(count, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * count / rank)
        q[i] = min(1.0, running)
    return q


def movers_text(rows: list[dict]) -> list[str]:
    """The text output's lines for the movers: the largest changes that look like more than
    noise on their own (p < 0.05), each saying whether it survives the table-wide test."""
    looking = [r for r in rows if r["p_value"] < FALSE_DISCOVERY_RATE][:SHOWN_MOVERS]
    if not rows:
        return []
    head = (f"Games in which a card was used (the user's win rate in them, not the card's effect:"
            f" rulespec worth measures that; {len(rows)} card uses with at least {MIN_CARD_GAMES}"
            f" games in each set, false-discovery rate {FALSE_DISCOVERY_RATE:.0%} across them):")
    if not looking:
        return [head, "  no use of a card moved its user's win rate by more than chance"]
    lines = [head]
    for row in looking:
        verdict = ("clear of chance across the table" if row["clear"]
                   else "may be chance across the table")
        lines.append(
            f"  {row['card_label']}, {row['use_label']} ({row['player_label']}):"
            f" {row['player_label']} wins {row['win_rate'] * 100:.1f}% of {row['games']} games"
            f" (base {row['base_win_rate'] * 100:.1f}% of {row['base_games']},"
            f" {row['difference'] * 100:+.1f} points, 95% CI {row['ci95'][0] * 100:+.1f}.."
            f"{row['ci95'][1] * 100:+.1f}, q = {row['q_value']:.2g}): {verdict}")
    return lines
