"""Bad command lines: every `rulespec` command with random flags and values (NaN, infinities,
negative, huge, not numbers, unknown names, odd paths, a missing argument or value).

Each case runs in a fresh folder holding a copy of tests/specs/mini (and of tests/specs/sow, a
spec with tunables, for `tune`), an existing file and folder; a command that writes (compile,
fmt, tune, new) is only ever given those copies, so no run touches the checkout. Commands that
play get a small count first (`--games 2`, `--budget 5`), which a random value may override.
`serve` runs on 127.0.0.1 or ::1 only; it counts as started (ok) when it printed its link
before the timeout. Counted: exit 0, exit 1 with one line, usage errors (exit 2), hangs,
internal errors (exit 3, "internal error", a traceback), anything else ("messy").

    python docs/probes/bad_command_lines.py [--count N] [--seed S] [--timeout S]
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import click

from common import REPO, Runner, Tally, arguments

NUMBERS = ["nan", "NaN", "inf", "-inf", "-1", "0", "-0", "1e400", "99999999999999999999", "abc", "", "1.5",
           "0x10", "-9223372036854775809", "18446744073709551616", "1_000", " 3", "3 "]
# no NUL: an argument of a real process cannot hold one (exec takes C strings)
PATHS = ["out", "nofile.json", "file.txt", "folder", "/nonexistent/deep/x", "/proc/self/nope", "", "x" * 300,
         "x" * 300 + "/y", "mini", "\u202e.json"]
NAMES = ["nope", "", "x" * 5000, "../x", "\u202e", "a b", "1abc"]
AGENTS = ["random,,random", "policy:nope", "nope", "", "random,random,random", "mcts@0", "rollout@nan",
          "human,human", "rollout@4x3x2xinf", "greedy", "policy(reach=nan)", "mcts@99999999999x1", ",", "human"]
PARAMS = ["nope=1", "goal", "goal=nan", "goal=inf", "goal=-1", "goal=99999999999999999999", "=", "goal==1",
          "goal=1e400", "goal=0..nan", "goal=5..1", "goal=0..99999999", "goal=true"]
GAMES = ["mini", "the_fox_in_the_forest", "nope_game", "file.txt", "/nonexistent", "", "folder"]
WRITES = {"compile", "fmt", "tune", "new"}  # given only the copies in the case's folder
BOUNDS = {"bench": ["--games", "2"], "fuzz": ["--games", "2"], "simulate": ["--games", "2"],
          "balance": ["--games", "2"], "worth": ["--games", "2"],
          "tune": ["--games", "2", "--generations", "1", "--popsize", "2", "--final-games", "2", "--budget", "5"],
          "serve": ["--port", "0"]}
VALUES = {"--agents": AGENTS, "--seats": AGENTS, "--ladder": AGENTS, "--param": PARAMS, "--against": ["base"] + NAMES,
          "--host": ["127.0.0.1", "::1"], "--variant": NAMES, "--from": GAMES + NAMES}
PATH_OPTIONS = {"--output", "--records", "--resume", "--package", "--spec", "--report", "--html", "--coverage",
                "--problems-dir", "--record", "--dir", "--textmate"}


def commands() -> dict[str, click.Command]:
    from rulespec.compiler.cli import main
    from rulespec.compiler.cli.base import COMMAND_MODULES, import_commands
    for module in set(COMMAND_MODULES.values()):
        import_commands(module)
    return dict(main.commands)


def value_for(option: click.Option, rng: random.Random) -> str:
    name = max(option.opts, key=len)
    if name in VALUES:
        return rng.choice(VALUES[name])
    if name in PATH_OPTIONS:
        return rng.choice(PATHS)
    if isinstance(option.type, click.Choice):
        valid = [c for c in option.type.choices if c != "ray"]  # no cluster started by a probe
        return rng.choice(valid + ["nope", ""])
    if type(option.type).__name__ in ("Bounded", "BoundedReal", "IntParamType", "FloatParamType"):
        return rng.choice(NUMBERS)
    return rng.choice(NAMES)


def command_line(name: str, command: click.Command, rng: random.Random) -> list[str]:
    args = [name]
    for param in command.params:
        if isinstance(param, click.Argument) and rng.random() > 0.1:  # else: missing
            if name == "new":
                args.append(rng.choice(NAMES + ["fresh_game"]))
            elif name == "tune":
                args.append(rng.choice(["sow", "mini", "nope_game"]))
            elif name in WRITES:
                args.append(rng.choice(["mini", "nope_game", "file.txt", "folder"]))
            elif name == "replay":
                args.append(rng.choice(PATHS))
            else:
                args.append(rng.choice(GAMES))
    args += BOUNDS.get(name, [])
    options = [p for p in command.params if isinstance(p, click.Option)]
    for option in rng.sample(options, min(len(options), rng.randint(1, 3))) if options else ():
        args.append(rng.choice(option.opts))
        if not option.is_flag:
            args.append(value_for(option, rng))
    if options and rng.random() < 0.1:  # an option without its value, last
        args.append(max(rng.choice([o for o in options if not o.is_flag] or options).opts, key=len))
    return args


def case_folder(root: Path) -> Path:
    folder = Path(tempfile.mkdtemp(dir=root))
    shutil.copytree(REPO / "tests" / "specs" / "mini", folder / "mini")
    shutil.copytree(REPO / "tests" / "specs" / "sow", folder / "sow")
    (folder / "file.txt").write_text("not a record, not a spec\n")
    (folder / "folder").mkdir()
    return folder


def main() -> int:
    parser = arguments(__doc__, count=300, timeout=45)
    args = parser.parse_args()
    rng, runner, tally, started = random.Random(args.seed), Runner(args.fresh), Tally(), time.monotonic()
    table = commands()
    names = sorted(table)
    with tempfile.TemporaryDirectory(prefix="probe-cli-") as tmp:
        for case in range(args.count):
            name = names[case % len(names)]
            line = command_line(name, table[name], rng)
            folder = case_folder(Path(tmp))
            serving = name == "serve"
            outcome = runner.run(line, 12 if serving else args.timeout, cwd=folder)
            if serving and outcome.kind == "hang" and "table is open" in outcome.stdout:
                outcome.kind = "ok"  # a table that opened and ran until stopped
            shown = " ".join(a if len(a) < 40 and a.isprintable() and a else
                             repr(a) if len(a) < 40 else f"{a[:12]!r}…({len(a)})" for a in line)
            tally.add(name, outcome, f"rulespec {shown}")
            shutil.rmtree(folder, ignore_errors=True)
    return tally.report("bad command lines", started, args.json)


if __name__ == "__main__":
    sys.exit(main())
