"""The designer's edit loop: never a stale test, base tests under variants, a strict test language,
and the caches that make it fast (parse cache, black per statement)."""

from __future__ import annotations

import shutil
from pathlib import Path

import black
import pytest

from rulespec.compiler.backends import engine
from rulespec.compiler.backends.codegen import compile_game, render_game
from rulespec.compiler.backends.codegen import format as formatting
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.testrun import run_tests
from support import MINI


@pytest.fixture
def mini(tmp_path: Path, monkeypatch) -> Path:
    """A private copy of the mini spec, its own cache and its own generated/ folder."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(engine, "GENERATED_ROOT", tmp_path / "generated")
    monkeypatch.setattr(engine, "SPEC_ROOT", tmp_path / "spec")
    folder = tmp_path / "spec" / "mini"
    shutil.copytree(MINI, folder)
    (folder / "tests").mkdir()
    return folder


def add(folder: Path, name: str, text: str) -> None:
    path = folder / name
    path.write_text((path.read_text() if path.exists() else "") + text, encoding="utf-8")


def failures(report) -> dict[tuple[str, str], str]:
    return {(o.case.name, o.backend): o.message for o in report.failures}


def test_a_test_added_after_the_compile_runs_on_both_back_ends(mini: Path) -> None:
    compile_game(load_spec(mini).model, engine.GENERATED_ROOT / "mini")
    add(mini, "tests/probe.rules", 'test "probe" { expect false }\n')
    notes: list[str] = []
    report = run_tests(mini, on_note=notes.append)
    assert failures(report) == {("probe", "generated"): "false is false",
                                ("probe", "interpreted"): "false is false"}
    assert any("stale (the designer tests changed)" in n for n in notes)
    assert report.counts()["generated"] == report.counts()["interpreted"]
    assert not report.problems


def test_a_die_nobody_queued_fails_at_the_roll(mini: Path) -> None:
    red_plays_one = 'move one to hand(red)\n    move two to hand(red)\n    turn_phase()\n    choose "one"'
    add(mini, "tests/dice.rules", f"""test "unqueued" {{ {red_plays_one} }}
test "queued" {{ dice 6, 6
    {red_plays_one} }}
test "random" {{ dice random
    {red_plays_one} }}
