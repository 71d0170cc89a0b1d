"""What each card is worth: the game as it is against the same game with that card blanked or
removed, on the same seeds (common random numbers), so the difference is the card's doing.

A card's worth to a side is that side's win rate with the card as printed minus its win rate
with the card blanked (its own event, action and `while in` abilities do nothing) or removed
(out of the game before the first deal), paired seed by seed, with a 95% interval; a q-value
(Benjamini–Hochberg) across the whole table says which rows are clear of chance. A card
that favours a side (its first player attribute) is weighed for that side; a neutral card
for each side. Cards play in rounds on shared seeds: a card stops when its interval is within
±precision, or when even its 99% interval lies inside ±negligible (the wider interval allows
for looking after every round), or when it has played `games` seeds.

Under `--against`, each card is weighed in two worlds (the variant and the base game) on the
same seeds, and the row is the worth under the variant minus under the base.

The overlay is a switch of the one program (runtime/state.py `overlay`), not a build per
card. Played games are kept in a store keyed by what decides them (the caller's key: spec,
variants, agents, params), the overlay and the seed, so a second run plays only what is new.
The main process keeps no game: a worker sends back per game who won (a byte) and its entry in
the store, and per card the counts of its marks; the store is written every round.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from rulespec.runtime.analysis.card_uses import FALSE_DISCOVERY_RATE, benjamini_hochberg
from rulespec.runtime.analysis.simulate import BATCH, GameSummary, batches, run_batch
from rulespec.runtime.analysis.stats import Z95, paired_difference
from rulespec.runtime.state import overlay

Z99 = 2.5758293035489004
ROUND = 100  # seeds a round plays for every card still in


class Overlaid:
    """A program whose games begin with some cards blanked or removed; all else is the program's."""

    def __init__(self, program, blanked: tuple[int, ...], removed: tuple[int, ...]):
        self._program, self._blanked, self._removed = program, blanked, removed
        self.meta, self.backend = program.meta, program.backend
        self.run, self.resume = program.run, program.resume

    def begin(self, state) -> None:
        overlay(state, self._blanked, self._removed)
        self._program.begin(state)

    @property
    def searching(self):
        """The program's own for searching bots (simulate.run_batch), overlaid too."""
        inner = getattr(self._program, "searching", None)
        return self if inner is None else Overlaid(inner, self._blanked, self._removed)

    def traced_policy_games(self, games, params, policy, max_decisions: int, prepare=None):
        """The native engine's whole games (simulate.play_whole), each begun overlaid; None where
        the program plays none."""
        whole = getattr(self._program, "traced_policy_games", None)
        if whole is None:
            return None

        def overlaid(state) -> None:
            if prepare is not None:
                prepare(state)
            overlay(state, self._blanked, self._removed)
        return whole(games, params, policy, max_decisions, overlaid)

    def __getattr__(self, name: str):
        return getattr(self._program, name)


_BASES: dict[str, Any] = {}  # one program per base recipe in each process, whatever overlays it


class OverlayRef:
    """A picklable recipe: the base program's recipe and the cards blanked or removed."""

    def __init__(self, base, blanked: tuple[int, ...] = (), removed: tuple[int, ...] = ()):
        self.base, self.blanked, self.removed = base, tuple(blanked), tuple(removed)
        self.variants = base.variants

    def load(self):
        key = repr(self.base)
        if key not in _BASES:
            _BASES[key] = self.base.load()
        program = _BASES[key]
        return Overlaid(program, self.blanked, self.removed) if self.blanked or self.removed else program

    def __repr__(self) -> str:
        return f"OverlayRef({self.base!r}, {self.blanked!r}, {self.removed!r})"


@dataclass(frozen=True)
class Card:
    """A card to weigh: its id and words, the side it favours, its group, and its entity
    indexes in each world (the variant's and, under --against, the base game's)."""

    card: str
    label: str
    side: str | None
    group: tuple[str, str] | None
    indexes: tuple[tuple[int, ...], ...]


@dataclass
class World:
    """One rule set: its program recipe, and who won its games as they are and each card's
    overlaid games, one byte a seed from the weighing's first seed on (the winner's place among
    the players, NO_WINNER for none). Only the bytes are kept, never the games: a long run plays
    hundreds of thousands, of some kilobytes each. The seeds' order is kept because the interval's
    variance is summed in seed order; a sum of counts would differ from it in the last digits."""

    factory: Any
    name: str  # "" for the game as given; the base's words under --against
    plain: bytearray = field(default_factory=bytearray)
    overlaid: dict[str, bytearray] = field(default_factory=dict)  # card -> one byte a seed


