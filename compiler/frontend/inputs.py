"""The files a spec is made of, found without parsing anything.

The one list the loader parses and the "nothing changed" check of
`rulespec compile` hashes (compiler/backends/unchanged.py): a game folder's .rules
files, the chosen variants' files and the designer tests of tests/. Light to
import on purpose: the quick answers of the command line start here.
"""

from __future__ import annotations

from pathlib import Path

SPEC_SUFFIX = ".rules"
from rulespec.runtime.home import SPECS


def spec_files(folder: Path) -> list[Path]:
    """The .rules files of a game folder (not its tests or variants), sorted."""
    return sorted(p for p in folder.glob(f"*{SPEC_SUFFIX}") if p.is_file())


def find_spec_dir(game_or_path: str) -> Path:
    """A folder path, or a game name looked up under ./spec and rulespec's own spec/."""
    candidates = [Path(game_or_path), Path("spec") / game_or_path, SPECS / game_or_path]
    for candidate in candidates:
        if candidate.is_dir() and spec_files(candidate):
            return candidate
    raise FileNotFoundError(f"no spec folder with .rules files found for '{game_or_path}'")


def available_variants(folder: Path) -> list[str]:
    """The variant names of a game: the files of its variants/ folder."""
    variants = folder / "variants"
    return [p.stem for p in spec_files(variants)] if variants.is_dir() else []


def test_files(folder: Path) -> list[Path]:
    """The designer tests of tests/, sorted."""
    tests = folder / "tests"
    return spec_files(tests) if tests.is_dir() else []
