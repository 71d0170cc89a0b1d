"""The code generator: exhaustive emitters, determinism, hostile input, golden files, freshness.

Behaviour (the generated engine against the interpreter) is in test_differential.py.
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import functools
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec.compiler.backends import engine
from rulespec.compiler.frontend import ast
from rulespec.compiler.backends import codegen
from rulespec.compiler.backends.codegen import compile_game, output, render_game, render_package
from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.codegen.expr import ExprEmitter, Scope
from rulespec.compiler.backends.codegen.lower import Lowerer
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.backends.testplan import DRIVING
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.files import WriteError
from rulespec.runtime.game import Game
from rulespec.runtime.state import RuleError
from rulespec.runtime.testing import run_test
from rulespec.compiler.backends.testplan import plan_tests
from support import MINI, REPO, TS, loaded

INJECTION = MINI.parent / "injection"
GOLDEN = Path(__file__).resolve().parent / "golden" / "mini"
GENERATED_TS = REPO / "generated" / "twilight_struggle"
# Statements that may hold a suspension point: they have a resumable lowering too.
SUSPENDING = ("Choose", "Menu", "CallStmt", "Resolve", "Emit", "If", "For", "Repeat", "While")


# ------------------------------------------------------------------ exhaustiveness


def test_every_expression_node_has_an_emitter():
    classes = ast.node_classes(ast.Expr)
    assert len(classes) >= 19
    missing = [c.__name__ for c in classes if not hasattr(ExprEmitter, "emit_" + c.__name__)]
    assert not missing, f"expression nodes without an emitter: {missing}"


def test_every_statement_node_has_a_lowering():
    missing = [c.__name__ for c in ast.node_classes(ast.Stmt)
               if c not in DRIVING and not hasattr(Lowerer, "lower_" + c.__name__)]
    missing += [f"suspend_{name}" for name in SUSPENDING if not hasattr(Lowerer, "suspend_" + name)]
    assert not missing, f"statement nodes without a lowering: {missing}"


def test_every_builtin_of_the_language_has_an_emitter():
    from rulespec.compiler.frontend.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES
    emitter = ExprEmitter(Gen(loaded(MINI).model), Scope())
    for name in BUILTIN_VALUES:
        if name != "players":  # a collection, not a value
            code = emitter.global_value(ast.NameRef(ast.NOWHERE, name)).text
            assert "unknown_name" not in code, name
    for name in BUILTIN_RESULTS:
        assert name in ("size", "top") or hasattr(ExprEmitter, "builtin_" + name), name


def _num(value: int) -> ast.IntLit:
    return ast.IntLit(ast.NOWHERE, value)


@pytest.mark.parametrize("expr, text", [
    (ast.BinOp(ast.NOWHERE, "+", _num(2), ast.BinOp(ast.NOWHERE, "*", _num(3), _num(4))), "14"),
    (ast.BinOp(ast.NOWHERE, "/", _num(-7), _num(2)), "-4"),  # floors, as the interpreter does
    (ast.BinOp(ast.NOWHERE, "/", _num(1), _num(0)), "1 // 0"),  # fails when it runs, not now
    (ast.CallExpr(ast.NOWHERE, "min", (_num(8), _num(6))), "6"),
    (ast.Compare(ast.NOWHERE, "<", _num(1), _num(2)), "True"),
    (ast.BoolOp(ast.NOWHERE, "and", (ast.BoolLit(ast.NOWHERE, True), ast.Compare(
        ast.NOWHERE, "==", ast.NameRef(ast.NOWHERE, "round"), _num(3)))), "state.tracks[2] == 3"),
    (ast.BoolOp(ast.NOWHERE, "or", (ast.BoolLit(ast.NOWHERE, True), ast.NameRef(ast.NOWHERE, "nobody"))),
     "True"),  # what follows a deciding constant is never evaluated
    (ast.Cond(ast.NOWHERE, ast.BoolLit(ast.NOWHERE, False), _num(1), _num(2)), "2"),
    (ast.Attr(ast.NOWHERE, ast.NameRef(ast.NOWHERE, "one"), "points"), "1"),
    (ast.Member(ast.NOWHERE, ast.NameRef(ast.NOWHERE, "a"), ast.NameRef(ast.NOWHERE, "field"), False), "True"),
], ids=["arithmetic", "floor", "by-zero", "min", "compare", "and", "or", "cond", "attribute", "member"])
def test_constants_fold(expr, text):
    emitter = ExprEmitter(Gen(loaded(MINI).model), Scope())
    assert emitter.value(expr) == text


def test_no_clamp_of_a_constant_is_generated():
    sources = "".join(render_game(loaded(INJECTION).model).values()) + "".join(mini_sources().values())
    assert not re.search(r"max\(-?\d+, (min\(-?\d+, )?-?\d+\)", sources)


@dataclasses.dataclass(frozen=True, slots=True)
class Strange(ast.Expr):
    """An expression the generator has never heard of."""


@dataclasses.dataclass(frozen=True, slots=True)
class Odd(ast.Stmt):
    """A statement the generator has never heard of."""


def test_an_unknown_node_fails_loudly():
    gen = Gen(loaded(MINI).model)
    with pytest.raises(InternalError, match="does not handle Strange"):
        ExprEmitter(gen, Scope()).emit(Strange(ast.NOWHERE))
    routine = gen.by_key["procedure draw"]
    with pytest.raises(InternalError, match="does not handle Odd"):
        Lowerer(gen, routine, "py").statement(Odd(ast.NOWHERE), 0)


# ------------------------------------------------------------------ determinism and shape


@functools.cache
def mini_sources() -> dict[str, str]:
    return render_game(loaded(MINI).model)


def _digest(sources: dict[str, str]) -> str:
    return hashlib.sha256(repr(sorted(sources.items())).encode()).hexdigest()


def test_generation_is_byte_identical_when_repeated(tmp_path):
    model = loaded(MINI).model
    first = mini_sources()
    assert render_game(model) == first
    for where in ("a", "b"):
        compile_game(model, tmp_path / where / "mini")
    for name in first:
        assert (tmp_path / "a" / "mini" / name).read_bytes() == (tmp_path / "b" / "mini" / name).read_bytes()


def test_generation_does_not_depend_on_hash_order():
    script = ("import hashlib, sys; from pathlib import Path; from rulespec.compiler.frontend.loader import load_spec;"
              " from rulespec.compiler.backends.codegen import render_game;"
              f" s = render_game(load_spec(Path({str(MINI)!r})).model);"
              " print(hashlib.sha256(repr(sorted(s.items())).encode()).hexdigest())")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == _digest(mini_sources())


def test_generated_code_imports_only_the_runtime():
    for name, source in mini_sources().items():
        for node in pyast.walk(pyast.parse(source)):
            if isinstance(node, pyast.Import):
                assert all(a.name.startswith("rulespec.runtime.") for a in node.names), name
            elif isinstance(node, pyast.ImportFrom):
                assert node.level == 1 or node.module.startswith("rulespec.runtime."), name


def test_every_module_names_its_spec_and_hash():
    model = loaded(MINI).model
    for name, source in mini_sources().items():
        head = source.splitlines()[:6]
        assert head[0] == "# Generated by rulespec from the spec files below; do not edit."
        assert "#     mini/mini.rules" in head
        assert f"# Spec hash: {model.spec_hash}" in head
    package = mini_sources()["__init__.py"]
    assert f'SPEC_HASH = "{model.spec_hash}"' in package and "PROGRAM = " in package


def test_generated_code_names_entities():
    sources = mini_sources()
    assert "E_three = 7" in sources["tables.py"]  # every entity's index, by name
    assert "q_worth(state, 0, E_three) == 4" in sources["tests.py"]  # ... used wherever one is named


def test_rules_carry_their_spec_lines():
    procedures = mini_sources()["procedures.py"]
    assert "# spec: tests/specs/mini/mini.rules:69" in procedures  # the choice of a card to play
    assert '"tests/specs/mini/mini.rules:69:9"' in procedures  # ... and its location at run time


BROKEN_HEAD = ('game broken "Broken"\nplayers a "A", b "B"\nzone box "Box" hidden\nzone deck "Deck" hidden\n'
               'kind card: card(ops: int)\ncard c1 "C1" (ops 1)\ndefine ops_of(c: card) -> int = c.ops\n')


@pytest.mark.parametrize("start, message, where", [
    ("move top(deck) to box", "cannot move none: no card", "9:5"),
    ("let x = ops_of(top(deck))", "none has no attribute 'ops'", "7:33"),  # a card parameter given none
], ids=["move", "attribute"])
def test_run_time_errors_name_the_spec_line(tmp_path, start, message, where):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "broken.rules").write_text(BROKEN_HEAD + f'start {{\n    {start}\n    win none "never"\n}}\n',
                                         encoding="utf-8")
    spec = load_spec(folder)
    compile_game(spec.model, tmp_path / "out" / "broken")
    for program in (Interpreter(spec.model), engine.load_program(spec, "generated", tmp_path / "out" / "broken")):
        with pytest.raises(RuleError) as caught:
            Game(program, seed=1)
        assert caught.value.reason == message, program.backend
        assert caught.value.location.endswith(f"broken/broken.rules:{where}"), program.backend


# ------------------------------------------------------------------ hostile input


def test_hostile_names_and_strings_compile_import_and_run(tmp_path):
    spec = loaded(INJECTION)
    sources = render_game(spec.model)
    for name, source in sources.items():
        compile(source, name, "exec")
    procedures = sources["procedures.py"]  # names are prefixed ...
    assert "def ev_class(state, v_you, v_this):" in procedures and "def sev_return(state, frame):" in procedures
    assert "A_import = " in sources["tables.py"] and "def p_draw(state, v_p):" in procedures
    compile_game(spec.model, tmp_path / "injection")
    generated = engine.load_program(spec, "generated", tmp_path / "injection")
    reference = Interpreter(spec.model)
    assert generated.meta == reference.meta  # ... and every string comes back intact
    assert 'Class: """ \'\'\' \\n \\' in generated.meta.entity_labels
    assert "Str \n" in generated.meta.entity_labels
    assert generated.meta.title == "Injection: \"\"\" ''' \\ \n end"
    cases = plan_tests(spec.model).cases
    assert cases and not [f for f in map(lambda t: run_test(generated, t), cases) if f]
    game = Game(generated, seed=3)
    assert game.decision is not None and game.decision.prompt == 'Play "a" card'


