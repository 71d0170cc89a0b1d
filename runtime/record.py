"""Game records: save a game at any decision, load it back, replay it.

A record is one JSON object: the game, its variants and params, the spec
hash, the seed, the agents (when bots played), the chosen option ids, and a
snapshot of the state (State.to_json) with the back end that made it. The
choices alone reproduce the game on either back end; the snapshot restores it
at once on the back end that wrote it (its frames are that back end's data).

In memory a record is a `Record`; `Record.from_json` is the one place a
record from outside is checked, field by field, and every problem is one
RecordError line that quotes what it found bounded and printable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulespec.runtime.files import WriteError, write_atomic
from rulespec.runtime.game import Game
from rulespec.runtime.logview import marks_problem
from rulespec.runtime.params import ParamError, check_params
from rulespec.runtime.program import Program
from rulespec.runtime.state import SEED_HIGH, SEED_LOW, State, sight_of
from rulespec.runtime.text import shown

FORMAT = "rulespec-record/1"
MAX_IDS_SHOWN = 40
MAX_BYTES = 256 * 1024 * 1024  # a record larger than this is not one rulespec wrote
BACKENDS = ("generated", "interpreted")


class RecordError(Exception):
    """A record that cannot be used: corrupt, from another spec, or illegal."""


@dataclass(frozen=True)
class Record:
    """A game record, checked: every field of the type it says."""

    game: str
    spec_hash: str
    seed: int
    variants: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    choices: tuple[str, ...] = ()
    agents: tuple[str, ...] | None = None
    backend: str | None = None
    spec_dir: str | None = None
    snapshot: dict[str, Any] | None = None  # {"backend": ..., "state": State.to_json()}
    format: str = FORMAT

    def __getitem__(self, key: str) -> Any:
        """The JSON view, field by name (for code written against records as dicts)."""
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)

    # ---------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The record as the file holds it (keys in the documented order)."""
        out: dict[str, Any] = {"format": self.format, "game": self.game,
                               "variants": list(self.variants), "params": dict(self.params),
                               "spec_hash": self.spec_hash, "seed": self.seed}
        if self.agents:
            out["agents"] = list(self.agents)
        out["choices"] = list(self.choices)
        for key in ("backend", "spec_dir", "snapshot"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "record", bare: bool = False) -> Record:
        """A record from parsed JSON; RecordError naming the first thing wrong with it.
        bare: a record made in memory (the fuzzer's reproductions) may leave out its format;
        one from outside - a file, an upload - may not."""
        def bad(problem: str) -> RecordError:
            return RecordError(f"{where}: corrupt record: {problem}")

        if not isinstance(data, dict):
            raise bad("expected a JSON object")
        if "format" not in data and not bare:
            raise bad(f"no 'format' (a rulespec record begins \"format\": \"{FORMAT}\")")
        form = data.get("format", FORMAT)
        if not isinstance(form, str):
            raise bad("'format' should be a string")
        if not form.startswith("rulespec-record/"):
            raise RecordError(f"{where}: not a rulespec record (format '{shown(form)}')")
        if form != FORMAT:
            raise RecordError(f"{where}: record format '{shown(form)}' is not supported"
                              f" (this version reads '{FORMAT}')")
        for key in ("game", "variants", "params", "spec_hash", "seed", "choices"):
            if key not in data:
                raise bad(f"'{key}' is missing")
        game, spec_hash = _text(data, "game", bad), _text(data, "spec_hash", bad)
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise bad("'seed' should be an integer")
        if not SEED_LOW <= seed <= SEED_HIGH:
            raise bad("'seed' is out of range (a 64-bit number)")
        params = data["params"]
        if not isinstance(params, dict):
            raise bad("'params' should be an object")
        for name, value in params.items():
            if not isinstance(value, (bool, int, str)):
                raise bad(f"param '{shown(name)}' should be a number, true/false or a string,"
                          f" not {_kind(value)}")
        agents = data.get("agents")
        if agents is not None:
            agents = _texts(data, "agents", bad)
        backend = data.get("backend")
        if backend is not None and backend not in BACKENDS:
            raise bad(f"'backend' should be one of {', '.join(BACKENDS)}, not '{shown(backend)}'")
        spec_dir = data.get("spec_dir")
        if spec_dir is not None and not isinstance(spec_dir, str):
            raise bad("'spec_dir' should be a string")
        snapshot = data.get("snapshot")
        if snapshot is not None:
            problem = _snapshot_shape(snapshot)
            if problem:
                raise bad(problem)
        return cls(game=game, spec_hash=spec_hash, seed=seed, variants=_texts(data, "variants", bad),
                   params=dict(params), choices=_texts(data, "choices", bad),
                   agents=agents or None, backend=backend, spec_dir=spec_dir, snapshot=snapshot,
                   format=form)


