"""Terraforming Mars, builder bots in every seat: who funds awards, who claims milestones, mean score by seat.

Usage (docs/BENCHMARKS.md, "First player's advantage"):
    PYTHONPATH=. python docs/tm_seat_trace.py PLAYERS GAMES      # seeds 1..GAMES, the committed package
"""
import sys, collections
from generated.terraforming_mars import PROGRAM, rules as R
from runtime.game import Game
from runtime.agents import seat_agents
n = int(sys.argv[1]); games = int(sys.argv[2])
ids = PROGRAM.meta.entity_ids
fund = collections.Counter(); fund_g1 = collections.Counter(); ms = collections.Counter(); garden = collections.Counter(); score = collections.Counter()
for seed in range(1, games + 1):
    g = Game(PROGRAM, seed=seed, params={"players": n})
    bots = seat_agents(("policy",) * n, g.players, seed)
    while not g.over:
        d = g.decision; c = bots[d.player].choose(g, d)
        if d.prompt == "Which award?":
            fund[d.player] += 1
            if g.state.tracks[[t.slot for t in g.meta.tracks if t.name == "generation"][0]] == 1: fund_g1[d.player] += 1
        if d.prompt == "Which milestone?":
            ms[d.player] += 1
            if c == "m_gardener": garden[d.player] += 1
        g.choose(c)
    for i, p in enumerate(g.players): score[p] += R.d_score(g.state, i)
print("awards funded", dict(sorted(fund.items())), "in generation 1", dict(sorted(fund_g1.items())))
print("milestones", dict(sorted(ms.items())), "gardener", dict(sorted(garden.items())))
print("mean score", {p: round(v / games, 1) for p, v in sorted(score.items())})
