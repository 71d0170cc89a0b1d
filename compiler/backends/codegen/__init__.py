"""The code generator: a Model in, a Python package of the game's engine out.

`render_game(model)` returns the generated modules' text, `render_package`
those and the package's seed of black's cache (seed.py); `compile_game`
writes them atomically. The package imports only `runtime`, implements
rulespec.runtime.program.Program exactly like the interpreter, and is byte-identical
whenever it is regenerated from the same spec.
"""

from __future__ import annotations

from pathlib import Path

from rulespec.compiler.frontend.cache import SEED_FILE, compiler_version, digest, store
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.backends.codegen.output import leftovers, write_package
from rulespec.compiler.backends.codegen import format as formatting
from rulespec.compiler.backends.codegen.render import MODULES, VIEWS, render_marker, render_module
from rulespec.runtime.files import write_atomic
from rulespec.compiler.backends.codegen.seed import Seeds, seed_text
from rulespec.compiler.backends.codegen.view import ViewBuilder

__all__ = ["compile_game", "render_game", "render_package"]


def render_package(model: Model, previous: Path | None = None,
                   seeds: tuple[Path, ...] = ()) -> dict[str, str]:
    """file name -> text of every file of the game's package: its modules and its seed file.

    previous: an earlier output folder; its modules are reused where the text
    before formatting is unchanged and the file intact (black is the slow part).
    A piece black's cache lacks is taken from the seed file of previous, else of
    the `seeds` folders (other packages: a variant's base game), else black makes it.
    """
    views = ViewBuilder(model).build()
    lender = Seeds(formatting.black_settings(), (previous, *seeds))
    rendered = {name: render_module(template, views[VIEWS[name]], name, _read(previous, name), lender)
                for name, template in MODULES.items()}
    files = {name: done.text for name, done in rendered.items()}
    files[SEED_FILE] = seed_text(lender.settings, {name: (done.text, done.start, done.layout)
                                  for name, done in rendered.items()})
    return files


def render_game(model: Model, previous: Path | None = None) -> dict[str, str]:
    """file name -> source of every module of the game's package (render_package's modules)."""
    return {name: text for name, text in render_package(model, previous).items() if name in MODULES}


def _read(folder: Path | None, name: str) -> str | None:
    if folder is None or not (Path(folder) / name).is_file():
        return None
    return (Path(folder) / name).read_text(encoding="utf-8")


def compile_game(model: Model, out_dir: Path, previous: Path | None = None,
                 seeds: tuple[Path, ...] = ()) -> list[Path]:
    """Write the package to out_dir, all or nothing: a failure keeps the old output
    (compiler/backends/codegen/output.py); rulespec.runtime.files.WriteError when it cannot be written.

    previous: where an earlier output may be reused from (default: out_dir);
    seeds: more packages whose seed files lend black's output (render_package).
    Also writes generated/__init__.py (a package marker) beside the package
    when the parent folder is named `generated`. Returns the files written: none
    when out_dir already held exactly these modules, byte for byte.
    """
    out_dir = Path(out_dir)
    if _up_to_date(model, out_dir):
        return []
    sources = render_package(model, out_dir if previous is None else previous, seeds)
    written = []
    if not _holds_exactly(out_dir, sources):
        write_package(out_dir, sources)
        written = [out_dir / name for name in sources]
    _remember(model, out_dir)
    marker = out_dir.parent / "__init__.py"
    if out_dir.parent.name == "generated" and not marker.exists():
        write_atomic(marker, render_marker())
        written.append(marker)
    return written


def _holds_exactly(folder: Path, sources: dict[str, str]) -> bool:
    """Whether folder holds these modules byte for byte and nothing else (but __pycache__)."""
    try:
        found = sorted(p.name for p in folder.iterdir() if p.name != "__pycache__")
        return found == sorted(sources) and not leftovers(folder) and all(
            (folder / name).read_bytes() == text.encode("utf-8") for name, text in sources.items())
    except OSError:
        return False


# A package this compiler made from this very spec and tests, untouched since,
# needs no compile: the edit loop's "nothing changed" costs a hash of the files.
COMPILED = "compiled"


def _compiled_key(model: Model) -> str:
    return digest(compiler_version(), model.spec_hash, model.tests_hash, *model.variants)


def _package_digest(folder: Path) -> str:
    try:
        return digest(*((folder / name).read_bytes() for name in (*MODULES, SEED_FILE)))
    except OSError:
        return ""


def _up_to_date(model: Model, out_dir: Path) -> bool:
    made = store(COMPILED).get(_compiled_key(model))
    return made is not None and made.decode() == _package_digest(out_dir)


def _remember(model: Model, out_dir: Path) -> None:
    table = store(COMPILED)
    table.put(_compiled_key(model), _package_digest(out_dir).encode())
    table.flush()
