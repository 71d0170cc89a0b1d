"""The `rulespec` command line (contract: ../shared DESIGN.md, docs/CLI.md)."""

from __future__ import annotations

import json
import sys

import click

from .errors import SpecError
from .loader import find_spec_dir, load_spec
from runtime.state import RuleError


def _fail(message: str) -> None:
    click.echo(f"rulespec: error: {message}", err=True)
    sys.exit(1)


@click.group()
def main() -> None:
    """rulespec: game rules as data, a checked spec, a fast engine."""


@main.command()
@click.argument("spec_dir")
def check(spec_dir: str) -> None:
    """Check a spec; every error as file:line:col."""
    loaded = _load_with_sources(spec_dir)
    click.echo(f"{loaded.model.game}: ok")


def _load_with_sources(game: str):
    try:
        folder = find_spec_dir(game)
    except FileNotFoundError as err:
        _fail(str(err))
    try:
        return load_spec(folder)
    except SpecError as err:
        sources = getattr(err, "sources", None)
        click.echo(err.sources.render_all(err) if sources else str(err), err=True)
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--seed", default=1, type=int)
@click.option("--backend", type=click.Choice(["generated", "interpreted"]), default="interpreted")
@click.option("--agents", default="random,random")
@click.option("--json", "as_json", is_flag=True)
def play(game: str, seed: int, backend: str, agents: str, as_json: bool) -> None:
    """Play one game between bots."""
    from .interpret import Interpreter
    from runtime.agents import make_agent, play_out
    from runtime.game import Game
    loaded = _load_with_sources(game)
    program = Interpreter(loaded.model)
    names = agents.split(",")
    try:
        g = Game(program, seed=seed)
        bots = {p: make_agent(names[i % len(names)], seed * 7919 + i) for i, p in enumerate(program.meta.players)}
        decisions = play_out(g, bots)
    except RuleError as err:
        _fail(str(err))
    out = {"game": program.meta.game, "variants": [], "seed": seed, "backend": backend,
           "winner": g.winner, "reason": g.reason, "decisions": decisions,
           "spec_hash": program.meta.spec_hash}
    if as_json:
        click.echo(json.dumps(out))
    else:
        for line in g.state.log[-40:]:
            click.echo(line)
        click.echo(out)


@main.command("test")
@click.argument("spec_dir")
@click.option("--json", "as_json", is_flag=True)
def test_cmd(spec_dir: str, as_json: bool) -> None:
    """Run the designer tests on both back ends."""
    from .interpret import Interpreter
    from runtime.testing import run_test
    loaded = _load_with_sources(spec_dir)
    program = Interpreter(loaded.model)
    failures, passed = [], 0
    for case in program.tests():
        failure = run_test(program, case)
        if failure:
            failures.append(failure)
        else:
            passed += 1
    for f in failures:
        click.echo(f"{f.location}: FAIL [{f.backend}] {f.name}: {f.message}")
    click.echo(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
