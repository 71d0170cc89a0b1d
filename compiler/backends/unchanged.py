"""`rulespec compile` with nothing changed, decided before anything is parsed.

After each compile the cache remembers, under a hash of every input file's
bytes (compiler/frontend/inputs.py), the compiler's version, the working folder, the
variants and the output folder, a hash of the package it left there. When the
same inputs come again and the package is byte for byte that one, there is
nothing to do: no parse, no check, no code generator. Anything else (an edited
file, a package touched by hand, a new compiler) is a miss and the full compile
decides, so a hit can never hide a change.
"""

from __future__ import annotations

import json
from pathlib import Path

from rulespec.compiler.frontend.cache import SEED_FILE, compiler_version, digest, store
from rulespec.compiler.frontend.inputs import spec_files, test_files

UNCHANGED = "unchanged"


def _key(folder: Path, variants: tuple[str, ...], output: str | None) -> str | None:
    """The inputs' hash; None when a chosen variant has no file (the full compile says why)."""
    paths = spec_files(folder) + [folder / "variants" / f"{v}.rules" for v in sorted(set(variants))]
    paths += test_files(folder)
    try:
        parts = [part for p in paths for part in (p.relative_to(folder).as_posix(), p.read_bytes())]
    except OSError:
        return None
    where = str(Path(output).resolve()) if output else ""
    return digest(compiler_version(), str(Path.cwd().resolve()), str(folder.resolve()), where,
                  "\0".join(sorted(set(variants))), *parts)


def package_digest(out: Path) -> str:
    """A hash of a package's modules and seed file (and of the package marker beside it, when
    it needs one)."""
    try:
        files = sorted(out.glob("*.py")) + [p for p in [out / SEED_FILE] if p.is_file()]
        marker = out.parent / "__init__.py"
        if out.parent.name == "generated":
            files.append(marker)
        return digest(*(part for p in files for part in (p.name, p.read_bytes()))) if files else ""
    except OSError:
        return ""


def compiled_before(folder: Path, variants: tuple[str, ...], output: str | None) -> dict | None:
    """What the last compile of exactly these inputs said (game, out, shown, spec hash), if its
    package is still there untouched; else None."""
    key = _key(folder, variants, output)
    found = store(UNCHANGED).get(key) if key is not None else None
    if found is None:
        return None
    try:
        made = json.loads(found)
    except ValueError:
        return None
    if package_digest(Path(made["out"])) != made["digest"]:
        return None
    return made


def remember(folder: Path, variants: tuple[str, ...], output: str | None, game: str, out: Path,
             shown: str, spec_hash: str) -> None:
    """After a compile: these inputs made the package now at `out` (`shown` as the user sees it)."""
    key = _key(folder, variants, output)
    if key is None:
        return
    table = store(UNCHANGED)
    table.put(key, json.dumps({"game": game, "out": str(out.resolve()), "spec_hash": spec_hash,
                               "shown": shown, "digest": package_digest(out)}).encode())
    table.flush()
