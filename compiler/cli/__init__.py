"""The `rulespec` command line: wiring only, a module per command group.

base (the guard, shared options and steps), build (check, compile), games
(play, replay), table (serve, and play with a person in a seat), test, runs
(bench, fuzz, simulate), info, and the designer's
commands (compiler/designer_commands.py). Each command parses its arguments,
calls the library and prints; what a result holds and how a param is typed
live in the library (runtime/results.py, runtime/params.py, runtime/fuzz.py,
runtime/simulate.py, compiler/info.py, compiler/testrun.py). The contract
(commands, flags, --json keys) is docs/CLI.md. `python -m rulespec` and
`python -m compiler.cli` run it too.
"""

from __future__ import annotations

from . import build, games, info, runs, table, test  # noqa: F401 - each registers its commands
from .base import EXIT_ERROR, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UserError, main
from ..designer_commands import register as _register_designer_commands

_register_designer_commands(main)

__all__ = ["EXIT_ERROR", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "UserError", "main"]
