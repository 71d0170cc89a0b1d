"""The game driver: one decision at a time, views per player, the record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.runtime.meta import GameMeta
from rulespec.runtime.params import ParamError, check_params
from rulespec.runtime.program import Program
from rulespec.runtime.state import RuleError, State, known_cards, note_choice, sees
from rulespec.runtime.text import shown


@dataclass(frozen=True)
class Decision:
    """What the game waits for: a player picks one option id."""

    player: str
    prompt: str
    option_ids: tuple[str, ...]
    labels: tuple[str, ...]
    location: str


def new_state(meta: GameMeta, seed: int, params: dict[str, Any]) -> State:
    """A fresh state with every declared param at its default unless given.

    Every way into a game passes here, so the params are checked here
    (runtime/params.py): an unknown name or a value the spec does not allow is
    a ParamError, and a seed must be a whole number."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ParamError(f"the seed must be a whole number, not {shown(seed)}")
    values = {name: default for name, _, default in meta.params}
    values.update(check_params(meta, params))
    return State(meta, seed, values)


class Game:
    """A game in progress on a back end."""

    def __init__(self, program: Program, seed: int = 0, params: dict[str, Any] | None = None,
                 variants: tuple[str, ...] = (), state: State | None = None,
                 agents: tuple[str, ...] | None = None, choices: list[str] | None = None,
                 traced: bool = False):
        self.program = program
        self.meta = program.meta
        self.seed = seed
        self.variants = tuple(variants)
        self.params = dict(params or {})
        self.agents = tuple(agents) if agents else None  # names, for the record
        self.choices: list[str] = list(choices or [])
        if state is None:
            state = new_state(self.meta, seed, self.params)
            if traced:  # counted from the first rule on: the first deal comes before any decision
                state.trace = {}
            program.begin(state)
            program.run(state)
        self.state = state

    @property
    def players(self) -> tuple[str, ...]:
        """The players taking part (all declared ones unless the spec counts its seats)."""
        return self.meta.seated(self.state.params)

    # ---------------------------------------------------------- protocol
    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def decision(self) -> Decision | None:
        pending = self.state.pending
        if pending is None:
            return None
        return Decision(self.meta.players[pending["player"]], pending["prompt"],
                        tuple(pending["ids"]), tuple(pending["labels"]), pending["at"])

    def choose(self, option_id: str) -> None:
        pending = self.state.pending
        if pending is None:
            raise RuleError("no decision is pending")
        try:
            index = pending["ids"].index(option_id)
        except ValueError:
            offered = ", ".join(pending["ids"])
            raise RuleError(f"'{option_id}' is not a legal option for '{pending['prompt']}'"
                            f" (legal: {offered})", pending["at"]) from None
        self.choose_index(index)

    def choose_index(self, index: int) -> None:
        """Answer the pending decision with its option number `index` (bots that pick by index)."""
        self.choices.append(self.state.pending["ids"][index])
        note_choice(self.meta, self.state, index)
        self.program.resume(self.state, index)

    @property
    def winner(self) -> str | None:
        result = self.state.result
        if result is None or result["winner"] is None:
            return None
        return self.meta.players[result["winner"]]

    @property
    def losers(self) -> list[str]:
        """The players a `lose` ended the game for (none after a `win`)."""
        result = self.state.result
        return [self.meta.players[p] for p in (result.get("losers", ()) if result else ())]

    @property
    def reason(self) -> str | None:
        return self.state.result["reason"] if self.state.result else None

    @property
    def decisions(self) -> int:
        return len(self.choices)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.choices = list(self.choices)
        return other

    # ---------------------------------------------------------- views
    def view(self, player: str) -> dict[str, Any]:
        """What `player` may see, and nothing else (the one place a leak could happen).

        Hidden zones and others' private zones show as counts; the counters on a
        card and a var holding a card show only while the card itself can be seen.
        """
        meta, state = self.meta, self.state
        me = meta.players.index(player)
        seen = seen_slots(meta, state, me)
        known = known_cards(state, me)
        unseen = unseen_cards(meta, state, seen) - known
        zones: dict[str, Any] = {}
        seats = len(self.players)
        for slot, cards in enumerate(state.zones):
            if (meta.zone_of_slot(slot)[1] or 0) >= seats:
                continue  # a zone of an empty seat
            name = meta.zone_slot_name(slot)
            if seen[slot]:
                zones[name] = [meta.entity_ids[c] for c in cards]
            else:
                zones[name] = {"count": len(cards)}
                shown = [meta.entity_ids[c] for c in sorted(known) if state.location[c] == slot]
                if shown:  # cards this player knows (shown to it, or followed), in a zone it cannot see
                    zones[name]["shown"] = shown
        pending = state.pending
        return {
            "game": meta.game, "player": player,
            "tracks": self.tracks(me), "vars": self._vars(unseen),
            "counters": self.counters(unseen), "zones": zones,
            "effects": [meta.effects[e] for e, _, _ in state.effects],
            "decision": None if pending is None or pending["player"] != me else {
                "prompt": pending["prompt"], "options": pending["ids"]},
            "waiting_for": None if pending is None else meta.players[pending["player"]],
            "result": None if state.result is None else {"winner": self.winner, "losers": self.losers,
                                                          "reason": self.reason},
        }

    def _vars(self, unseen: frozenset[int]) -> dict[str, Any]:
        """The vars by name: entities by id, players by name, a card nobody may see as hidden."""
        meta, out = self.meta, {}
        kinds = meta.var_kinds or ("",) * len(meta.vars)
        for (name, _), kind, value in zip(meta.vars, kinds, self.state.vars):
            if value is None or not kind:
                out[name] = value
            elif kind == "card" and value in unseen:
                out[name] = {"hidden": True}
            elif kind == "player":
                out[name] = meta.players[value]
            else:
                out[name] = meta.entity_ids[value]
        return out

    def tracks(self, seat: int | None = None) -> dict[str, Any]:
        """Every track's value; for a seat's view, only what the seat sees (no `hidden` track,
        only its own value of an `owner` one)."""
        meta, state = self.meta, self.state
        out: dict[str, Any] = {}
        for track in meta.tracks:
            if seat is not None and track.visibility == "hidden":
                continue
            if track.per_player:
                out[track.name] = {p: state.tracks[track.slot + i] for i, p in enumerate(self.players)
                                   if seat is None or track.visibility != "owner" or i == seat}
            else:
                out[track.name] = state.tracks[track.slot]
        return out

    def counters(self, unseen: frozenset[int] = frozenset()) -> dict[str, Any]:
        """Non-zero counter cells, by counter, player and entity id (none on `unseen` cards)."""
        meta, state = self.meta, self.state
        out: dict[str, Any] = {}
        for counter in meta.counters:
            owners = list(enumerate(self.players)) if counter.per_player else [(0, None)]
            table: dict[str, Any] = {}
            for k, player in owners:
                cells = {meta.entity_ids[i]: v for i, v in enumerate(state.counters[counter.slot + k])
                         if v and i not in unseen}
                if player is None:
                    table = cells
                else:
                    table[player] = cells
            out[counter.name] = table
        return out


def seen_slots(meta: GameMeta, state: State, seat: int) -> list[bool]:
    """Per zone slot: whether `seat` sees its cards (public, its own, or revealed)."""
    return [sees(state, seat, slot) for slot in range(len(state.zones))]


def unseen_cards(meta: GameMeta, state: State, seen: list[bool]) -> frozenset[int]:
    """The cards lying in slots the seat cannot see."""
    return frozenset(c for slot, cards in enumerate(state.zones) if not seen[slot] for c in cards)
