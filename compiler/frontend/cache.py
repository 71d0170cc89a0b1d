"""rulespec's on-disk cache: values keyed by the content that made them.

The edit loop leans on it: parsed files keyed by their text, black's output
keyed by the text it formatted, compiled packages keyed by spec hash. A key
always includes what shapes the value (the compiler's own source, black's
version), so a stale entry cannot be hit, only missed. Losing the cache costs
time, never correctness; a cache that cannot be written is silently skipped.

The folder is `.rulespec-cache/` beside the repository, or $RULESPEC_CACHE.
"""

from __future__ import annotations

import pickle
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

# One home for the cache's place and key: the runtime finds its native builds there too.
from rulespec.runtime.home import ROOT, cache_root
from rulespec.runtime.native import digest

# The file in each generated package that seeds black's cache from the package itself
# (compiler/backends/codegen/seed.py); named here so the light up-to-date check can name it too.
SEED_FILE = "FORMAT"


@lru_cache(maxsize=None)
def source_version(*modules: str) -> str:
    """A hash of front-end source files (relative to compiler/frontend/): part of every key they shape."""
    here = Path(__file__).resolve().parent
    return digest(*((here / m).read_bytes() for m in modules))


@lru_cache(maxsize=1)
def compiler_version() -> str:
    """A hash of every source file of the compiler (and the runtime it builds on)."""
    root = ROOT
    files = sorted(p for folder in ("compiler", "runtime") for p in (root / folder).rglob("*")
                   if p.suffix in (".py", ".lark", ".j2") and "__pycache__" not in p.parts)
    return digest(*(part for p in files for part in (p.relative_to(root).as_posix(), p.read_bytes())))


class Store:
    """A key-value table in one sqlite file, safe to share between processes."""

    def __init__(self, name: str):
        self.path = cache_root() / f"{name}.sqlite3"
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._pending: dict[str, bytes] = {}

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                db.execute("pragma journal_mode=wal")
                db.execute("create table if not exists kv (key text primary key, value blob)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._broken = True
        return self._db

    def get(self, key: str) -> bytes | None:
        if key in self._pending:
            return self._pending[key]
        db = self._connect()
        if db is None:
            return None
        try:
            row = db.execute("select value from kv where key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def get_many(self, keys: list[str]) -> dict[str, bytes]:
        """The values found of many keys, in a few queries instead of one a key."""
        found = {k: self._pending[k] for k in keys if k in self._pending}
        wanted = [k for k in dict.fromkeys(keys) if k not in found]
        db = self._connect()
        if db is None:
            return found
        try:
            for start in range(0, len(wanted), 500):  # sqlite's limit on parameters is 999
                batch = wanted[start:start + 500]
                marks = ", ".join("?" * len(batch))
                found.update(db.execute(f"select key, value from kv where key in ({marks})", batch))
        except sqlite3.Error:
            pass
        return found

    def put(self, key: str, value: bytes) -> None:
        """Remember a value; written at the next flush (one transaction for many)."""
        self._pending[key] = value

    def flush(self) -> None:
        db = self._connect()
        pending, self._pending = self._pending, {}
        if db is None or not pending:
            return
        try:  # one transaction: in autocommit mode each insert would be one (and one fsync)
            db.execute("begin")
            try:
                db.executemany("insert or replace into kv values (?, ?)", pending.items())
                db.execute("commit")
            except BaseException:
                db.execute("rollback")
                raise
        except sqlite3.Error:
            pass  # a full or read-only disk: the cache is only an accelerator


def store(name: str) -> Store:
    """The process's one Store of a name under the current cache root."""
    return _store(name, str(cache_root()))


@lru_cache(maxsize=None)
def _store(name: str, root: str) -> Store:
    return Store(name)


def cached_pickle(name: str, key: str, make: Callable[[], Any]) -> Any:
    """make()'s value, from the cache when a value was stored under key before."""
    table = store(name)
    found = table.get(key)
    if found is not None:
        try:
            return pickle.loads(found)
        except Exception:  # noqa: BLE001 - a damaged entry is a miss
            pass
    value = make()
    table.put(key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    return value
