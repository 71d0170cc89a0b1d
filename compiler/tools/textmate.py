"""A TextMate grammar for editors' highlighting, made from the lark grammar's own keywords."""

from __future__ import annotations

import json
import re
from importlib import resources

_LITERAL = re.compile(r'"([a-z_]+)"')
CONSTANTS = ("true", "false", "none")
OPERATORS = ("and", "or", "not", "in")


def keywords() -> list[str]:
    """Every word the grammar spells out (`procedure`, `chooses`, `until`, ...), sorted."""
    grammar = resources.files("rulespec.compiler.frontend").joinpath("grammar.lark").read_text()
    return sorted({m.group(1) for m in _LITERAL.finditer(grammar)} - set(CONSTANTS) - set(OPERATORS))


def textmate_grammar() -> dict:
    words = "|".join(keywords())
    return {
        "name": "rulespec",
        "scopeName": "source.rulespec",
        "fileTypes": ["rules"],
        "patterns": [
            {"name": "comment.line.number-sign.rulespec", "match": "#.*$"},
            {"name": "string.quoted.double.rulespec", "begin": '"', "end": '"',
             "patterns": [{"name": "constant.character.escape.rulespec", "match": "\\\\."}]},
            {"name": "constant.numeric.rulespec", "match": "\\b[0-9]+\\b"},
            {"name": "constant.language.rulespec", "match": f"\\b({'|'.join(CONSTANTS)})\\b"},
            {"name": "keyword.operator.word.rulespec", "match": f"\\b({'|'.join(OPERATORS)})\\b"},
            {"name": "keyword.control.rulespec", "match": f"\\b({words})\\b"},
            {"name": "keyword.operator.rulespec", "match": "==|!=|<=|>=|->|--|\\.\\.|[-+*/%<>=]"},
            {"name": "entity.name.function.rulespec", "match": "\\b[A-Za-z_][A-Za-z0-9_]*(?=\\()"},
        ],
    }


def textmate_json() -> str:
    return json.dumps(textmate_grammar(), indent=2, sort_keys=False) + "\n"
