"""Python names for spec names: one prefix per kind of thing, never a keyword.

Spec text never reaches generated code except through `mangle` (names) and
`repr` (literals). Every prefix is letters followed by one underscore and no
prefix begins another, so two different (prefix, name) pairs never collide,
and the helpers of the generated package (unprefixed) never meet a user name.
"""

from __future__ import annotations

import keyword
import re

from rulespec.compiler.frontend.errors import InternalError

PREFIXES = {
    "local": "v_",        # a local of a plain function
    "bound": "c_",        # a variable of a comprehension (count, any, sum, where)
    "define": "d_",
    "quantity": "q_",
    "allowed": "allowed_",
    "procedure": "p_",    # a procedure that never suspends: a plain function
    "step": "s_",         # a procedure that may suspend: a resumable step function
    "event": "ev_",
    "event_step": "sev_",
    "event_when": "when_",
    "action": "ac_",       # a card's action (`action { }` beside its event)
    "action_step": "sac_",
    "action_when": "aw_",
    "trigger": "t_",
    "trigger_step": "st_",
    "wrapper": "w_",      # a frame that runs a plain function
    "emit": "emit_",
    "invariant": "inv_",
    "bot": "bot_",
    "policy": "pol_",     # one rule of a policy
    "never": "nev_",      # the options its `never` lines mark
    "test_block": "tb_",
    "test_expect": "tx_",  # a test file's table of expectations
    "test_sides": "ts_",   # and of the two sides of each comparison in them
    "attribute": "A_",
    "entity": "E_",       # an entity's index, by name
    "kind": "K_",
    "kind_set": "KS_",
    "region": "R_",
    "region_set": "RS_",
    "enum": "N_",         # an enum's values, in order (a collection)
    "enum_index": "NI_",  # and each value's place among them (a track on the enum)
}

_PREFIX_RE = re.compile(r"^[A-Za-z]+_")


def mangle(kind: str, name: str) -> str:
    """The Python identifier for a spec name of this kind."""
    instance = re.fullmatch(r"([A-Za-z0-9_]+)\(([A-Za-z0-9_]+)\)", name)
    if instance:  # a player's instance of a card of a kind `per player`: card(player)
        name = f"{instance.group(1)}__{instance.group(2)}"
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise InternalError(f"not a spec name: {name!r}")
    result = PREFIXES[kind] + name
    if keyword.iskeyword(result) or not result.isidentifier():
        raise InternalError(f"mangled name {result!r} is not a usable identifier")
    return result


def check_helper(name: str) -> str:
    """A helper of the generated package must never look like a mangled name."""
    match = _PREFIX_RE.match(name)
    if match and match.group(0) in PREFIXES.values():
        raise InternalError(f"helper name {name!r} collides with a prefix")
    return name


def _check_prefixes() -> None:
    values = list(PREFIXES.values())
    for a in values:
        if not re.fullmatch(r"[A-Za-z]+_", a):
            raise InternalError(f"bad prefix {a!r}")
        for b in values:
            if a != b and b.startswith(a):
                raise InternalError(f"prefix {a!r} begins {b!r}")


_check_prefixes()
