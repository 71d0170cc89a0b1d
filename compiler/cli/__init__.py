"""The `rulespec` command line: wiring only, a module per command group.

base (the guard, shared options and steps), build (check, compile), games
(play, replay), table (serve, and play with a person in a seat), test, runs
(bench, fuzz, simulate), info, and the designer's
commands (compiler/tools/designer_commands.py). Each command parses its arguments,
calls the library and prints; what a result holds and how a param is typed
live in the library (runtime/results.py, runtime/params.py, runtime/analysis/fuzz.py,
runtime/analysis/simulate.py, compiler/tools/info.py, compiler/tools/testrun.py). The contract
(commands, flags, --json keys) is docs/CLI.md. `python -m rulespec` and
`python -m rulespec.compiler.cli` run it too. A command's module is imported only when
that command runs (base.COMMAND_MODULES), so a quick command stays quick.
"""

from __future__ import annotations

from rulespec.compiler.cli.base import EXIT_ERROR, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UserError, main

# Each command's module is imported when the command is looked up (base.COMMAND_MODULES).

__all__ = ["EXIT_ERROR", "EXIT_INTERNAL", "EXIT_OK", "EXIT_USAGE", "UserError", "main"]
