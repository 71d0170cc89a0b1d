"""Paths the user did not mean: an output folder whose name the system will not look up (a part
over 255 bytes: ENAMETOOLONG), and a record whose spec_dir holds no sound spec, are each one
plain line and exit 1; never an internal error or a page of another folder's errors.
Found by docs/probes/bad_command_lines.py and bad_records.py (docs/RELIABILITY.md)."""

from __future__ import annotations

import json

import pytest

from rulespec.runtime.files import WriteError, make_dirs
from support import MINI
from test_cli import M, one_error, run

TOO_LONG = "x" * 300  # one part of a path: past the 255 bytes a Linux file name may have


@pytest.mark.parametrize("args", [
    ("doc", M, "--html", TOO_LONG),
    ("cards", M, "--html", TOO_LONG),
    ("simulate", M, "--games", "1", "--report", TOO_LONG),
    ("fuzz", M, "--games", "1", "--coverage", TOO_LONG),
])
def test_an_output_folder_with_a_name_too_long_is_one_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    line = one_error(run(*args))
    assert "File name too long" in line and "Errno" not in line and "OSError" not in line


def test_a_records_folder_with_a_name_too_long_stops_serve_in_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_error(run("serve", M, "--port", "0", "--records", f"{TOO_LONG}/records"))
    assert "cannot keep records in" in line and "File name too long" in line and "Errno" not in line


def test_make_dirs_says_why_in_words(tmp_path):
    with pytest.raises(WriteError, match=r"cannot write into .*: File name too long$"):
        make_dirs(tmp_path / TOO_LONG / "inner")


# ------------------------------------------------------------------ a record's spec_dir


def _record_naming(tmp_path, folder) -> str:
    path = tmp_path / "game.json"
    assert run("play", M, "--seed", "3", "--record", str(path)).exit_code == 0
    record = json.loads(path.read_text())
    path.write_text(json.dumps(dict(record, spec_dir=str(folder))))
    return str(path)


@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
def test_a_record_whose_spec_dir_holds_no_sound_spec_is_one_line(tmp_path, command):
    """A record naming its spec's variants folder printed every error of that folder (13 of
    them, 2.5 KB), a folder the user never named (issue 44 item 9)."""
    path = _record_naming(tmp_path, MINI / "variants")
    line = one_error(run(*command, path))
    assert f"the record's spec_dir {MINI / 'variants'} holds no sound spec of 'mini'" in line
    assert len(line) < 400


def test_a_spec_dir_given_on_the_command_line_still_shows_its_errors(tmp_path):
    path = _record_naming(tmp_path, MINI)
    result = run("replay", path, "--spec", str(MINI / "variants"))
    assert result.exit_code == 1 and "error:" in result.stderr.splitlines()[0]
    assert "errors found" in result.stderr  # the folder the user named: every error, located


@pytest.mark.parametrize("command", [("replay",), ("play", "--resume")])
def test_a_record_whose_spec_dir_is_a_name_too_long_is_a_folder_not_there(tmp_path, command):
    """Such a folder cannot exist, so the record's game is looked for, as for any missing
    folder (mini is no game under spec/: one line)."""
    path = _record_naming(tmp_path, tmp_path / TOO_LONG)
    assert "no spec found for 'mini'" in one_error(run(*command, path))


@pytest.mark.parametrize("command", [("serve", "", "--port", "0"), ("play", "", "--agents", "human,random")])
def test_an_empty_game_name_at_a_table_is_no_spec_found(command):
    """load_recorded's first version took an empty GAME for a missing one and looked for a
    record (AttributeError, exit 3); found by docs/probes/bad_command_lines.py."""
    assert "no spec found for ''" in one_error(run(*command))
