"""The params a spec declares: their types and the values each may take, checked in one place.

A param enters a game from the command line (`--param NAME=VALUE`, as text),
from a record (JSON values) or from a designer test; `check_params` stands
between every one of them and a new game state (rulespec.runtime.game.new_state), so
no game ever runs with a value its spec does not allow.

A domain is ("range", (low, high)) for an int, ("choices", values) for an
enum, a player (by index), an entity (by index) or a bool, ("text", ()) for
a str; GameMeta.param_domains holds one per param (packages made before
domains existed have none, and only the types are checked).
"""

from __future__ import annotations

import re
from typing import Any

from rulespec.runtime.meta import GameMeta
from rulespec.runtime.text import shown

MAX_INT = 2**63 - 1
MAX_TEXT = 200  # characters of a str param
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class ParamError(Exception):
    """A param the spec does not declare, or a value it does not allow: one line."""


def declared(meta: GameMeta) -> dict[str, tuple[str, Any, tuple]]:
    """name -> (type, default, domain) of every param the spec declares."""
    domains = dict(meta.param_domains) if meta.param_domains else {}
    return {name: (kind, default, domains.get(name, _by_type(meta, kind)))
            for name, kind, default in meta.params}


def _by_type(meta: GameMeta, kind: str) -> tuple:
    """The domain of a param from a package without domains: what its type alone allows."""
    if kind == "int":
        return ("range", (-MAX_INT, MAX_INT))
    if kind == "bool":
        return ("choices", (False, True))
    if kind == "player":
        return ("choices", tuple(range(len(meta.players))))
    if kind == "str":
        return ("text", ())
    return ("unknown", ())


def describe(meta: GameMeta, kind: str, domain: tuple) -> str:
    """The values a domain allows, as a person would write them on the command line."""
    what, values = domain
    if what == "range":
        low, high = values
        if (low, high) == (-MAX_INT, MAX_INT):
            return "a whole number"
        return f"a whole number from {low} to {high}"
    if what == "choices":
        names = [_text(meta, kind, v) for v in values]
        return "one of " + ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    if what == "text":
        return f"a text of at most {MAX_TEXT} characters"
    return "a value of its type"


def parse_param(meta: GameMeta, pair: str) -> tuple[str, Any]:
    """`NAME=VALUE` from the command line: the name and its typed, allowed value."""
    name, sep, text = pair.partition("=")
    name, text = name.strip(), text.strip()
    if not sep or not name:
        raise ParamError(f"bad --param {shown(pair)}: expected NAME=VALUE")
    params = declared(meta)
    if name not in params:
        raise ParamError(f"unknown param '{shown(name)}' ({meta.game} declares:"
                         f" {', '.join(params) or 'none'})")
    kind, _, domain = params[name]
    value = _from_text(meta, kind, domain, text)
    if value is _BAD:
        raise ParamError(f"param '{name}' is {describe(meta, kind, domain)}, not {shown(text)}")
    return name, check_value(meta, name, value)


_BAD = object()
_SWEEP = re.compile(r"(-?[0-9]{1,18})\s*\.\.\s*(-?[0-9]{1,18})")


def parse_sweep(meta: GameMeta, pair: str) -> tuple[str, int, int]:
    """`NAME=LOW..HIGH` (rulespec balance): an int param and a range inside the one it declares."""
    name, sep, text = pair.partition("=")
    name, text = name.strip(), text.strip()
    found = _SWEEP.fullmatch(text)
    if not sep or not name or found is None:
        raise ParamError(f"bad --param {shown(pair)}: the param to sweep is NAME=LOW..HIGH,"
                         f" two whole numbers")
    params = declared(meta)
    if name not in params:
        raise ParamError(f"unknown param '{shown(name)}' ({meta.game} declares:"
                         f" {', '.join(params) or 'none'})")
    kind, _, domain = params[name]
    if kind != "int" or domain[0] != "range":
        raise ParamError(f"param '{name}' is {describe(meta, kind, domain)}, not a whole number:"
                         f" only an int param can be swept over LOW..HIGH")
    low, high = int(found.group(1)), int(found.group(2))
    if low > high:
        raise ParamError(f"--param {name}={low}..{high}: the range is empty (LOW above HIGH)")
    if low < domain[1][0] or high > domain[1][1]:
        raise ParamError(f"param '{name}' is {describe(meta, kind, domain)}: {low}..{high} goes"
                         f" outside it")
    return name, low, high


