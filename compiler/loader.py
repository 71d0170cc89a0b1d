"""Finds a game's spec folder, parses and checks it: the front end in one call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import ast
from .errors import SpecError, Sources
from .model import Model, build_model
from .parse import parse_files, spec_files

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class LoadedSpec:
    """A checked spec with the sources needed to quote it in errors."""

    folder: Path
    model: Model
    sources: Sources


def find_spec_dir(game_or_path: str) -> Path:
    """A folder path, or a game name looked up under ./spec and the repository's spec/."""
    candidates = [Path(game_or_path), Path("spec") / game_or_path, REPO_ROOT / "spec" / game_or_path]
    for candidate in candidates:
        if candidate.is_dir() and spec_files(candidate):
            return candidate
    raise FileNotFoundError(f"no spec folder with .rules files found for '{game_or_path}'")


def load_spec(folder: Path, check: bool = True) -> LoadedSpec:
    """Parse every .rules file of the folder and its tests/, then run the checks."""
    sources = Sources()
    engine_paths = spec_files(folder)
    test_paths = spec_files(folder / "tests") if (folder / "tests").is_dir() else []
    try:
        return _load(folder, check, sources, engine_paths, test_paths)
    except SpecError as err:
        err.sources = sources  # so the caller can quote the spec text
        raise


def _load(folder, check, sources, engine_paths, test_paths) -> LoadedSpec:
    spec = parse_files(engine_paths + test_paths, sources, Path.cwd())
    engine_files = tuple(f for f in spec.files if Path(f.path).parent.name != "tests")
    test_decls = [d for f in spec.files if f not in engine_files for d in f.decls
                  if isinstance(d, ast.TestDecl)]
    engine = ast.Spec(spec.span, engine_files)
    hashed = [(f"{folder.name}/{p.name}", p.read_text(encoding="utf-8")) for p in engine_paths]
    model = build_model(engine, test_decls, hashed)
    if check:
        from .checks import run_checks
        problems = run_checks(model, [f for f in spec.files if f not in engine_files])
        if problems:
            raise SpecError(problems)
    return LoadedSpec(folder, model, sources)
