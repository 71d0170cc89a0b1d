"""The code generator's speed passes keep the interpreter's games: small defines inlined where
that is the same computation, one option list for a loop's `any` test and its choice, and
`any`/`all` over a kind of two or three entities unrolled."""

from __future__ import annotations

import re

from rulespec.compiler.backends import engine
from rulespec.compiler.frontend import ast
from rulespec.compiler.backends.codegen.expr import renamed
from rulespec.compiler.frontend.parse import parse_text
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime.analysis.fuzz import FuzzReport, fuzz_game

SPEC = '''\
game quick "Quick"
players red "Red", blue "Blue"
track score "Score" per player 0..99 start 0
counter marks "Marks" per player on field
kind field: space(value: int)
kind home: space(owner: player)
home red_home "Red home" (owner red)
home blue_home "Blue home" (owner blue)
field a "A" (value 1)
    adjacent b
field b "B" (value 2)
    adjacent a, c
field c "C" (value 3)
    adjacent b
define open(p: player, f: field) -> bool = marks(p, f) < f.value
define worth(p: player, f: field) -> int = f.value + marks(opponent(p), f)
define pick(b: bool, w: int) -> int = if b then w else 0
define near(f: field) -> bool = any(g in adjacent(f) where g.value > f.value)
define guarded(p: player, f: field) -> bool =
    any(h in home where h.owner == p and marks(h.owner, f) + 2 > f.value)
define crowded(f: field) -> bool = all(h in home where marks(h.owner, f) > 0)
define lonely(p: player) -> int = count(h in home where h.owner == p)
var left: int = 0
var cap: int = 9
procedure hold(p: player) {
    while any(f in field where marks(p, f) < cap and f.value > 1) {
        set cap to cap + 0
        p chooses g in field where marks(p, g) < cap and g.value > 1 "Hold where?"
        add 1 to marks(p, g)
    }
}
procedure place(p: player, budget: int) {
    let spent = 0
    while any(f in field where open(p, f) and spent + f.value <= budget) {
        set left to budget - spent
        p chooses g in field where open(p, g) and spent + g.value <= budget "Mark where?"
        set spent to spent + g.value
        add 1 to marks(p, g)
    }
}
start {
    repeat 3 {
        for p in players {
            place(p, 4)
            hold(p)
            add left to score(p)
            add pick(score(p) > 2, 5) + pick(true, score(p) + 1) + worth(p, b) to score(p)
            if near(c) { add 1 to score(p) }
            add count(f in field where guarded(p, f) and not crowded(f)) + lonely(p) to score(p)
        }
    }
    win none "done"
}
'''


def _compiled(tmp_path):
    folder = tmp_path / "quick"
    folder.mkdir()
    (folder / "quick.rules").write_text(SPEC, encoding="utf-8")
    spec = load_spec(folder, ())
    compile_game(spec.model, tmp_path / "pkg")
    return spec, tmp_path / "pkg"


def test_small_defines_are_inlined_only_where_that_is_the_same_computation(tmp_path):
    _, out = _compiled(tmp_path)
    start = (out / "procedures.py").read_text(encoding="utf-8").split("def s_start")[1]
    assert "d_worth(" not in start and "opponent_of(" not in start  # simple arguments: inlined
    # pick(score(p) > 2, 5): its one non-simple argument is read first, so inlined; in
    # pick(true, score(p) + 1) the sum would be read after the test: the call stays.
    assert start.count("d_pick(") == 1 and "d_pick(state, True," in start
    assert "d_near(" in start  # a body with a comprehension of its own is never inlined


def test_a_loop_and_its_choice_share_one_option_list(tmp_path):
    _, out = _compiled(tmp_path)
    place = (out / "procedures.py").read_text(encoding="utf-8").split("def s_place")[1].split("\ndef ")[0]
    assert "any(" not in place and "if not values:" in place
    assert len(re.findall(r"for c_\w+ in K_field", place)) == 1  # a var set in between: still once
    hold = (out / "procedures.py").read_text(encoding="utf-8").split("def s_hold")[1].split("\ndef ")[0]
    assert "if not values:" not in hold  # the filter reads the var set in between: made after it


def test_any_and_all_over_a_small_kind_are_unrolled(tmp_path):
    _, out = _compiled(tmp_path)
    rules = (out / "rules.py").read_text(encoding="utf-8")
    guarded = rules.split("def d_guarded")[1].split("\ndef ")[0]
    crowded = rules.split("def d_crowded")[1].split("\ndef ")[0]
    lonely = rules.split("def d_lonely")[1].split("\ndef ")[0]
    # each entity by name: its owner folded, the tests in the kind's order, short-circuit
    assert "any(" not in guarded and "K_home" not in guarded
    assert re.search(r"0 == v_p\s+and state.counters\[0\]\[v_f\] \+ 2\s+>.+?\s+or 1 == v_p"
                     r"\s+and state.counters\[1\]\[v_f\] \+ 2", guarded, re.S)
    assert "all(" not in crowded and " and " in crowded and "K_home" not in crowded
    assert "K_home" in lonely  # a count is no test: it walks the kind
    start = (out / "procedures.py").read_text(encoding="utf-8").split("def s_start")[1]
    # unrolled, a body binds no name: small, it is inlined (guarded is too big, lonely a count)
    assert "d_crowded(" not in start and "d_guarded(" in start and "d_lonely(" in start


def test_renaming_for_an_unrolled_test_stops_where_the_name_is_bound_again():
    where = _where("any(h in home where h.owner == red and any(g in field where marks(h.owner, g) > 0))")
    done = renamed(where, "h", "red_home")
    names = {n.name for n in done.walk() if isinstance(n, ast.NameRef)}
    assert "red_home" in names and "h" not in names and "g" in names
    assert renamed(where, "g", "a") is None  # an inner `g in field` binds g again: not unrolled


def _where(text: str) -> ast.Expr:
    decl = parse_text(f"define t() -> bool = {text}\n", "t.rules").decls[0]
    return decl.body.where


def test_the_passes_play_the_interpreters_games(tmp_path):
    spec, out = _compiled(tmp_path)
    report = FuzzReport()
    for seed in range(40):
        fuzz_game(engine.load_program(spec, "generated", out), engine.load_program(spec, "interpreted"),
                  seed, {}, 1_000, report)
    assert report.games == 40 and not report.problems
