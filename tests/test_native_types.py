"""The declarations a native build types its code with: read off generated source, and the
state's own (runtime/state.pxd), which must declare exactly the state's fields."""

from __future__ import annotations

import re

from rulespec.compiler.backends.native_types import declarations
from rulespec.runtime.state import State
from support import REPO

SOURCE = b'''
def d_plain(state, v_p, v_c):
    return state.counters[1 + v_p][v_c]

def d_closure(state, v_p):
    return any(c > v_p for c in state.tracks)

def d_lambda(state):
    return sorted(state.zones[0], key=lambda c: -c)

def p_default(state, frame=None):
    return frame

def helper(meta, state):
    return meta

def s_step(state, frame):
    out = [c for c in state.zones[frame["z"]]]  # a list comprehension is no closure
    return out
'''


def test_functions_of_the_state_without_closures_are_typed():
    declared = declarations(SOURCE).splitlines()
    assert "from rulespec.runtime.state cimport State" in declared
    cpdefs = [line for line in declared if line.startswith("cpdef")]
    assert cpdefs == ["cpdef d_plain(State state, v_p, v_c)", "cpdef s_step(State state, frame)"]


def test_the_state_declarations_name_every_field_once():
    text = (REPO / "runtime" / "state.pxd").read_text(encoding="utf-8")
    fields = [name.strip() for line in re.findall(r"cdef public \w+ (.+)", text)
              for name in line.split(",")]
    assert sorted(fields) == sorted(State.__slots__)
    assert len(fields) == len(set(fields))
