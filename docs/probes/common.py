"""What every reliability probe shares: running one `rulespec` command with a timeout, sorting
its end into the classes docs/RELIABILITY.md counts, and the header of a run (date, commit,
load). Imported by the probes beside it (`python docs/probes/NAME.py` puts this folder first
on sys.path).

A command runs in a child forked from this process after it has imported rulespec and every
command module: the same as a fresh `rulespec ...` process (own stdin, stdout, stderr, exit
status, working folder) without paying the import each time, which on a shared 2-core machine
is most of a small command's cost. `--fresh` runs `python -m rulespec` instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
os.environ.setdefault("RULESPEC_NATIVE", "0")  # the probes test the Python back ends
os.environ.pop("RULESPEC_DEBUG", None)  # a traceback must be the probe's finding, not a setting

LOCATED = re.compile(r"^\S.*:\d+:\d+: error: \S")
ONE_LINE = re.compile(r"^rulespec: error: \S")
LONG_LINE = 2000  # an error line longer than this is counted apart (a dump, not a message)


@dataclass
class Outcome:
    """How one command ended, in the classes the report counts."""

    kind: str  # ok, refused, usage, messy, hang, internal
    exit: int | None
    first_line: str
    seconds: float
    long_line: bool
    stdout: str = ""

    def bad(self) -> bool:
        return self.kind in ("hang", "internal", "messy")


def classify(code: int | None, err: str, out: str = "") -> tuple[str, bool]:
    """An exit status and stderr in one class: `refused` is exit 1 with one clear line (a
    `rulespec: error:` line, or spec errors each opening with `path:line:col: error:`)."""
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("note: ")]
    long_line = any(len(l) > LONG_LINE for l in lines)
    if code is None:
        return "hang", long_line
    if code == 3 or code < 0 or "Traceback (most recent call last)" in err + out \
            or "internal error" in err:
        return "internal", long_line
    if code == 0:
        return "ok", long_line
    if code == 2:
        return "usage", long_line
    if code == 1 and lines and (LOCATED.match(lines[0]) or (ONE_LINE.match(lines[0]) and len(lines) == 1)):
        return "refused", long_line
    return "messy", long_line


class Runner:
    """Runs `rulespec ARGS` with a timeout in a fresh working folder; see the module's text."""

    def __init__(self, fresh: bool = False):
        self.fresh = fresh
        if not fresh:
            from rulespec.compiler.cli import main
            from rulespec.compiler.cli.base import COMMAND_MODULES, import_commands
            from rulespec.compiler.frontend.parse import _parser
            for module in set(COMMAND_MODULES.values()):
                import_commands(module)
            _parser()  # the grammar read once, here, with the code: a child never mixes two trees
            self.main = main

    def run(self, args: list[str], timeout: float, cwd: Path | None = None,
            stdin: bytes = b"") -> Outcome:
        with tempfile.TemporaryDirectory(prefix="probe-") as tmp:
            where = str(cwd or tmp)
            start = time.monotonic()
            if self.fresh:
                code, out, err = _fresh(args, timeout, where, stdin)
            else:
                code, out, err = self._forked(args, timeout, where, stdin, Path(tmp))
            seconds = time.monotonic() - start
        kind, long_line = classify(code, err, out)
        first = next((l for l in err.splitlines() if l.strip() and not l.startswith("note: ")), "")
        return Outcome(kind, code, first[:300], seconds, long_line, out[:4000])

    def _forked(self, args: list[str], timeout: float, cwd: str, stdin: bytes, tmp: Path):
        out_path, err_path, in_path = tmp / ".out", tmp / ".err", tmp / ".in"
        in_path.write_bytes(stdin)
        sys.stdout.flush(), sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: a rulespec process of its own
            code = 3
            try:
                os.setsid()
                for fd, path, mode in ((0, in_path, os.O_RDONLY), (1, out_path, os.O_WRONLY | os.O_CREAT),
                                       (2, err_path, os.O_WRONLY | os.O_CREAT)):
                    os.dup2(os.open(path, mode), fd)
                os.chdir(cwd)
                sys.stdout.reconfigure(line_buffering=True)  # what a killed child printed is kept
                try:
                    self.main(args, prog_name="rulespec")
                    code = 0
                except SystemExit as stop:
                    code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except BaseException:  # noqa: BLE001 - escaped the command's own guard: a traceback
                import traceback
                traceback.print_exc()
            finally:
                sys.stdout.flush(), sys.stderr.flush()
                os._exit(code)
        code = _wait(pid, timeout)
        return code, _text(out_path), _text(err_path)


