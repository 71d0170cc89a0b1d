"""How run-time errors name spec files: one rule for both back ends.

Generated code is written once and run from anywhere, so it cannot name
files relative to the working directory; the interpreter names them the same
way, so the back ends agree on every location (the fuzzer compares them).
A file inside rulespec's own folder (a checkout, or the installed package) is named from its root
(spec/GAME/cards.rules), any other from its game's folder
(GAME/cards.rules); `shown` turns such a name back into a path
the user can open from where they are.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from rulespec.runtime.home import ROOT

SUBFOLDERS = ("tests", "variants")  # a game's folders that hold .rules files too


@lru_cache(maxsize=4096)
def spec_path(file: str) -> str:
    """A spec file as run-time locations name it."""
    if not file.endswith(".rules"):
        return file
    path = Path(file) if Path(file).is_absolute() else Path.cwd() / file
    path = path.resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        pass
    game = path.parent.parent if path.parent.name in SUBFOLDERS else path.parent
    return path.relative_to(game.parent).as_posix()


def location(span) -> str:
    """file:line:col of a span, as run-time errors name it."""
    return f"{spec_path(span.file)}:{span.line}:{span.column}"


def shown(loc: str, folder: Path) -> str:
    """A run-time location as a path from the working directory, for a spec in `folder`."""
    file, sep, rest = loc.partition(":")
    for base in (ROOT, folder.resolve().parent):
        candidate = base / file
        if file and candidate.is_file():
            try:
                return f"{candidate.resolve().relative_to(Path.cwd().resolve())}{sep}{rest}"
            except ValueError:
                return f"{candidate.resolve()}{sep}{rest}"
    return loc
