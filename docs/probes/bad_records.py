"""Bad records: saved game records, mutated, given to `rulespec replay F` and to
`rulespec play --resume F --max-decisions N` (bots only; a `human` seat reads an empty stdin).

Each spec (tests/specs/mini and the five games) gets records of games stopped part-way on the
interpreter, with a snapshot, its bots named as `agents` (docs/CLI.md "The record format").
Each case changes one record in one way: a field of the wrong type or missing; unknown agents,
policies, evaluations, budgets and tunables out of range; bad choices (unknown ids, wrong
types, cut short, one too many); a snapshot field garbled; another game, spec_dir, seed or
param; the JSON cut short, bytes flipped, nested deeper than a parser recurses. Counted per
command: exit 0, exit 1 with one line, hangs, internal errors, and anything else ("messy").

    python docs/probes/bad_records.py [--count N] [--seed S] [--timeout S]
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, Runner, Tally, arguments
from spec_mutations import TARGETS

ODD_VALUES = [None, 7, -1, 2**70, 1.5, float("nan"), float("inf"), "", "x", [], {}, [1, "a"], True,
              "y" * 50_000]
FIELDS = ["format", "game", "variants", "params", "spec_hash", "seed", "agents", "choices", "backend",
          "spec_dir", "snapshot"]


def base_record(name: str, folder: Path, seed: int, steps: int, out: Path) -> dict:
    """A record of a game of `name` stopped after `steps` random decisions, as play writes it."""
    from rulespec.compiler.backends.interpret import Interpreter
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.runtime.game import Game
    from rulespec.runtime.record import save
    from rulespec.runtime.state import Stream, next_random

    model = load_spec(folder).model
    program = Interpreter(model)
    bots = ("policy", "random") if program.meta.policies else ("random", "random")
    game = Game(program, seed=seed, agents=bots[:len(program.meta.players)])
    stream = Stream(seed)
    for _ in range(steps):
        if game.over:
            break
        ids = game.decision.option_ids
        game.choose(ids[next_random(stream) % len(ids)])
    save(game, out, spec_dir=str(folder))
    return json.loads(out.read_text())


def bad_agents(meta) -> list[str]:
    policy = meta.policies[0] if meta.policies else "nope"
    tunables = dict(meta.tunables).get(policy, ())
    tunable = tunables[0].name if tunables else "reach"
    return ["policy:nope", f"rollout:{policy}:nope@2", "rollout::nope@2", "mcts:nope", f"mcts:{policy}:nope@2x2",
            "greedy:nope", "mc:nope", f"policy({tunable}=99)", f"policy({tunable}=-1)", f"policy({tunable}=nan)",
            f"policy({tunable}=1e400)", "policy(nope=1)", "policy(", "rollout@0", "rollout@99999", "mcts@0x0",
            "mcts@1e9", "rollout@4x3x2xnan", "rollout@4x3x2x-1", "", " ", "random,random", "human", "nobody",
            "x" * 100_000, "\u202e\x00"]


def mutants(record: dict, meta, other_game: str, rng: random.Random):
    """(label, bytes of the file) cases made from one record."""
    def field(key: str, value) -> bytes:
        data = dict(record)
        data[key] = value
        return json.dumps(data).encode()

    text = json.dumps(record).encode()
    choices = list(record["choices"])
    kinds = {
        "odd_value": lambda: (lambda k, v: (f"{k}={str(v)[:20]!r}", field(k, v)))(
            rng.choice(FIELDS), rng.choice(ODD_VALUES)),
        "missing": lambda: (lambda k: (f"no {k}", json.dumps({x: y for x, y in record.items() if x != k}).encode()))(
            rng.choice(FIELDS)),
        "agent": lambda: (lambda a: (f"agents [{a[:30]!r}, ...]", field("agents", [a] * len(meta.players))))(
            rng.choice(bad_agents(meta))),
        "agents_count": lambda: (lambda n: (f"{n} agents", field("agents", ["random"] * n)))(
            rng.choice([0, 1, len(meta.players) + 1, 50])),
        "choice": lambda: _bad_choice(record, choices, rng, field),
        "snapshot": lambda: _bad_snapshot(record, rng),
        "game": lambda: (f"game {other_game}", field("game", other_game)),
        "spec_dir": lambda: (lambda d: (f"spec_dir {d}", field("spec_dir", d)))(rng.choice(
            [str(REPO / "spec" / other_game), str(Path(record["spec_dir"]) / "variants"), "/", "/etc/passwd",
             "/nonexistent", ".", "a\u0000b", "x" * 300, str(REPO / "tests" / "broken")])),
        "params": lambda: (lambda p: (f"params {str(p)[:40]}", field("params", p)))(rng.choice(
            [{"nope": 1}, {k: 10**9 for k in record["params"]}, {k: "zzz" for k in record["params"]},
             {k: -(10**9) for k in record["params"]}, {k: True for k in record["params"]}])),
        "variants": lambda: (lambda v: (f"variants {v}", field("variants", v)))(
            rng.choice([["nope"], ["nope", "nope"], [""], ["../../etc"]])),
        "truncated": lambda: (lambda n: (f"cut at byte {n}", text[:n]))(rng.randrange(len(text))),
        "flipped": lambda: ("bytes flipped", _flip(text, rng)),
        "deep": lambda: (lambda d: (f"nested {d} deep", field("snapshot", json.loads("[" * 500 + "]" * 500))
                                    if d == 500 else b'{"format": ' + b"[" * d + b"]" * d + b"}"))(
            rng.choice([500, 100_000])),
        "not_object": lambda: (lambda v: (f"top level {v[:20]!r}", v))(
            rng.choice([b"[]", b"7", b'"x"', b"null", b"", b"\xff\xfe", b"NaN"])),
    }
    while True:
        kind = rng.choice(sorted(kinds))
        label, data = kinds[kind]()
        yield f"{kind}: {label}", data


def _bad_choice(record: dict, choices: list, rng: random.Random, field) -> tuple[str, bytes]:
    at = rng.randrange(len(choices) + 1)
    how = rng.choice(["unknown id", "int", "cut short", "one more", "duplicated", "null"])
    changed = list(choices)
    if how == "unknown id":
        changed.insert(at, "zzz_nope")
    elif how == "int":
        changed.insert(at, 3)
    elif how == "null":
        changed.insert(at, None)
    elif how == "cut short":
        changed = changed[:at]
    elif how == "one more":
        changed.append(changed[-1] if changed else "x")
    else:
        changed = changed[:at] + changed[at - 1:] if at else changed * 2
    return f"choices {how} at {at}", field("choices", changed)


def _bad_snapshot(record: dict, rng: random.Random) -> tuple[str, bytes]:
    data = json.loads(json.dumps(record))
    state = data["snapshot"]["state"]
    key = rng.choice(sorted(state))
    how = rng.randrange(3)
    if how == 0:
        del state[key]
        label = f"snapshot without {key}"
    elif how == 1:
        state[key] = rng.choice(ODD_VALUES[:-1])
        label = f"snapshot {key}={str(state[key])[:20]}"
    else:
        state[key] = _garble(state[key], rng)
        label = f"snapshot {key} garbled inside"
    return label, json.dumps(data).encode()


def _garble(value, rng: random.Random):
    """The value with one leaf deep inside replaced by an odd one."""
    if isinstance(value, list) and value:
        value[rng.randrange(len(value))] = _garble(value[rng.randrange(len(value))], rng)
        return value
    if isinstance(value, dict) and value:
        key = rng.choice(sorted(value, key=str))
        value[key] = _garble(value[key], rng)
        return value
    return rng.choice([-5, 10**12, "zzz", None, 2.5, [9, 9]])


def _flip(text: bytes, rng: random.Random) -> bytes:
    data = bytearray(text)
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def main() -> int:
    parser = arguments(__doc__, count=120, timeout=60)
    parser.add_argument("--max-decisions", type=int, default=60,
                        help="the bound given to play --resume (default 60)")
    args = parser.parse_args()
    rng, runner, tally, started = random.Random(args.seed), Runner(args.fresh), Tally(), time.monotonic()
    from rulespec.compiler.frontend.loader import load_spec
    from rulespec.compiler.backends.interpret import Interpreter
    accepted: list[str] = []
    with tempfile.TemporaryDirectory(prefix="probe-records-") as tmp:
        names = sorted(TARGETS)
        per_game = max(1, args.count // len(names))
        for name in names:
            meta = Interpreter(load_spec(TARGETS[name]).model).meta
            other = rng.choice([n for n in names if n != name and n != "mini"])
            records = [base_record(name, TARGETS[name], seed, rng.randint(3, 40), Path(tmp) / f"{name}-{seed}.json")
                       for seed in (1, 2)]
            for case, (label, data) in zip(range(per_game), _alternate(records, meta, other, rng)):
                path = Path(tmp) / f"{name}-bad.json"
                path.write_bytes(data)
                kind = label.split(":")[0]
                for command in (["replay", str(path)],
                                ["play", "--resume", str(path), "--max-decisions", str(args.max_decisions)]):
                    outcome = runner.run(command, args.timeout)
                    case_label = f"{name} #{case} {label}"
                    if outcome.bad() or outcome.long_line:  # keep the file to reproduce it
                        keep = Path(tempfile.gettempdir()) / f"probe-record-{name}-{case}.json"
                        keep.write_bytes(data)
                        case_label += f" (kept as {keep})"
                    tally.add(f"{command[0]} {kind}", outcome, case_label)
                    if outcome.kind == "ok":
                        accepted.append(f"{command[0]} {case_label}")
    # exit 0 is right only where the change leaves a record that still fits (a cut-short
    # choice list, a param at a legal value): listed to be judged, not counted as failures
    return tally.report("bad records", started, args.json, {"accepted": accepted})


def _alternate(records: list[dict], meta, other: str, rng: random.Random):
    streams = [mutants(r, meta, other, rng) for r in records]
    while True:
        for stream in streams:
            yield next(stream)


if __name__ == "__main__":
    sys.exit(main())
