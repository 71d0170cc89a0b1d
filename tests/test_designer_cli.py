"""The designer's commands on the command line: doc, cards, fmt and lsp --textmate."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from rulespec.compiler.cli import main
from support import MINI


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def test_doc_lists_the_spec_and_writes_a_page(tmp_path):
    result = run("doc", str(MINI), "--find", "total")
    assert result.exit_code == 0, result.output
    assert "define total(p: player) -> int" in result.output and "mini.rules:" in result.output
    result = run("doc", str(MINI), "--html", str(tmp_path / "ref"))
    assert result.exit_code == 0 and (tmp_path / "ref" / "index.html").is_file()


def test_doc_errors_are_one_line():
    result = run("doc", "no_such_game")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "rulespec: error: no spec found for 'no_such_game': not a folder with .rules files nor a game under spec/"]
    result = run("doc", str(MINI), "--find", "zzz")
    assert result.exit_code == 1 and result.output.strip() == "rulespec: error: nothing in mini is called 'zzz'"


def test_cards_in_words_and_as_a_page(tmp_path):
    result = run("cards", str(MINI), "--card", "two")
    assert result.exit_code == 0, result.output
    assert "event (only if your Score is less than 3):" in result.output
    assert "You choose a field `f` such that your Marks in `f` is 0 (asked: “Mark a field”)." in result.output
    result = run("cards", str(MINI), "--html", str(tmp_path / "cards"))
    assert result.exit_code == 0 and "(4 cards)" in result.output
    result = run("cards", str(MINI), "--card", "tow")
    assert result.exit_code == 1 and "no card 'tow' in mini; did you mean 'two'?" in result.output


def test_fmt_check_lists_what_is_not_formatted_and_fmt_fixes_it(tmp_path):
    folder = tmp_path / "game"
    shutil.copytree(MINI, folder)
    (folder / "extra.rules").write_text('var  spare: int = 1\n', encoding="utf-8")
    before = (folder / "mini.rules").read_text(encoding="utf-8")
    result = run("fmt", "--check", str(folder))
    assert result.exit_code == 1
    assert f"not formatted: {folder / 'extra.rules'}" in result.output
    assert (folder / "mini.rules").read_text(encoding="utf-8") == before  # --check writes nothing
    result = run("fmt", str(folder))
    assert result.exit_code == 0 and f"formatted {folder / 'extra.rules'}" in result.output
    assert (folder / "extra.rules").read_text(encoding="utf-8") == "var spare: int = 1\n"
    assert run("fmt", "--check", str(folder)).exit_code == 0


def test_fmt_reports_syntax_errors_and_writes_nothing(tmp_path):
    (tmp_path / "a.rules").write_text('var  a: int = 1\n', encoding="utf-8")
    (tmp_path / "b.rules").write_text('procedure p( {\n}\n', encoding="utf-8")
    result = run("fmt", str(tmp_path))
    assert result.exit_code == 1
    assert "b.rules:1:14: error: unexpected '{'" in result.output and "Traceback" not in result.output
    assert (tmp_path / "a.rules").read_text(encoding="utf-8") == 'var  a: int = 1\n'
    result = run("fmt", str(tmp_path / "missing"))
    assert result.exit_code == 1 and "rulespec: error: no such file or folder" in result.output


def test_lsp_writes_its_textmate_grammar(tmp_path):
    result = run("lsp", "--textmate", str(tmp_path / "g.json"))
    assert result.exit_code == 0 and (tmp_path / "g.json").read_text().startswith("{")
