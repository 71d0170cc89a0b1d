"""Game records: save a game at any decision, load it back, replay it.

A record is one JSON object: the game, its variants and params, the spec
hash, the seed, the agents (when bots played), the chosen option ids, and a
snapshot of the state (State.to_json) with the back end that made it. The
choices alone reproduce the game on either back end; the snapshot restores it
at once on the back end that wrote it (its frames are that back end's data).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .game import Game
from .program import Program
from .state import State

FORMAT = "rulespec-record/1"
MAX_IDS_SHOWN = 40


class RecordError(Exception):
    """A record that cannot be used: corrupt, from another spec, or illegal."""


# ------------------------------------------------------------------ writing


def to_record(game: Game, spec_dir: str | None = None, snapshot: bool = True) -> dict[str, Any]:
    """The record of a game as it stands, with a snapshot unless the state is unusable
    (a rule error stopped the game half-way through a step)."""
    meta = game.meta
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": meta.game,
        "variants": list(game.variants),
        "params": dict(game.state.params),
        "spec_hash": meta.spec_hash,
        "seed": game.seed,
    }
    if game.agents:
        record["agents"] = list(game.agents)
    record["choices"] = list(game.choices)
    record["backend"] = game.program.backend
    if spec_dir is not None:
        record["spec_dir"] = spec_dir
    if snapshot:
        record["snapshot"] = {"backend": game.program.backend, "state": game.state.to_json()}
    return record


def save(game: Game, path: str | Path, spec_dir: str | None = None, snapshot: bool = True) -> None:
    """Write the record atomically: a crash never leaves half a file behind."""
    text = json.dumps(to_record(game, spec_dir, snapshot), indent=1, sort_keys=False)
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as err:
        raise RecordError(f"cannot write the record {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise RecordError(f"cannot write the record {path}: {err.strerror or err}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------ reading

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str, "variants": list, "params": dict,
    "spec_hash": str, "seed": int, "choices": list,
}


def read(path: str | Path) -> dict[str, Any]:
    """Parse and validate a record file; RecordError with one line when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"{path}: cannot read the record ({_plain(err)})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}: corrupt record: not JSON ({err.msg} at line {err.lineno}"
                          f" column {err.colno})") from None
    return validate(data, str(path))


def validate(data: Any, where: str = "record") -> dict[str, Any]:
    """Check the shape of a record; RecordError naming the first problem."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: corrupt record: expected a JSON object")
    data.setdefault("format", FORMAT)  # the fuzzer's reproductions are bare records
    if not isinstance(data["format"], str):
        raise RecordError(f"{where}: corrupt record: 'format' should be a string")
    for key, kind in _FIELDS.items():
        if key not in data:
            raise RecordError(f"{where}: corrupt record: '{key}' is missing")
        if not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool)):
            raise RecordError(f"{where}: corrupt record: '{key}' should be {_kind_name(kind)}")
    if not data["format"].startswith("rulespec-record/"):
        raise RecordError(f"{where}: not a rulespec record (format '{data['format']}')")
    if data["format"] != FORMAT:
        raise RecordError(f"{where}: record format '{data['format']}' is not supported"
                          f" (this version reads '{FORMAT}')")
    for key in ("variants", "choices"):
        if not all(isinstance(x, str) for x in data[key]):
            raise RecordError(f"{where}: corrupt record: '{key}' should hold strings only")
    snapshot = data.get("snapshot")
    if snapshot is not None and not (isinstance(snapshot, dict) and isinstance(snapshot.get("state"), dict)):
        raise RecordError(f"{where}: corrupt record: 'snapshot' should hold a 'state' object")
    return data


def check_program(record: dict[str, Any], program: Program) -> None:
    """Refuse a record of another game or made under another spec hash."""
    meta = program.meta
    if record["game"] != meta.game:
        raise RecordError(f"record is a game of '{record['game']}', not '{meta.game}'")
    if record["spec_hash"] != meta.spec_hash:
        raise RecordError(f"record was made with spec hash {record['spec_hash']}; this spec is"
                          f" {meta.spec_hash} — replay it with the spec version that made it")


def load(path: str | Path, program: Program, method: str = "auto") -> Game:
    """The game of a record file, restored from its snapshot or by replaying its choices.

    method: "snapshot" (the snapshot must be there and from this back end),
    "replay" (ignore the snapshot), or "auto" (the snapshot when usable).
    """
    record = read(path)
    check_program(record, program)
    snapshot = record.get("snapshot")
    usable = snapshot is not None and snapshot.get("backend") == program.backend
    if method == "snapshot" and not usable:
        made = snapshot.get("backend") if snapshot else None
        raise RecordError(f"{path}: no snapshot from the {program.backend} back end"
                          + (f" (it has one from the {made} back end)" if made else ""))
    if method == "replay" or not usable:
        return replay(record, program)
    return restore(record, program, str(path))


def restore(record: dict[str, Any], program: Program, where: str = "record") -> Game:
    """The game at the record's snapshot, without replaying anything."""
    data = record["snapshot"]["state"]
    missing = [k for k in State.__slots__ if k not in data and k != "trace"]
    if missing:
        raise RecordError(f"{where}: corrupt record: the snapshot has no '{missing[0]}'")
    try:
        state = State.from_json(data)
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"{where}: corrupt record: the snapshot is incomplete ({_plain(err)})") from None
    if state.decisions != len(record["choices"]):
        raise RecordError(f"{where}: corrupt record: the snapshot is at decision {state.decisions}"
                          f" but the record has {len(record['choices'])} choices")
    return _game(record, program, state)


def replay(record: dict[str, Any], program: Program) -> Game:
    """Re-play the record's choices from a fresh game; RecordError at the first bad one."""
    check_program(record, program)
    game = _game(record, program, None)
    choices = record["choices"]
    for number, choice in enumerate(choices, 1):
        decision = game.decision
        if decision is None:
            left = len(choices) - number + 1
            raise RecordError(f"decision {number}: the game is already over ({game.reason}) but the"
                              f" record has {left} more choice{'s' if left != 1 else ''}")
        if choice not in decision.option_ids:
            raise RecordError(f"decision {number}: '{choice}' is not a legal option for"
                              f" '{decision.prompt}' (legal: {_ids(decision.option_ids)})")
        game.choose(choice)
    return game


def same_state(a: State, b: State) -> bool:
    """Whether two states agree on everything both back ends must agree on."""
    return _normal(a.public_part()) == _normal(b.public_part())


# ------------------------------------------------------------------ helpers


def _game(record: dict[str, Any], program: Program, state: State | None) -> Game:
    return Game(program, seed=record["seed"], params=record["params"],
                variants=tuple(record["variants"]), state=state,
                agents=tuple(record["agents"]) if record.get("agents") else None,
                choices=list(record["choices"]) if state is not None else None)


def _normal(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _ids(ids: tuple[str, ...]) -> str:
    shown = ", ".join(ids[:MAX_IDS_SHOWN])
    rest = len(ids) - MAX_IDS_SHOWN
    return shown + (f", … and {rest} more" if rest > 0 else "")


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return {str: "a string", int: "an integer", list: "a list", dict: "an object"}.get(kind, str(kind))


def _plain(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__