""")
    report = run_tests(mini)
    found = {(o.case.name, o.backend): o for o in report.failures}
    for backend in engine.BACKENDS:
        unqueued = found[("unqueued", backend)]
        assert unqueued.message.startswith("a die is rolled here but the test queued none")
        assert unqueued.location.endswith("mini.rules:74:9"), unqueued.location
        leftover = found[("queued", backend)]
        assert leftover.message.startswith("1 queued die was never rolled (6)")
        assert ("random", backend) not in found


def test_a_failed_expect_says_which_part_and_its_sides(mini: Path) -> None:
    add(mini, "tests/sides.rules", '''test "sides" {
    resolve one for red
    expect score(red) == 1 and score(blue) == 3 "scores after one"
    }
test "offered" { resolve two for blue
    expect offered "a", "z" "the fields" }
''')
    messages = failures(run_tests(mini))
    for backend in engine.BACKENDS:
        assert messages[("sides", backend)] == (
            "scores after one: score(blue) == 3: left side is 0")
        assert messages[("offered", backend)].startswith("the fields: 'z' is not offered")


def test_a_failed_expect_names_players_and_cards_by_their_labels(mini: Path) -> None:
    add(mini, "tests/labels.rules", '''test "labels" {
    move one to hand(red)
    expect current == blue
    }
test "cards" { move one to hand(red)
    expect top(hand(red)) == two }
test "lists" { move one to hand(red)
    expect [current] == [blue] and [top(hand(red))] == [two] }
test "numbers" { expect score(red) == 2 }
''')
    messages = failures(run_tests(mini))
    for backend in engine.BACKENDS:
        assert messages[("labels", backend)] == "current == blue: left side is Red, right side is Blue"
        assert messages[("cards", backend)] == "top(hand(red)) == two: left side is One, right side is Two"
        assert messages[("lists", backend)] == "[current] == [blue]: left side is [Red], right side is [Blue]"
        assert messages[("numbers", backend)] == "score(red) == 2: left side is 0"


def test_a_test_sets_params_turns_on_variants_and_runs_start(mini: Path) -> None:
    add(mini, "tests/settings.rules", '''test "start" {
    param goal = 1
    start
    expect goal == 1
    expect offered "one" "the first decision: red plays a card" }
test "quick" {
    variant quick
    expect five in box and goal == 3 }
''')
    report = run_tests(mini)
    assert failures(report) == {}
    assert {o.case.name for o in report.outcomes} >= {"start", "quick"}
    assert {o.variants for o in report.outcomes if o.case.name == "quick"} == {("quick",)}


@pytest.mark.parametrize("step,error", [
    ("param nope = 1", "unknown param 'nope'"),
    ("param goal = true", "param 'goal' is a int; this value does not fit it"),
    ("variant quik", "unknown variant 'quik'; did you mean 'quick'?"),
])
def test_bad_test_settings_are_spec_errors(mini: Path, step: str, error: str) -> None:
    add(mini, "tests/bad.rules", f'test "bad" {{\n    {step}\n}}\n')
    with pytest.raises(SpecError) as raised:
        load_spec(mini)
    assert error in str(raised.value)


def test_a_variant_reports_the_base_tests_it_breaks(mini: Path) -> None:
    add(mini, "tests/goal.rules", 'test "goal is five" { expect goal == 5 }\n')
    report = run_tests(mini, variants=("quick",))
    (variant,) = report.variant_reports
    assert variant.sentence().startswith('quick breaks 1 of 4 base tests: "goal is five"')
    assert {o.case.name for o in report.failures} == {"goal is five"}
    add(mini, "variants/quick.rules", 'changes test "goal is five"\n')
    report = run_tests(mini, variants=("quick",))
    (variant,) = report.variant_reports
    assert variant.declared == ["goal is five"] and not variant.breaks and not report.failures
    everything = run_tests(mini, all_variants=True)
    assert [r.variants for r in everything.variant_reports] == [("quick",), ("slow",)]
    assert {o.case.name for r in everything.variant_reports for o in r.breaks} == {"goal is five"}


def test_changes_test_names_a_base_test(mini: Path) -> None:
    add(mini, "variants/quick.rules", 'changes test "one scorez"\n')
    with pytest.raises(SpecError) as raised:
        load_spec(mini, ("quick",))
    assert 'no base test is named "one scorez"; did you mean "one scores"?' in str(raised.value) \
        or "no base test is named \"one scorez\"" in str(raised.value)


def test_a_variant_that_declares_changes_runs_its_own_tests(mini: Path) -> None:
    """Its own tests load without tests/: the names it declares are checked where base tests are."""
    add(mini, "tests/goal.rules", 'test "goal is five" { expect goal == 5 }\n')
    add(mini, "variants/quick.rules", 'changes test "goal is five"\n')
    report = run_tests(mini)
    assert not report.failures and not report.problems
    assert any(o.variants == ("quick",) for o in report.outcomes)


def test_a_variant_package_is_built_once_into_the_cache(mini: Path) -> None:
    loaded = load_spec(mini, ("quick",))
    first = engine.current_package(loaded)
    assert "cache" in first.parts and first.name.startswith("mini__quick-")
    stamp = (first / "tables.py").stat().st_mtime_ns
    assert engine.current_package(load_spec(mini, ("quick",))) == first
    assert (first / "tables.py").stat().st_mtime_ns == stamp


def test_compile_with_nothing_changed_parses_nothing(mini: Path, tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner
    import rulespec.compiler.frontend.loader as loader
    from rulespec.compiler.cli import main
    out = tmp_path / "out" / "mini"

    def compile_mini():
        return CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)])

    assert compile_mini().exit_code == 0
    monkeypatch.setattr(loader, "load_spec", lambda *a, **k: 1 / 0)  # a parse would fail now
    second = compile_mini()
    assert second.exit_code == 0 and "up to date" in second.stdout, second.stdout
    (out / "rules.py").write_text((out / "rules.py").read_text() + "# touched\n")
    assert compile_mini().exit_code == 3  # a package touched by hand is compiled again
    monkeypatch.undo()
    assert compile_mini().exit_code == 0
    add(mini, "tests/new.rules", 'test "new" { expect true }\n')  # so is an edited input
    monkeypatch.setattr(loader, "load_spec", lambda *a, **k: 1 / 0)
    assert compile_mini().exit_code == 3


def _spy_on_source_compiles(monkeypatch) -> list[str]:
    """The paths Python compiles from source from now on (a code-cache miss each)."""
    import importlib.machinery
    compiled: list[str] = []
    real = importlib.machinery.SourceFileLoader.source_to_code
    monkeypatch.setattr(importlib.machinery.SourceFileLoader, "source_to_code",
                        lambda self, data, path, **k: compiled.append(path) or real(self, data, path))
    return compiled


def test_a_package_copied_elsewhere_imports_without_compiling(mini: Path, tmp_path: Path,
                                                               monkeypatch) -> None:
    from rulespec.compiler.backends.packages import import_package
    first, second = tmp_path / "one" / "mini", tmp_path / "two" / "mini"
    compile_game(load_spec(mini).model, first)
    shutil.copytree(first, second)
    import_package("_probe_one", first)
    compiled = _spy_on_source_compiles(monkeypatch)
    module = import_package("_probe_two", second)
    assert compiled == []  # every module's code came from the cache
    rules = __import__("sys").modules["_probe_two.rules"]
    assert module.__file__ == str(second / "__init__.py")
    assert all(f.__code__.co_filename == str(second / "rules.py")
               for f in vars(rules).values() if callable(f) and hasattr(f, "__code__")
               and f.__module__ == "_probe_two.rules")


def test_a_module_whose_header_alone_changed_imports_without_compiling(tmp_path: Path,
                                                                       monkeypatch) -> None:
    import uuid
    from rulespec.compiler.backends.packages import code_key, import_package
    body = "# Spec hash: {}\nVALUE = 1\n\n\ndef where():\n    raise ValueError\n"
    assert code_key(body.format("aaaa").encode()) == code_key(body.format("bbbb").encode())
    assert code_key(body.format("a").encode()) != code_key(("#\n" + body.format("a")).encode())
    assert code_key(b"# coding: latin-1\nX = '\xe9'\n") != code_key(b"# coding: utf-8\nX = '\xe9'\n")
    assert code_key(b"# a\nVALUE = 1\n") != code_key(b"# a\nVALUE = 2\n")
    first, second = tmp_path / "one", tmp_path / "two"
    for folder, header in ((first, "aaaa"), (second, "bbbb")):
        folder.mkdir()
        (folder / "__init__.py").write_text(body.format(header))
    import_package("_probe_header_one", first)
    compiled = _spy_on_source_compiles(monkeypatch)
    module = import_package("_probe_header_two", second)
    assert compiled == [] and module.VALUE == 1
    assert module.where.__code__.co_firstlineno == 5
    assert module.where.__code__.co_filename == str(second / "__init__.py")
    fresh = uuid.uuid4().int  # code no earlier run can have left in the cache
    (second / "__init__.py").write_text(body.format("cccc").replace("VALUE = 1", f"VALUE = {fresh}"))
    assert import_package("_probe_header_two", second).VALUE == fresh and len(compiled) == 1


def test_the_command_table_names_every_command_where_it_is_registered() -> None:
    from rulespec.compiler.cli import base, main
    for module in set(base.COMMAND_MODULES.values()):
        base.import_commands(module)
    assert set(main.commands) == set(base.COMMAND_MODULES)
    for name, command in main.commands.items():
        module = base.COMMAND_MODULES[name]
        expected = "rulespec.compiler.tools.designer_commands" if module == "designer" else f"rulespec.compiler.cli.{module}"
        assert command.callback.__module__ == expected, name


def test_tests_are_numbered_per_file(mini: Path) -> None:
    add(mini, "tests/a.rules", 'test "a0" { expect true }\n')
    add(mini, "tests/b.rules", 'test "b0" { resolve one for red\n expect score(red) == 1 }\n')
    before = render_game(load_spec(mini).model)["tests.py"]
    add(mini, "tests/a.rules", 'test "a1" { resolve two for red }\n')
    after = render_game(load_spec(mini).model)["tests.py"]
    assert "def tb_b_0_0(" in before and "def tb_b_0_0(" in after
    assert "def tb_a_1_0(" in after and "def tb_a_1_0(" not in before


def test_a_rule_file_and_a_test_file_of_one_name_keep_their_tests_apart(mini: Path) -> None:
    before = run_tests(mini).counts()
    add(mini, "mini.rules", 'test "in the rules" { resolve one for red\n expect score(red) == 1 }\n')
    add(mini, "tests/mini.rules", 'test "in tests" { resolve two for blue\n expect score(blue) == 0 }\n')
    report = run_tests(mini)
    assert not report.failures and not report.problems
    assert report.counts() == {side: count + 2 for side, count in before.items()}


def test_black_per_statement_is_black_on_the_whole_module(mini: Path) -> None:
    for name, text in render_game(load_spec(mini).model).items():
        assert black.format_str(text, mode=black.Mode()) == text, name


@pytest.mark.parametrize("value", ["plain", "it's", 'say "hi"', "both ' and \"", "tab\tand\\slash",
                                   "Côte d'Ivoire", "\x00\u2028", "#not a comment", "'", '"', ""])
def test_strings_are_handed_to_black_in_its_own_quotes(value: str) -> None:
    import ast as pyast
    line = f"x = {value!r}  # a comment's quote 'stays'\n"
    requoted = formatting.prefer_double_quotes(line)
    assert pyast.literal_eval(requoted.split(" = ", 1)[1].split("  #")[0]) == value
    assert requoted.endswith("  # a comment's quote 'stays'\n")
    assert black.format_str(line, mode=black.Mode()) == black.format_str(requoted, mode=black.Mode())
    assert black.format_str(requoted, mode=black.Mode()) == requoted  # one pass of black, not two


def test_a_generated_piece_that_does_not_compile_is_an_internal_error(mini: Path) -> None:
    from rulespec.compiler.frontend.errors import InternalError
    with pytest.raises(InternalError, match=r"generated broken.py does not compile: .*: x = = 1"):
        formatting.format_module("y = 2\nx = = 1\n", "broken.py")


def test_a_compile_that_changes_no_byte_writes_nothing_and_says_so(mini: Path, tmp_path: Path,
                                                                   monkeypatch) -> None:
    from click.testing import CliRunner
    from rulespec.compiler.cli import main
    out = tmp_path / "out" / "mini"
    first = CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)])
    assert first.exit_code == 0 and ": wrote " in first.output, first.output
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache2"))  # no record of that compile:
    # the package is rendered again, and found byte for byte in place
    again = CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)])
    assert again.exit_code == 0 and ": up to date: " in again.output, again.output
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == stamps
    (out / "stray.py").write_text("# not generated\n", encoding="utf-8")
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "cache3"))
    third = CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)])
    assert ": wrote " in third.output and not (out / "stray.py").exists(), third.output


def test_an_edit_formats_only_the_statements_it_changed(mini: Path, monkeypatch) -> None:
    render_game(load_spec(mini).model)
    calls: list[str] = []
    real = black.format_str
    monkeypatch.setattr(black, "format_str", lambda text, mode: calls.append(text) or real(text, mode=mode))
    render_game(load_spec(mini).model)
    assert calls == []
    add(mini, "tests/edit.rules", 'test "new" { expect score(red) == 0 }\n')
    render_game(load_spec(mini).model)
    assert 0 < len(calls) <= 6, [c[:40] for c in calls]


def test_the_parse_cache_is_keyed_by_text(mini: Path) -> None:
    assert load_spec(mini).model.spec_hash == load_spec(mini).model.spec_hash
    add(mini, "mini.rules", "\n# a comment changes the text, not the rules\n")
    model = load_spec(mini).model
    assert model.spec_hash != load_spec(MINI).model.spec_hash


@pytest.mark.parametrize("spec", ["mini", "injection"])
def test_the_fast_statement_scan_cuts_where_python_does(spec: str) -> None:
    from rulespec.compiler.backends.codegen.render import MODULES, PENDING, VIEWS, environment
    from rulespec.compiler.backends.codegen.view import ViewBuilder
    views = ViewBuilder(load_spec(MINI.parent / spec).model).build()
    for name, template in MODULES.items():
        text = environment().get_template(template).render(fingerprint=PENDING, **views[VIEWS[name]])
        body = text.split("# Fingerprint: pending\n")[1]
        assert formatting._scan(body.splitlines(keepends=True)) == formatting._parse(body, name), name


def test_a_base_test_a_variant_leaves_unable_to_check_is_a_test_it_breaks(mini: Path) -> None:
    add(mini, "variants/nothree.rules", 'variant nothree "Without the three"\nremove three\n')
    add(mini, "tests/three.rules", 'test "three is a card" { expect three in box }\n')
    report = run_tests(mini, variants=("nothree",))
    (variant,) = report.variant_reports
    names = [o.case.name for o in variant.breaks]  # mini's own "four" test names the three too
    assert sorted(names) == ["four: pay or lose"] * 2 + ["three is a card"] * 2  # both back ends
    assert "does not check with these variants on: unknown name 'three'" in variant.breaks[0].message
    assert {o.case.name for o in report.outcomes if o.message is None} >= {"one scores"}


def test_a_test_sets_str_and_entity_params(mini: Path) -> None:
    add(mini, "extra.rules", 'param motto: str = "go" "A motto"\nparam start_field: field = a "Where to start"\n')
    add(mini, "tests/params.rules", '''test "params" {
    param motto = "stay"
    param start_field = c
    expect start_field == c and motto == "stay" }
''')
    assert failures(run_tests(mini)) == {}


@pytest.mark.parametrize("game", sorted(p.name for p in (MINI.parents[2] / "generated").iterdir()
                                        if (p / "__init__.py").is_file()))
def test_every_committed_package_is_current_with_its_spec_and_tests(game: str) -> None:
    loaded = load_spec(MINI.parents[2] / "spec" / game)
    assert engine._staleness(loaded, MINI.parents[2] / "generated" / game, for_tests=True) is None, (
        f"generated/{game} is stale: run `rulespec compile spec/{game}`")


def test_all_variants_skip_a_combination_a_variant_excludes(mini: Path) -> None:
    add(mini, "variants/extra.rules", 'variant extra "Extra"\ncard six "Six" (points 6, colour cold)\n')
    add(mini, "variants/first.rules", 'variant first "First game"\nexcludes extra "not in a first game"\n')
    add(mini, "tests/extra.rules", 'test "six is there" { variant extra\n    expect six in box }\n')
    notes: list[str] = []
    report = run_tests(mini, all_variants=True, on_note=notes.append)
    assert not any("cannot run with first" in p for p in report.problems)
    assert any("tests that turn on extra cannot run with first (not run):" in n
               and "variant 'first' cannot be combined with 'extra': not in a first game" in n for n in notes)


def test_the_command_line_loads_no_front_end_before_it_must() -> None:
    """compile's up-to-date answer must not pay for the AST, lark or the checks (0.1 s against 0.3 s)."""
    import subprocess
    import sys
    probe = ("import sys, rulespec.compiler.cli.base, rulespec.compiler.cli.build, rulespec.compiler.backends.unchanged; "
             "print(sorted(m for m in ('rulespec.compiler.frontend.ast', 'rulespec.compiler.frontend.parse', 'rulespec.compiler.frontend.checks', 'lark')"
             " if m in sys.modules))")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"