@dataclass
class Weighing:
    """A whole table: the cards, the worlds, the seeds each card has played, why each stopped,
    and per card in how many of its games as they are (the first world's) it was drawn, picked,
    its event ran, or it was used (MARKS)."""

    cards: list[Card]
    worlds: list[World]
    mode: str
    players: list[str]
    seeds: dict[str, range] = field(default_factory=dict)
    stopped: dict[str, str] = field(default_factory=dict)
    marks: dict[str, list[int]] = field(default_factory=dict)  # card -> counts in MARKS' order


MARKS = ("drawn", "picked", "event", "used")
NO_WINNER = 255  # the outcome byte of a game no player weighed for won


def sides_of(card: Card, players: list[str]) -> list[str]:
    return [card.side] if card.side in players else list(players)


def _place(players, winner: str | None) -> int:
    return players.index(winner) if winner in players else NO_WINNER


def _wins(outcomes: bytearray, games: int, place: int) -> list[float]:
    """1.0 for each of the first `games` seeds the player at `place` won, else 0.0."""
    return [1.0 if o == place else 0.0 for o in outcomes[:games]]


def card_change(weighing: Weighing, card: Card, side: str, world: int):
    """The paired difference: the side's wins with the card as printed minus overlaid."""
    w, games, place = weighing.worlds[world], len(weighing.seeds[card.card]), weighing.players.index(side)
    return paired_difference(_wins(w.plain, games, place), _wins(w.overlaid[card.card], games, place))


def row_difference(weighing: Weighing, card: Card, side: str):
    """The row's difference: the card's worth, or under --against its worth in the first world
    minus in the second, seed by seed."""
    games, place = len(weighing.seeds[card.card]), weighing.players.index(side)
    per_world = [[a - b for a, b in zip(_wins(w.plain, games, place), _wins(w.overlaid[card.card], games, place))]
                 for w in weighing.worlds]
    if len(per_world) == 1:
        return paired_difference(per_world[0], [0.0] * games)
    return paired_difference(per_world[0], per_world[1])


def _settled(weighing: Weighing, card: Card, precision: float | None, negligible: float | None) -> str | None:
    diffs = [row_difference(weighing, card, side) for side in sides_of(card, weighing.players)]
    if len(weighing.seeds[card.card]) < 2:
        return None
    if negligible is not None:
        wide = [(d.difference - (d.half_width / Z95) * Z99, d.difference + (d.half_width / Z95) * Z99)
                for d in diffs]
        if all(-negligible < lo and hi < negligible for lo, hi in wide):
            return "negligible"
    if precision is not None and max(d.half_width for d in diffs) <= precision:
        return "precision"
    return None


def _game_key(prefix: str, overlay_name: str, seed: int) -> str:
    return f"{prefix}\0{overlay_name}\0{seed}"


def _encode(game: GameSummary, whole: bool) -> bytes:
    """A game in the store: whole for the game as it is (its cards' marks are counted from it,
    in any later run, for any card), else only who won and lost (all an overlaid game is read for)."""
    if not whole:
        return json.dumps({"w": game.winner, "l": list(game.losers)}).encode()
    return json.dumps({"w": game.winner, "l": list(game.losers), "u": sorted(game.uses),
                       "e": sorted(game.events), "d": sorted(game.drawn)}).encode()


def count_marks(totals: dict[str, list[int]], events: Iterable[str], drawn: Iterable[str]) -> None:
    """Add one game's marks to each card's counts in `totals`: whether the card was drawn into a
    hand, picked in a decision ('chosen CARD'), its own event or action ran ('event CARD'), or
    any traced key named it (`used`); a per-player card's instances ('CARD(p)') count as it."""
    found: dict[str, list[bool]] = {}
    for key in events:
        kind, named = key.split(" ", 1)
        flags = found.setdefault(named.partition("(")[0], [False] * 4)
        flags[1] |= kind == "chosen"
        flags[2] |= kind == "event"
        flags[3] = True
    for named in drawn:
        found.setdefault(named.partition("(")[0], [False] * 4)[0] = True
    for card, flags in found.items():
        counts = totals.get(card)
        if counts is not None:
            for i, flag in enumerate(flags):
                counts[i] += flag