def _snapshot_shape(snapshot: Any) -> str | None:
    """What is wrong with a snapshot's shape, before any game is at hand (restore checks the
    values against the game; `replay` that the choices reproduce it)."""
    if not (isinstance(snapshot, dict) and isinstance(snapshot.get("state"), dict)):
        return "'snapshot' should hold a 'state' object"
    extra = sorted(set(snapshot) - {"backend", "state"})
    if extra:
        return f"the snapshot has an unknown field '{shown(extra[0])}'"
    if snapshot.get("backend") not in BACKENDS:
        return f"the snapshot's 'backend' should be one of {', '.join(BACKENDS)}"
    state = snapshot["state"]
    unknown = sorted(k for k in state if k not in State.__slots__)
    if unknown:
        return f"the snapshot's state has an unknown field '{shown(unknown[0])}'"
    return None


def _text(data: dict, key: str, bad) -> str:
    if not isinstance(data[key], str):
        raise bad(f"'{key}' should be a string")
    return data[key]


def _texts(data: dict, key: str, bad) -> tuple[str, ...]:
    value = data[key]
    if not isinstance(value, list):
        raise bad(f"'{key}' should be a list")
    if not all(isinstance(x, str) for x in value):
        raise bad(f"'{key}' should hold strings only")
    return tuple(value)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", float: "a fraction", type(None): "null"}.get(
        type(value), type(value).__name__)


def as_record(record: Record | dict[str, Any], where: str = "record") -> Record:
    """A Record from a Record or from its JSON made in memory (checked; the format may be left out)."""
    return record if isinstance(record, Record) else Record.from_json(record, where, bare=True)


# ------------------------------------------------------------------ writing


def record_of(game: Game, spec_dir: str | None = None, snapshot: bool = True) -> Record:
    """The record of a game as it stands, with a snapshot unless the state is unusable
    (a rule error stopped the game half-way through a step)."""
    backend = game.program.backend
    return Record(
        game=game.meta.game, spec_hash=game.meta.spec_hash, seed=game.seed,
        variants=tuple(game.variants), params=dict(game.state.params),
        choices=tuple(game.choices), agents=tuple(game.agents) if game.agents else None,
        backend=backend, spec_dir=spec_dir,
        snapshot={"backend": backend, "state": game.state.to_json()} if snapshot else None)


def to_record(game: Game, spec_dir: str | None = None, snapshot: bool = True) -> dict[str, Any]:
    """The JSON of a game's record (see `record_of`)."""
    return record_of(game, spec_dir, snapshot).to_json()


def write(record: Record | dict[str, Any], path: str | Path) -> Path:
    """Write a record file atomically: a crash never leaves half a file behind."""
    data = as_record(record).to_json()
    try:
        return write_atomic(path, json.dumps(data, indent=1, sort_keys=False) + "\n")
    except WriteError as err:
        raise RecordError(str(err).replace("cannot write ", "cannot write the record ", 1)) from None


def save(game: Game, path: str | Path, spec_dir: str | None = None, snapshot: bool = True) -> None:
    """Write the record of a game (see `write`)."""
    write(record_of(game, spec_dir, snapshot), path)


# ------------------------------------------------------------------ reading


def read(path: str | Path) -> Record:
    """Parse and check a record file; RecordError with one line when it is not one."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise RecordError(f"{shown(str(path))}: not a record: larger than"
                              f" {MAX_BYTES // 2**20} MB")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{shown(str(path))}: no such record file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"{shown(str(path))}: cannot read the record ({shown(_plain(err))})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{shown(str(path))}: corrupt record: not JSON ({err.msg} at line"
                          f" {err.lineno} column {err.colno})") from None
    except RecursionError:
        raise RecordError(f"{shown(str(path))}: corrupt record: nested too deeply to be one") from None
    except ValueError:  # a number too long to read (over 4,300 digits)
        raise RecordError(f"{shown(str(path))}: corrupt record: it holds a number thousands of"
                          f" digits long") from None
    return Record.from_json(data, shown(str(path)))


def validate(data: Any, where: str = "record") -> Record:
    """Check the shape of a record's JSON; RecordError naming the first problem."""
    return Record.from_json(data, where)


