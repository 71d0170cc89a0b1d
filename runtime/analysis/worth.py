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
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from rulespec.runtime.analysis.card_uses import FALSE_DISCOVERY_RATE, benjamini_hochberg
from rulespec.runtime.analysis.simulate import BATCH, GameSummary, batches
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
    """One rule set: its program recipe, its games as they are, and each card's overlaid games."""

    factory: Any
    name: str  # "" for the game as given; the base's words under --against
    plain: dict[int, GameSummary] = field(default_factory=dict)  # seed -> game
    overlaid: dict[str, dict[int, GameSummary]] = field(default_factory=dict)  # card -> seed -> game


@dataclass
class Weighing:
    """A whole table: the cards, the worlds, the seeds each card has played, why each stopped."""

    cards: list[Card]
    worlds: list[World]
    mode: str
    players: list[str]
    seeds: dict[str, list[int]] = field(default_factory=dict)
    stopped: dict[str, str] = field(default_factory=dict)


def sides_of(card: Card, players: list[str]) -> list[str]:
    return [card.side] if card.side in players else list(players)


def _wins(games: dict[int, GameSummary], seeds: list[int], side: str) -> list[float]:
    return [1.0 if games[s].winner == side else 0.0 for s in seeds]


def card_change(weighing: Weighing, card: Card, side: str, world: int):
    """The paired difference: the side's wins with the card as printed minus overlaid."""
    w, seeds = weighing.worlds[world], weighing.seeds[card.card]
    return paired_difference(_wins(w.plain, seeds, side), _wins(w.overlaid[card.card], seeds, side))


def row_difference(weighing: Weighing, card: Card, side: str):
    """The row's difference: the card's worth, or under --against its worth in the first world
    minus in the second, seed by seed."""
    seeds = weighing.seeds[card.card]
    per_world = [[a - b for a, b in zip(_wins(w.plain, seeds, side), _wins(w.overlaid[card.card], seeds, side))]
                 for w in weighing.worlds]
    if len(per_world) == 1:
        return paired_difference(per_world[0], [0.0] * len(seeds))
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


def _encode(game: GameSummary) -> bytes:
    return json.dumps({"w": game.winner, "l": list(game.losers), "u": sorted(game.uses),
                       "e": sorted(game.events), "d": sorted(game.drawn)}).encode()


def _decode(seed: int, data: bytes) -> GameSummary:
    got = json.loads(data)
    return GameSummary(seed, got["w"], None, 0, {}, {k: 1 for k in got["e"]}, {k: 1 for k in got["u"]},
                       tuple(got["l"]), drawn=frozenset(got["d"]))


def overlaid(factory, mode: str, indexes: tuple[int, ...]) -> OverlayRef:
    """The recipe of the game with these entities blanked or removed."""
    return OverlayRef(factory, *((indexes, ()) if mode == "blank" else ((), indexes)))


def weigh(cards: list[Card], worlds: list[World], mode: str, players: list[str],
          agents: tuple[str, ...], params: dict[str, Any], executor, *, seed: int, games: int,
          precision: float | None, negligible: float | None, store=None,
          keys: tuple[str, ...] = (), on_done: Callable[[int], None] = lambda n: None,
          round_size: int = ROUND) -> Weighing:
    """Play every card in rounds of shared seeds until each has settled or played `games`
    seeds. `keys`: per world, the store's prefix for its games (spec, variants, agents,
    params); a game found in the store is not played again."""
    weighing = Weighing(cards, worlds, mode, players, {c.card: [] for c in cards})
    played = 0
    alive = list(cards)
    while alive and played < games:
        size = min(round_size, games - played)
        seeds = list(range(seed + played, seed + played + size))
        sets = []
        for k, world in enumerate(worlds):
            prefix = keys[k] if keys else None
            sets.append((world.factory, world.plain, "plain", prefix))
            for card in alive:
                sets.append((overlaid(world.factory, mode, card.indexes[k]),
                             world.overlaid.setdefault(card.card, {}), f"{mode} {card.card}", prefix))
        _play(sets, seeds, agents, params, executor, store, on_done)
        played += size
        for card in alive:
            weighing.seeds[card.card].extend(seeds)
            why = _settled(weighing, card, precision, negligible)
            if why:
                weighing.stopped[card.card] = why
        alive = [c for c in alive if c.card not in weighing.stopped]
    for card in alive:
        weighing.stopped[card.card] = "games"
    if store is not None:
        store.flush()
    return weighing


