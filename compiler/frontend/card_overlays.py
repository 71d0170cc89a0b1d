"""The overlays `rulespec worth` plays a card under, made from the spec for any card of any game.

- **blank**: the card stays in the game and is dealt, drawn and played as ever, but its
  own event and action do nothing (`resolve` passes it by), nor do its `while in`
  abilities (modifiers, forbids, triggers, allows) wherever it lies.
- **removed**: the card is out of the game before the first deal: it never enters the
  first zone, and no move brings it in.

Neither is a compiled variant: both are switches of the one package (the state's
`blanked` cards, and the location `OUT` of a removed card, runtime/state.py), which the
generated code and the interpreter honour alike, so a table of 110 cards costs no compile.
This module decides which cards may take which overlay, as the variant checks would: a
card with no event, action or ability has nothing to blank, and a card a rule names by id may not
be removed (the rule would read a card that is not there). It also reads, from the
spec's own declarations, the side a card favours and the group it is ranked in.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import did_you_mean
from rulespec.compiler.frontend.model import Model

MODES = ("blank", "removed")


class OverlayError(ValueError):
    """A card that cannot be played under the overlay asked for, or is unknown: one line."""


@dataclass(frozen=True)
class CardFacts:
    """A card as `worth` reports it, in the spec's words."""

    card: str  # the spec's id
    label: str
    indexes: tuple[int, ...]  # its entities: one, or one per player for a kind `per player`
    side: str | None  # the player its first player attribute names; None: neutral
    group: tuple[str, str] | None  # (attribute, value) of its first enum attribute: what it ranks among
    has_effect: bool  # an event, an action or a `while in` ability to blank
    named_at: str | None  # where a rule (not the card itself, not a test) names it by id


def card_facts(model: Model) -> dict[str, CardFacts]:
    """Every card of the spec, in declaration order (each card of a per-player kind once)."""
    named = _named_by_rules(model)
    instance_of = {i: name for name, indexes in model.instances.items() for i in indexes}
    out: dict[str, CardFacts] = {}
    for index, entity in enumerate(model.entities):
        kind = model.kinds.get(entity.kind.name)
        name = instance_of.get(index, entity.name.name)
        if kind is None or kind.category != "card" or name in out:
            continue
        indexes = model.instances.get(name) or (index,)
        attrs = model.entity_attrs[index]
        out[name] = CardFacts(name, entity.label, tuple(indexes), _side(model, kind, attrs),
                              _group(model, kind, attrs), bool(entity.events or entity.actions or entity.abilities),
                              named.get(name))
    return out


def _side(model: Model, kind: ast.KindDecl, attrs: dict) -> str | None:
    for f in kind.fields:
        if f.type.name == "player" and isinstance(attrs.get(f.name.name), int):
            return model.players[attrs[f.name.name]]
    return None


def _group(model: Model, kind: ast.KindDecl, attrs: dict) -> tuple[str, str] | None:
    for f in kind.fields:
        if f.type.name in model.enums and f.on is None and isinstance(attrs.get(f.name.name), str):
            return f.name.name, attrs[f.name.name]
    return None


def _named_by_rules(model: Model) -> dict[str, str]:
    """Card ids a declaration other than the card's own (and other than a test) names, with
    the first place that does."""
    cards = {e.name.name for e in model.entities} | set(model.instances)
    found: dict[str, str] = {}
    for decl in model.spec.decls():
        if isinstance(decl, (ast.TestDecl, ast.ChangesDecl)):
            continue
        own = decl.name.name if isinstance(decl, ast.EntityDecl) else None
        for node in decl.walk():
            name = node.name if isinstance(node, ast.NameRef) else None
            if name in cards and name != own and name not in found:
                found[name] = f"{node.span.file}:{node.span.line}:{node.span.column}"
    return found


def why_not(facts: CardFacts, mode: str) -> str | None:
    """Why the card cannot take the overlay, in one line; None when it can."""
    if mode == "blank" and not facts.has_effect:
        return (f"card '{facts.card}' has no event, action or ability to blank; --as removed"
                f" takes it out of the game instead")
    if mode == "removed" and facts.named_at is not None:
        return (f"card '{facts.card}' cannot be removed: a rule names it ({facts.named_at});"
                f" --as blank plays it without its event instead")
    return None


