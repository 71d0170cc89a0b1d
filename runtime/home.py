"""Where rulespec's own files are, in a checkout and in an installed package alike.

ROOT is the folder that holds compiler/, runtime/, generated/, spec/ and docs/: a
repository checkout's root, or the installed `rulespec` package (the wheel lays them there).
Only a checkout's own spec/ compiles into its generated/; every other spec, and every spec
of an installed rulespec, builds into the cache, which is the checkout's .rulespec-cache/,
else the user's cache folder, or $RULESPEC_CACHE.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "spec"
GENERATED = ROOT / "generated"
DOCS = ROOT / "docs"
# A checkout has its project file; an installed package has none (and may not be writable).
CHECKOUT = (ROOT / "pyproject.toml").is_file()


def cache_root() -> Path:
    """Where cached data lives: $RULESPEC_CACHE, else the checkout's or the user's cache."""
    chosen = os.environ.get("RULESPEC_CACHE")
    if chosen:
        return Path(chosen)
    if CHECKOUT:
        return ROOT / ".rulespec-cache"
    user = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(user) / "rulespec"

