"""`python -m rulespec COMMAND ...`: the same as the `rulespec` console script."""

from rulespec.compiler.cli import main

main(prog_name="rulespec")
