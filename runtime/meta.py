"""What the runtime knows of a game: names and tables, no rules."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TrackMeta:
    """A bounded number; per-player tracks take one slot per player."""

    name: str
    label: str
    per_player: bool
    low: int
    high: int
    start: int
    slot: int
    visibility: str = "public"  # at the table: public, owner (each player sees its own) or hidden
    flag: bool = False  # `flag`: 0 or 1, read as a truth (shown as no or yes)


@dataclass(frozen=True)
class ZoneMeta:
    """A place for cards; per-player zones take one slot per player."""

    name: str
    label: str
    per_player: bool
    visibility: str  # hidden | owner | public
    ordered: bool
    slot: int


@dataclass(frozen=True)
class CounterMeta:
    """A number on every entity (used for spaces), per player or shared."""

    name: str
    label: str
    per_player: bool
    slot: int
    flag: bool = False  # `flag`: 0 or 1, read as a truth (shown as no or yes)


@dataclass(frozen=True)
class TunableMeta:
    """A number a policy names with `tunable` (or `weight NAME = ...`): its default and range."""

    name: str
    default: int
    low: int | None  # None: declared without a range (a named number `tune` cannot search)
    high: int | None
    policy: str  # the policy that declares it
    label: str = ""


@dataclass(frozen=True)
class BoardMeta:
    """The map and the table's layout, as a play surface draws them (all of it public)."""

    spaces: tuple[int, ...] = ()  # entity indexes of the spaces
    regions: tuple[tuple[int, tuple[int, ...]], ...] = ()  # a region and its spaces (nested too)
    links: tuple[tuple[int, int], ...] = ()  # adjacent spaces, lower index first
    width: int = 0  # the spec's `board` size; 0 when it declares none
    height: int = 0
    positions: tuple[tuple[str, int, int], ...] = ()  # a space id or a zone ("hand(p1)"), x, y
    attributes: tuple[tuple[tuple[str, str], ...], ...] = ()  # per entity: (name, value as text)
    entity_at: tuple[str, ...] = ()  # per entity: the spec location that declares it
    shows: tuple[str, ...] = ()  # the space attributes the board shows on each space
    hex_size: int = 0  # the board's hex grid: a hex's centre-to-corner size; 0: none
    shapes: tuple[tuple[int, str], ...] = ()  # a space drawn as other than a box: (space, "hex")
    colours: tuple[tuple[int, str], ...] = ()  # a region's or space's colour the spec gives


@dataclass(frozen=True)
class GameMeta:
    """Everything a driver, a view or a record needs to know about a game."""

    game: str
    title: str
    spec_hash: str
    spec_files: tuple[str, ...]
    players: tuple[str, ...]
    player_labels: tuple[str, ...]
    tracks: tuple[TrackMeta, ...]
    vars: tuple[tuple[str, object], ...]  # (name, initial value)
    zones: tuple[ZoneMeta, ...]
    counters: tuple[CounterMeta, ...]
    entity_ids: tuple[str, ...]
    entity_labels: tuple[str, ...]
    entity_kinds: tuple[str, ...]
    card_entities: tuple[int, ...]  # entities that live in zones
    params: tuple[tuple[str, str, object], ...]  # (name, type, default)
    invariants: tuple[tuple[str, str], ...]  # (name, label)
    effects: tuple[str, ...]
    bots: tuple[str, ...] = ()  # spec-declared evaluations for the search bots
    policies: tuple[str, ...] = ()  # spec-declared preferences for the policy bot
    # Per policy, the tunables its rules read (its own, then its bases'), by name.
    tunables: tuple[tuple[str, tuple[TunableMeta, ...]], ...] = ()
    # The spec's `balance bot "AGENT"`: what simulate plays without --agents ("": its default).
    balance_bot: str = ""
    # The signals a spec labels (`signal s(p: player, c: card) "played face down"`): the uses of a
    # card the simulation's card table shows, under those words.
    use_labels: tuple[tuple[str, str], ...] = ()
    counts: dict = field(default_factory=dict)  # for `rulespec info`
    # What a value stands for, per var and per effect parameter: "card", "space",
    # "region", "player" or "" (a number, flag, text or enum value). Views hide a
    # card nobody may see; determinisation re-deals what is bound to one.
    var_kinds: tuple[str, ...] = ()
    effect_param_kinds: tuple[tuple[str, ...], ...] = ()
    # Per param, the values it may take (runtime/params.py): (name, (kind, values)).
    param_domains: tuple[tuple[str, tuple], ...] = ()
    board: BoardMeta | None = None  # what the terminal seat and the web table draw
    # The param saying how many of `players` take part (`players … seats D in L..H`);
    # "" when every declared player always plays.
    seats_param: str = ""

    # --- seats
    def seat_count(self, params: dict | None = None) -> int:
        """How many players take part under `params` (the seat param, else its default)."""
        if not self.seats_param:
            return len(self.players)
        value = (params or {}).get(self.seats_param)
        if value is None:
            value = next(d for n, _, d in self.params if n == self.seats_param)
        return int(value)

    def seated(self, params: dict | None = None) -> tuple[str, ...]:
        """The players taking part under `params`, in seat order."""
        return self.players[:self.seat_count(params)]

    # --- derived sizes and lookups
    @property
    def track_slots(self) -> int:
        return sum(len(self.players) if t.per_player else 1 for t in self.tracks)

    @property
    def zone_slots(self) -> int:
        return sum(len(self.players) if z.per_player else 1 for z in self.zones)

    @property
    def counter_slots(self) -> int:
        return sum(len(self.players) if c.per_player else 1 for c in self.counters)

    def zone_of_slot(self, slot: int) -> tuple[ZoneMeta, int | None]:
        for zone in self.zones:
            width = len(self.players) if zone.per_player else 1
            if zone.slot <= slot < zone.slot + width:
                return zone, (slot - zone.slot) if zone.per_player else None
        raise KeyError(slot)

    def zone_slot_name(self, slot: int) -> str:
        zone, player = self.zone_of_slot(slot)
        return zone.name if player is None else f"{zone.name}({self.players[player]})"
