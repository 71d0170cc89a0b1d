"""`python -m compiler.cli`: the rulespec command line."""

from compiler.cli import main

main(prog_name="rulespec")