# ------------------------------------------------------------------ the package as black's cache


def _black_spy(monkeypatch) -> set[str]:
    """The cache keys of the pieces black is asked to format from now on."""
    keys: set[str] = set()
    real = black.format_str
    monkeypatch.setattr(black, "format_str", lambda text, mode: keys.add(
        formatting.digest(formatting.black_settings(), text)) or real(text, mode=mode))
    return keys


def _seed_keys(package: Path) -> set[str]:
    from rulespec.compiler.backends.codegen.seed import parse_seed
    entries = parse_seed((package / "FORMAT").read_text(encoding="utf-8"))
    return {key for entry in entries.values() for key, _ in entry.layout}


def _afresh(model, tmp_path: Path, monkeypatch) -> dict[str, str]:
    """The package as black makes it from nothing: no earlier package, an empty cache."""
    from rulespec.compiler.backends.codegen import render_package
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "afresh"))
    return render_package(model)


def _set_points(folder: Path, card: str, points: int) -> None:
    path = folder / "mini.rules"
    text = path.read_text(encoding="utf-8")
    start = text.index(f'card {card} "')
    end = text.index(")", start)
    head = text[start:end]
    path.write_text(text[:start] + head.replace(head.split("points ")[1].split(",")[0], str(points), 1)
                    + text[end:], encoding="utf-8")


