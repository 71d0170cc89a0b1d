"""`rulespec bench`, `fuzz` and `simulate`: many games, for speed, for bugs, for balance."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rulespec.compiler.backends import engine
from rulespec.compiler.cli.base import (EXIT_ERROR, EXIT_OK, UserError, agents as agent_names,
                   emit_json, factory, games_option, json_option, load, main, max_decisions_option, note,
                   one_line, package_option, param_option, params as param_values,
                   given, precision_type, program as load_program, progress, seed_option, shown_backend,
                   variant_option, workers_option)
from rulespec.runtime.bots.agents import default_agent
from rulespec.runtime.analysis.card_uses import CardNames, movers_text
from rulespec.runtime.analysis.simulate import PRECISION_CAP


@main.command()
@click.argument("game_name", metavar="GAME")
@games_option(10)
@seed_option()
@click.option("--backend", type=click.Choice(("both",) + engine.BACKENDS + (engine.MACHINE,)), default="both",
              show_default=True, help="both: the generated engine and the interpreter; machine: the"
                                      " native engine (state as C data), where the game runs on it.")
@param_option
@package_option
@json_option
def bench(game_name: str, games: int, seed: int, backend: str, params: tuple[str, ...],
          package: str | None, as_json: bool) -> None:
    """Games/s and decisions/s of both back ends, random bots, the same seeds."""
    from rulespec.runtime.analysis import bench as benchmark
    loaded = load(game_name)
    chosen = list(engine.BACKENDS) if backend == "both" else [backend]
    programs = {name: load_program(loaded, name, package, runs_games=True) for name in chosen}
    values = param_values(programs[chosen[0]].meta, params)
    results = {}
    for name, program in programs.items():
        with progress(games, name, show=not as_json) as advance:
            results[name] = benchmark.run(program, games, seed, values, on_game=advance)
    out = benchmark.bench_json(loaded.model.game, games, seed, results)
    if as_json:
        emit_json(out)
        return
    click.echo(f"{loaded.model.game}: {games} games, seeds {seed}..{seed + games - 1}, random bots")
    for name, result in results.items():
        click.echo(f"  {shown_backend(programs[name], name):<12} {result.games_per_s:10.2f} games/s {result.decisions_per_s:12.0f}"
                   f" decisions/s  ({result.decisions} decisions in {result.seconds:.2f}s)")
        if result.errors:
            click.echo(f"  {'':<12} {result.errors} of {result.games} games stopped on a rule error")
    if out["ratio"] is not None:
        click.echo(f"  ratio        {out['ratio']:.2f}x (generated over interpreted, games/s)")
        if not out.get("same_games"):
            click.echo("  warning: the back ends played games of different lengths on the same"
                       " seeds; run `rulespec fuzz` to find where they disagree")


coverage_option = click.option(
    "--coverage", "coverage_dir", default=None, metavar="DIR",
    help="Spec coverage: which statement lines and branches the games reached and which never,"
         " per file; a summary here, the annotated spec (coverage.txt) and HTML (index.html) in"
         " DIR. Counted on the interpreter when it runs, else on the pure Python generated"
         " engine (never the native build).")


def _counting(coverage_dir: str | None) -> bool:
    """--coverage traces the generated engine's pure Python lines: no native build this run
    (worker processes inherit the setting)."""
    if coverage_dir is not None:
        os.environ["RULESPEC_NATIVE"] = "0"
    return coverage_dir is not None


def _coverage_json(tally, coverage_dir: str) -> dict:
    """The `spec_coverage` key, the reports written into coverage_dir."""
    from rulespec.runtime.analysis.coverage import write_reports
    out = tally.to_json()
    out["report"] = str(write_reports(out, tally.plan["sources"], coverage_dir))
    return out


def _coverage_text(out: dict) -> None:
    from rulespec.runtime.analysis.coverage import summary_lines
    if "spec_coverage" in out:
        for line in summary_lines(out["spec_coverage"]):
            click.echo(line)
        click.echo(f"Coverage report: {out['spec_coverage']['report']}")


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@games_option(100)
@seed_option()
@max_decisions_option(20_000, help="A game longer than this is reported as overlong.")
@click.option("--backend", type=click.Choice(("both",) + engine.BACKENDS + (engine.NATIVE, engine.MACHINE)),
              default="both", show_default=True,
              help="both: compare the back ends move for move; native: the native build against the"
                   " interpreter (refused when it cannot load); machine: the native engine (state as C"
                   " data) against the interpreter, where the game runs on it.")
@click.option("--problems-dir", default=None, metavar="DIR",
              help="Write the record that reproduces each problem here.")
@coverage_option
@param_option
@json_option
def fuzz(game_name: str, variants: tuple[str, ...], games: int, seed: int, max_decisions: int,
         backend: str, problems_dir: str | None, coverage_dir: str | None,
         params: tuple[str, ...], as_json: bool) -> None:
    """Random legal games on both back ends, compared move for move, invariants checked."""
    from rulespec.runtime.analysis.fuzz import FuzzReport, fuzz_game, fuzz_json, write_problems
    if coverage_dir is not None and backend in (engine.NATIVE, engine.MACHINE):
        raise UserError(f"--coverage counts the Python engines' lines: it cannot run with --backend {backend}")
    counting = _counting(coverage_dir)
    loaded = load(game_name, variants)
    chosen = {"both": list(engine.BACKENDS), engine.NATIVE: [engine.NATIVE, "interpreted"],
              engine.MACHINE: [engine.MACHINE, "interpreted"]}.get(backend, [backend])
    programs = [load_program(loaded, name) for name in chosen]
    values = param_values(programs[0].meta, params)
    report = FuzzReport()
    if counting:
        from rulespec.compiler.backends.coverage import reference_counter
        from rulespec.runtime.analysis.coverage import SpecCoverage
        counter, plan, counted_on = reference_counter(loaded.model, programs)
        tally = SpecCoverage(plan, counted_on, counter.told)
    with progress(games, "fuzz", show=not as_json) as advance:
        for k in range(games):
            if counting:
                counter.begin()
            fuzz_game(programs[0], programs[1] if len(programs) > 1 else None, seed + k, values,
                      max_decisions, report, loaded.variants)
            if counting:
                tally.add_game(counter.end())
            advance()
    paths = write_problems(report, problems_dir, str(loaded.folder))
    out = fuzz_json(programs[0].meta, loaded.variants, games, seed, chosen, report, paths)
    if counting:
        out["spec_coverage"] = _coverage_json(tally, coverage_dir)
    if as_json:
        emit_json(out)
    else:
        _fuzz_summary(out)
    sys.exit(EXIT_ERROR if report.problems else EXIT_OK)


def _fuzz_summary(out: dict) -> None:
    click.echo(f"{out['game']}: {out['games']} games ({out['decisions']} decisions) on"
               f" {' and '.join(out['backends'])}, seeds {out['seed']}..{out['seed'] + out['games'] - 1}")
    for kind in ("crashes", "dead_ends", "invariant_violations", "disagreements", "overlong"):
        click.echo(f"  {kind.replace('_', ' ')}: {out[kind]}")
    for problem in out["problem_list"][:20]:
        where = f" -> {problem['record']}" if problem["record"] else ""
        click.echo(f"  [{problem['kind']}] seed {problem['seed']}, decision {problem['decision']}:"
                   f" {one_line(problem['message'])}{where}")
    never = sorted(card for card, row in out["coverage"].items() if not any(row.values()))
    if never:
        click.echo(f"  never seen in play ({len(never)}): {', '.join(never[:30])}"
                   f"{' ...' if len(never) > 30 else ''}")
    _coverage_text(out)


def _same_seats(seats: tuple[str, ...], base_seats: tuple[str, ...], variants: tuple[str, ...],
                against: tuple[str, ...]) -> None:
    """Paired games compare the same players: one clear line when the two sets seat others."""
    if seats != base_seats:
        raise UserError(f"cannot compare {' + '.join(variants) or 'the base game'} with"
                        f" {' + '.join(against) or 'the base game'}: they seat different players"
                        f" ({', '.join(seats)} against {', '.join(base_seats)}); compare sets that"
                        f" seat the same players")


@main.command()
@click.argument("game_name", metavar="GAME")
@variant_option
@click.option("--against", "against", multiple=True, metavar="V",
              help="The variant set to compare with: 'base' for the base game (repeatable).")
@games_option(1000, help="Games per variant set; with --precision the most pairs it may play"
                         f" (without --games: {PRECISION_CAP:,}).")
@seed_option()
@click.option("--agents", default=None, metavar="A,B",
              help="The bots, one for all players or one per player: random, first, last,"
                   " policy[:NAME], mcts[:POLICY][@PLAYOUTSxDEPTH] (e.g. mcts@8x2: 8 playouts a"
                   " decision, each played on until the player to move changed 2 times),"
                   " rollout[:POLICY][@DEALSxDEPTHxWIDTHxZ] (e.g. rollout@4x3x2: the policy's 2 best"
                   " options played on the same 4 deals to the 3rd change of the player to move;"
                   " another option played when its gain clears Z standard errors, default 1.5);"
                   " a t after DEPTH counts whole turns (mcts@8x2t, rollout@4x2tx2: a single"
                   " decision of another seat inside a turn, such as a defender's dice, does not"
                   " end it),"
                   " greedy[:BOT], mc[:BOT] (default: the balance bot,"
                   " rulespec.runtime.bots.agents.default_agent: the spec's `balance bot`, else its first"
                   " policy, random for a spec without one).")
@workers_option(
              help="Worker processes (local) or CPUs of a private Ray; at most one per batch of"
                   " 25 games and, on this machine, two per CPU (docs/SCALING.md).")
@click.option("--executor", type=click.Choice(("local", "ray")), default="local", show_default=True)
@click.option("--backend", type=click.Choice(engine.BACKENDS), default="generated", show_default=True)
@click.option("--report", "report_dir", default=None, metavar="DIR",
              help="Write an HTML report with plots and the JSON here.")
@click.option("--precision", default=None, type=precision_type(), metavar="P",
              help="With --against: play paired games until the 95% interval of the difference"
                   " (with --ladder: of the difference between the rungs) is within ±P points, up"
                   f" to --games pairs when given, else {PRECISION_CAP:,}.")
@click.option("--ladder", default=None, metavar="A,B",
              help="With --against: play the comparison with two bots (rungs) on the same seeds and"
                   " say whether the variant's effect agrees across them.")
@coverage_option
@param_option
@json_option
def simulate(game_name: str, variants: tuple[str, ...], against: tuple[str, ...], games: int,
             seed: int, agents: str, workers: int, executor: str, backend: str,
             report_dir: str | None, precision: float | None, ladder: str | None,
             coverage_dir: str | None, params: tuple[str, ...], as_json: bool) -> None:
    """Many games with paired seeds; win rates, intervals, and a variant against its base."""
    from rulespec.runtime.analysis import simulate as sim
    counting = _counting(coverage_dir)
    loaded = load(game_name, variants)
    base = None
    if against:
        base = load(game_name, tuple(v for v in against if v != "base"))
    program = load_program(loaded, backend, runs_games=True)
    meta = base_meta = program.meta
    values = param_values(meta, params)
    if base is not None:
        base_meta = load_program(base, backend, runs_games=True).meta  # fail here, in one line, if it cannot run
        _same_seats(meta.seated(values), base_meta.seated(param_values(base_meta, params)),
                    loaded.variants, base.variants)
    rungs = _rungs(ladder, agents, base is not None, meta, values)
    names = rungs[0][1] if rungs else agent_names(agents or default_agent(meta), meta, values)
    if precision is not None and base is None:
        raise UserError("--precision needs --against: it is the precision of a difference")
    cap = sim.GamesCap.of(games if given("games") else None, games, precision)
    sets = [loaded] + ([base] if base is not None else [])
    factories = [factory(s, backend) for s in sets]
    if counting:  # the first set's games: the variants asked for
        from rulespec.compiler.backends.coverage import CountedRef
        factories[0] = CountedRef(factories[0])
    used, capped = sim.choose_workers(workers, cap.games, len(factories), executor)
    if capped:
        note(capped)
    runner = sim.LocalExecutor(used) if executor == "local" else _ray_executor(used)
    players = list(meta.seated(values))
    second = None
    with progress(cap.games * len(factories) * (2 if rungs and precision else 1), "simulate",
                  show=not as_json) as advance:
        if rungs and precision is not None:  # both rungs in rounds: the ladder's interval narrows
            from rulespec.runtime.analysis.ladder import ladder_until
            (results, second), stopped = ladder_until(
                factories, [r[1] for r in rungs], cap.games, seed, values, runner, players,
                precision / 100, on_done=lambda n: [advance() for _ in range(n)])
            results, second = list(results), list(second)
        else:
            results, stopped = sim.simulate_until(
                factories, cap.games, seed, names, values, runner, players,
                None if precision is None else precision / 100,
                on_done=lambda n: [advance() for _ in range(n)])
    card_names = CardNames.of(meta, base_meta)
    out = sim.results_json(loaded.model.game, players, [s.variants for s in sets], results,
                           games_asked=cap.games, seed=seed, agents=names, precision=precision,
                           stopped=stopped, backend=backend, executor=executor, workers=used,
                           workers_asked=workers, names=card_names, cap=cap,
                           settles="ladder" if rungs else "comparison")
    # the spec's words for the report's plots (players and tracks by their labels)
    out["player_labels"] = dict(zip(meta.players, meta.player_labels))
    out["track_labels"] = {track.name: track.label for track in meta.tracks}
    for entry, ref, games in zip(out["variants"], factories, results):
        entry["native"] = ref.native_modules()  # rulespec compile --native
        # the games the native engine (state in C) played whole (machine/jobs.py, simulate.play_whole)
        entry["machine_games"] = sum(g.whole for g in games)
        # and those whose searching seats played on it, each playout one native call (run_batch)
        entry["machine_search_games"] = sum(g.searched for g in games)
    if rungs:
        again = sim.LocalExecutor(used) if executor == "local" else _ray_executor(used)
        out["ladder"] = _second_rung(sim, factories, rungs, results, out, values, again, players,
                                     loaded, card_names, as_json, second, cap)
    if counting:
        out["spec_coverage"] = _coverage_json(_tally(loaded, program, results[0]), coverage_dir)
    if report_dir:
        from rulespec.runtime.analysis.report import write_report
        out["report"] = str(write_report(out, Path(report_dir)))
    if as_json:
        emit_json(out)
        return
    _simulate_summary(out)


def _tally(loaded, program, summaries: list):
    """The spec coverage of simulated games, each summary holding what its game reached
    (`program`, of the back end they ran on, says which arms it tells apart)."""
    from rulespec.compiler.backends.coverage import Plan, counter
    from rulespec.runtime.analysis.coverage import SpecCoverage
    plan = Plan(loaded.model)
    tally = SpecCoverage(plan.data(), program.backend, counter(program, plan).told)
    for summary in summaries:
        tally.add_game(summary.reached)
    return tally


def _rungs(ladder: str | None, agents: str | None, comparing: bool, meta, values) -> list:
    """--ladder A,B: (the rung as written, its agent per seat) for each of the two rungs."""
    if ladder is None:
        return []
    from rulespec.runtime.bots.agents import split_agent_list
    if not comparing:
        raise UserError("--ladder needs --against: it compares a variant's effect across bots")
    if agents is not None:
        raise UserError("--ladder names the bots of both rungs: leave out --agents")
    rungs = split_agent_list(ladder)
    if len(rungs) != 2:
        raise UserError(f"--ladder takes two bots, A,B (each plays every seat), got {len(rungs)}")
    return [(rung, agent_names(rung, meta, values)) for rung in rungs]


def _second_rung(sim, factories, rungs, results, out, values, runner, players, loaded, names,
                 as_json, second, cap) -> dict:
    """The second rung on the seeds the first played (unless played beside it already, under
    --precision), and the two effects compared."""
    from rulespec.runtime.analysis.ladder import ladder_json
    played = out["games"]
    if second is None:
        with progress(played * len(factories), f"simulate ({rungs[1][0]})", show=not as_json) as advance:
            second = sim.simulate(factories, played, out["seed"], rungs[1][1], values, runner,
                                  on_done=lambda n: [advance() for _ in range(n)])
    variant = " + ".join(loaded.variants) or "the base game"
    found = ladder_json(out["comparison"]["player"], variant, [r for r, _ in rungs],
                        [(results[0], results[1]), (second[0], second[1])], out["precision"],
                        out["stopped_by"], cap)
    found["second"] = {"agents": list(rungs[1][1]),
                       "variants": [sim.summarise(players, v, r, names) for v, r in zip(
                           [e["variants"] for e in out["variants"]], second)],
                       "comparison": sim.compare(players, tuple(out["variants"][0]["variants"]),
                                                 second[0], second[1], names)}
    return found


def _ray_executor(workers: int):
    from rulespec.runtime.analysis.simulate import RayExecutor
    try:
        return RayExecutor(workers)
    except RuntimeError as err:
        raise UserError(str(err)) from None


def _simulate_summary(out: dict) -> None:
    if "ladder" in out:
        click.echo(out["ladder"]["sentence"])
    click.echo(f"{out['game']}: {out['games']} games per set, agents {' vs '.join(out['agents'])},"
               f" seeds {out['seed']}..{out['seed'] + out['games'] - 1}")
    for entry in out["variants"]:
        name = " + ".join(entry["variants"]) or "base game"
        rates = ", ".join(f"{p} {r * 100:.1f}% [{lo * 100:.1f}..{hi * 100:.1f}]"
                          for p, r in entry["win_rate"].items()
                          for lo, hi in [entry["win_ci95"][p]])
        lost = ", ".join(f"{p} {r * 100:.1f}%" for p, r in entry["loss_rate"].items() if r)
        lost = f"; lost: {lost}" if lost else ""
        click.echo(f"  {name}: {rates}{lost}; draws {entry['draws']}; mean length"
                   f" {entry['mean_length']:.0f} decisions")
        reasons = ", ".join(f"{k} {v}" for k, v in entry["end_reasons"].items())
        click.echo(f"    ended by: {reasons}")
        if entry.get("machine_games"):
            click.echo(f"    the native engine (state in C) played {entry['machine_games']:,} of them whole")
        if entry.get("machine_search_games"):
            click.echo(f"    the native engine (state in C) played {entry['machine_search_games']:,} of them,"
                       " each playout of the searching seats one native call")
        if entry.get("native"):
            click.echo(f"    ran the native build of: {', '.join(entry['native'])}")
    if "comparison" in out:
        click.echo(out["comparison"]["sentence"])
        for warning in out["comparison"].get("warnings", []):
            click.echo(f"warning: {warning}")
        for line in movers_text(out["comparison"].get("cards", [])):
            click.echo(line)
    if "ladder" in out:
        second = out["ladder"]["second"]
        lead = second["comparison"]["by_player"][out["ladder"]["player"]]
        click.echo(f"with {out['ladder']['rungs'][1]}: {lead['sentence']}")
    _coverage_text(out)
    if out.get("report"):
        click.echo(f"Report: {out['report']}")
