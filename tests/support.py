"""Shared helpers of the runtime, CLI and property tests: specs and programs of both back ends."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

import pytest

from rulespec.compiler.backends import engine
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import LoadedSpec, load_spec
from rulespec.compiler.frontend.parse import parse_text
from rulespec.runtime.game import Game

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
MINI = TESTS / "specs" / "mini"
TS = REPO / "spec" / "twilight_struggle"
BACKENDS = ("interpreted", "generated")

# A two-player game with a secret per-player zone revealed half-way: for views.
PEEK = """\
game peek "Peek"
players north "North", south "South"
track score "Score" per player 0..10 start 0
zone box "Box" hidden
zone deck "Deck" hidden ordered
zone hand "Hand" per player owner
zone secret "Secret" per player owner
kind card: card(points: int)
card c1 "C1" (points 1)
card c2 "C2" (points 2)
card c3 "C3" (points 3)
card c4 "C4" (points 4)
card c5 "C5" (points 5)
start {
    move all c in card to deck
    shuffle deck
    for p in players {
        move top(deck) to hand(p)
        move top(deck) to hand(p)
    }
    for p in players {
        p chooses c in hand(p) "Pick a secret card"
        move c to secret(p)
    }
    for p in players { reveal secret(p) }
    for p in players {
        p chooses d in secret(p) "Confirm"
        add d.points to score(p)
    }
    win none "done"
}
"""


@functools.cache
def loaded(folder: Path, variants: tuple[str, ...] = ()) -> LoadedSpec:
    return load_spec(folder, variants=variants)


_SCRATCH = tempfile.TemporaryDirectory(prefix="rulespec-tests-")


@functools.cache
def program(folder: Path, backend: str, variants: tuple[str, ...] = ()):
    """The Program of a spec on a back end: the committed generated package when it is
    fresh, else one compiled once per session (test_codegen says when it is stale)."""
    spec = loaded(folder, variants)
    if backend == "interpreted":
        return Interpreter(spec.model)
    try:
        return engine.load_program(spec, "generated")
    except engine.BackendError:
        pass
    from rulespec.compiler.backends.codegen import compile_game
    out = Path(_SCRATCH.name) / "_".join((spec.model.game,) + variants) / spec.model.game
    compile_game(spec.model, out)
    return engine.load_program(spec, "generated", out)


def spec_value(interpreter, state, text: str, **env) -> object:
    """Evaluate one expression of the spec's language against a state (the interpreter reads it).

    `env` maps each name the expression uses to `(kind, value)`, e.g. `p=("player", 0)`.
    """
    params = ", ".join(f"{name}: {kind}" for name, (kind, _) in env.items())
    define = parse_text(f"define probe({params}) -> int = {text}\n", Path("probe.rules").as_posix())
    body = define.decls[0].body
    return interpreter.ev.value(state, {name: value for name, (_, value) in env.items()}, body)


@functools.cache
def ts_problem() -> str | None:
    """Why Twilight Struggle does not load and start, or None when it does."""
    try:
        Game(program(TS, "interpreted"), seed=1)
    except Exception as err:  # noqa: BLE001 - whatever it is, every test that plays it reports it
        return f"twilight_struggle does not start: {type(err).__name__}: {err}"
    return None


def need_ts() -> None:
    """Fail (never skip) a test of Twilight Struggle when the game does not start."""
    problem = ts_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


def played_on_both(folder: Path, seed: int) -> list[tuple]:
    """A game of the spec played with `seed` on the interpreter, then on the generated engine,
    taking option number seed % count at every decision: each one's (choices, tracks, vars)."""
    runs = []
    for backend in ("interpreted", "generated"):
        game = Game(program(folder, backend), seed=seed)
        while not game.over:
            game.choose_index(seed % len(game.state.pending["ids"]))
        runs.append((tuple(game.choices), tuple(game.state.tracks), tuple(game.state.vars)))
    return runs


def one_file_spec(factory: pytest.TempPathFactory, name: str, text: str) -> Path:
    """A spec folder holding one file, `name`.rules, made once per test module's fixture."""
    made = factory.mktemp(name)
    (made / f"{name}.rules").write_text(text, encoding="utf-8")
    return made


def write_peek(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "peek.rules").write_text(PEEK, encoding="utf-8")
    return folder


def spec_copy(game: str, variants: dict[str, str] = (), tests: dict[str, str] = (),
              root: Path | None = None) -> Path:
    """A copy of spec/<game> with a designer's additions: variant files and designer-test files
    (name -> text). The machinery must take such a copy as it takes the game itself."""
    base = Path(tempfile.mkdtemp(prefix="rulespec-copy-", dir=root or _SCRATCH.name))
    folder = base / game
    shutil.copytree(REPO / "spec" / game, folder)
    for name, text in dict(variants).items():
        (folder / "variants" / f"{name}.rules").write_text(text, encoding="utf-8")
    for name, text in dict(tests).items():
        (folder / "tests" / f"{name}.rules").write_text(text, encoding="utf-8")
    return folder


def walkthrough_block(first_line: str) -> str:
    """The code block of docs/WALKTHROUGH.md that begins with `first_line`."""
    text = (REPO / "docs" / "WALKTHROUGH.md").read_text(encoding="utf-8")
    for block in text.split("```")[1::2]:
        body = block.lstrip("\n")
        if body.startswith(first_line):
            return body
    raise AssertionError(f"docs/WALKTHROUGH.md has no code block beginning {first_line!r}")


def random_positions(folder: Path, seed: int, count: int, every: int = 7, params: dict | None = None) -> list:
    """`count` positions of a seeded random game on the generated package, one each `every`
    decisions (the native engine's differential tests compare there)."""
    from rulespec.runtime.analysis.fuzz import random_walk
    out = []
    for taken, game in enumerate(random_walk(Game(program(folder, "generated"), seed=seed, params=params), seed)):
        if taken % every == 0:
            out.append(game.state.copy())
            if len(out) == count:
                break
    return out


def machine_module(folder: Path):
    """A game's native module and what it compiles (built into the cache when missing), or a skip
    where there is no Cython or C compiler."""
    from rulespec.compiler.backends import native
    why = native.available()
    if why:
        pytest.skip(why)
    from rulespec.compiler.backends.machine.build import load_defines
    return load_defines(loaded(folder).model)


_NATIVE_PROGRAMS: dict[Path, object] = {}  # a game's native engine, or why there is none: worked out once


def native_program(folder: Path):
    """A game's native engine as a Program over its generated package (built into the cache when
    missing), or a skip saying why there is none (no Cython or compiler, a step refused)."""
    if folder not in _NATIVE_PROGRAMS:
        from rulespec.compiler.backends import native
        from rulespec.compiler.backends.machine.program import NotNative, load_native_program
        why = native.available()
        try:
            _NATIVE_PROGRAMS[folder] = why or load_native_program(loaded(folder).model, program(folder, "generated"))
        except NotNative as refused:
            _NATIVE_PROGRAMS[folder] = str(refused)
    if isinstance(_NATIVE_PROGRAMS[folder], str):
        pytest.skip(_NATIVE_PROGRAMS[folder])
    return _NATIVE_PROGRAMS[folder]
