"""Re-measure the tables of docs/BENCHMARKS.md and print them in its format (`make bench`).

    python docs/bench_all.py [--long] [--games N] [--only b,d,e]

Each table is printed with its command, the machine, the load average before and after,
the date and the commit. Without --long it runs what takes seconds to a minute or two on
a shared 2-core machine: (b) the back ends (`rulespec bench` of every game, pure Python and
the default install's build), (c) the seat split of every game's default bot (`simulate`,
--games games), (d) the designer's edit loop's four figures, (e) the state's size and copy
time. --long adds what takes many minutes: the whole edit loop (docs/edit_loop.sh, fresh
clone and empty cache included), the ladders' rungs (docs/ladder_rung.py, 200 seat-swapped
games a rung instead of the document's 1,000) and the 10,000 Chinese Civil War pairs
(wall, CPU and peak memory). (a), the engine against public engines, has no public engine
of these games to run here: it prints what the document says about that.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESPEC = str(ROOT / ".venv" / "bin" / "rulespec")
PYTHON = str(ROOT / ".venv" / "bin" / "python")
GAMES = ("twilight_struggle", "terraforming_mars", "heldenhain", "risk_balance_of_power",
         "the_fox_in_the_forest")
BENCH_GAMES = {"twilight_struggle": 10, "terraforming_mars": 5, "heldenhain": 10,
               "risk_balance_of_power": 5, "the_fox_in_the_forest": 20}
# The rungs of docs/BENCHMARKS.md's ladder table: (game, upper, lower).
RUNGS = tuple((game, "policy", "random") for game in GAMES) + (
    ("twilight_struggle", "rollout@4x3x2", "policy"), ("twilight_struggle", "rollout@6x3x3x1", "rollout@4x3x2"),
    ("twilight_struggle", "rollout@6x3x6x1", "rollout@6x3x3x1"),
    ("the_fox_in_the_forest", "rollout@4x8x3", "policy"),
    ("the_fox_in_the_forest", "rollout@16x8x6x1", "rollout@4x8x3"),
    ("the_fox_in_the_forest", "rollout@16x16x6x1", "rollout@16x8x6x1"),
    ("terraforming_mars", "rollout@4x2tx2", "policy"), ("terraforming_mars", "rollout@4x4tx2", "rollout@4x2tx2"),
    ("heldenhain", "rollout@4x3x2", "policy"), ("heldenhain", "rollout@8x7x2x1", "rollout@4x3x2"),
    ("heldenhain", "rollout@8x7x4x1", "rollout@8x7x2x1"),
    ("risk_balance_of_power", "rollout@8x2tx3x1", "policy"),
    ("risk_balance_of_power", "rollout:feldzug:lagebild@12x2tx4x1", "rollout@8x2tx3x1"),
)
CARD = 'card containment "Containment"'  # the card whose ops the edit loop changes


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def machine() -> str:
    model = "?"
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} CPUs, {model}, Python {platform.python_version()}"


def commit() -> str:
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (found.stdout.strip() or "?") + (" (with uncommitted changes)" if dirty else "")


def run_json(args: list[str], env: dict[str, str] | None = None) -> tuple[dict, float]:
    """A command's --json output and the CPU seconds of its process tree."""
    before = os.times()
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})})
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise SystemExit(f"bench_all: {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout), cpu


def cpu_of(args: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> float:
    before = os.times()
    subprocess.run(args, capture_output=True, cwd=cwd, env={**os.environ, **(env or {})})
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def table(title: str, command: str, header: list[str], rows: list[list], start_load: str) -> None:
    print(f"\n### {title}\n")
    print(f"`{command}`; {machine()}; load {start_load} -> {load()};"
          f" {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; commit {commit()}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


def public_engines() -> None:
    print("\n### (a) The engine against public engines\n")
    print("No public engine of these five games runs on this machine, so nothing is measured here:"
          " see docs/BENCHMARKS.md, section (a).")


def native_in_use() -> bool:
    """Whether this machine's processes load the runtime's native build (`make native`)."""
    found = subprocess.run([PYTHON, "-c", "import rulespec.runtime.state as s; print(s.__file__)"],
                           capture_output=True, text=True, cwd=ROOT)
    return not found.stdout.strip().endswith(".py")


def per_cpu(result: dict) -> tuple[float, float]:
    """Games and decisions per second of CPU: steadier than wall time on a shared machine."""
    cpu = max(result["cpu_seconds"], 1e-9)
    return result["games"] / cpu, result["decisions"] / cpu


def back_ends() -> None:
    """(b): the generated engine (pure Python, and the native build where one is built) and the
    interpreter, random bots, the same seeds; rates per second of CPU."""
    start, rows, native = load(), [], native_in_use()
    for game in GAMES:
        n = str(BENCH_GAMES[game])
        pure, _ = run_json([RULESPEC, "bench", game, "--games", n, "--json"], {"RULESPEC_NATIVE": "0"})
        (gg, gd), (ig, idec) = per_cpu(pure["generated"]), per_cpu(pure["interpreted"])
        row = [game, n, f"{gg:.1f}", f"{gd:,.0f}", f"{ig:.2f}", f"{idec:,.0f}", f"{gg / ig:.1f}x",
               "yes" if pure.get("same_games") else "NO"]
        if native:
            # wait: each game's native build is made first, never timed as Python beside a
            # background build (the commands' default when the cache lacks it)
            built, _ = run_json([RULESPEC, "bench", game, "--games", n, "--backend", "generated", "--json"],
                                {"RULESPEC_NATIVE": "wait"})
            ng, nd = per_cpu(built["generated"])
            row[2:2] = [f"{ng:.1f}", f"{nd:,.0f}", f"{ng / gg:.2f}x"]
        rows.append(row)
    header = ["game", "games", "generated games / CPU s", "generated decisions / CPU s",
              "interpreted games / CPU s", "interpreted decisions / CPU s",
              "generated over interpreted", "same games"]
    if native:
        header[2:2] = ["native games / CPU s", "native decisions / CPU s", "native over pure"]
    title = "(b) The back ends" + ("" if native else " (no native build on this machine: pure Python)")
    table(title, "rulespec bench GAME --games N --json (RULESPEC_NATIVE=0; and as installed)",
          header, rows, start)


def seat_splits(games: int) -> None:
    """(c), short part: each game's default bot on every seat."""
    start, rows = load(), []
    for game in GAMES:
        out, cpu = run_json([RULESPEC, "simulate", game, "--games", str(games), "--seed", "101",
                             "--workers", "2", "--json"])
        [entry] = out["variants"]
        split = ", ".join(f"{p} {r * 100:.1f}% [{lo * 100:.1f}..{hi * 100:.1f}]"
                          for p, r in entry["win_rate"].items() for lo, hi in [entry["win_ci95"][p]])
        rows.append([game, " vs ".join(out["agents"]), games, split, entry["draws"],
                     f"{cpu / games:.3f} s"])
    table("(c) Seat splits, the default bot on every seat",
          f"rulespec simulate GAME --games {games} --seed 101 --workers 2 --json",
          ["game", "agents", "games", "win rate per seat (95%)", "draws", "CPU a game"], rows, start)


def ladders(pairs: int) -> None:
    """(c), long part: each rung against the one below, seat-swapped."""
    start, rows = load(), []
    for game, upper, lower in RUNGS:
        found, _ = run_json([PYTHON, "docs/ladder_rung.py", game, upper, lower, str(pairs),
                             "--workers", "2", "--json"])
        low, high = found["ci95"]
        seats = ", ".join(f"{seat} {s['share'] * 100:.1f}%" for seat, s in found["by_seat"].items()
                          if s["share"] is not None)
        rows.append([game, upper, lower, found["games"],
                     f"{found['share'] * 100:.1f}% [{low * 100:.1f}..{high * 100:.1f}]", seats,
                     f"{found['cpu_a_game']:.2f} s"])
    table("(c) The ladders", f"python docs/ladder_rung.py GAME UPPER LOWER {pairs} --workers 2",
          ["game", "upper rung", "lower rung", "games", "upper's share of the decided (95%)",
           "by the upper rung's seat", "CPU a game"],
          rows, start)


def edit_loop() -> None:
    """(d): check, compile with nothing changed, compile after one edit, test after one edit, on a
    copy of Twilight Struggle with a cache of its own (nothing in the checkout is touched)."""
    start = load()
    with tempfile.TemporaryDirectory() as work:
        spec = Path(work) / "twilight_struggle"
        shutil.copytree(ROOT / "spec" / "twilight_struggle", spec)
        env = {"RULESPEC_CACHE": str(Path(work) / "cache")}
        out = str(Path(work) / "out" / "twilight_struggle")
        cpu_of([RULESPEC, "compile", str(spec), "-o", out], env)  # the designer's cache, warm
        cpu_of([RULESPEC, "test", str(spec)], env)
        # the lower of two runs: a module another checkout user just edited is recompiled to
        # bytecode by the first process that imports it, which is not the loop's own cost
        figures = [("rulespec check", "1 s", min(cpu_of([RULESPEC, "check", str(spec)], env)
                                                 for _ in range(2))),
                   ("compile with nothing changed", "0.5 s",
                    min(cpu_of([RULESPEC, "compile", str(spec), "-o", out], env) for _ in range(2)))]
        card_file = next(f for f in spec.glob("*.rules") if CARD in f.read_text())
        text = card_file.read_text()
        line = next(x for x in text.splitlines() if CARD in x)
        first = 4 if " ops 4" not in line else 3
        card_file.write_text(text.replace(line, re.sub(r" ops \d", f" ops {first}", line, count=1)))
        figures.append(("edit one card's ops, then compile", "4 s",
                        cpu_of([RULESPEC, "compile", str(spec), "-o", out], env)))
        card_file.write_text(text.replace(line, re.sub(r" ops \d", f" ops {first - 2}", line, count=1)))
        figures.append(("edit one card's ops, then rulespec test (both back ends, every variant)",
                        "10 s", cpu_of([RULESPEC, "test", str(spec)], env)))
    table("(d) The designer's edit loop (Twilight Struggle, CPU seconds of one run)",
          "python docs/bench_all.py --only d (docs/edit_loop.sh for every step)",
          ["step", "target", "measured"], [[s, f"<= {t}", f"{c:.2f} s"] for s, t, c in figures], start)


MEMORY = """
import json, pickle, sys, time
from pathlib import Path
from rulespec.compiler.backends.engine import load_program
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.game import Game
from rulespec.runtime.state import Stream, next_random
game, decisions = sys.argv[1], int(sys.argv[2])
play = Game(load_program(load_spec(Path('spec') / game), 'generated'), seed=1)
stream = Stream(7)
while not play.over and play.state.decisions < decisions:
    ids = play.decision.option_ids
    play.choose(ids[next_random(stream) % len(ids)])
state = play.state
n, t = 0, time.process_time()
while time.process_time() - t < 0.5:
    state.copy(); n += 1
copy_us = (time.process_time() - t) / n * 1e6
print(json.dumps({'decisions': state.decisions, 'pickle': len(pickle.dumps(state)),
                  'json': len(json.dumps(state.to_json())), 'copy_us': copy_us}))
"""


def memory(ten_thousand: bool) -> None:
    """(e): a state's size and the time a copy takes (what every search pays per deal)."""
    start, rows = load(), []
    for game in GAMES:
        out, _ = run_json([PYTHON, "-c", MEMORY, game, "200"])
        pure, _ = run_json([PYTHON, "-c", MEMORY, game, "200"], {"RULESPEC_NATIVE": "0"})
        rows.append([game, out["decisions"], f"{out['pickle'] / 1024:.1f} KB",
                     f"{out['json'] / 1024:.1f} KB", f"{out['copy_us']:.1f} us",
                     f"{pure['copy_us']:.1f} us"])
    table("(e) Memory: a state after 200 random decisions",
          "python docs/bench_all.py --only e (pickle and JSON size, State.copy CPU)",
          ["game", "decisions", "pickled", "saved (JSON)", "copy (as installed)", "copy (pure Python)"],
          rows, start)
    if ten_thousand:
        start = load()
        args = ["/usr/bin/time", "-f", "%e %U %S %M", RULESPEC, "simulate", "twilight_struggle",
                "--variant", "chinese_civil_war", "--against", "base", "--games", "10000",
                "--workers", "2", "--json"]
        done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
        wall, user, system, peak = done.stderr.strip().splitlines()[-1].split()
        table("(e) Memory: the 10,000 Chinese Civil War pairs", " ".join(args[4:]),
              ["pairs", "wall", "CPU", "peak RSS"],
              [[10000, f"{float(wall):.0f} s", f"{float(user) + float(system):.0f} s",
                f"{int(peak) / 1024:.0f} MB"]], start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--long", action="store_true", help="also the long runs (many minutes)")
    parser.add_argument("--games", type=int, default=100, help="games per seat split (c)")
    parser.add_argument("--pairs", type=int, default=100, help="seeds per rung with --long (c)")
    parser.add_argument("--only", default="a,b,c,d,e", help="which tables, e.g. b,e")
    args = parser.parse_args()
    if not Path(RULESPEC).exists():
        raise SystemExit("bench_all: no .venv/bin/rulespec: run `make install` first")
    only = set(args.only.split(","))
    print(f"# rulespec benchmarks, re-measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC"
          f" ({machine()}; commit {commit()})")
    started = time.time()
    steps = [("a", public_engines), ("b", back_ends), ("c", lambda: seat_splits(args.games)),
             ("d", edit_loop), ("e", lambda: memory(args.long))]
    for key, step in steps:
        if key in only:
            step()
            sys.stdout.flush()
    if args.long and "c" in only:
        ladders(args.pairs)
    if args.long and "d" in only:
        print("\n### (d) The whole edit loop (docs/edit_loop.sh)\n")
        sys.stdout.flush()
        subprocess.run(["bash", "docs/edit_loop.sh", "spec/twilight_struggle"], cwd=ROOT)
    print(f"\n(bench_all: {time.time() - started:.0f} s wall)")


if __name__ == "__main__":
    main()
