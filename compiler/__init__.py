"""The compiler, in the order the pipeline runs: frontend/ (spec text to a checked model),
backends/ (the model to an engine: generated Python, the interpreter, the native build),
tools/ (the designer's tools around them), cli/ (the `rulespec` command)."""
