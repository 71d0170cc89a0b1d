"""Mutation fuzz of specs: `rulespec check` (then `rulespec compile -o TMP` on those that check)
on mutated .rules files of tests/specs/mini and the five games, each with a timeout.

Each case copies one spec's folder (once per spec), mutates one of its .rules files in one way
(a token deleted, duplicated or swapped with another; a long run of word characters inserted,
alone, before "" or as the issue's `var v: int = yyy…y""` line; deep nesting of brackets,
closed or not; random bytes; lines joined into one long line; a long line appended; the file
cut short), runs the commands and puts the file back. Counted: exit 0, exit 1 with located
lines, hangs (past --timeout), internal errors (exit 3, "internal error", a traceback), and
anything else ("messy": exit 1 without a located first line). A third of the mini cases and a
tenth of the others are the long-line and nesting shapes, at sizes up to --longest.

    python docs/probes/spec_mutations.py [--count N] [--seed S] [--timeout S] [--compiles K]
"""

from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, Runner, Tally, arguments

TARGETS = {"mini": REPO / "tests" / "specs" / "mini",
           **{name: REPO / "spec" / name for name in ("twilight_struggle", "heldenhain", "risk_balance_of_power",
                                                      "terraforming_mars", "the_fox_in_the_forest")}}
TOKEN = re.compile(rb'"[^"\n]*"|\w+|[^\w\s]')


def _tokens(text: bytes) -> list[re.Match]:
    return list(TOKEN.finditer(text))


def delete_token(text: bytes, rng: random.Random, longest: int) -> bytes:
    tok = rng.choice(_tokens(text))
    return text[:tok.start()] + text[tok.end():]


def duplicate_token(text: bytes, rng: random.Random, longest: int) -> bytes:
    tok = rng.choice(_tokens(text))
    return text[:tok.end()] + b" " + tok.group() + text[tok.end():]


def swap_tokens(text: bytes, rng: random.Random, longest: int) -> bytes:
    tokens = _tokens(text)
    i = rng.randrange(len(tokens))
    j = min(len(tokens) - 1, i + 1) if rng.random() < 0.5 else rng.randrange(len(tokens))
    a, b = sorted((tokens[i], tokens[j]), key=lambda t: t.start())
    if a.start() == b.start():
        return text
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def long_identifier(text: bytes, rng: random.Random, longest: int) -> bytes:
    run = b"y" * rng.randint(longest // 20, longest)
    shape = rng.choice([b" %s ", b" %s\"\"", b"\nvar v: int = %s\"\"\n", b" %s(", b" %s."])
    at = rng.choice(_tokens(text)).start() if shape[0:1] == b" " else len(text)
    return text[:at] + shape.replace(b"%s", run) + text[at:]


def deep_nesting(text: bytes, rng: random.Random, longest: int) -> bytes:
    depth = rng.randint(50, max(51, longest // 10))
    opening, closing = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"not (", b")")])
    numbers = [t for t in _tokens(text) if t.group().isdigit()] or _tokens(text)
    tok = rng.choice(numbers)
    closed = closing * depth if rng.random() < 0.7 else b""
    return text[:tok.start()] + opening * depth + tok.group() + closed + text[tok.end():]


def random_bytes(text: bytes, rng: random.Random, longest: int) -> bytes:
    at = rng.randrange(len(text) + 1)
    return text[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))) + text[at:]


def long_line(text: bytes, rng: random.Random, longest: int) -> bytes:
    lines = text.split(b"\n")
    if rng.random() < 0.5 and len(lines) > 2:  # join a block of lines into one
        start = rng.randrange(len(lines) - 1)
        end = min(len(lines), start + rng.randint(2, 400))
        return b"\n".join(lines[:start] + [b" ".join(lines[start:end])] + lines[end:])
    terms = b" + ".join([b"1"] * rng.randint(100, max(101, longest // 4)))
    return text + b"\ndefine far() = " + terms + b"\n"


def cut_short(text: bytes, rng: random.Random, longest: int) -> bytes:
    return text[:rng.randrange(len(text) + 1)]


ORDINARY = [delete_token, duplicate_token, swap_tokens, random_bytes, long_line, cut_short]
LONG = [long_identifier, deep_nesting]


def main() -> int:
    parser = arguments(__doc__, count=240, timeout=30)
    parser.add_argument("--compiles", type=int, default=3,
                        help="compiles of mutants that check, per game (mini: all; default 3)")
    parser.add_argument("--longest", type=int, default=200_000,
                        help="the longest run of word characters inserted (default 200,000)")
    args = parser.parse_args()
    rng, runner, tally, by_mutation = random.Random(args.seed), Runner(args.fresh), Tally(), Tally()
    started, compiled = time.monotonic(), {name: 0 for name in TARGETS}
    shares = {name: (0.4 if name == "mini" else 0.12) for name in TARGETS}
    with tempfile.TemporaryDirectory(prefix="probe-specs-") as tmp:
        for name, source in TARGETS.items():
            folder = Path(tmp) / name
            shutil.copytree(source, folder)
            files = sorted(folder.glob("*.rules"))
            for case in range(max(1, round(args.count * shares[name]))):
                path = rng.choice(files)
                original = path.read_bytes()
                long_share = 1 / 3 if name == "mini" else 0.1
                mutate = rng.choice(LONG if rng.random() < long_share else ORDINARY)
                path.write_bytes(mutate(original, rng, args.longest))
                label = f"{name} #{case} {mutate.__name__} {path.name}"
                check = runner.run(["check", str(folder)], args.timeout)
                if check.bad() or check.long_line:  # keep the mutant to reproduce it
                    keep = Path(tempfile.gettempdir()) / f"probe-mutant-{name}-{case}-{path.name}"
                    shutil.copy(path, keep)
                    label += f" (kept as {keep})"
                tally.add(f"check {name}", check, label)
                by_mutation.add(mutate.__name__, check, label)
                if check.kind == "ok" and (name == "mini" or compiled[name] < args.compiles):
                    compiled[name] += 1
                    out = Path(tmp) / "out"
                    made = runner.run(["compile", str(folder), "-o", str(out)], args.timeout * 4)
                    tally.add(f"compile {name}", made, label)
                    shutil.rmtree(out, ignore_errors=True)
                path.write_bytes(original)
    checks_by_mutation = {m: dict(c) for m, c in sorted(by_mutation.counts.items())}
    slowest_check = {m: round(s, 2) for m, s in sorted(by_mutation.longest.items())}
    return tally.report("spec mutations", started, args.json,
                        {"checks by mutation": checks_by_mutation, "slowest check by mutation (s)": slowest_check})


if __name__ == "__main__":
    sys.exit(main())
