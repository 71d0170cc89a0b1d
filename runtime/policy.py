"""The policy bot: picks among the offered options by a spec-declared `policy`, no lookahead.

The spec's policy ranks the pending options (the back end's `prefer` gives
the indices of those it likes best); the bot picks one of them from its own
seeded stream. It decides with its seat's knowledge: the checker rejects a
policy that reads cards its player cannot see, and a var holding such a card
reads as none (the bot evaluates on a copy with those vars masked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.runtime.state import State, Stream, next_random


def keep_best(best: list[int], keys: list[Any], avoid: bool) -> list[int]:
    """The options of the highest key (the lowest, for `avoid`): one tier of a rule."""
    top = min(keys) if avoid else max(keys)
    if keys.count(top) == len(keys):  # a tier that tells none apart (the common case)
        return best
    return [i for i, k in zip(best, keys) if k == top]


def menu_keys(ids: list[str], best: list[int], lines: list[tuple[tuple[str, ...], int]]) -> list[int]:
    """One tier of weighted menu lines: per option, the sum of the weights of the lines that
    name it (a line whose `when` is false weighs 0, an `avoid` line its weight negated)."""
    return [sum(w for names, w in lines if ids[i] in names) for i in best]


@dataclass(frozen=True)
class Tuned:
    """A policy played with some of its tunables set (`policy:NAME(w=5,t=2)`); name None: the
    spec's first policy."""

    name: str | None
    values: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return f"{self.name or ''}({','.join(f'{k}={v}' for k, v in self.values)})"


def resolve(meta, policy: str | Tuned | None) -> tuple[str, dict[str, int]]:
    """The declared policy and the value of each tunable its rules read: the spec's defaults
    (from the meta both back ends share), with a Tuned policy's values in their place."""
    key = (id(meta), policy)
    found = _RESOLVED.get(key)
    if found is None or found[0] is not meta:
        name = policy.name if isinstance(policy, Tuned) else policy
        name = name or meta.policies[0]
        values = {t.name: t.default for t in dict(meta.tunables).get(name, ())}
        if isinstance(policy, Tuned):
            values.update(policy.values)
        found = _RESOLVED[key] = (meta, name, values)
    return found[1], found[2]


_RESOLVED: dict[tuple[int, Any], tuple[Any, str, dict[str, int]]] = {}


def prefer_options(table: dict[str, dict[str, Any]], state: State, policy: str | Tuned, meta) -> list[int]:
    """Generated packages: the rule answering the pending decision, or every option."""
    pending = state.pending
    name, values = resolve(meta, policy)
    rule = table[name].get(pending["at"])
    if rule is None:
        return list(range(len(pending["ids"])))
    return rule(state, pending, values)


def forbidden_options(table: dict[str, dict[str, Any]], state: State, policy: str | Tuned, meta) -> list[int]:
    """Generated packages: the pending options a `never` line of the answering rule marks."""
    pending = state.pending
    name, values = resolve(meta, policy)
    rule = table.get(name, {}).get(pending["at"])
    return [] if rule is None else rule(state, pending, values)


def masked(meta, state: State, seat: int) -> State:
    """`state`, or a shallow copy whose vars holding a card `seat` neither sees nor knows read
    as none."""
    card_vars, seen_by = _view_of(meta)
    hidden = []
    for i in card_vars:
        card = state.vars[i]
        if card is not None:
            slot = state.location[card]
            if (slot >= 0 and not state.revealed[slot] and seen_by[slot] is not True
                    and seen_by[slot] != seat and card not in state.knowledge[seat]):
                hidden.append(i)
    if not hidden:
        return state
    view = State.__new__(State)
    for name in State.__slots__:
        setattr(view, name, getattr(state, name))
    view.vars = list(state.vars)
    view.memo = {}  # what was kept of the state read the vars this view hides
    for i in hidden:
        view.vars[i] = None
    return view


# id(meta) -> (meta, the indices of the vars that hold a card, per zone slot who sees its cards)
_VIEWS: dict[int, tuple[Any, tuple[int, ...], tuple[Any, ...]]] = {}


def _view_of(meta) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """Worked out once per game's meta: the card vars, and per zone slot True (everyone sees
    its cards), the seat that owns it (only that seat does), or None (nobody, unless revealed):
    as rulespec.runtime.game.seen_slots decides."""
    found = _VIEWS.get(id(meta))
    if found is None or found[0] is not meta:
        card_vars = tuple(i for i, k in enumerate(meta.var_kinds) if k == "card")
        seen_by = []
        for slot in range(meta.zone_slots):
            zone, owner = meta.zone_of_slot(slot)
            seen_by.append(True if zone.visibility == "public" else
                           owner if zone.visibility == "owner" else None)
        found = _VIEWS[id(meta)] = (meta, card_vars, tuple(seen_by))
    return found[1], found[2]


class PolicyAgent:
    """Plays the options a spec policy likes best; ties by its own random stream."""

    def __init__(self, seed: int, policy: str | None = None):
        self.stream = Stream(seed * 0x27D4EB2F + 3)
        self.policy = policy

    def choose(self, game, decision) -> str:
        return decision.option_ids[self.pick(game.program, game.state)]

    def choose_index(self, game) -> int:
        return self.pick(game.program, game.state)

    def pick(self, program, state: State) -> int:
        """The index of the chosen pending option (MCTS rollouts call this on their worlds)."""
        policy = self.policy or program.meta.policies[0]
        seat = state.pending["player"]
        best = program.prefer(masked(program.meta, state, seat), policy)
        if len(best) == 1:
            return best[0]
        return best[next_random(self.stream) % len(best)]