def choose_cards(model: Model, asked: str, mode: str) -> tuple[list[CardFacts], list[str]]:
    """The cards `--cards` asks for under `--as mode`, and for `all` the ones left out (with why).

    `all` is every card that can take the overlay; named cards (`ID,ID`) must each exist and
    take it, else OverlayError."""
    if mode not in MODES:
        raise OverlayError(f"--as takes {' or '.join(MODES)}, not '{mode}'")
    facts = card_facts(model)
    if not facts:
        raise OverlayError(f"{model.game} has no cards to weigh")
    if asked.strip() == "all":
        chosen = [f for f in facts.values() if why_not(f, mode) is None]
        left = [why_not(f, mode) for f in facts.values() if why_not(f, mode) is not None]
        if not chosen:
            raise OverlayError(f"no card of {model.game} can be played as {mode}: {left[0]}")
        return chosen, left
    chosen = []
    for name in (n.strip() for n in asked.split(",")):
        if name not in facts:
            raise OverlayError(f"no card '{name}' in {model.game}{did_you_mean(name, list(facts))}")
        problem = why_not(facts[name], mode)
        if problem:
            raise OverlayError(problem)
        if facts[name] not in chosen:
            chosen.append(facts[name])
    return chosen, []


# ------------------------------------------------------------------ a card's printed number


@dataclass(frozen=True)
class AttributeRange:
    """`--param-of CARD.ATTR=LO..HI`: a card's whole-number attribute and the values to play."""

    card: str
    attribute: str
    printed: int
    values: tuple[int, ...]

    def setting(self, value: int) -> tuple[str, str, int]:
        return (self.card, self.attribute, value)


MAX_VALUES = 200  # values a sweep may cover, as balance's


def attribute_range(model: Model, text: str) -> AttributeRange:
    """Read CARD.ATTR=LO..HI against the spec: a card it has, a whole-number attribute of that
    card's kind, LO <= HI, at most MAX_VALUES values; else OverlayError."""
    where, _, span = text.partition("=")
    card, _, attribute = where.strip().partition(".")
    low, dots, high = span.partition("..")
    if not (card and attribute and dots) or not _whole(low) or not _whole(high):
        raise OverlayError(f"--param-of takes CARD.ATTRIBUTE=LOW..HIGH (whole numbers), not '{text}'")
    facts = card_facts(model)
    if card not in facts:
        raise OverlayError(f"no card '{card}' in {model.game}{did_you_mean(card, list(facts))}")
    entity = model.entities[facts[card].indexes[0]]
    fields = {f.name.name: f for f in model.kinds[entity.kind.name].fields}
    if attribute not in fields:
        raise OverlayError(f"card '{card}' has no attribute '{attribute}'{did_you_mean(attribute, list(fields))}"
                           f" (its kind {entity.kind.name} has: {', '.join(fields)})")
    printed = model.entity_attrs[facts[card].indexes[0]].get(attribute)
    if fields[attribute].type.name != "int" or fields[attribute].on is not None or not isinstance(printed, int):
        raise OverlayError(f"attribute '{attribute}' of card '{card}' is not a whole number:"
                           f" only a number can be played over LOW..HIGH")
    lo, hi = int(low), int(high)
    if lo > hi:
        raise OverlayError(f"--param-of {where.strip()}={lo}..{hi} is empty: LOW must not be above HIGH")
    if hi - lo + 1 > MAX_VALUES:
        raise OverlayError(f"--param-of {where.strip()}={lo}..{hi} holds {hi - lo + 1:,} values;"
                           f" worth plays at most {MAX_VALUES}")
    return AttributeRange(card, attribute, printed, tuple(range(lo, hi + 1)))


def _whole(text: str) -> bool:
    digits = text.strip().removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) <= 18


def with_attributes(files: tuple[ast.SpecFile, ...], settings: tuple[tuple[str, str, int], ...]
                    ) -> tuple[ast.SpecFile, ...]:
    """The spec's files with each (card, attribute, value) written on the card, as if printed so."""
    wanted: dict[str, dict[str, int]] = {}
    for card, attribute, value in settings:
        wanted.setdefault(card, {})[attribute] = value
    out = []
    for file in files:
        decls = []
        for decl in file.decls:
            if isinstance(decl, ast.EntityDecl) and decl.name.name in wanted:
                decl = _reprinted(decl, wanted[decl.name.name])
            decls.append(decl)
        out.append(dataclasses.replace(file, decls=tuple(decls)))
    return tuple(out)


def _reprinted(entity: ast.EntityDecl, values: dict[str, int]) -> ast.EntityDecl:
    kept = [a for a in entity.attributes if a.name.name not in values]
    for name, value in values.items():
        span = next((a.span for a in entity.attributes if a.name.name == name), entity.span)
        kept.append(ast.AttributeValue(span, ast.Ident(span, name), ast.IntLit(span, value)))
    return dataclasses.replace(entity, attributes=tuple(kept))


def settings_text(settings: tuple[tuple[str, str, int], ...]) -> str:
    """How a build with reprinted cards is named and hashed: 'card.attr=3,...'."""
    return ",".join(f"{card}.{attribute}={value}" for card, attribute, value in sorted(settings))