def check_program(record: Record | dict[str, Any], program: Program) -> None:
    """Refuse a record of another game, made under another spec hash, or with params it
    does not allow."""
    record, meta = as_record(record), program.meta
    if record.game != meta.game:
        raise RecordError(f"record is a game of '{shown(record.game)}', not '{meta.game}'")
    if record.spec_hash != meta.spec_hash:
        raise RecordError(f"record was made with spec hash {shown(record.spec_hash)}; this spec is"
                          f" {meta.spec_hash} — replay it with the spec version that made it")
    try:
        check_params(meta, record.params)
    except ParamError as err:
        raise RecordError(f"record: {err}") from None


def load(path: str | Path, program: Program, method: str = "auto") -> Game:
    """The game of a record file, restored from its snapshot or by replaying its choices.

    method: "snapshot" (the snapshot must be there and from this back end),
    "replay" (ignore the snapshot), or "auto" (the snapshot when usable).
    """
    record = read(path)
    check_program(record, program)
    snapshot = record.snapshot
    usable = snapshot is not None and snapshot.get("backend") == program.backend
    if method == "snapshot" and not usable:
        made = snapshot.get("backend") if snapshot else None
        raise RecordError(f"{shown(str(path))}: no snapshot from the {program.backend} back end"
                          + (f" (it has one from the {made} back end)" if made else ""))
    if method == "replay" or not usable:
        return replay(record, program)
    return restore(record, program, shown(str(path)))


def restore(record: Record | dict[str, Any], program: Program, where: str = "record") -> Game:
    """The game at the record's snapshot, without replaying anything."""
    record = as_record(record, where)
    if record.snapshot is None:
        raise RecordError(f"{where}: the record has no snapshot")
    data = record.snapshot["state"]
    missing = [k for k in State.SAVED if k not in data and k not in State.OPTIONAL]
    if missing:
        raise RecordError(f"{where}: corrupt record: the snapshot has no '{missing[0]}'")
    problem = _snapshot_problem(program.meta, data)
    if problem:
        raise RecordError(f"{where}: corrupt record: the snapshot's {problem}")
    state = State.from_json(data)
    state.sight = sight_of(program.meta)  # the game's own, whatever the snapshot says
    if state.knowledge is None:  # a snapshot from before knowledge was kept: none is known
        state.knowledge = [{} for _ in program.meta.players]
    if state.decisions != len(record.choices):
        raise RecordError(f"{where}: corrupt record: the snapshot is at decision {state.decisions}"
                          f" but the record has {len(record.choices)} choices")
    return _game(record, program, state)


def _knowledge_fits(meta, knowledge: Any, location: Any) -> bool:
    """Per player, card -> slot, each card lying where it is known to (nothing known is false)."""
    if not isinstance(knowledge, list) or len(knowledge) != len(meta.players):
        return False
    for known in knowledge:
        if not isinstance(known, dict):
            return False
        for card, slot in known.items():
            card = int(card) if isinstance(card, str) and card.isdigit() else card
            if (not isinstance(card, int) or not isinstance(location, list)
                    or not 0 <= card < len(location) or location[card] != slot):
                return False
    return True


