"""Who gains what, and when, in Risiko - Das Duell games between two policy bots.

    PYTHONPATH=. python docs/risk_seat_trace.py GAMES [FIRST_SEED] [SPEC_DIR] [PARAM=VALUE ...]

Plays GAMES seeded games (seeds FIRST_SEED..) of the spec's balance policy on
both seats, as `rulespec simulate` does, and prints per army: wins and how,
the missions claimed (which, and in what round), the territories, units and
reinforcement at the start of its turns in rounds 1 to 6, the round its
capital first fell, and the mean round a game ended. The numbers say which
army gains what and when; docs/history/BENCHMARKS-journal.md (Risk) reads them.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

from rulespec.compiler.backends.engine import load_program
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.bots.agents import seat_agents
from rulespec.runtime.game import Game

ROUNDS = 6


def army_state(game: Game, player: str) -> tuple[int, int]:
    """(territories held, units on the board) of one army."""
    units = game.counters()["einheiten"][player]
    held = [n for n in units.values() if n > 0]
    return len(held), sum(held)


def main() -> None:
    games = int(sys.argv[1])
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    folder = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("spec/risk_balance_of_power")
    params = dict(arg.split("=", 1) for arg in sys.argv[4:])
    params = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in params.items()}
    spec = load_spec(folder)
    program = load_program(spec, "generated" if folder.resolve() == Path("spec/risk_balance_of_power").resolve()
                           else "interpreted")
    players = program.meta.players
    wins, reasons, claims, ends = Counter(), Counter(), defaultdict(Counter), []
    claim_rounds = defaultdict(list)
    by_round = defaultdict(lambda: defaultdict(list))  # player -> round -> [(territories, units)]
    capital_fell = defaultdict(list)
    for seed in range(first, first + games):
        game = Game(program, seed=seed, params=params)
        bots = seat_agents(("policy",) * len(players), game.players, seed)
        seen_turn, lost = set(), set()
        while not game.over:
            decision = game.decision
            tracks = game.tracks()
            turn = (decision.player, tracks["runde"])
            if decision.prompt == "Wohin mit der Verstärkung?" and turn not in seen_turn:
                seen_turn.add(turn)
                if tracks["runde"] <= ROUNDS:
                    held, units = army_state(game, decision.player)
                    by_round[decision.player][tracks["runde"]].append(
                        (held, units, tracks["verstaerkung"][decision.player]))
            for p in players:
                capital = [g for g, n in game.counters()["hauptstadt"][p].items() if n > 0]
                if p not in lost and capital and game.counters()["einheiten"][p].get(capital[0], 0) == 0:
                    lost.add(p)
                    capital_fell[p].append(tracks["runde"])
            chosen = bots[decision.player].choose(game, decision)
            if decision.prompt == "Welche Mission?":
                claims[decision.player][chosen] += 1
                claim_rounds[decision.player].append(tracks["runde"])
            game.choose(chosen)
        ends.append(game.tracks()["runde"])
        wins[game.winner] += 1
        reasons[(game.winner, game.reason)] += 1
    print(f"{games} games, seeds {first}..{first + games - 1}, params {params or 'default'}")
    print("wins:", dict(wins), " mean last round:", round(sum(ends) / len(ends), 1))
    for (winner, reason), n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  {winner}: {reason}: {n}")
    for p in players:
        rounds = claim_rounds[p]
        print(f"{p}: missions claimed {sum(claims[p].values())}"
              f" (mean round {round(sum(rounds) / len(rounds), 1) if rounds else '-'}):",
              dict(claims[p].most_common()))
        fell = capital_fell[p]
        print(f"  capital fell in {len(fell)} games (mean round {round(sum(fell) / len(fell), 1) if fell else '-'})")
        for r in range(1, ROUNDS + 1):
            rows = by_round[p][r]
            if rows:
                mean = [round(sum(x[i] for x in rows) / len(rows), 1) for i in range(3)]
                print(f"  round {r}: territories {mean[0]}, units {mean[1]}, reinforcement {mean[2]}"
                      f" ({len(rows)} games)")


if __name__ == "__main__":
    main()