def _play(sets, seeds, agents, params, executor, store, on_done) -> None:
    """Each set's games on the seeds it has not got yet: from the store, else played. A set is
    (recipe, seed -> game, its name in the store, the store's prefix or None)."""
    jobs, targets = [], []
    for factory, into, name, prefix in sets:
        missing = []
        for s in seeds:
            if s in into:
                continue
            found = store.get(_game_key(prefix, name, s)) if store is not None and prefix else None
            if found is not None:
                into[s] = _decode(s, found)
                on_done(1)
            else:
                missing.append(s)
        for chunk in batches(missing, BATCH):
            jobs.append((factory, chunk, agents, params))
            targets.append((into, name, prefix))
    if not jobs:
        return
    for (into, name, prefix), games in zip(targets, executor.map(jobs, on_done)):
        for game in games:
            into[game.seed] = game
            if store is not None and prefix:
                store.put(_game_key(prefix, name, game.seed), _encode(game))


# ------------------------------------------------------------------ the table


def _used(games: dict[int, GameSummary], seeds: list[int], card: str) -> dict[str, int]:
    """In how many of the games as they are the card was drawn into a hand (`drawn`), picked in
    a decision (`picked`), its own event or action ran (`event`), or either or a signal named
    it (`used`)."""
    def mine(named: str) -> bool:
        return named == card or named.startswith(card + "(")  # a per-player card's instances
    drawn = picked = fired = used = 0
    for s in seeds:
        keys = [k for k in games[s].events if mine(k.split(" ", 1)[1])]
        drawn += any(mine(named) for named in games[s].drawn)
        picked += any(k.startswith("chosen ") for k in keys)
        fired += any(k.startswith("event ") for k in keys)
        used += bool(keys)
    return {"drawn": drawn, "picked": picked, "event": fired, "used": used}


def table_json(weighing: Weighing, *, game: str, agents, variants, against, seed: int,
               games: int, precision: float | None, negligible: float | None,
               player_labels: dict[str, str], left_out: list[str]) -> dict[str, Any]:
    """The rows (one per card and side it is weighed for), q-values across them, each row's
    rank in its group and its sentence."""
    rows = []
    for card in weighing.cards:
        seeds = weighing.seeds[card.card]
        used = _used(weighing.worlds[0].plain, seeds, card.card)
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
    """The game with the card's attribute at one value: its recipe and its games."""

    value: int
    factory: Any
    prefix: str | None = None  # the store's prefix for its games (its spec hash differs)
    games: dict[int, GameSummary] = field(default_factory=dict)


def reprint_worth(reprint: Reprint, reference: dict[int, GameSummary], seeds: list[int], side: str):
    """What the card is worth to `side` at this value: the side's wins with the card printed so
    minus with it blanked (or removed) as printed, seed by seed."""
    return paired_difference(_wins(reprint.games, seeds, side), _wins(reference, seeds, side))


def sweep_reprints(card: Card, mode: str, base, reprints: list[Reprint], side: str,
                   agents: tuple[str, ...], params: dict[str, Any], executor, *, seed: int,
                   games: int, precision: float | None, target: float, store=None,
                   base_key: str | None = None, on_done: Callable[[int], None] = lambda n: None,
                   round_size: int = ROUND) -> tuple[list[int], dict[int, GameSummary], str]:
    """Every value on the same seeds, in rounds, against the game with the card blanked (or
    removed) as printed; stops when the value nearest the target has its interval within
    ±precision, or after `games` seeds. Returns the seeds, the reference games and why it stopped."""
    reference: dict[int, GameSummary] = {}
    played: list[int] = []
    stopped = "games"
    while len(played) < games:
        seeds = list(range(seed + len(played), seed + min(games, len(played) + round_size)))
        sets = [(overlaid(base, mode, card.indexes[0]), reference, f"{mode} {card.card}", base_key)]
        sets += [(r.factory, r.games, "plain", r.prefix) for r in reprints]
        _play(sets, seeds, agents, params, executor, store, on_done)
        played += seeds
        lead = nearest(reprints, reference, played, side, target)
        if precision is not None and reprint_worth(lead, reference, played, side).half_width <= precision:
            stopped = "precision"
            break
    if store is not None:
        store.flush()
    return played, reference, stopped


def nearest(reprints: list[Reprint], reference, seeds: list[int], side: str, target: float) -> Reprint:
    return min(reprints, key=lambda r: (abs(reprint_worth(r, reference, seeds, side).difference - target),
                                        r.value))


def sweep_json(card: Card, attribute: str, printed: int, reprints: list[Reprint], reference,
               seeds: list[int], side: str, side_label: str, target: float, stopped: str) -> dict[str, Any]:
    """Per value its worth to the side with the interval; the value nearest the target, a sentence."""
    rows = []
    for r in reprints:
        diff = reprint_worth(r, reference, seeds, side)
        rows.append({"value": r.value, "worth": diff.difference, "ci95": list(diff.ci95),
                     "half_width": diff.half_width, "printed": r.value == printed})
    lead = nearest(reprints, reference, seeds, side, target)
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
