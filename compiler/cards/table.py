"""Each card's event in words for a play surface (the web table, the terminal seat).

The proof sheet's renderer writes it (sheet.py, sentences.py), so a card reads
at the table as it reads in `rulespec cards`; a spec that gives a card a
printed `text` attribute has that shown instead (runtime/table.py prefers it).
"""

from __future__ import annotations

from ..model import Model
from .sheet import card_sheets, event_lines


def card_texts(model: Model) -> dict[str, str]:
    """Card id -> its event in words, a line per step ('' for a card without an event)."""
    out = {}
    for sheet in card_sheets(model):
        if sheet.event is None:
            out[sheet.name] = ""
            continue
        only = [f"Only if {sheet.condition}:"] if sheet.condition else []
        # the steps one a line, the steps inside a step indented under it
        lines = only + [line[2:] if line.startswith("- ") else line for line in event_lines(sheet.event, 0)]
        out[sheet.name] = "\n".join(lines).replace("`", "")
    return out
