"""`rulespec play` and `rulespec replay`: one game between bots, a record played again."""

from __future__ import annotations

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.tools import playtest
from rulespec.compiler.cli import table
from rulespec.compiler.cli.base import (UserError, agents as agent_names, emit_json, json_option, load, load_recorded, main,
                   max_decisions_option, package_option, param_option, params as param_values,
                   program as load_program, seed_option, shown_backend, variant_option)
from rulespec.runtime import record as records
from rulespec.runtime.bots.agents import DEFAULT_MAX_DECISIONS, check_recorded, play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.results import game_json, pending_json, summary_lines
from rulespec.runtime.state import RuleError


@main.command()
@click.argument("game_name", metavar="GAME", required=False)
@variant_option
@seed_option(None, help="The game's seed.  [default: 1; with a human seat a random one, printed]")
@click.option("--agents", default=None, metavar="A,B",
              help="One bot for all players, or one per player: random, first, last,"
                   " policy[:NAME], mcts[:POLICY][@PLAYOUTSxDEPTH] (e.g. mcts@8x2),"
                   " rollout[:POLICY][@DEALSxDEPTHxWIDTHxZ] (e.g. rollout@4x3x2; a t after DEPTH"
                   " counts whole turns: rollout@4x2tx2),"
                   " greedy[:BOT], mc[:BOT]; human for a person's seat in the terminal."
                   "  [default: random]")
@click.option("--resume", default=None, metavar="FILE",
              help="Continue a saved record at the terminal (GAME may be left out).")
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--record", "record_path", default=None, metavar="FILE", help="Save the game record here.")
@param_option
@max_decisions_option(DEFAULT_MAX_DECISIONS, help="Stop a game that runs longer than this.")
@package_option
@json_option
def play(game_name: str | None, variants: tuple[str, ...], seed: int | None, agents: str | None,
         resume: str | None, backend: str, record_path: str | None, params: tuple[str, ...],
         max_decisions: int, package: str | None, as_json: bool) -> None:
    """Play one game between bots and show the result (with `human` seats: at the terminal)."""
    if resume is not None or playtest.has_human(agents or ""):
        return table.play_by_hand(game_name, variants, seed, agents, backend, params, package, resume,
                                  record_path)
    if game_name is None:
        raise click.UsageError("Missing argument 'GAME' (or --resume FILE).")
    seed = 1 if seed is None else seed  # bots alone: the same game every time, unless told
    agents = agents or "random"
    loaded = load(game_name, variants)
    program = load_program(loaded, backend, package, runs_games=True)
    meta = program.meta
    values = param_values(meta, params)
    names = agent_names(agents, meta, values)
    game = None
    try:
        game = Game(program, seed=seed, params=values, variants=loaded.variants, agents=names)
        play_out(game, seat_agents(names, game.players, seed), max_decisions)
    except RuleError as err:
        if game is None:
            raise UserError(f"{err} (while setting up the game, seed {seed})") from None
        saved = ""
        if record_path:
            records.save(game, record_path, str(loaded.folder), snapshot=False)
            saved = f"; the record up to it is in {record_path}"
        raise UserError(f"{err} (after {game.decisions} decisions, seed {seed}){saved}") from None
    if record_path:
        records.save(game, record_path, str(loaded.folder))
    if as_json:
        emit_json(dict(game_json(game, backend), record=record_path))
        return
    for line in summary_lines(game, shown_backend(program, backend)):
        click.echo(line)
    if record_path:
        click.echo(f"Record:    {record_path} (rulespec replay {record_path})")


@main.command()
@click.argument("file")
@click.option("--backend", type=click.Choice(engine.BACKENDS), default=None,
              help="Default: the back end that made the record.")
@click.option("--spec", "spec_dir", default=None, metavar="DIR",
              help="The spec folder (default: the one named in the record, else spec/<game>).")
@package_option
@json_option
def replay(file: str, backend: str | None, spec_dir: str | None, package: str | None,
           as_json: bool) -> None:
    """Replay a game record and show where it ends."""
    record = records.read(file)
    loaded = load_recorded(file, record, spec_dir)
    backend = backend or record.backend or "generated"
    program = load_program(loaded, backend, package)
    records.check_program(record, program)
    check_recorded(record, program.meta, file)
    game = records.replay(record, program)
    if record.snapshot is not None:
        saved = records.restore(record, program, file)
        same_backend = record.snapshot["backend"] == program.backend  # then frames and all agree
        if not records.same_state(saved.state, game.state, whole=same_backend):
            raise UserError(f"{file}: replaying the choices does not reproduce the saved snapshot")
    if as_json:
        out = game_json(game, backend)
        out["replayed"] = len(record.choices)
        out["pending"] = pending_json(game)
        emit_json(out)
        return
    click.echo(f"Replayed {len(record.choices)} choices from {file}")
    for line in summary_lines(game, backend):
        click.echo(line)
    decision = game.decision
    if decision is not None:
        click.echo(f"Waiting for {decision.player}: {decision.prompt} ({', '.join(decision.option_ids)})")
