"""Renders the view model through the jinja2 templates, checks and formats the result."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.backends.codegen.format import format_module
from rulespec.compiler.backends.codegen.seed import Layout, Seeds

# Template → generated module, in dependency order.
MODULES = {
    "tables.py": "tables.py.j2",
    "rules.py": "rules.py.j2",
    "procedures.py": "procedures.py.j2",
    "tests.py": "tests.py.j2",
    "__init__.py": "init.py.j2",
}
VIEWS = {"tables.py": "tables", "rules.py": "rules", "procedures.py": "procedures",
         "tests.py": "tests", "__init__.py": "init"}


def py(value: Any) -> str:
    """A Python literal: the only way spec text enters generated code."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(py(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py(k)}: {py(v)}" for k, v in value.items()) + "}"
    raise InternalError(f"not a literal: {value!r}")


def comment(text: Any) -> str:
    """Text for a `#` comment: one line, whatever the spec or a path contains."""
    return re.sub(r"[\x00-\x1f\x7f\u2028\u2029]", "?", str(text))


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("rulespec.compiler.backends.codegen", "templates"),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, autoescape=False,
    )
    env.filters["py"] = py
    env.filters["comment"] = comment
    return env


# Every module records a fingerprint: the hash of its text before black and of
# its final text, both without the header (which names the spec hash, so it
# changes with every edit). A module whose text before black has not changed
# is the same after black (black is pinned), so a recompile takes its body
# from the previous output instead of formatting it again, when that body is
# intact. Bodies that did change are formatted piece by piece (format.py).
PENDING = "pending"
_STAMP = f"# Fingerprint: {PENDING}\n"
_FINGERPRINT = re.compile(r"^# Fingerprint: source ([0-9a-f]+) output ([0-9a-f]+)\n", re.M)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class Rendered:
    """A module's text, where its formatted body starts, and the body's pieces (seed.py)."""

    text: str
    start: int
    layout: Layout


def render_module(template: str, view: dict[str, Any], name: str, previous: str | None = None,
                  seeds: Seeds | None = None) -> Rendered:
    """Render one module, then format its body with black (or reuse the previous body)."""
    text = environment().get_template(template).render(fingerprint=PENDING, **view)
    if text.count(_STAMP) != 1:
        raise InternalError(f"generated {name} has no single fingerprint line")
    header, body = text.split(_STAMP)
    source_hash = _digest(body)
    formatted = _reusable_body(previous, source_hash) if previous is not None else None
    layout = None  # how a reused body was cut: the previous package's seed file says
    if formatted is not None and previous is not None and seeds is not None:
        layout = seeds.layout(name, previous)
    if layout is None:
        done = format_module(body, name, seeds)
        formatted, layout = done.text, done.layout
    head = f"{header}# Fingerprint: source {source_hash} output {_digest(formatted)}\n"
    return Rendered(head + formatted, len(head), layout)


def _reusable_body(previous: str, source_hash: str) -> str | None:
    """A previous module's body, if it came from this very source and was not edited since."""
    found = _FINGERPRINT.search(previous)
    if found is None or found.group(1) != source_hash:
        return None
    body = previous[found.end():]
    return body if _digest(body) == found.group(2) else None


def render_marker() -> str:
    return environment().get_template("generated_init.py.j2").render()
