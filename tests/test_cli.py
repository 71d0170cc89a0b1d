"""The command line on the mini spec: every command, --json keys, bad input → one line, no traceback."""

from __future__ import annotations

import json
import shutil
import os
import subprocess
import sys
import types

import pytest
from click.testing import CliRunner

from rulespec.compiler.backends import engine
from rulespec.compiler.cli import main
from rulespec.compiler.frontend.loader import load_spec
from support import MINI, REPO, TS, need_ts

M = str(MINI)
INTERP = ("--backend", "interpreted")
PLAY_KEYS = {"game", "variants", "seed", "backend", "winner", "reason", "decisions", "spec_hash"}
INFO_KEYS = {"game", "spaces", "regions", "cards", "cards_with_events", "phases", "constraints",
             "variants", "designer_tests"}
TEST_KEYS = {"passed", "failed", "backends", "failures", "counts", "variant_breaks", "problems", "notes", "not_run"}
BENCH_KEYS = {"game", "games", "generated", "interpreted", "ratio"}


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output + result.stderr
    return result


def as_json(result) -> dict:
    assert result.stdout.count("\n") == 1, result.stdout  # one object, nothing else
    return json.loads(result.stdout)


def one_error(result, code: int = 1) -> str:
    """The one line a failed command printed on stderr."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rulespec: error: ")
    assert result.stdout == ""
    return lines[0]


@pytest.fixture
def broken_mini(tmp_path):
    folder = tmp_path / "broken"
    shutil.copytree(MINI, folder)
    rules = folder / "mini.rules"
    rules.write_text(rules.read_text().replace("track round", "track round round"))
    return folder


# ------------------------------------------------------------------ check and info


def test_check_a_valid_spec_is_silent():
    result = run("check", M)
    assert result.exit_code == 0 and result.stdout == result.stderr == ""
    result = run("check", M, "-v")
    assert result.exit_code == 0 and result.stdout.startswith("mini: ok")


def test_check_with_a_variant():
    result = run("check", M, "--variant", "quick", "--verbose")
    assert result.exit_code == 0 and "with quick" in result.stdout


def test_check_reports_spec_errors_with_file_line_column_and_caret(broken_mini):
    result = run("check", str(broken_mini))
    assert result.exit_code == 1 and result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{broken_mini / 'mini.rules'}:") or "mini.rules:" in first
    assert ": error: " in first and "^" in result.stderr


@pytest.mark.parametrize("command", ["check", "info", "play", "bench", "test"])
def test_a_missing_spec_folder_is_one_line(command, tmp_path):
    line = one_error(run(command, str(tmp_path / "nowhere")))
    assert "no spec found" in line and "nowhere" in line


def test_an_unknown_variant_is_a_spec_error():
    result = run("check", M, "--variant", "quik")
    assert result.exit_code == 1 and "unknown variant 'quik'" in result.stderr
    assert "did you mean 'quick'" in result.stderr


def test_info_json_keys():
    data = as_json(run("info", M, "--json"))
    assert INFO_KEYS <= set(data)
    assert data["game"] == "mini" and data["cards"] == 4 and data["spaces"] == 3
    assert data["variants"] == ["quick", "slow"] and data["designer_tests"] == 3


def test_info_text():
    result = run("info", M)
    assert result.exit_code == 0 and "cards: 4" in result.stdout


# ------------------------------------------------------------------ play and replay


def test_play_json_keys():
    result = run("play", M, *INTERP, "--seed", "3", "--json")
    data = as_json(result)
    assert PLAY_KEYS <= set(data)
    assert data["game"] == "mini" and data["seed"] == 3 and data["backend"] == "interpreted"
    assert data["winner"] in ("red", "blue", None) and data["decisions"] > 0
    assert data["variants"] == [] and len(data["spec_hash"]) == 16


def test_play_prints_a_readable_summary():
    result = run("play", M, *INTERP, "--seed", "3")
    assert result.exit_code == 0
    assert "Result:" in result.stdout and "Decisions:" in result.stdout and "score:" in result.stdout


def test_play_is_deterministic_for_a_seed():
    first = as_json(run("play", M, *INTERP, "--seed", "8", "--json"))
    assert first == as_json(run("play", M, *INTERP, "--seed", "8", "--json"))


def test_play_with_params_agents_and_a_variant():
    data = as_json(run("play", M, *INTERP, "--param", "goal=9", "--agents", "first,last", "--json"))
    assert data["params"] == {"goal": 9} and data["agents"] == ["first", "last"]
    data = as_json(run("play", M, *INTERP, "--variant", "quick", "--json"))
    assert data["variants"] == ["quick"] and data["params"] == {"goal": 3}


@pytest.mark.parametrize("args, words", [
    (("--param", "nope=1"), "unknown param 'nope' (mini declares: goal)"),
    (("--param", "goal=many"), "param 'goal' is a whole number from 1 to 20, not many"),
    (("--param", "goal"), "expected NAME=VALUE"),
    (("--agents", "random,random,random"), "--agents needs 1 or 2 names"),
    (("--agents", "genius"), "unknown agent 'genius'"),
])
def test_play_rejects_bad_options_in_one_line(args, words):
    assert words in one_error(run("play", M, *INTERP, *args))


def test_play_on_an_unknown_game():
    line = one_error(run("play", "no_such_game"))
    assert "no spec found for 'no_such_game'" in line


def test_the_generated_back_end_refuses_a_stale_package(tmp_path):
    package = tmp_path / "mini"
    package.mkdir()
    (package / "__init__.py").write_text("SPEC_HASH = '0123456789abcdef'\nPROGRAM = object()\n")
    line = one_error(run("play", M, "--package", str(package)))
    assert "is stale (the rules changed; spec hash " in line and "generated from 0123456789abcdef" in line
    assert "run `rulespec compile " in line


def test_the_generated_back_end_refuses_a_missing_or_broken_package(tmp_path):
    line = one_error(run("play", M, "--package", str(tmp_path / "absent")))
    assert "absent is missing" in line
    (tmp_path / "broken").mkdir()
    spec_hash = load_spec(MINI).model.spec_hash
    (tmp_path / "broken" / "__init__.py").write_text(
        f"SPEC_HASH = {spec_hash!r}\nimport no_such_module_anywhere\n")
    line = one_error(run("play", M, "--package", str(tmp_path / "broken")))
    assert "cannot be imported (ModuleNotFoundError" in line


def test_record_and_replay(tmp_path):
    path = tmp_path / "game.json"
    played = as_json(run("play", M, *INTERP, "--seed", "4", "--record", str(path), "--json"))
    assert played["record"] == str(path)
    replayed = as_json(run("replay", str(path), "--json"))
    assert PLAY_KEYS <= set(replayed)
    for key in PLAY_KEYS:
        assert replayed[key] == played[key], key
    assert replayed["pending"] is None and replayed["replayed"] == played["decisions"]
    text = run("replay", str(path))
    assert text.exit_code == 0 and text.stdout.startswith(f"Replayed {played['decisions']} choices")


def test_replay_of_a_game_saved_midway_shows_the_pending_decision(tmp_path):
    from rulespec.runtime import record
    from rulespec.runtime.game import Game
    from support import program
    game = Game(program(MINI, "interpreted"), seed=2)
    game.choose(game.decision.option_ids[0])
    path = tmp_path / "mid.json"
    record.save(game, path, str(MINI))
    data = as_json(run("replay", str(path), "--json"))
    assert data["pending"]["options"] == list(game.decision.option_ids)
    assert "Waiting for" in run("replay", str(path)).stdout


@pytest.mark.parametrize("content, words", [
    ("{oops", "corrupt record: not JSON"),
    ('{"format": "rulespec-record/1", "game": "mini"}', "corrupt record: 'variants' is missing"),
])
def test_replay_rejects_a_corrupt_record(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert words in one_error(run("replay", str(path)))


def test_replay_missing_file(tmp_path):
    assert "no such record file" in one_error(run("replay", str(tmp_path / "none.json")))


def _edited_record(tmp_path, edit):
    path = tmp_path / "game.json"
    run("play", M, *INTERP, "--seed", "4", "--record", str(path))
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return path


def test_replay_names_an_illegal_option(tmp_path):
    def edit(data):
        data["choices"][0] = "bogus"
        del data["snapshot"]
    line = one_error(run("replay", str(_edited_record(tmp_path, edit))))
    assert "decision 1: 'bogus' is not a legal option for" in line and "(legal: " in line


def test_replay_refuses_another_spec_hash(tmp_path):
    path = _edited_record(tmp_path, lambda d: d.update(spec_hash="ffffffffffffffff"))
    line = one_error(run("replay", str(path)))
    assert "record was made with spec hash ffffffffffffffff; this spec is " in line


def test_replay_detects_a_tampered_snapshot(tmp_path):
    path = _edited_record(tmp_path, lambda d: d["snapshot"]["state"]["tracks"].__setitem__(0, 17))
    assert "does not reproduce the saved snapshot" in one_error(run("replay", str(path)))


# ------------------------------------------------------------------ designer tests


def test_designer_tests_json_on_the_interpreter():
    result = run("test", M, *INTERP, "--json")
    data = as_json(result)
    assert set(data) == TEST_KEYS and result.exit_code == 0
    assert {k: data[k] for k in ("passed", "failed", "backends", "failures", "counts")} == {
        "passed": 4, "failed": 0, "backends": ["interpreted"], "failures": [],
        "counts": {"interpreted": 4}}


def test_failing_designer_tests_are_listed_and_exit_1(tmp_path):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    with open(folder / "mini.rules", "a") as rules:
        rules.write('test "wrong on purpose" {\n    resolve one for red\n'
                    '    expect score(red) == 2 "one gives two"\n}\n')
    result = run("test", str(folder), *INTERP, "--json")
    data = as_json(result)
    assert result.exit_code == 1 and data["failed"] == 1 and data["passed"] == 4
    failure = data["failures"][0]
    assert {"name", "location", "message"} <= set(failure)
    assert failure["name"] == "wrong on purpose"
    assert failure["message"] == "one gives two: score(red) == 2: left side is 1"
    assert "mini.rules:" in failure["location"]
    text = run("test", str(folder), *INTERP)
    assert text.exit_code == 1 and "FAIL [interpreted] wrong on purpose" in text.stdout


def test_designer_tests_run_on_both_back_ends():
    data = as_json(run("test", M, "--json"))
    assert data["backends"] == ["interpreted", "generated"] or set(data["backends"]) == set(engine.BACKENDS)
    assert data["failed"] == 0 and data["passed"] == 8


# ------------------------------------------------------------------ bench and compile


def test_bench_json_on_one_back_end():
    data = as_json(run("bench", M, *INTERP, "--games", "3", "--json"))
    assert BENCH_KEYS <= set(data)
    assert data["games"] == 3 and data["generated"] is None and data["ratio"] is None
    assert data["interpreted"]["games_per_s"] > 0 and data["interpreted"]["decisions_per_s"] > 0


def test_bench_both_back_ends(tmp_path):
    package = tmp_path / "mini"
    assert run("compile", M, "-o", str(package)).exit_code == 0
    data = as_json(run("bench", M, "--games", "3", "--package", str(package), "--json"))
    assert BENCH_KEYS <= set(data) and data["ratio"] > 0
    for side in ("generated", "interpreted"):
        assert {"games_per_s", "decisions_per_s"} <= set(data[side])


def test_compile_then_play_generated(tmp_path):
    package = tmp_path / "mini"
    result = run("compile", M, "-o", str(package))
    assert result.exit_code == 0 and (package / "__init__.py").is_file()
    generated = as_json(run("play", M, "--package", str(package), "--seed", "5", "--json"))
    interpreted = as_json(run("play", M, *INTERP, "--seed", "5", "--json"))
    assert generated["backend"] == "generated"
    for key in ("winner", "reason", "decisions", "spec_hash"):
        assert generated[key] == interpreted[key]


def _fake_codegen(monkeypatch, compile_game):
    fake = types.ModuleType("rulespec.compiler.backends.codegen")
    fake.compile_game = compile_game
    monkeypatch.setitem(sys.modules, "rulespec.compiler.backends.codegen", fake)


def test_compile_on_a_full_disk_is_one_line_and_keeps_the_output(tmp_path, monkeypatch):
    out = tmp_path / "mini"
    out.mkdir()
    (out / "__init__.py").write_text("# the previous output\n")

    def full_disk(model, target, previous=None, seeds=()):
        raise OSError(28, "No space left on device")

    _fake_codegen(monkeypatch, full_disk)
    result = run("compile", M, "-o", str(out))
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert (out / "__init__.py").read_text() == "# the previous output\n"


def test_compile_of_a_broken_spec_writes_nothing(tmp_path, broken_mini):
    out = tmp_path / "out"
    result = run("compile", str(broken_mini), "-o", str(out))
    assert result.exit_code == 1 and ": error: " in result.stderr and not out.exists()


# ------------------------------------------------------------------ the guard


def test_an_unexpected_exception_is_an_internal_error_without_traceback(monkeypatch):
    import rulespec.compiler.frontend.loader as loader

    def explode(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(loader, "load_spec", explode)
    result = run("info", M)
    assert result.exit_code == 3
    assert result.stderr.startswith("rulespec: internal error: ZeroDivisionError: boom")
    assert "please report it" in result.stderr


def test_usage_errors_exit_2():
    result = run("play")
    assert result.exit_code == 2 and "Missing argument" in result.stderr


@pytest.mark.parametrize("module", ["rulespec.compiler.cli", "rulespec"])
def test_python_dash_m_runs_the_command_line(module):
    done = subprocess.run([sys.executable, "-m", module, "play", M, *INTERP, "--json"],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert PLAY_KEYS <= set(json.loads(done.stdout))


def test_python_dash_m_rulespec_knows_every_command():
    names = sorted(main.commands)
    assert {"check", "compile", "play", "replay", "test", "bench", "info", "fuzz",
            "simulate"} <= set(names)
    script = ("import sys; from click.testing import CliRunner; from rulespec.compiler.cli import main;"
              " sys.exit(max(CliRunner().invoke(main, [c, '--help']).exit_code for c in sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    for name in ("fuzz", "simulate"):  # defined after the old `if __name__ == "__main__"`
        done = subprocess.run([sys.executable, "-m", "rulespec", name, "--help"],
                              capture_output=True, text=True, cwd=REPO, timeout=120)
        assert done.returncode == 0 and "Usage: rulespec " + name in done.stdout, done.stderr


def test_info_twilight_struggle_json():
    data = as_json(run("info", "twilight_struggle", "--json"))
    assert INFO_KEYS <= set(data) and data["game"] == "twilight_struggle"
    assert data["cards"] >= 100 and data["spaces"] >= 80


@pytest.mark.slow
def test_play_twilight_struggle_json():
    need_ts()
    data = as_json(run("play", str(TS), *INTERP, "--seed", "2", "--json"))
    assert data["game"] == "twilight_struggle" and data["decisions"] > 0


STUCK = """\
game stuck "Stuck"
players a "A", b "B"
track score "Score" per player 0..10 start 0
zone box "Box" hidden
kind card: card(points: int)
card c1 "C1" (points 1)
start {
    a chooses n in 1..3 "How many"
    add n to score(a)
    b chooses c in box where c.points > 5 "Impossible"
    win a "never"
}
"""


def test_a_dead_end_is_one_line_and_its_record_replays_to_it(tmp_path):
    (tmp_path / "stuck").mkdir()
    (tmp_path / "stuck" / "stuck.rules").write_text(STUCK)
    path = tmp_path / "stuck.json"
    line = one_error(run("play", str(tmp_path / "stuck"), *INTERP, "--record", str(path)))
    assert "stuck.rules:10:5: dead end: no legal option for 'Impossible'" in line
    assert "after 1 decisions" in line and str(path) in line
    data = json.loads(path.read_text())
    assert len(data["choices"]) == 1 and "snapshot" not in data
    assert "dead end" in one_error(run("replay", str(path)))


def test_a_record_that_cannot_be_written_is_one_line(tmp_path):
    line = one_error(run("play", M, *INTERP, "--record", str(tmp_path / "no" / "dir.json")))
    assert "cannot write the record" in line


def test_a_record_keeps_its_variants_and_params(tmp_path):
    path = tmp_path / "quick.json"
    played = as_json(run("play", M, *INTERP, "--variant", "quick", "--param", "goal=4",
                         "--record", str(path), "--json"))
    replayed = as_json(run("replay", str(path), "--json"))
    assert replayed["variants"] == ["quick"] and replayed["params"] == {"goal": 4}
    assert replayed["spec_hash"] == played["spec_hash"] and replayed["winner"] == played["winner"]


def test_a_reader_that_closes_the_pipe_ends_the_command_quietly():
    # `rulespec info GAME | head -0`: the reader is gone before the first write.
    read_end, write_end = os.pipe()
    os.close(read_end)
    done = subprocess.run([sys.executable, "-m", "rulespec", "info", M], stdout=write_end,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(write_end)
    assert done.returncode == 1 and done.stderr == ""


def test_progress_lines_say_how_far_a_piped_run_is(tmp_path):
    """RULESPEC_PROGRESS=lines (the demo's setting): a line on stderr at every tenth of the way;
    without it a piped run prints no progress at all."""
    import os
    import subprocess
    args = [sys.executable, "-m", "rulespec", "simulate", str(MINI), "--games", "20"]
    env = {**os.environ, "RULESPEC_NATIVE": "0", "RULESPEC_CACHE": str(tmp_path)}
    lines = subprocess.run(args, env={**env, "RULESPEC_PROGRESS": "lines"}, capture_output=True, text=True)
    quiet = subprocess.run(args, env=env, capture_output=True, text=True)
    assert lines.returncode == quiet.returncode == 0, lines.stderr
    assert [line.split(",")[0].strip() for line in lines.stderr.splitlines()][-1] == "simulate: 20 of at most 20"
    assert len(lines.stderr.splitlines()) == 10 and quiet.stderr == ""
    assert lines.stdout == quiet.stdout