def split_sweep(meta: GameMeta, pairs: tuple[str, ...]) -> tuple[str, int, int, dict[str, Any]]:
    """`balance`'s --param pairs: the one NAME=LOW..HIGH it sweeps, and the others, held fixed."""
    swept = [p for p in pairs if ".." in p.partition("=")[2]]
    if len(swept) != 1:
        raise ParamError(f"balance sweeps one int param: give one --param NAME=LOW..HIGH"
                         f" ({len(swept)} given)")
    name, low, high = parse_sweep(meta, swept[0])
    if name == meta.seats_param:
        raise ParamError(f"param '{name}' says how many play: balance compares the split of one"
                         f" table, so sweep a param that leaves the seats as they are")
    fixed = dict(parse_param(meta, p) for p in pairs if p is not swept[0])
    if name in fixed:
        raise ParamError(f"param '{name}' is both swept and fixed")
    return name, low, high, fixed


def _from_text(meta: GameMeta, kind: str, domain: tuple, text: str) -> Any:
    if kind == "int":
        digits = text.lstrip("+-")
        if not digits.isdigit() or not digits.isascii() or len(digits) > len(str(MAX_INT)):
            return _BAD
        return int(text)
    if kind == "bool":
        lowered = text.lower()
        return True if lowered in TRUE else False if lowered in FALSE else _BAD
    if kind == "str":
        return text
    for value in domain[1] if domain[0] == "choices" else ():
        if _text(meta, kind, value) == text:
            return value
    return _BAD


def check_value(meta: GameMeta, name: str, value: Any) -> Any:
    """`value` when param `name` may take it, else ParamError saying what it may take."""
    kind, _, domain = declared(meta)[name]
    if not _allowed(kind, domain, value):
        raise ParamError(f"param '{name}' is {describe(meta, kind, domain)}, not"
                         f" {shown(_text(meta, kind, value))}")
    return value


def _allowed(kind: str, domain: tuple, value: Any) -> bool:
    what, values = domain
    if what == "range":
        return isinstance(value, int) and not isinstance(value, bool) and values[0] <= value <= values[1]
    if what == "choices":
        return any(value == v and type(value) is type(v) for v in values)
    if what == "text":
        return isinstance(value, str) and len(value) <= MAX_TEXT
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def check_params(meta: GameMeta, values: Any) -> dict[str, Any]:
    """The params of a new game (a dict of declared names and allowed values), or ParamError."""
    if not isinstance(values, dict):
        raise ParamError(f"params must be names with values, not {shown(values)}")
    params = declared(meta)
    for name, value in values.items():
        if name not in params:
            raise ParamError(f"unknown param '{shown(name)}' ({meta.game} declares:"
                             f" {', '.join(params) or 'none'})")
        check_value(meta, name, value)
    return dict(values)


def value_text(meta: GameMeta, name: str, value: Any) -> str:
    """A value of param `name` in the language's words (`false`, a player by name): what the CLI prints."""
    return _text(meta, declared(meta)[name][0], value)


def _text(meta: GameMeta, kind: str, value: Any) -> str:
    """A value as the command line writes it: players and entities by name."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind == "player" and isinstance(value, int) and 0 <= value < len(meta.players):
        return meta.players[value]
    if kind not in ("int", "str", "bool", "player") and isinstance(value, int) \
            and not isinstance(value, bool) and 0 <= value < len(meta.entity_ids):
        return meta.entity_ids[value]
    return str(value)


def params_json(meta: GameMeta) -> dict[str, dict[str, Any]]:
    """name -> {type, default, default_text (as the language writes it: `false`, a player's
    name), values (in words), and range [low, high] or choices}: for `info`."""
    out = {}
    for name, (kind, default, domain) in declared(meta).items():
        entry: dict[str, Any] = {"type": kind, "default": default,
                                 "default_text": value_text(meta, name, default),
                                 "values": describe(meta, kind, domain)}
        what, values = domain
        if what == "range":
            entry["range"] = list(values)
        elif what == "choices":
            entry["choices"] = [_text(meta, kind, v) for v in values]
        out[name] = entry
    return out
