"""The playtest table: people in seats, at the terminal (terminal) or in the browser (web),
over one game session (table) and its log as each seat saw it (movelog).

May import the kernel (rulespec.runtime) and the bots (rulespec.runtime.bots); never the analyses.
"""