@dataclass(frozen=True)
class Outcomes:
    """What a worker sends back for a batch: per game the winner's place (a byte), the games in
    the store's words (when there is a store), and the marks of the cards counted."""

    winners: bytes
    stored: tuple[bytes, ...]
    marks: dict[str, list[int]]


def play_outcomes(factory, seeds: list[int], agents: tuple[str, ...], params: dict[str, Any],
                  players: tuple[str, ...], marked: tuple[str, ...], stored: bool, whole: bool) -> Outcomes:
    """Play a batch in this process (a worker) and reduce it to its Outcomes, so that no game
    crosses to the main process."""
    games = run_batch(factory, seeds, agents, params)
    marks = {card: [0] * len(MARKS) for card in marked}
    if marked:
        for game in games:
            count_marks(marks, game.events, game.drawn)
    return Outcomes(bytes(_place(players, g.winner) for g in games),
                    tuple(_encode(g, whole) for g in games) if stored else (), marks)


def overlaid(factory, mode: str, indexes: tuple[int, ...]) -> OverlayRef:
    """The recipe of the game with these entities blanked or removed."""
    return OverlayRef(factory, *((indexes, ()) if mode == "blank" else ((), indexes)))


@dataclass
class Played:
    """A set of games a round plays: its recipe, the outcomes its seeds extend, its name and
    prefix in the store (None: not stored), and the counts of the cards whose marks it counts."""

    factory: Any
    outcomes: bytearray
    name: str
    prefix: str | None = None
    marked: dict[str, list[int]] | None = None


def weigh(cards: list[Card], worlds: list[World], mode: str, players: list[str],
          agents: tuple[str, ...], params: dict[str, Any], executor, *, seed: int, games: int,
          precision: float | None, negligible: float | None, store=None,
          keys: tuple[str, ...] = (), on_done: Callable[[int], None] = lambda n: None,
          round_size: int = ROUND) -> Weighing:
    """Play every card in rounds of shared seeds until each has settled or played `games`
    seeds. `keys`: per world, the store's prefix for its games (spec, variants, agents,
    params); a game found in the store is not played again. The worlds' outcomes start empty."""
    weighing = Weighing(cards, worlds, mode, players, {c.card: range(seed, seed) for c in cards},
                        marks={c.card: [0] * len(MARKS) for c in cards})
    played = 0
    alive = list(cards)
    while alive and played < games:
        size = min(round_size, games - played)
        seeds = range(seed + played, seed + played + size)
        sets = []
        for k, world in enumerate(worlds):
            prefix = keys[k] if keys else None
            marked = {c.card: weighing.marks[c.card] for c in alive} if k == 0 else None
            sets.append(Played(world.factory, world.plain, "plain", prefix, marked))
            for card in alive:
                sets.append(Played(overlaid(world.factory, mode, card.indexes[k]),
                                   world.overlaid.setdefault(card.card, bytearray()), f"{mode} {card.card}", prefix))
        _play(sets, seeds, tuple(players), agents, params, executor, store, on_done)
        played += size
        for card in alive:
            weighing.seeds[card.card] = range(seed, seed + played)
            why = _settled(weighing, card, precision, negligible)
            if why:
                weighing.stopped[card.card] = why
        alive = [c for c in alive if c.card not in weighing.stopped]
    for card in alive:
        weighing.stopped[card.card] = "games"
    return weighing


