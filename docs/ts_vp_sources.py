"""Twilight Struggle, policy bots on both seats: where each side's victory points come from.

Usage (docs/history/BENCHMARKS-journal.md, "Twilight Struggle balance with the default policy"):
    PYTHONPATH=. python docs/ts_vp_sources.py GAMES [AGENT]     # seeds 1..GAMES, the committed package

Every VP change is caught where the spec makes it (region scoring, the military operations
check, gain_vp called by a war, the space race, final scoring's China card, or an event) and
credited to the side it helps; printed as the mean VP a game per side and source, the mean VP
(positive: USA ahead) after each turn, and the end reasons. Games are the same as
`rulespec simulate twilight_struggle --games GAMES --agents AGENT` plays (same seeds, bots).
"""
import collections
import re
import sys

from rulespec.generated.twilight_struggle import PROGRAM, procedures as P
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game

META = PROGRAM.meta
IDS = META.entity_ids
SLOT = {t.name: t.slot for t in META.tracks}
VAR = {name: i for i, (name, _) in enumerate(META.vars)}
WARS = ("Early War", "Mid War", "Late War")
gained: collections.Counter = collections.Counter()  # (side, source) -> VP
by_war: collections.Counter = collections.Counter()  # (side, war) -> VP
now: list = [None]  # the state being played


def credit(side: str, source: str, n: int) -> None:
    if n < 0:
        side, n = ("ussr" if side == "usa" else "usa"), -n
    if n:
        gained[(side, source)] += n
        turn = now[0].tracks[SLOT["turn"]]
        by_war[(side, WARS[0 if turn <= 3 else 1 if turn <= 7 else 2], source)] += n


def wrap_scoring(name: str) -> None:
    inner = getattr(P, name)

    def scored(state, *args):
        before = len(state.log)
        inner(state, *args)
        for line in state.log[before:]:
            m = re.match(r"(.*) scored: USA (-?\d+) USSR (-?\d+)", line)
            if m:
                kind = "final scoring" if state.vars[VAR["in_final_scoring"]] else "scoring card"
                credit("usa", f"{kind} {m[1]}", int(m[2]))
                credit("ussr", f"{kind} {m[1]}", int(m[3]))
    setattr(P, name, scored)


def milops_check(state, inner=P.p_military_operations_check):
    defcon = state.tracks[SLOT["defcon"]]
    for i, side in enumerate(META.players):
        short = max(0, defcon - state.tracks[SLOT["milops"] + i])
        credit("usa" if side == "ussr" else "ussr", "military operations check", short)
    inner(state)


def gain_vp(state, p, n, inner=P.p_gain_vp):
    caller = sys._getframe(1).f_code.co_name
    if caller == "p_space_race_advance":
        source = "space race"
    elif caller == "p_final_scoring":
        source = "final scoring China card"
    else:
        card = state.vars[VAR["card_being_played"]]
        if card is None:  # a lasting effect's trigger (We Will Bury You): named by its function
            source = "trigger " + caller.split("_", 1)[1]
        else:
            source = ("war " if caller == "p_war" else "event ") + IDS[card]
    credit(META.players[p], source, n)
    inner(state, p, n)


def main(argv: list[str]) -> None:
    games = int(argv[0])
    agent = argv[1] if len(argv) > 1 else "policy"
    wrap_scoring("p_score_region")
    P.p_military_operations_check = milops_check
    P.p_gain_vp = gain_vp
    reasons: collections.Counter = collections.Counter()
    wins: collections.Counter = collections.Counter()
    by_turn: dict[int, list[int]] = collections.defaultdict(list)
    for seed in range(1, games + 1):
        game = Game(PROGRAM, seed=seed)
        now[0] = game.state
        bots = seat_agents((agent,) * 2, game.players, seed)
        seen = {}

        def after(g):
            now[0] = g.state
            seen[g.state.tracks[SLOT["turn"]]] = g.state.tracks[SLOT["vp"]]
        play_out(game, bots, 200_000, after)
        for turn in range(1, 11):
            if turn + 1 in seen:
                by_turn[turn].append(seen[turn + 1])
        reasons[game.reason] += 1
        wins[game.winner] += 1
    print(f"{games} games, {agent} on both seats: wins {dict(wins)}")
    sources = sorted({s for _, s in gained}, key=lambda s: -(gained[("ussr", s)] + gained[("usa", s)]))
    print(f"{'source':48} {'USSR':>6} {'USA':>6} {'USSR-USA':>9}  (VP a game)")
    for s in sources:
        u, a = gained[("ussr", s)] / games, gained[("usa", s)] / games
        if u + a >= 0.05:
            print(f"{s:48} {u:6.2f} {a:6.2f} {u - a:9.2f}")
    tot_u = sum(v for (side, _), v in gained.items() if side == "ussr") / games
    tot_a = sum(v for (side, _), v in gained.items() if side == "usa") / games
    print(f"{'all':48} {tot_u:6.2f} {tot_a:6.2f} {tot_u - tot_a:9.2f}")
    for war in WARS:
        rows = collections.Counter()
        for (side, w, source), v in by_war.items():
            if w == war:
                rows[source.split(" ")[0] if source.startswith(("event", "war", "trigger")) else source] += (
                    v if side == "ussr" else -v)
        print(f"{war}: USSR minus USA, VP a game:",
              ", ".join(f"{s} {v / games:+.2f}" for s, v in rows.most_common() if abs(v) / games >= 0.1))
    print("mean VP at the start of turn 2..:",
          ", ".join(f"after {t}: {sum(v) / len(v):+.1f} ({len(v)})" for t, v in sorted(by_turn.items())))
    for r, n in reasons.most_common():
        print(f"  {n:5d}  {r}")


if __name__ == "__main__":
    main(sys.argv[1:])
