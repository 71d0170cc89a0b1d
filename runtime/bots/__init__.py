"""The bots: the agents that choose a seat's options (random, greedy, the spec's policies)
and the searches over them (search, rollout, mcts).

May import the kernel (rulespec.runtime) only; the analyses and the table import them.
"""