def _play(sets: list[Played], seeds: range, players: tuple[str, ...], agents, params, executor,
          store, on_done) -> None:
    """Each set's games on this round's seeds, from the store, else played by the executor's
    workers; each set's outcomes extended by the round's, its marks counted, the store flushed
    (its pending games would otherwise pile up until the end of the run)."""
    jobs, targets, rounds = [], [], []
    for one in sets:
        got = bytearray(len(seeds))
        stored = store is not None and bool(one.prefix)
        missing = []
        for i, s in enumerate(seeds):
            found = store.get(_game_key(one.prefix, one.name, s)) if stored else None
            if found is None:
                missing.append(i)
                continue
            game = json.loads(found)
            got[i] = _place(players, game["w"])
            if one.marked:
                count_marks(one.marked, game["e"], game["d"])
            on_done(1)
        for chunk in batches(missing, BATCH):
            jobs.append((one.factory, [seeds[i] for i in chunk], agents, params, players,
                         tuple(one.marked or ()), stored, one.name == "plain"))
            targets.append((one, got, chunk, stored))
        rounds.append((one.outcomes, got))
    for (one, got, chunk, stored), result in zip(targets, executor.map(jobs, on_done, play_outcomes) if jobs else ()):
        for i, winner in zip(chunk, result.winners):
            got[i] = winner
        for card, counts in result.marks.items():
            for i, count in enumerate(counts):
                one.marked[card][i] += count
        if stored:
            for i, data in zip(chunk, result.stored):
                store.put(_game_key(one.prefix, one.name, seeds[i]), data)
    for outcomes, got in rounds:
        outcomes.extend(got)
    if store is not None:
        store.flush()


# ------------------------------------------------------------------ the table


def table_json(weighing: Weighing, *, game: str, agents, variants, against, seed: int,
               games: int, precision: float | None, negligible: float | None,
               player_labels: dict[str, str], left_out: list[str]) -> dict[str, Any]:
    """The rows (one per card and side it is weighed for), q-values across them, each row's
    rank in its group and its sentence."""
    rows = []
    for card in weighing.cards:
        seeds = weighing.seeds[card.card]
        used = dict(zip(MARKS, weighing.marks[card.card]))
        for side in sides_of(card, weighing.players):
            diff = row_difference(weighing, card, side)
            row = {"card": card.card, "card_label": card.label, "side": side,
                   "side_label": player_labels.get(side, side), "neutral": card.side is None,
                   "group": list(card.group) if card.group else None, "games": len(seeds),
                   "worth": diff.difference, "ci95": list(diff.ci95), "half_width": diff.half_width,
                   "p_value": diff.p_value, "stopped_by": weighing.stopped.get(card.card, "games"),
                   **used}
            if len(weighing.worlds) > 1:
                row["worlds"] = [_world_worth(weighing, card, side, k) for k in range(len(weighing.worlds))]
            rows.append(row)
    for row, q in zip(rows, benjamini_hochberg([r["p_value"] for r in rows])):
        row["q_value"] = q
        row["clear"] = q <= FALSE_DISCOVERY_RATE
    _rank(rows)
    for row in rows:
        row["sentence"] = sentence(row, against=against)
    rows.sort(key=lambda r: (r["side"], -r["worth"], r["card"]))
    return {"game": game, "mode": weighing.mode, "agents": list(agents), "variants": list(variants),
            "against": list(against) if against is not None else None, "seed": seed,
            "games_asked": games, "precision": precision, "negligible": negligible,
            "players": weighing.players, "player_labels": player_labels,
            "cards": rows, "left_out": left_out,
            "games_played": sum(len(s) for s in weighing.seeds.values())
            * len(weighing.worlds) + sum(len(w.plain) for w in weighing.worlds),
            "false_discovery_rate": FALSE_DISCOVERY_RATE}


def _world_worth(weighing: Weighing, card: Card, side: str, world: int) -> dict[str, Any]:
    diff = card_change(weighing, card, side, world)
    return {"worth": diff.difference, "ci95": list(diff.ci95)}


def _rank(rows: list[dict]) -> None:
    """Each row's place among the rows of its group (the same attribute value) for its side,
    strongest first; `group_size` how many there are."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["side"], tuple(row["group"] or ())), []).append(row)
    for members in groups.values():
        members.sort(key=lambda r: (-r["worth"], r["card"]))
        for place, row in enumerate(members, 1):
            row["rank"], row["group_size"] = place, len(members)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def sentence(row: dict, against: tuple[str, ...] | None = None) -> str:
    """'Banner is worth +30.1 points to Red [+26.0..+34.2], the strongest of the 5 cards with
    era early'; under --against the change of its worth."""
    lo, hi = (x * 100 for x in row["ci95"])
    span = f"[{lo:+.1f}..{hi:+.1f}]"
    if against is not None:
        base = " + ".join(against) or "the base game"
        return (f"{row['card_label']} is worth {row['worth'] * 100:+.1f} points more to"
                f" {row['side_label']} {span} than in {base}"
                f" ({'clear of chance' if row['clear'] else 'may be chance'} across the table,"
                f" q = {row['q_value']:.2g})")
    place = "strongest" if row["rank"] == 1 else f"{ordinal(row['rank'])} strongest"
    among = (f" of the {row['group_size']} cards with {row['group'][0]} {row['group'][1]}"
             if row["group"] and row["group_size"] > 1 else f" of {row['group_size']}"
             if row["group_size"] > 1 else "")
    ranked = f", the {place}{among}" if row["group_size"] > 1 else ""
    return f"{row['card_label']} is worth {row['worth'] * 100:+.1f} points to {row['side_label']} {span}{ranked}"


