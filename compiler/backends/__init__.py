"""The back ends: a checked model to an engine the runtime runs.

codegen/ emits the generated Python package (jinja2, black); interpret and evaluate walk the
AST directly (the reference); native builds the generated package with Cython; packages and
engine find, import and pick the engine that runs a spec; policy and testplan compile the
spec's policies and designer tests for both; machine/ lays out the state as machine data for
the native back end to come (issue 41, docs/NATIVE.md). May import the front end and the runtime's kernel.
"""
