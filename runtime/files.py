"""Output files written whole or not at all, and one plain line when they cannot be.

Every file rulespec writes (records, reports, problem records, generated
modules) goes through `write_atomic`: the bytes go to a temporary file beside
the target, are flushed to disk, then renamed over it, so a crash, a kill or a
full disk leaves the old file or the new one, never half of either. A command
that rewrites a designer's file (`fmt`, `tune`) writes through
`write_if_unchanged`: only over the exact text it read, so an edit made while
it ran is never overwritten.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class WriteError(Exception):
    """An output that cannot be written: a full or read-only disk, a file in the way."""


class FileChanged(WriteError):
    """A file that changed on disk since a command read it: left as it is, nothing written."""


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) to `path` atomically; WriteError naming why not."""
    return _write(Path(path), data)


def read_exact(path: str | Path) -> str:
    """A UTF-8 file's text exactly as it is on disk (line ends untranslated): the text a
    command that rewrites the file hands to `write_if_unchanged`."""
    with open(path, encoding="utf-8", newline="") as source:
        return source.read()


def write_if_unchanged(files: list[tuple[Path, str, str]]) -> list[Path]:
    """Rewrite each `(path, text read, new text)` atomically, but only while every file still
    holds exactly the text read: FileChanged naming the first that does not, and then no file
    is written. Each is checked once more just before its rename, so the window in which an
    edit could still be lost is the rename itself."""
    for path, read, _ in files:
        _check_unchanged(Path(path), read)
    return [_write(Path(path), new, lambda p=Path(path), r=read: _check_unchanged(p, r))
            for path, read, new in files]


def _check_unchanged(path: Path, read: str) -> None:
    try:
        now = path.read_bytes()
    except OSError:
        now = None
    if now != read.encode("utf-8"):
        gone = "was removed" if now is None else "changed"
        raise FileChanged(f"{path} {gone} since rulespec read it: nothing written"
                          f" (run the command again on the file as it is now)")


def _write(path: Path, data: str | bytes, before_rename=None) -> Path:
    """`write_atomic`; `before_rename()`, when given, runs once the new text is on disk and may
    stop the rename by raising (the temporary file is then removed)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise WriteError(f"cannot write {path}: {reason(err, path.parent)}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; outputs are not
        if before_rename is not None:
            before_rename()
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise WriteError(f"cannot write {path}: {reason(err, path)}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def make_dirs(folder: str | Path) -> Path:
    """A folder for outputs, made with its parents; WriteError when it cannot be."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise WriteError(f"cannot write into {folder}: {_in_the_way(folder)} is a file,"
                         f" not a folder") from None
    except OSError as err:
        raise WriteError(f"cannot write into {folder}: {reason(err, folder)}") from None
    return folder


def reason(err: OSError, path: Path) -> str:
    """Why an OSError happened, in words (no errno numbers, no Python class names)."""
    blocker = _in_the_way(path)
    if isinstance(err, (NotADirectoryError, FileExistsError)) and blocker.is_file():
        return f"{blocker} is a file, not a folder"
    return err.strerror or str(err) or type(err).__name__


def _in_the_way(path: Path) -> Path:
    """The first existing part of `path` that is a file where a folder should be."""
    for part in reversed([path, *path.parents]):
        try:
            if part.exists() and not part.is_dir():
                return part
        except OSError:  # a name the system will not look up (too long): nothing lies past it
            break
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