def _snapshot_problem(meta, data: dict[str, Any]) -> str | None:
    """What is wrong with the kernel part of a snapshot's state, if anything."""
    ints = lambda v: isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)  # noqa: E731
    count = lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0  # noqa: E731
    entities = len(meta.entity_ids)
    checks = [
        ("tracks", lambda v: ints(v) and len(v) == meta.track_slots),
        ("vars", lambda v: isinstance(v, list) and len(v) == len(meta.vars)),
        ("counters", lambda v: isinstance(v, list) and len(v) == meta.counter_slots
         and all(ints(row) and len(row) == entities for row in v)),
        ("zones", lambda v: isinstance(v, list) and len(v) == meta.zone_slots
         and all(ints(z) and all(0 <= c < entities for c in z) for z in v)),
        ("location", lambda v: ints(v) and len(v) == entities),
        ("revealed", lambda v: isinstance(v, list) and len(v) == meta.zone_slots),
        ("effects", lambda v: isinstance(v, list) and all(
            isinstance(e, list) and len(e) == 3 and isinstance(e[0], int)
            and 0 <= e[0] < len(meta.effects) and isinstance(e[1], list) for e in v)),
        ("rng", lambda v: isinstance(v, int) and not isinstance(v, bool)),
        ("dice", ints), ("frames", lambda v: isinstance(v, list)),
        ("pending", lambda v: v is None or isinstance(v, dict)),
        ("result", lambda v: v is None or isinstance(v, dict)),
        ("log", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
        ("log_at", lambda v: v is None or isinstance(v, list) and all(isinstance(x, str) for x in v)),
        ("decisions", count),
        ("params", lambda v: isinstance(v, dict)),
        ("knowledge", lambda v: v is None or _knowledge_fits(meta, v, data.get("location"))),
        ("trace", lambda v: v is None or isinstance(v, dict) and ints(list(v.values()))),
        ("dice_strict", lambda v: isinstance(v, bool)),
        ("rounds", count), ("nesting", count),
        ("rolled", lambda v: v is None or isinstance(v, list)),
        ("shown", lambda v: v is None or isinstance(v, list) and all(
            isinstance(e, list) and len(e) == 3 and ints(e[:2]) and 0 <= e[0] < entities
            and (e[2] is None or ints([e[2]])) for e in v)),
        ("blanked", lambda v: ints(v) and all(0 <= c < entities for c in v)),
    ]
    for key, ok in checks:
        if key in data and not ok(data[key]):  # an OPTIONAL slot may be left out
            return f"'{key}' does not fit this game"
    marks = data.get("log_marks")
    if marks is not None and (not isinstance(marks, list) or len(marks) != len(data.get("log") or [])
                              or any(marks_problem(meta, m, t) for m, t in zip(marks, data["log"]))):
        return "'log_marks' does not fit this game"
    return None


def replay(record: Record | dict[str, Any], program: Program) -> Game:
    """Re-play the record's choices from a fresh game; RecordError at the first bad one."""
    record = as_record(record)
    check_program(record, program)
    game = _game(record, program, None)
    choices = record.choices
    for number, choice in enumerate(choices, 1):
        decision = game.decision
        if decision is None:
            left = len(choices) - number + 1
            raise RecordError(f"decision {number}: the game is already over ({game.reason}) but the"
                              f" record has {left} more choice{'s' if left != 1 else ''}")
        if choice not in decision.option_ids:
            raise RecordError(f"decision {number}: '{shown(choice)}' is not a legal option for"
                              f" '{decision.prompt}' (legal: {_ids(decision.option_ids)})")
        game.choose(choice)
    return game


def same_state(a: State, b: State, whole: bool = False) -> bool:
    """Whether two states agree on everything both back ends must agree on; whole: on
    everything (frames, the pending decision, the log), as two states of one back end do."""
    if whole:
        return _normal(_whole(a)) == _normal(_whole(b))
    return _normal(a.public_part()) == _normal(b.public_part())


def _whole(state: State) -> dict[str, Any]:
    data = state.to_json()
    data.pop("trace", None)  # counted only when a game is traced, never part of the game
    return data


# ------------------------------------------------------------------ helpers


def _game(record: Record, program: Program, state: State | None) -> Game:
    try:
        return Game(program, seed=record.seed, params=record.params, variants=record.variants,
                    state=state, agents=record.agents,
                    choices=list(record.choices) if state is not None else None)
    except ParamError as err:
        raise RecordError(f"record: {err}") from None


def _normal(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _ids(ids: tuple[str, ...]) -> str:
    shown_ids = ", ".join(shown(i) for i in ids[:MAX_IDS_SHOWN])
    rest = len(ids) - MAX_IDS_SHOWN
    return shown_ids + (f", … and {rest} more" if rest > 0 else "")


def _plain(err: BaseException) -> str:
    return str(err).splitlines()[0] if str(err) else type(err).__name__


__all__ = ["FORMAT", "Record", "RecordError", "as_record", "check_program", "load", "read",
           "record_of", "replay", "restore", "same_state", "save", "to_record", "validate", "write"]
