"""rulespec: `python -m rulespec` runs the command line (compiler/cli/)."""