def test_an_empty_cache_takes_black_output_from_the_package_in_place(mini: Path, tmp_path: Path,
                                                                      monkeypatch) -> None:
    from rulespec.compiler.backends.codegen import render_package
    out = tmp_path / "out" / "mini"
    compile_game(load_spec(mini).model, out)
    before = _seed_keys(out)
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "fresh"))  # a fresh clone's cache
    _set_points(mini, "three", 7)  # one card's attribute: tables.py and the spec hash change
    model = load_spec(mini).model
    formatted = _black_spy(monkeypatch)
    files = render_package(model, previous=out)
    after = _seed_keys_of(files)
    assert formatted == after - before and 0 < len(formatted) <= 4, len(formatted)
    assert len(after & before) > 20  # the unchanged pieces of the changed modules came from the seed
    assert files == _afresh(model, tmp_path, monkeypatch)  # and they are exactly black's


def _seed_keys_of(files: dict[str, str]) -> set[str]:
    from rulespec.compiler.backends.codegen.seed import parse_seed
    return {key for entry in parse_seed(files["FORMAT"]).values() for key, _ in entry.layout}


@pytest.mark.parametrize("tamper", ["same-length edit", "seed lengths", "seed gone", "other black"])
def test_a_tampered_package_seeds_nothing_of_what_it_changed(mini: Path, tmp_path: Path, monkeypatch,
                                                             tamper: str) -> None:
    from rulespec.compiler.backends.codegen import render_package
    from rulespec.compiler.backends.codegen.seed import parse_seed
    out = tmp_path / "out" / "mini"
    compile_game(load_spec(mini).model, out)
    tables = (out / "tables.py").read_text(encoding="utf-8")
    seed = (out / "FORMAT").read_text(encoding="utf-8")
    if tamper == "same-length edit":  # a value edited by hand, the fingerprint made to fit
        (out / "tables.py").write_text(tables.replace('"One"', '"Uno"'), encoding="utf-8")
    elif tamper == "seed lengths":  # two pieces' boundary moved: each still ends a line
        entry = parse_seed(seed)["tables.py"]
        (key1, len1), (key2, len2) = entry.layout[3], entry.layout[4]
        seed = seed.replace(f"{key1} {len1}\n{key2} {len2}\n", f"{key1} {len1 + 1}\n{key2} {len2 - 1}\n")
        (out / "FORMAT").write_text(seed, encoding="utf-8")
    elif tamper == "seed gone":
        (out / "FORMAT").unlink()
    else:  # another version of black: none of the recorded keys is asked for
        monkeypatch.setattr(formatting, "black_settings", lambda: "another black")
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "fresh"))
    _set_points(mini, "three", 7)
    model = load_spec(mini).model
    formatted = _black_spy(monkeypatch)
    files = render_package(model, previous=out)
    tables_keys = {key for key, _ in parse_seed(files["FORMAT"])["tables.py"].layout}
    assert tables_keys <= formatted  # nothing of tables.py was taken from the package
    assert files == _afresh(model, tmp_path, monkeypatch)


