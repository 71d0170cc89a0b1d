"""Two bots compared on paired, seat-swapped games: how much better one plays than the other.

Each seed is played once per seat with the challenger in that seat and the
incumbent in every other (with one seat, once by each alone). The seed's gain
is, averaged over those games, the challenger's score minus the incumbent
seats' mean score: every seat's edge cancels out, so a gain is the bot's, not
its chair's, and the same seeds for both (common random numbers) keep the
interval narrow. A game scores 1 for its winner; with no winner the players
no `lose` named share it (a draw: everyone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulespec.runtime.analysis.simulate import GameSummary, ProgramFactory, play_sets
from rulespec.runtime.analysis.stats import PairedDifference, paired_difference


def seat_score(game: GameSummary, player: str, players: list[str]) -> float:
    """The share of the game `player` takes: 1 for the winner, else an equal share of the
    players no `lose` named."""
    if game.winner is not None:
        return float(game.winner == player)
    standing = [p for p in players if p not in game.losers]
    return 1.0 / len(standing) if player in standing else 0.0


def seatings(challenger: str, incumbent: str, seats: int) -> list[tuple[str, ...]]:
    """The agents of each game a seed is played in: the challenger in each seat in turn (one
    seat: the challenger alone, then the incumbent alone)."""
    if seats == 1:
        return [(challenger,), (incumbent,)]
    return [tuple(challenger if i == k else incumbent for i in range(seats)) for k in range(seats)]


@dataclass(frozen=True)
class Duel:
    """A challenger's result against the incumbent over paired, seat-swapped seeds."""

    challenger_score: float  # mean share of the games it took (0..1)
    incumbent_score: float  # the incumbent seats' mean share
    gain: PairedDifference  # per seed: challenger's share minus the incumbent's

    @property
    def points(self) -> float:
        return self.gain.difference * 100

    def sentence(self, who: str, against: str) -> str:
        lo, hi = (x * 100 for x in self.gain.ci95)
        return (f"{who} takes {self.challenger_score * 100:.1f}% of the games, {against}"
                f" {self.incumbent_score * 100:.1f}% ({self.points:+.1f} points, 95% CI"
                f" {lo:+.1f}..{hi:+.1f}, over {self.gain.pairs:,} seat-swapped seeds)")


def duel_scores(games: list[list[GameSummary]], players: list[str]) -> tuple[list[float], list[float]]:
    """Per seed, from the games of each seating: the challenger's mean share, the incumbent's."""
    seats = len(players)
    mine, theirs = [], []
    for per_seed in zip(*games):
        if seats == 1:
            mine.append(seat_score(per_seed[0], players[0], players))
            theirs.append(seat_score(per_seed[1], players[0], players))
            continue
        c = [seat_score(g, players[k], players) for k, g in enumerate(per_seed)]
        i = [sum(seat_score(g, p, players) for j, p in enumerate(players) if j != k) / (seats - 1)
             for k, g in enumerate(per_seed)]
        mine.append(sum(c) / seats)
        theirs.append(sum(i) / seats)
    return mine, theirs


def duel(mine: list[float], theirs: list[float]) -> Duel:
    return Duel(sum(mine) / len(mine), sum(theirs) / len(theirs), paired_difference(mine, theirs))


def play_duels(factory: ProgramFactory, challengers: list[str], incumbent: str, players: list[str],
               seeds: list[int], params: dict[str, Any], executor,
               on_done: Callable[[int], None] = lambda n: None) -> list[Duel]:
    """Each challenger against the incumbent on the same seeds, in one map over the executor."""
    per = seatings("", "", len(players))
    sets = [(factory, agents, params) for c in challengers
            for agents in seatings(c, incumbent, len(players))]
    results = play_sets(sets, seeds, executor, on_done, close=False)
    out = []
    for k in range(len(challengers)):
        out.append(duel(*duel_scores(results[k * len(per):(k + 1) * len(per)], players)))
    return out
