"""Terraforming Mars, builder bots in every seat: who funds awards, who claims milestones, mean
score by seat; who passes first and who acts alone, by role (the generation's first player or
not); the first seat's win rate by who was first player in the last generation.

Usage (docs/history/BENCHMARKS-journal.md, "First player's advantage"):
    PYTHONPATH=. python docs/tm_seat_trace.py PLAYERS GAMES [FIRST_SEED [SPEC_FOLDER]]
seeds FIRST_SEED (default 1) onwards; the committed package, or a build of SPEC_FOLDER.
"""
import collections, importlib, math, statistics, sys
from pathlib import Path
from rulespec.compiler.backends import engine
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game
from rulespec.runtime.bots.agents import seat_agents

n, games = int(sys.argv[1]), int(sys.argv[2])
first_seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
folder = Path(sys.argv[4]) if len(sys.argv) > 4 else Path(__file__).parent.parent / "spec" / "terraforming_mars"
program = engine.load_program(load_spec(folder), "generated")
score_of = importlib.import_module(type(program).__module__ + ".rules").d_score  # the spec's score()
slot = {t.name: t.slot for t in program.meta.tracks}
fund = collections.Counter(); fund_g1 = collections.Counter(); ms = collections.Counter()
garden = collections.Counter(); score = collections.Counter()
first_passes = collections.Counter(); alone = collections.Counter(); wins_by_last = collections.defaultdict(collections.Counter)
edge = {"generation 1": [], "later": [], "last, with the final scoring": []}  # VP the generation's first player gained minus the others' mean


def scores(g):
    return [score_of(g.state, i) for i in range(len(g.players))]


def first_player_edge(g, before, opener):
    after = scores(g); gained = [a - b for a, b in zip(after, before)]
    me = g.players.index(opener)
    return after, gained[me] - sum(x for i, x in enumerate(gained) if i != me) / (len(gained) - 1)
for seed in range(first_seed, first_seed + games):
    g = Game(program, seed=seed, params={"players": n})
    bots = seat_agents(("policy",) * n, g.players, seed)
    opener, passer = {}, {}  # generation -> the first to act, the first to pass
    before, last_generation = None, 1
    while not g.over:
        d = g.decision; c = bots[d.player].choose(g, d)
        generation = g.state.tracks[slot["generation"]]
        if d.prompt == "Your action" and before is None:
            before = scores(g)  # the first action of the game: the set-up is done
        if generation != last_generation and last_generation in opener:  # production is done
            before, gain = first_player_edge(g, before, opener[last_generation])
            edge["generation 1" if last_generation == 1 else "later"].append(gain)
        last_generation = generation
        if d.prompt == "Your action":
            opener.setdefault(generation, d.player)
            role = "first player" if d.player == opener[generation] else "other"
            passed = g.tracks()["passed"]
            if all(passed[p] for p in g.players if p != d.player):
                alone[role] += 1
            if c == "pass" and generation not in passer:
                passer[generation] = d.player
                first_passes[role] += 1
        if d.prompt == "Which award?":
            fund[d.player] += 1
            if generation == 1: fund_g1[d.player] += 1
        if d.prompt == "Which milestone?":
            ms[d.player] += 1
            if c == "m_gardener": garden[d.player] += 1
        g.choose(c)
    for i, p in enumerate(g.players): score[p] += score_of(g.state, i)
    if last_generation > 1:
        edge["last, with the final scoring"].append(first_player_edge(g, before, opener[last_generation])[1])
    wins_by_last[opener[max(opener)]][g.winner] += 1
print("awards funded", dict(sorted(fund.items())), "in generation 1", dict(sorted(fund_g1.items())))
print("milestones", dict(sorted(ms.items())), "gardener", dict(sorted(garden.items())))
print("mean score", {p: round(v / games, 1) for p, v in sorted(score.items())})
for name, gains in edge.items():
    if len(gains) > 1:
        print(f"first player's VP gain minus the others', {name}: {statistics.mean(gains):+.2f}"
              f" +- {statistics.stdev(gains) / math.sqrt(len(gains)):.2f} ({len(gains)} generations)")
print("first to pass in a generation", dict(first_passes), "actions taken alone", dict(alone))
for p, won in sorted(wins_by_last.items()):
    total = sum(won.values())
    print(f"{p} first player in the last generation: {total} games, {g.players[0]} won {won[g.players[0]] / total:.3f}")
