"""`rulespec new`: the starter it writes, and what it refuses (one line, exit 1, nothing written).

That the starter passes check, test, play, fuzz and serve is tests/test_first_game.py's job,
which runs every command of docs/FIRST_GAME.md from a fresh `rulespec new`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.tools.starter import rendered_files, title_of


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_new_writes_the_starter_and_prints_the_next_commands(tmp_path: Path) -> None:
    result = run("new", "orchard_war", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "orchard_war"
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == sorted(rendered_files("orchard_war"))
    assert {"tests/basics.rules", "variants/short.rules", "bots.rules"} <= set(written)
    assert 'game orchard_war "Orchard War"' in (folder / "frame.rules").read_text()
    for command in ("check", "test", "play", "fuzz", "serve"):
        assert f"rulespec {command} {folder}" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["orchard_war"]  # no staging folder left behind


def test_the_starter_loads_with_and_without_its_variant(tmp_path: Path) -> None:
    assert run("new", "g", "--dir", str(tmp_path)).exit_code == 0
    base = load_spec(tmp_path / "g")
    assert base.model.game == "g" and base.model.counts()["cards"] == 8
    assert load_spec(tmp_path / "g", variants=("short",)).model.counts()["cards"] == 9


@pytest.mark.parametrize("name, words", [
    ("9lives", "not a valid spec name"), ("a-b", "not a valid spec name"), ("", "not a valid spec name"),
    ("x" * 65, "at most 64"), ("game", "a word of the language"), ("policy", "a word of the language"),
    ("../up", "not a valid spec name"),
])
def test_a_bad_name_is_refused_in_one_line(tmp_path: Path, name: str, words: str) -> None:
    result = run("new", name, "--dir", str(tmp_path))
    assert result.exit_code == 1
    assert words in result.output and result.output.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_or_file_is_refused_and_kept(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.rules").write_text("# mine\n")
    (tmp_path / "afile").write_text("x")
    for name in ("taken", "afile"):
        result = run("new", name, "--dir", str(tmp_path))
        assert result.exit_code == 1 and "already exists" in result.output
    assert (tmp_path / "taken" / "mine.rules").read_text() == "# mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "taken"]


def test_a_parent_that_is_not_a_folder_is_refused(tmp_path: Path) -> None:
    result = run("new", "g", "--dir", str(tmp_path / "missing"))
    assert result.exit_code == 1 and "is not a folder" in result.output


def test_titles() -> None:
    assert title_of("my_game") == "My Game" and title_of("_x") == "X" and title_of("_") == "_"


def test_every_template_is_package_data(monkeypatch) -> None:
    """An installed rulespec (not an editable checkout) ships every starter file: setup.py's
    layout, read without building, names each as package data of its package."""
    import runpy

    import setuptools
    repo = Path(__file__).resolve().parent.parent
    laid: dict = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kw: laid.update(kw))
    monkeypatch.chdir(repo)
    runpy.run_path(str(repo / "setup.py"))
    starter = repo / "compiler" / "tools" / "starter"
    package = "rulespec.compiler.tools.starter"
    assert laid["package_dir"][package] == "compiler/tools/starter"
    templates = [p.relative_to(starter).as_posix() for p in (starter / "templates").rglob("*") if p.is_file()]
    assert templates
    assert sorted(templates) == sorted(laid["package_data"][package])


def test_new_from_a_shipped_game_copies_it_under_its_new_name(tmp_path: Path) -> None:
    result = run("new", "my_fox", "--dir", str(tmp_path), "--from", "the_fox_in_the_forest")
    assert result.exit_code == 0, result.output
    copy = tmp_path / "my_fox"
    shipped = Path(__file__).resolve().parent.parent / "spec" / "the_fox_in_the_forest"
    assert sorted(p.relative_to(copy) for p in copy.rglob("*.rules")) == \
        sorted(p.relative_to(shipped) for p in shipped.rglob("*.rules"))
    assert 'game my_fox "The Fox in the Forest"' in (copy / "01_frame.rules").read_text()
    assert run("check", str(copy)).exit_code == 0


def test_new_from_an_unknown_game_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    result = run("new", "g", "--dir", str(tmp_path), "--from", "chess")
    assert result.exit_code == 1 and "'chess' is not one of rulespec's games" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not list(tmp_path.iterdir())
