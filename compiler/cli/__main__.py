"""`python -m rulespec.compiler.cli`: the rulespec command line."""

from rulespec.compiler.cli import main

main(prog_name="rulespec")
