"""An output folder whose name the system will not look up (a part over 255 bytes: ENAMETOOLONG)
is one plain line and exit 1, like any folder that cannot be written; never an internal error.
Found by docs/probes/bad_command_lines.py (docs/RELIABILITY.md)."""

from __future__ import annotations

import pytest

from rulespec.runtime.files import WriteError, make_dirs
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
