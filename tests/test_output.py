"""Outputs all or nothing: a compile killed anywhere leaves exactly one complete package once
the next compile ran (no leftovers), never replaces what is not a package; files are written
atomically and a write that cannot happen is one line, exit 1."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.backends.codegen import compile_game, output
from rulespec.runtime import files
from rulespec.runtime.files import WriteError, make_dirs, write_atomic
from support import MINI, REPO, loaded

# Compiles mini into argv[1], dying (no clean-up, like SIGKILL) at the named point.
DIE = """
import os, sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from rulespec.compiler.backends.codegen import compile_game, output
from rulespec.compiler.frontend.loader import load_spec
where, out = sys.argv[2], Path(sys.argv[1])
real_rename, real_write = os.rename, output.write_atomic
renames, writes = [], []
def rename(a, b):
    renames.append(a)
    if where == "between renames" and len(renames) == 2:
        os._exit(9)
    return real_rename(a, b)
def write(path, data):
    writes.append(path)
    if where == "while writing" and len(writes) == 3:
        os._exit(9)
    return real_write(path, data)
output.os.rename = rename
output.write_atomic = write
compile_game(load_spec(Path({mini!r})).model, out)
"""


def _die_compiling(out: Path, where: str) -> None:
    code = DIE.format(repo=str(REPO), mini=str(MINI))
    done = subprocess.run([sys.executable, "-c", code, str(out), where], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 9, done.stderr


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture(scope="module")
def model():
    return loaded(MINI).model


@pytest.mark.parametrize("where", ["while writing", "between renames"])
def test_a_killed_compile_is_recovered_by_the_next_one(tmp_path, model, where):
    out = tmp_path / "mini"
    compile_game(model, out)
    (out / "rules.py").write_text((out / "rules.py").read_text() + "# the old package\n")
    _die_compiling(out, where)
    left = _names(tmp_path)
    if where == "between renames":
        assert "mini" not in left and len(left) == 2  # both complete packages, aside
    else:
        assert "mini" in left and any(".mini.new-" in n for n in left)
    output.recover(out)  # what the next compile does first
    assert _names(tmp_path) == ["mini"] and output.is_package(out)
    if where == "while writing":  # the old package stayed in place
        assert (out / "rules.py").read_text().endswith("# the old package\n")
    compile_game(model, out)
    assert _names(tmp_path) == ["mini"] and output.is_package(out)


def test_leftovers_of_many_killed_compiles_go_and_the_newest_complete_package_wins(tmp_path, model):
    out = tmp_path / "mini"
    compile_game(model, out)
    os.rename(out, tmp_path / ".mini.old-aaaa")
    (tmp_path / ".mini.new-bbbb").mkdir()  # killed while writing: incomplete
    (tmp_path / ".mini.new-bbbb" / "tables.py").write_text("# half\n")
    output.recover(out)
    assert _names(tmp_path) == ["mini"] and output.is_package(out)


def test_compile_refuses_to_replace_a_file_or_a_folder_that_is_not_a_package(tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "thesis.tex").write_text("mine too\n")
    for target in (a_file, folder):
        result = CliRunner().invoke(main, ["compile", str(MINI), "-o", str(target)])
        assert result.exit_code == 1, result.output
        assert result.stderr.count("\n") == 1 and "refusing to replace it" in result.stderr
    assert a_file.read_text() == "mine\n" and _names(folder) == ["thesis.tex"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert CliRunner().invoke(main, ["compile", str(MINI), "-o", str(empty)]).exit_code == 0
    assert output.is_package(empty) and _names(tmp_path) == ["empty", "notes.txt", "work"]


def test_compile_under_a_file_or_on_a_full_disk_is_one_line_and_keeps_the_output(tmp_path, monkeypatch):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    result = CliRunner().invoke(main, ["compile", str(MINI), "-o", str(a_file / "pkg")])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "is a file, not a folder" in result.stderr
    out = tmp_path / "mini"
    assert CliRunner().invoke(main, ["compile", str(MINI), "-o", str(out)]).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "rules.py").write_text("# edited, so the compile cannot reuse it\n")
    before["rules.py"] = (out / "rules.py").read_bytes()
    _full_disk(monkeypatch)
    result = CliRunner().invoke(main, ["compile", str(MINI), "-o", str(out)])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "No space left on device" in result.stderr and "Traceback" not in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert _names(tmp_path) == ["file", "mini"]


def _full_disk(monkeypatch):
    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "fsync", fsync)


def test_write_atomic_keeps_the_old_file_when_it_cannot_write(tmp_path, monkeypatch):
    path = tmp_path / "results.json"
    write_atomic(path, "old\n")
    _full_disk(monkeypatch)
    with pytest.raises(WriteError, match="No space left on device"):
        write_atomic(path, "new\n")
    assert path.read_text() == "old\n" and _names(tmp_path) == ["results.json"]
    monkeypatch.undo()
    assert write_atomic(path, b"new\n").read_bytes() == b"new\n"


def test_an_output_folder_under_a_file_is_a_plain_error(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(WriteError, match=r"f is a file, not a folder"):
        make_dirs(tmp_path / "f" / "reports")
    with pytest.raises(WriteError, match=r"is a file, not a folder"):
        write_atomic(tmp_path / "f" / "x.json", "{}")


# ------------------------------------------------------------------ reports, problem records, records


def _cli(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result


def _one_line(result, words: str) -> None:
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


SIMULATE = ("simulate", str(MINI), "--games", "2", "--backend", "interpreted", "--json")
FUZZ = ("fuzz", str(MINI), "--games", "1", "--backend", "interpreted", "--json")


def test_outputs_under_a_file_are_one_line(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    _one_line(_cli(*SIMULATE, "--report", str(a_file / "report")), "is a file, not a folder")
    _one_line(_cli(*FUZZ, "--problems-dir", str(a_file / "problems")), "is a file, not a folder")
    _one_line(_cli("play", str(MINI), "--backend", "interpreted", "--record", str(a_file / "r.json")),
              "is a file, not a folder")
    assert _names(tmp_path) == ["file"] and a_file.read_text() == "x"


@pytest.mark.parametrize("failure", ["full", "read-only"])
def test_a_report_on_a_full_or_read_only_disk_is_one_line_and_leaves_no_empty_file(
        tmp_path, monkeypatch, failure):
    report = tmp_path / "report"
    report.mkdir()
    if failure == "full":
        _full_disk(monkeypatch)
    else:
        def read_only(*args, **kwargs):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        monkeypatch.setattr(files.tempfile, "mkstemp", read_only)
    words = "No space left on device" if failure == "full" else "Read-only file system"
    _one_line(_cli(*SIMULATE, "--report", str(report)), words)
    assert _names(report) == []  # no 0-byte results.json, no temporary file


def test_a_record_echoes_what_it_holds_bounded_and_printable(tmp_path):
    import json
    path = tmp_path / "r.json"
    assert _cli("play", str(MINI), "--backend", "interpreted", "--record", str(path)).exit_code == 0
    data = json.loads(path.read_text())
    data["choices"][0] = "x" * 100_000 + "\u202e\x00\x1b[31m"
    path.write_text(json.dumps(data))
    result = _cli("replay", str(path))
    _one_line(result, "is not a legal option")
    line = result.stderr
    assert len(line) < 500 and "\x00" not in line and "\u202e" not in line and "\x1b" not in line
