"""The designer's tools around the pipeline: the editor server (lsp, editing, hovers),
card proof sheets (cards/), the spec's reference (reference/), the starter game (starter/),
designer tests (testrun), tuning, the playtest table's wiring (playtest) and info.

May import the front end, the back ends and the runtime; the command line (compiler/cli/)
imports them.
"""