# ------------------------------------------------------------------ a card's printed number


@dataclass
class Reprint:
    """The game with the card's attribute at one value: its recipe and whether the side the
    sweep weighs for won its games (one byte a seed, 0 when it won, as World's outcomes)."""

    value: int
    factory: Any
    prefix: str | None = None  # the store's prefix for its games (its spec hash differs)
    games: bytearray = field(default_factory=bytearray)


def reprint_worth(reprint: Reprint, reference: bytearray, games: int):
    """What the card is worth to the side at this value: the side's wins with the card printed
    so minus with it blanked (or removed) as printed, seed by seed over the first `games`."""
    return paired_difference(_wins(reprint.games, games, 0), _wins(reference, games, 0))


def sweep_reprints(card: Card, mode: str, base, reprints: list[Reprint], side: str,
                   agents: tuple[str, ...], params: dict[str, Any], executor, *, seed: int,
                   games: int, precision: float | None, target: float, store=None,
                   base_key: str | None = None, on_done: Callable[[int], None] = lambda n: None,
                   round_size: int = ROUND) -> tuple[range, bytearray, str]:
    """Every value on the same seeds, in rounds, against the game with the card blanked (or
    removed) as printed; stops when the value nearest the target has its interval within
    ±precision, or after `games` seeds. Returns the seeds, the reference's outcomes (as
    Reprint.games) and why it stopped."""
    reference = bytearray()
    played = range(seed, seed)
    stopped = "games"
    while len(played) < games:
        seeds = range(played.stop, seed + min(games, len(played) + round_size))
        sets = [Played(overlaid(base, mode, card.indexes[0]), reference, f"{mode} {card.card}", base_key)]
        sets += [Played(r.factory, r.games, "plain", r.prefix) for r in reprints]
        _play(sets, seeds, (side,), agents, params, executor, store, on_done)
        played = range(seed, seeds.stop)
        lead = nearest(reprints, reference, len(played), target)
        if precision is not None and reprint_worth(lead, reference, len(played)).half_width <= precision:
            stopped = "precision"
            break
    return played, reference, stopped


def nearest(reprints: list[Reprint], reference: bytearray, games: int, target: float) -> Reprint:
    return min(reprints, key=lambda r: (abs(reprint_worth(r, reference, games).difference - target),
                                        r.value))


def sweep_json(card: Card, attribute: str, printed: int, reprints: list[Reprint], reference: bytearray,
               seeds: range, side: str, side_label: str, target: float, stopped: str) -> dict[str, Any]:
    """Per value its worth to the side with the interval; the value nearest the target, a sentence."""
    rows = []
    for r in reprints:
        diff = reprint_worth(r, reference, len(seeds))
        rows.append({"value": r.value, "worth": diff.difference, "ci95": list(diff.ci95),
                     "half_width": diff.half_width, "printed": r.value == printed})
    lead = nearest(reprints, reference, len(seeds), target)
    best = next(row for row in rows if row["value"] == lead.value)
    lo, hi = (x * 100 for x in best["ci95"])
    inside = best["ci95"][0] <= target <= best["ci95"][1]
    sentence = (f"{card.label} with {attribute} {best['value']} comes nearest a worth of"
                f" {target * 100:+.1f} points to {side_label}: {best['worth'] * 100:+.1f} [{lo:+.1f}..{hi:+.1f}]"
                f" over {len(seeds):,} seeds; {'the target is inside its interval' if inside else 'no value tried reaches the target within its interval'}"
                f" (printed: {printed})")
    return {"card": card.card, "card_label": card.label, "attribute": attribute, "printed": printed,
            "side": side, "side_label": side_label, "target": target, "games": len(seeds),
            "stopped_by": stopped, "values": rows, "best": best, "sentence": sentence}
