"""Fit a `bot` evaluation's weights to who wins: a logistic regression on the spec's own games.

    python docs/fit_evaluation.py GAME FEATURES [--games N] [--seed S] [--agents A]
                                  [--param NAME=VALUE]... [--compare BOT]... [--workers K] [--json]

Needs scikit-learn (`pip install -e .[fit]`). FEATURES is a text file, one measure a line,
`NAME = EXPRESSION`: a whole-number expression of the spec read from the side of
`you` (`einheiten = einheiten_auf_dem_plan(you) - einheiten_auf_dem_plan(opponent(you))`);
`#` starts a comment. The script adds each measure to a copy of the spec as a `bot`
evaluation, plays GAMES games of the balance bot (or `--agents`) on seeds S.., and reads
every measure at the first decision of each seat's turn (by runtime/bots/mcts.py's turn rule: a
lone decision of another seat inside a turn, a defender's dice, is not a turn; so neither
is a turn of a single decision between two turns of the other seat) - the
positions where a search with a depth in turns (`rollout@…x2tx…`) scores its leaves. The
label is whether the seat to move went on to win (drawn games are left out). The games of
every fifth seed (S, S + 5, ...) are held out; the script prints the fitted weights (and
them x100, rounded, ready for the spec) and the held-out log-loss and accuracy of the fit
and of each `--compare` evaluation alone (a one-measure fit of its value), so the gain over
the spec's evaluation is measured on games the fit never saw. Bad input: one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

HOLD_OUT = 5  # every 5th seed's games are held out of the fit
MEASURES = "zz_fit_measures.rules"  # the measures as bots, line for line, in the spec's copy


def read_features(path: Path) -> list[tuple[str, str, int]]:
    """The measures of a FEATURES file: (name, expression, its line)."""
    features = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        name, eq, expression = text.partition("=")
        if not eq or not name.strip().isidentifier() or not expression.strip():
            raise ValueError(f"{path}:{number}: a measure is NAME = EXPRESSION, not '{text}'")
        features.append((name.strip(), expression.strip(), number))
    if not features:
        raise ValueError(f"{path}: no measures")
    return features


def _spec_with_features(folder: Path, features: list[tuple[str, str, int]], into: Path) -> Path:
    copy = into / folder.name
    shutil.copytree(folder, copy)
    lines = [f'bot fit_{name} "{name}" = {expression}' for name, expression, _ in features]
    (copy / MEASURES).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return copy


def _program(folder: Path):
    from rulespec.compiler.backends.engine import load_program
    from rulespec.compiler.frontend.loader import load_spec
    return load_program(load_spec(folder), "generated")


def _play(job: tuple) -> list[tuple[int, list[float], float]]:
    """(seed, measures, won) for the first decision of every turn of the games of `seeds`."""
    folder, bots, seeds, agents, params = job
    from rulespec.runtime.bots.agents import seat_agents
    from rulespec.runtime.game import Game
    from rulespec.runtime.bots.mcts import TurnWatch
    program = _program(folder)
    rows = []
    for seed in seeds:
        game = Game(program, seed=seed, params=params)
        seated = seat_agents(agents, game.players, seed)
        watches = {p: TurnWatch() for p in game.players}
        positions, candidate, last = [], None, None  # last: the seat of the decision before
        while not game.over:
            decision = game.decision
            mover = decision.player
            if candidate is not None:
                seat, measures, previous = candidate
                # A lone decision between two of another seat interrupted that seat's turn.
                if not (mover != seat and mover == previous):
                    positions.append((seat, measures))
                candidate = None
            if watches[mover].observe(game) == 1:
                me = game.state.pending["player"]
                candidate = (mover, [float(program.evaluate(game.state, b, me)) for b in bots], last)
            game.choose(seated[mover].choose(game, decision))
            last = mover
        if game.winner is not None:
            rows.extend((seed, measures, float(game.winner == mover)) for mover, measures in positions)
    return rows


def _user_errors() -> tuple[type[Exception], ...]:
    from rulespec.compiler.cli.base import user_errors
    from rulespec.compiler.frontend.errors import SpecError
    return (*user_errors(), SpecError)


def fit(args) -> dict:
    """Play, read the measures, fit: the weights and the held-out scores (ValueError: bad input)."""
    try:
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import log_loss
    except ImportError:
        raise ValueError("fit_evaluation.py needs scikit-learn: pip install -e .[fit]") from None
    if not 10 <= args.games <= 100_000:
        raise ValueError(f"--games takes 10 to 100,000, not {args.games}")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers takes 1 to 64 processes, not {args.workers}")
    from rulespec.compiler.cli.base import load, params as param_values
    from rulespec.compiler.frontend.errors import SpecError
    from rulespec.runtime.bots.agents import default_agent, parse_agents
    features = read_features(Path(args.features))
    spec = load(args.game, ())
    with tempfile.TemporaryDirectory() as tmp:
        folder = _spec_with_features(spec.folder, features, Path(tmp))
        try:
            meta = _program(folder).meta
        except SpecError as error:  # a measure that is not an expression of the spec
            said = str(error).splitlines()[0].split(MEASURES + ":", 1)[-1]  # LINE:COL: error: WHAT
            line, _, rest = said.partition(":")
            where = features[int(line) - 1][2] if line.isdigit() and int(line) <= len(features) else line
            raise ValueError(f"{args.features}:{where}: {rest.partition('error:')[2].strip()}") from None
        params = param_values(meta, tuple(args.param))
        unknown = [b for b in args.compare if b not in meta.bots]
        if unknown:
            raise ValueError(f"unknown bot evaluation '{unknown[0]}' (the spec declares:"
                             f" {', '.join(b for b in meta.bots if not b.startswith('fit_')) or 'none'})")
        agents = parse_agents(args.agents or default_agent(meta), meta.players, meta.bots,
                              meta.policies, meta.tunables)
        bots = [f"fit_{n}" for n, _, _ in features] + list(args.compare)
        seeds = list(range(args.seed, args.seed + args.games))
        jobs = [(folder, bots, seeds[k::args.workers], agents, params) for k in range(args.workers)]
        if args.workers == 1:
            parts = [_play(jobs[0])]
        else:
            with multiprocessing.get_context("fork").Pool(args.workers) as pool:
                parts = pool.map(_play, jobs)
    rows = [row for part in parts for row in part]
    if not rows:
        raise ValueError("no decided game to fit")
    seed = np.array([r[0] for r in rows])
    values = np.array([r[1] for r in rows])
    won = np.array([r[2] for r in rows])
    held = (seed - args.seed) % HOLD_OUT == 0
    if len(set(won[~held])) < 2 or not held.any():
        raise ValueError("the games give one winner only, or none held out: play more games")

    def regression(columns):
        """The fit on the measures of `columns` (standardised, so the solver converges; the
        weights given back per unit of each measure), its held-out log-loss and accuracy."""
        train = values[~held][:, columns]
        mean, spread = train.mean(axis=0), train.std(axis=0) + 1e-9
        model = LogisticRegression(C=1e4, max_iter=5000).fit((train - mean) / spread, won[~held])
        chance = model.predict_proba((values[held][:, columns] - mean) / spread)[:, 1]
        weights = model.coef_[0] / spread
        return {"weights": [float(w) for w in weights],
                "intercept": float(model.intercept_[0] - weights @ mean),
                "log_loss": float(log_loss(won[held], chance, labels=[0.0, 1.0])),
                "accuracy": float(np.mean((chance > 0.5) == (won[held] > 0.5)))}

    found = regression(list(range(len(features))))
    return {"game": meta.game, "agents": list(agents), "games": args.games,
            "positions": len(rows), "held_out": int(held.sum()),
            "measures": [{"name": n, "weight": w, "x100": round(w * 100)}
                         for (n, _, _), w in zip(features, found["weights"])],
            "intercept": found["intercept"], "log_loss": found["log_loss"],
            "accuracy": found["accuracy"],
            "compare": {bot: {k: v for k, v in regression([len(features) + k]).items() if k in ("log_loss", "accuracy")}
                        for k, bot in enumerate(args.compare)}}


def report(found: dict) -> str:
    out = [f"{found['game']}: {found['positions']:,} turn starts of {found['games']:,} games"
           f" ({', '.join(found['agents'])}), {found['held_out']:,} held out",
           f"fit of {len(found['measures'])} measures: held-out log-loss {found['log_loss']:.4f},"
           f" accuracy {found['accuracy']:.1%}",
           f"  {'(intercept)':<24} {found['intercept']:9.4f}"]
    out += [f"  {m['name']:<24} {m['weight']:9.4f}   x100 = {m['x100']}" for m in found["measures"]]
    out += [f"{bot} alone: held-out log-loss {c['log_loss']:.4f}, accuracy {c['accuracy']:.1%}"
            for bot, c in found["compare"].items()]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("features")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default=None)
    parser.add_argument("--param", action="append", default=[])
    parser.add_argument("--compare", action="append", default=[])
    parser.add_argument("--workers", type=int, default=2, metavar="K")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        found = fit(args)
    except (ValueError, OSError, *_user_errors()) as error:
        print(f"fit_evaluation: error: {' '.join(str(error).split())}", file=sys.stderr)
        return 1
    print(json.dumps(found, indent=1) if args.json else report(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
