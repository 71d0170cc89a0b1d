"""The code generator: a Model in, a Python package of the game's engine out.

`render_game(model)` returns the generated modules' text; `compile_game`
writes them atomically. The package imports only `runtime`, implements
runtime.program.Program exactly like the interpreter, and is byte-identical
whenever it is regenerated from the same spec.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from ..model import Model
from .render import MODULES, VIEWS, render_marker, render_module
from .view import ViewBuilder

__all__ = ["compile_game", "render_game"]


def render_game(model: Model) -> dict[str, str]:
    """file name -> source of every module of the game's package."""
    views = ViewBuilder(model).build()
    return {name: render_module(template, views[VIEWS[name]], name)
            for name, template in MODULES.items()}


def compile_game(model: Model, out_dir: Path) -> list[Path]:
    """Write the package to out_dir, all or nothing: a failure keeps the old output.

    Also writes generated/__init__.py (a package marker) beside it when the
    parent folder is named `generated`.
    """
    out_dir = Path(out_dir)
    sources = render_game(model)  # every error happens before anything is written
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    try:
        for name, source in sources.items():
            (staging / name).write_text(source, encoding="utf-8")
        _swap(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    written = [out_dir / name for name in sources]
    marker = out_dir.parent / "__init__.py"
    if out_dir.parent.name == "generated" and not marker.exists():
        marker.write_text(render_marker(), encoding="utf-8")
        written.append(marker)
    return written


def _swap(staging: Path, out_dir: Path) -> None:
    """Put staging in out_dir's place; the old folder goes only once the new one is in."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    os.rmdir(old)
    os.rename(out_dir, old)
    try:
        os.rename(staging, out_dir)
    except BaseException:
        os.rename(old, out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)
