"""Every variant has its committed generated package, current with the spec.

The default suite compares spec hashes (cheap: the hash covers every spec
and variant file); the slow suite regenerates each package and compares the
files byte for byte, as the base game's staleness test does.
"""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from compiler import backends
from compiler.loader import available_variants, load_spec

REPO = Path(__file__).resolve().parent.parent
SETS = [(game.name, variant) for game in sorted((REPO / "spec").iterdir()) if game.is_dir()
        for variant in available_variants(game)]


@pytest.mark.parametrize("game,variant", SETS, ids=[f"{g}-{v}" for g, v in SETS])
def test_committed_variant_package_is_current(game: str, variant: str) -> None:
    loaded = load_spec(REPO / "spec" / game, (variant,))
    package = backends.default_package(game, (variant,))
    assert (package / "__init__.py").is_file(), f"run `rulespec compile spec/{game} --variant {variant}`"
    made_from = backends._hash_of(package)
    assert made_from == loaded.model.spec_hash, (
        f"{package.name} is stale: run `rulespec compile spec/{game} --variant {variant}`")


@pytest.mark.slow
@pytest.mark.parametrize("game,variant", SETS, ids=[f"{g}-{v}" for g, v in SETS])
def test_variant_package_regenerates_byte_identical(game: str, variant: str, tmp_path: Path) -> None:
    from compiler.codegen import compile_game
    loaded = load_spec(REPO / "spec" / game, (variant,))
    compile_game(loaded.model, tmp_path / "fresh")
    committed = backends.default_package(game, (variant,))
    names = sorted(p.name for p in (tmp_path / "fresh").glob("*.py"))
    assert names == sorted(p.name for p in committed.glob("*.py"))
    match, mismatch, errors = filecmp.cmpfiles(tmp_path / "fresh", committed, names, shallow=False)
    assert mismatch == [] and errors == []
