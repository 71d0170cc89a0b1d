"""`rulespec new`: a runnable starter game written from the templates beside this module.

The starter's text lives in templates/ (package data); this module only checks the
name, renders the files and writes the folder all at once (a temporary folder
renamed into place), so a refused or failed `new` leaves nothing behind.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from importlib import resources
from pathlib import Path

TEMPLATE_SUFFIX = ".j2"
MAX_NAME = 64
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class StarterError(Exception):
    """A name or folder `rulespec new` refuses: one line for the user."""


def name_problem(name: str) -> str | None:
    """Why NAME cannot be a game's id (the language's NAME, not a keyword), or None."""
    from rulespec.compiler.frontend.parse import _keywords
    if not _NAME.match(name) or len(name) > MAX_NAME:
        return (f"'{name[:MAX_NAME]}' is not a valid spec name: use letters, digits and _,"
                f" not starting with a digit, at most {MAX_NAME} characters (e.g. my_game)")
    if name in _keywords():
        return f"'{name}' is not a valid spec name: it is a word of the language"
    return None


def title_of(name: str) -> str:
    """The title the starter's `game` line gives: my_game -> My Game."""
    return " ".join(part.capitalize() for part in name.split("_") if part) or name


def rendered_files(name: str) -> dict[str, str]:
    """Each starter file's path in the new folder and its text."""
    from jinja2 import Environment, StrictUndefined
    env = Environment(undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    values = {"game": name, "title": title_of(name)}
    root = resources.files(__package__) / "templates"
    files: dict[str, str] = {}
    for path in _templates(root, ""):
        text = (root / path).read_text(encoding="utf-8")
        files[path.removesuffix(TEMPLATE_SUFFIX)] = env.from_string(text).render(values)
    return files


def _templates(folder, prefix: str) -> list[str]:
    found: list[str] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            found += _templates(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(TEMPLATE_SUFFIX):
            found.append(prefix + entry.name)
    return found


def write_starter(name: str, parent: Path) -> Path:
    """Write the starter game NAME into PARENT/NAME; StarterError if refused."""
    return _write_all(_new_folder(name, parent), rendered_files(name))


def write_copy(name: str, parent: Path, source: Path) -> Path:
    """Write a copy of the game in `source` (rulespec's own spec/<game>) as PARENT/NAME, its
    `game` line renamed to NAME, so it compiles and caches as a game of its own."""
    target = _new_folder(name, parent)
    files = {p.relative_to(source).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(source.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    return _write_all(target, _renamed(files, name))


def _new_folder(name: str, parent: Path) -> Path:
    """PARENT/NAME, when NAME is a valid game id and the folder can be made; else StarterError."""
    problem = name_problem(name)
    if problem:
        raise StarterError(problem)
    target = parent / name
    if target.exists() or target.is_symlink():
        raise StarterError(f"{target} already exists: choose another name or --dir")
    if not parent.is_dir():
        raise StarterError(f"{parent} is not a folder")
    return target


def _renamed(files: dict[str, str], name: str) -> dict[str, str]:
    """The files with the game's id in its `game` declaration replaced by `name`."""
    from rulespec.compiler.frontend import ast
    from rulespec.compiler.frontend.parse import parse_text
    for path, text in files.items():
        if not path.endswith(".rules") or "/" in path:
            continue
        for decl in parse_text(text, path).decls:
            if isinstance(decl, ast.GameDecl):
                lines = text.split("\n")
                span = decl.name.span
                line = lines[span.line - 1]
                start = span.column - 1
                lines[span.line - 1] = line[:start] + name + line[start + len(decl.name.name):]
                return {**files, path: "\n".join(lines)}
    raise StarterError("the game to copy has no `game` declaration")


def _write_all(target: Path, files: dict[str, str]) -> Path:
    """Write every file into a temporary folder beside `target`, then rename it into place."""
    name, parent = target.name, target.parent
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=parent))
    except OSError as err:
        raise StarterError(f"cannot write in {parent}: {err.strerror or err}") from None
    try:
        for path, text in files.items():
            (staging / path).parent.mkdir(parents=True, exist_ok=True)
            (staging / path).write_text(text, encoding="utf-8")
        os.chmod(staging, 0o777 & ~_umask())
        staging.rename(target)  # all at once: never a half-written game
    except OSError as err:
        shutil.rmtree(staging, ignore_errors=True)
        raise StarterError(f"cannot write {target}: {err.strerror or err}") from None
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def next_commands(shown: str) -> list[str]:
    """The commands `rulespec new` suggests, for the folder as the user named it."""
    return [f"rulespec check {shown}", f"rulespec test {shown}",
            f"rulespec play {shown} --agents policy", f"rulespec fuzz {shown} --games 20",
            f"rulespec serve {shown}"]
