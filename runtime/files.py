"""Output files written whole or not at all, and one plain line when they cannot be.

Every file rulespec writes (records, reports, problem records, generated
modules) goes through `write_atomic`: the bytes go to a temporary file beside
the target, are flushed to disk, then renamed over it, so a crash, a kill or a
full disk leaves the old file or the new one, never half of either.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class WriteError(Exception):
    """An output that cannot be written: a full or read-only disk, a file in the way."""


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write `data` (text as UTF-8) to `path` atomically; WriteError naming why not."""
    path = Path(path)
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
        if part.exists() and not part.is_dir():
            return part
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