def test_a_variant_package_is_seeded_from_the_committed_base_package(mini: Path, tmp_path: Path,
                                                                     monkeypatch) -> None:
    base = engine.default_package("mini")
    compile_game(load_spec(mini).model, base)
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "fresh"))  # a fresh clone: only generated/
    loaded = load_spec(mini, ("quick",))
    formatted = _black_spy(monkeypatch)
    built = engine.current_package(loaded)
    made = _seed_keys(built)
    assert formatted == made - _seed_keys(base) and formatted, len(formatted)
    assert len(made & _seed_keys(base)) > 50
    files = {p.name: p.read_text(encoding="utf-8") for p in built.iterdir() if p.is_file()}
    assert files == _afresh(loaded.model, tmp_path, monkeypatch)


def test_compiling_a_variant_set_is_seeded_from_the_base_package(mini: Path, tmp_path: Path,
                                                                  monkeypatch) -> None:
    from click.testing import CliRunner
    from rulespec.compiler.cli import main
    base = engine.default_package("mini")
    compile_game(load_spec(mini).model, base)
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path / "fresh"))
    formatted = _black_spy(monkeypatch)
    done = CliRunner().invoke(main, ["compile", str(mini), "--variant", "quick"])
    assert done.exit_code == 0, done.output
    made = _seed_keys(engine.default_package("mini", ("quick",)))
    assert formatted == made - _seed_keys(base) and len(made & _seed_keys(base)) > 50


