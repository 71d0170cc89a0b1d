"""The analyses: games played in bulk and what they say (simulate, balance, stats, report,
card_uses, duel, ladder, tune, bench, fuzz).

May import the kernel (rulespec.runtime) and the bots (rulespec.runtime.bots); never the table.
"""
