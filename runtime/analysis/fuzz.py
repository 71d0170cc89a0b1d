"""The fuzzer: random legal games on both back ends, compared move for move.

Every problem comes with the record that reproduces it (game, spec hash,
seed, choices up to the failure), so `rulespec replay` can show it again.
"""

from __future__ import annotations

import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from rulespec.runtime.game import Game
from rulespec.runtime.state import DRAWN, GameOver, RuleError, State, Stream, next_random

KINDS = ("crashes", "dead_ends", "invariant_violations", "disagreements", "overlong")


def random_walk(game: Game, seed: int) -> Iterator[Game]:
    """The game before each choice a random player makes (options picked by the seeded stream, as
    the fuzzer picks them), and once more at its end: positions of random play."""
    stream = Stream(seed)
    while True:
        yield game
        if game.over:
            return
        game.choose_index(next_random(stream) % len(game.state.pending["ids"]))


@dataclass
class Problem:
    """One thing that went wrong in one game, with its reproduction."""

    kind: str
    seed: int
    decision: int
    message: str
    record: dict[str, Any]


@dataclass
class FuzzReport:
    """Counts, problems and coverage of a fuzzing run."""

    games: int = 0
    decisions: int = 0
    problems: list[Problem] = field(default_factory=list)
    coverage: Counter = field(default_factory=Counter)
    choices: Counter = field(default_factory=Counter)

    def counts(self) -> dict[str, int]:
        counts = Counter(p.kind for p in self.problems)
        return {kind: counts[kind] for kind in KINDS}



def structural_problems(state: State) -> list[str]:
    """Kernel invariants: every card in exactly the one zone its location names."""
    problems = []
    seen: Counter = Counter()
    for slot, cards in enumerate(state.zones):
        for card in cards:
            seen[card] += 1
            if state.location[card] != slot:
                problems.append(f"card {card} is in zone {slot} but located in {state.location[card]}")
    problems += [f"card {c} is in {n} zones" for c, n in seen.items() if n > 1]
    return problems


def _decision_key(game: Game):
    d = game.decision
    return None if d is None else (d.player, d.prompt, d.option_ids)


def fuzz_game(primary, reference, seed: int, params: dict, max_decisions: int,
              report: FuzzReport, variants: tuple[str, ...] = ()) -> None:
    """Play one random game on `primary`, mirrored on `reference` when given."""
    record = {"game": primary.meta.game, "variants": list(variants), "params": params,
              "spec_hash": primary.meta.spec_hash, "seed": seed, "choices": []}
    stream = Stream(seed * 0x9E3779B97F4A7C15 + 1)

    def problem(kind: str, message: str) -> None:
        report.problems.append(Problem(kind, seed, len(record["choices"]), message,
                                       dict(record, choices=list(record["choices"]))))

    try:
        games = [Game(p, seed=seed, params=params, traced=True) for p in (primary, reference) if p is not None]
    except (RuleError, GameOver) as err:
        return problem("dead_ends" if "dead end" in str(err) else "crashes", str(err))
    except Exception as err:  # noqa: BLE001 - a crash is what we are looking for
        return problem("crashes", _crash(err))
    while not games[0].over:
        if len(record["choices"]) >= max_decisions:
            return problem("overlong", f"no result after {max_decisions} decisions")
        if not _agree(games, problem):
            return
        decision = games[0].decision
        choice = decision.option_ids[next_random(stream) % len(decision.option_ids)]
        record["choices"].append(choice)
        report.choices[(decision.prompt, choice)] += 1
        for g in games:
            try:
                g.choose(choice)
            except RuleError as err:
                return problem("dead_ends" if "dead end" in err.reason else "crashes", str(err))
            except Exception as err:  # noqa: BLE001
                return problem("crashes", f"[{g.program.backend}] {_crash(err)}")
        if not _check(games[0], problem):
            return
    if _agree(games, problem):
        report.games += 1
        report.decisions += len(record["choices"])
        report.coverage.update(games[0].state.trace)


def _agree(games: list[Game], problem: Callable[[str, str], None]) -> bool:
    if len(games) < 2:
        return True
    a, b = games
    if _decision_key(a) != _decision_key(b):
        problem("disagreements", f"decisions differ: {a.program.backend} {_decision_key(a)}"
                f" vs {b.program.backend} {_decision_key(b)}")
        return False
    pa, pb = _comparable(a.state), _comparable(b.state)
    if pa != pb:
        fields = [k for k in pa if pa[k] != pb[k]]
        problem("disagreements", f"states differ in {', '.join(fields)}")
        return False
    return True


def _comparable(state: State) -> dict:
    """The public part, where a `win` was written included: both back ends name
    spec files the same way (compiler/frontend/locations.py)."""
    return state.public_part()


def _check(game: Game, problem: Callable[[str, str], None]) -> bool:
    broken = game.program.check_invariants(game.state)
    broken_text = [f"{name}: {label}" for name, label in broken]
    broken_text += structural_problems(game.state)
    if broken_text:
        problem("invariant_violations", "; ".join(broken_text))
        return False
    if game.decision is None and not game.over:
        problem("dead_ends", "nothing is pending and no `win` ended the game")
        return False
    return True


def _crash(err: Exception) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    where = f" at {frame.filename}:{frame.lineno}" if frame else ""
    return f"{type(err).__name__}: {err}{where}"


def coverage_table(meta, report: FuzzReport) -> dict[str, dict[str, int]]:
    """Per card: how often each traced thing (event, signals, picked) happened; zeros shown.
    Draws are left out: a card drawn and never played is not seen in play."""
    table: dict[str, dict[str, int]] = {meta.entity_ids[c]: {} for c in meta.card_entities}
    kinds = sorted({key.rsplit(" ", 1)[0] for key in report.coverage
                    if " by " not in key and not key.startswith(DRAWN)} | {"event"})
    for card in meta.card_entities:
        row = table[meta.entity_ids[card]]
        for kind in kinds:
            row[kind] = report.coverage.get(f"{kind} {card}", 0)
    return table


def write_problems(report: FuzzReport, folder: str | Path | None, spec_dir: str) -> list[str | None]:
    """The record reproducing each problem, written into `folder` (one path per problem)."""
    from rulespec.runtime.files import make_dirs
    from rulespec.runtime.record import FORMAT, write
    if folder is None:
        return [None] * len(report.problems)
    make_dirs(folder)
    paths: list[str | None] = []
    for n, problem in enumerate(report.problems):
        path = Path(folder) / f"{problem.kind}-{problem.seed}-{n}.json"
        paths.append(str(write(dict(problem.record, format=FORMAT, spec_dir=spec_dir), path)))
    return paths


def fuzz_json(meta, variants: tuple[str, ...], games: int, seed: int, backends: list[str],
              report: FuzzReport, paths: list[str | None]) -> dict[str, Any]:
    """The keys docs/CLI.md promises for `fuzz --json`, and the problems with their records."""
    return {"game": meta.game, "variants": list(variants), "games": games, "seed": seed,
            "backends": backends, "problems": len(report.problems), **report.counts(),
            "decisions": report.decisions, "coverage": coverage_table(meta, report),
            "problem_list": [{"kind": p.kind, "seed": p.seed, "decision": p.decision,
                              "message": p.message, "record": path}
                             for p, path in zip(report.problems, paths)]}