# ------------------------------------------------------------------ golden files


def test_mini_matches_its_golden_files():
    sources = mini_sources()
    if os.environ.get("RULESPEC_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for stale in GOLDEN.glob("*.py"):
            stale.unlink()
        for name, source in sources.items():
            (GOLDEN / name).write_text(source, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in GOLDEN.glob("*.py")}
    assert sorted(expected) == sorted(sources), "run with RULESPEC_UPDATE_GOLDEN=1 to write them"
    for name, source in sources.items():
        assert source == expected[name], (
            f"tests/golden/mini/{name} differs: rerun with RULESPEC_UPDATE_GOLDEN=1 and review the diff")


# ------------------------------------------------------------------ atomic output and reuse


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_failed_compile_leaves_the_previous_output(tmp_path, monkeypatch):
    model = loaded(MINI).model
    out = tmp_path / "mini"
    compile_game(model, out)
    with open(out / "__init__.py", "a", encoding="utf-8") as edited:
        edited.write("# edited by hand: no longer what the compiler made\n")
    before = _snapshot(out)

    def broken(*args, **kwargs):
        raise InternalError("a template bug")
    monkeypatch.setattr(codegen, "render_package", broken)
    with pytest.raises(InternalError):
        compile_game(model, out)
    monkeypatch.undo()

    writes = []
    real_write = output.write_atomic

    def failing_write(path, data):
        writes.append(path)
        if len(writes) == 3:
            raise WriteError(f"cannot write {path}: No space left on device")
        return real_write(path, data)
    monkeypatch.setattr(output, "write_atomic", failing_write)
    with pytest.raises(WriteError):
        compile_game(model, out)
    monkeypatch.undo()
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["mini"]  # no staging folder left behind


def test_a_recompile_replaces_the_package_and_reuses_intact_modules(tmp_path):
    model = loaded(MINI).model
    out = tmp_path / "mini"
    compile_game(model, out)
    (out / "stray.py").write_text("# not generated\n", encoding="utf-8")
    edited = (out / "rules.py").read_text(encoding="utf-8") + "# edited by hand\n"
    (out / "rules.py").write_text(edited, encoding="utf-8")
    compile_game(model, out)
    assert not (out / "stray.py").exists()
    assert (out / "rules.py").read_text(encoding="utf-8") == mini_sources()["rules.py"]
    assert render_game(model, previous=out) == mini_sources()


# ------------------------------------------------------------------ the committed package


def _ts_model():
    return loaded(TS).model


def _compare_with_committed(sources: dict[str, str]) -> None:
    """Every file of the package, the seed file of black's cache (FORMAT) too."""
    assert GENERATED_TS.is_dir(), "generated/twilight_struggle is missing: run `rulespec compile spec/twilight_struggle`"
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in GENERATED_TS.iterdir() if p.is_file()}
    stale = sorted(n for n in set(on_disk) | set(sources) if on_disk.get(n) != sources.get(n))
    assert not stale, f"generated/twilight_struggle is stale ({', '.join(stale)}): run `rulespec compile spec/twilight_struggle`"


def test_committed_twilight_struggle_package_is_fresh():
    """What compile_game would write now (modules whose source is unchanged are taken as they are)."""
    _compare_with_committed(render_package(_ts_model(), previous=GENERATED_TS))


@pytest.mark.slow
def test_committed_twilight_struggle_package_is_fresh_formatted_afresh():
    _compare_with_committed(render_package(_ts_model()))
