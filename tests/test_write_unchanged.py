"""Commands that rewrite a designer's spec (`tune`, `fmt`) write only over the exact text they
read (issue 44, item 3): a file edited while they ran is left as the designer left it, with
one line naming it and exit 1, and nothing of the other files is written either."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.frontend import fmt
from rulespec.runtime import files
from rulespec.runtime.analysis import tune as tuner
from rulespec.runtime.files import FileChanged, read_exact, write_if_unchanged
from support import TESTS

SOW = TESTS / "specs" / "sow"
UNFORMATTED = 'game g "G"\nplayers a "A",   b "B"\nstart {   win a "done" }\n'

EDITS = {  # what a designer does to the file while the command runs
    "a comment added at the top": lambda text: "# sown by hand\n" + text,
    "a tunable's default edited": lambda text: text.replace("weight greed = 1 in", "weight greed = 3 in"),
}


def _one_line_exit_1(result, *words: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("rulespec: error: "), result.output
    for word in words:
        assert word in result.output, result.output


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_tune_writes_nothing_over_a_spec_edited_while_it_ran(edit, tmp_path, monkeypatch):
    folder = tmp_path / "sow"
    shutil.copytree(SOW, folder)
    rules = folder / "sow.rules"
    tune = tuner.tune

    def tune_then_edit(*args, **kwargs):
        result = tune(*args, **kwargs)
        rules.write_text(EDITS[edit](rules.read_text()))
        return result
    monkeypatch.setattr(tuner, "tune", tune_then_edit)
    result = CliRunner().invoke(main, ["tune", str(folder), "--games", "10", "--generations", "4",
                                       "--final-games", "20", "--json"])  # no progress lines
    edited = EDITS[edit](SOW.joinpath("sow.rules").read_text())
    _one_line_exit_1(result, f"{rules} changed since rulespec read it: nothing written",
                     "the tuned values were greed=")
    assert rules.read_text() == edited
    assert CliRunner().invoke(main, ["check", str(folder)]).exit_code == 0


def test_tune_writes_a_spec_left_alone_and_keeps_its_line_ends(tmp_path):
    folder = tmp_path / "sow"
    shutil.copytree(SOW, folder)
    rules = folder / "sow.rules"
    rules.write_bytes(rules.read_bytes().replace(b"\n", b"\r\n"))
    result = CliRunner().invoke(main, ["tune", str(folder), "--games", "10", "--generations", "4",
                                       "--final-games", "20"])
    assert result.exit_code == 0 and f"wrote {rules}" in result.output, result.output
    text = read_exact(rules)
    assert "weight greed = 1 in" not in text and text.count("\r\n") == text.count("\n")


def _two_unformatted(folder: Path) -> tuple[Path, Path]:
    folder.mkdir()
    first, second = folder / "a.rules", folder / "b.rules"
    first.write_text(UNFORMATTED)
    second.write_text(UNFORMATTED.replace('game g "G"', 'game h "H"'))
    return first, second


def test_fmt_writes_no_file_when_one_was_edited_while_it_ran(tmp_path, monkeypatch):
    first, second = _two_unformatted(tmp_path / "spec")
    format_text = fmt.format_text

    def format_then_edit(text, path="<text>"):
        out = format_text(text, path)
        if path == str(second):
            second.write_text(text + "# a note typed meanwhile\n")
        return out
    monkeypatch.setattr(fmt, "format_text", format_then_edit)
    result = CliRunner().invoke(main, ["fmt", str(tmp_path / "spec")])
    _one_line_exit_1(result, f"{second} changed since rulespec read it")
    assert first.read_text() == UNFORMATTED  # nothing written, not even the file left alone
    assert second.read_text().endswith("# a note typed meanwhile\n")


def test_fmt_rewrites_files_left_alone(tmp_path):
    first, second = _two_unformatted(tmp_path / "spec")
    result = CliRunner().invoke(main, ["fmt", str(tmp_path / "spec")])
    assert result.exit_code == 0 and "2 of 2 files changed" in result.output, result.output
    assert first.read_text() == fmt.format_text(UNFORMATTED)


def test_format_paths_keeps_an_edit_made_while_it_formatted(tmp_path, monkeypatch):
    first, _ = _two_unformatted(tmp_path / "spec")
    format_text = fmt.format_text

    def format_then_edit(text, path="<text>"):
        first.write_text("# mine\n" + text)
        return format_text(text, path)
    monkeypatch.setattr(fmt, "format_text", format_then_edit)
    with pytest.raises(FileChanged, match="a.rules changed"):
        fmt.format_paths([first], write=True)
    assert first.read_text() == "# mine\n" + UNFORMATTED


def test_an_edit_made_while_the_new_text_is_written_is_kept(tmp_path, monkeypatch):
    """The file changes after the first look but before the rename: the last look finds it."""
    target = tmp_path / "spec.rules"
    target.write_text("old\n")
    fsync = os.fsync

    def fsync_then_edit(fd):
        fsync(fd)
        target.write_text("edited\n")
    monkeypatch.setattr(files.os, "fsync", fsync_then_edit)
    with pytest.raises(FileChanged, match="changed since rulespec read it"):
        write_if_unchanged([(target, "old\n", "new\n")])
    assert target.read_text() == "edited\n"
    assert [p.name for p in tmp_path.iterdir()] == ["spec.rules"]  # no temporary file left


def test_a_removed_file_is_not_written_again(tmp_path):
    target = tmp_path / "spec.rules"
    with pytest.raises(FileChanged, match="was removed since rulespec read it"):
        write_if_unchanged([(target, "old\n", "new\n")])
    assert not target.exists()
