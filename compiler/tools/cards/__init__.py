"""`rulespec cards`: proof sheets of every card, its event put back into words from the checked AST.

words.py writes expressions, sentences.py statements (and the lasting
effects an event starts), sheet.py gathers each card's data, words, spec
text and line; html.py writes the sheets as one page.
"""

from __future__ import annotations

from rulespec.compiler.tools.cards.sentences import Line
from rulespec.compiler.tools.cards.sheet import CardSheet, card_sheets, sheet_text

__all__ = ["CardSheet", "Line", "card_sheets", "sheet_text"]
