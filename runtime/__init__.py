"""The game-agnostic runtime. Its hot modules load from their native builds where the
rulespec cache has them (runtime/native.py)."""

from rulespec.runtime.native import install

install()
