"""Each card's face for a play surface (the web table, the terminal's `? N`): its event in words.

The proof sheet's renderer writes them (sheet.py, sentences.py), so a card reads
at the table as it reads in `rulespec cards`; a spec that gives a card a
printed `text` attribute has that shown instead (runtime/playtest/table.py prefers it).
The attributes a card shows are chosen by one rule for every surface:
runtime.board.card_attributes.
"""

from __future__ import annotations

from typing import Any

from rulespec.compiler.frontend.model import Model
from rulespec.compiler.tools.cards.sheet import CardSheet, card_sheets, event_lines


NO_EVENT = "No event."


def card_faces(model: Model) -> dict[str, dict[str, Any]]:
    """Card id -> {"text": its event in words, a line per step}."""
    out = {}
    for sheet in card_sheets(model):
        out[sheet.name] = {"text": _words(sheet)}
    for card, instances in model.instances.items():  # a card per player: each instance's id
        face = out.pop(card, None)
        if face is not None:
            out.update({model.entities[i].name.name: face for i in instances})
    return out


def _words(sheet: CardSheet) -> str:
    if sheet.event is None and sheet.action is None:
        return NO_EVENT
    lines = []
    if sheet.event is not None:
        lines += [f"Only if {sheet.condition}:"] if sheet.condition else []
        # the steps one a line, the steps inside a step indented under it
        lines += [line[2:] if line.startswith("- ") else line for line in event_lines(sheet.event, 0)]
    if sheet.action is not None:
        only = f" (only if {sheet.action_condition})" if sheet.action_condition else ""
        lines += [f"Action{only}:"]
        lines += [line[2:] if line.startswith("- ") else line for line in event_lines(sheet.action, 0)]
    return "\n".join(lines).replace("`", "")