def _wait(pid: int, timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.killpg(pid, signal.SIGKILL)  # the child's own group: it and whatever it started
            os.waitpid(pid, 0)
            return None
        time.sleep(0.02)


def _fresh(args: list[str], timeout: float, cwd: str, stdin: bytes):
    command = [sys.executable, "-m", "rulespec", *args]
    try:
        done = subprocess.run(command, input=stdin, capture_output=True, timeout=timeout, cwd=cwd,
                              start_new_session=True)
    except subprocess.TimeoutExpired as late:
        return None, _decode(late.stdout or b""), _decode(late.stderr or b"")
    return done.returncode, _decode(done.stdout), _decode(done.stderr)


def _text(path: Path) -> str:
    return _decode(path.read_bytes()) if path.exists() else ""


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def arguments(doc: str, count: int, timeout: float | None = None) -> argparse.ArgumentParser:
    """The options every probe takes; --timeout and --fresh only for those that run commands."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--count", type=int, default=count, help=f"how many cases (default {count})")
    parser.add_argument("--seed", type=int, default=1, help="the random seed of the cases (default 1)")
    if timeout is not None:
        parser.add_argument("--timeout", type=float, default=timeout,
                            help=f"seconds before a command counts as a hang (default {timeout:g})")
        parser.add_argument("--fresh", action="store_true", help="run each command as python -m rulespec, not a fork")
    parser.add_argument("--json", action="store_true", help="the summary as one JSON object")
    return parser


def header() -> dict[str, str]:
    """When, on what and under what load a probe ran (docs/RELIABILITY.md's columns). In a
    snapshot made with `git archive` (docs/RELIABILITY.md, "How they were run") the commit is
    the one its .probe-commit file names."""
    if (REPO / ".probe-commit").is_file():
        commit = (REPO / ".probe-commit").read_text().strip() + " (git archive snapshot)"
    else:
        commit = _git("log", "-1", "--format=%h")
        if _git("status", "--porcelain", "--untracked-files=no"):
            commit += " (+ uncommitted changes of others)"
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "cores": str(os.cpu_count())}


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True).stdout.strip()


class Tally:
    """Counts of outcomes per group, and the first few cases of each bad class to reproduce."""

    def __init__(self):
        self.counts: dict[str, Counter] = {}
        self.longest: dict[str, float] = {}  # the slowest command's seconds, per group
        self.examples: list[dict] = []
        self.long_lines = 0
        self.slowest, self.slowest_case = 0.0, ""

    def add(self, group: str, outcome: Outcome, case: str, limit: int = 25) -> None:
        self.counts.setdefault(group, Counter())[outcome.kind] += 1
        self.longest[group] = max(self.longest.get(group, 0.0), outcome.seconds)
        self.long_lines += outcome.long_line
        if outcome.seconds > self.slowest:
            self.slowest, self.slowest_case = outcome.seconds, f"[{group}] {case}"
        if (outcome.bad() or outcome.long_line) and len(self.examples) < limit:
            self.examples.append({"group": group, "kind": outcome.kind, "exit": outcome.exit,
                                  "case": case, "line": outcome.first_line[:200]})

    def total(self) -> Counter:
        out = Counter()
        for counts in self.counts.values():
            out.update(counts)
        return out

    def report(self, title: str, started: float, as_json: bool, extra: dict | None = None) -> int:
        summary = {"probe": title, **header(), "seconds": round(time.monotonic() - started, 1),
                   "total": dict(self.total()), "groups": {g: dict(c) for g, c in self.counts.items()},
                   "slowest_per_group_s": {g: round(s, 2) for g, s in self.longest.items()},
                   "long_error_lines": self.long_lines, "slowest_s": round(self.slowest, 2),
                   "slowest_case": self.slowest_case,
                   **(extra or {}), "examples": self.examples}
        if as_json:
            print(json.dumps(summary))
        else:
            print(f"{title}: {summary['date']}, commit {summary['commit']}, load {summary['load']}"
                  f" ({summary['cores']} cores), {summary['seconds']} s")
            for group, counts in sorted(self.counts.items()):
                print(f"  {group}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                      + f" (slowest {self.longest[group]:.1f} s)")
            print("  total: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["total"].items())))
            print(f"  error lines over {LONG_LINE} characters: {self.long_lines};"
                  f" slowest command {summary['slowest_s']} s: {self.slowest_case}")
            for key, value in (extra or {}).items():
                if isinstance(value, list):
                    print(f"  {key} ({len(value)}):" + "".join(f"\n      {item}" for item in value))
                else:
                    print(f"  {key}: {value}")
            for example in self.examples:
                print(f"  {example['kind']} (exit {example['exit']}) [{example['group']}] {example['case']}"
                      f"\n      {example['line']}")
        return 1 if any(self.total()[k] for k in ("hang", "internal")) else 0