@pytest.mark.parametrize("game", sorted(p.name for p in (MINI.parents[2] / "generated").iterdir()
                                        if (p / "__init__.py").is_file()))
def test_every_committed_package_seeds_every_piece_of_its_modules(game: str) -> None:
    from rulespec.compiler.backends.codegen.seed import cut, parse_seed
    package = MINI.parents[2] / "generated" / game  # written by this black, cut as it says
    entries = parse_seed((package / "FORMAT").read_text(encoding="utf-8"), formatting.black_settings())
    assert sorted(entries) == sorted(p.name for p in package.glob("*.py"))
    for name, entry in entries.items():
        pieces = cut((package / name).read_text(encoding="utf-8"), entry)
        assert pieces is not None and len(pieces) == len({key for key, _ in entry.layout}), name


def test_compile_is_not_up_to_date_without_its_seed_file(mini: Path, tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner
    from rulespec.compiler.cli import main
    out = tmp_path / "out" / "mini"
    assert CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)]).exit_code == 0
    (out / "FORMAT").unlink()
    again = CliRunner().invoke(main, ["compile", str(mini), "-o", str(out)])
    assert again.exit_code == 0 and ": wrote " in again.output and (out / "FORMAT").is_file(), again.output


def test_copies_of_a_card_in_a_failure_are_told_apart_by_their_ids() -> None:
    from types import SimpleNamespace

    from rulespec.runtime.testing import _shown
    meta = SimpleNamespace(player_labels=["Rose", "Ivy"], entity_labels=["Priest", "Priest", "Spy"],
                           entity_ids=["priest_1", "priest_2", "spy"])
    assert _shown(meta, [1, 2], "entity") == "[Priest (priest_2), Spy]"
    assert _shown(meta, 1, "player") == "Ivy" and _shown(meta, 1) == "1" and _shown(meta, None, "player") == "none"
