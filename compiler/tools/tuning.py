"""`rulespec tune`'s side of the spec: which tunables a policy has, and writing tuned values back.

A tuned value replaces the default's text at its span (a `tunable` line or a
`weight NAME = V in ...`), nothing else of the file moving; a file that was
in `rulespec fmt`'s layout is laid out again (a longer number may push a line
past the width), one that was not is left as it was written. The edits are made
to the text the spec was loaded from, and written (whole and atomically) only
while every file still holds that text: an edit made while `tune` ran is never
overwritten (runtime/files.py write_if_unchanged).
"""

from __future__ import annotations

from pathlib import Path

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt import format_text
from rulespec.compiler.frontend.loader import LoadedSpec
from rulespec.compiler.frontend.parse import parse_text
from rulespec.runtime.files import write_if_unchanged


class TuneError(Exception):
    """A policy `tune` cannot search: one line for the designer."""


def tunables_of(loaded: LoadedSpec, policy: str | None) -> tuple[str, list]:
    """The policy (the first one when None) and the meta of each tunable its rules read."""
    model = loaded.model
    if not model.policies:
        raise TuneError(f"{model.game} declares no policy: `tune` searches a policy's tunables")
    name = policy or next(iter(model.policies))
    if name not in model.policies:
        raise TuneError(f"unknown policy '{name}' (the spec declares: {', '.join(model.policies)})")
    metas = list(model.tunable_metas(name))
    if not metas:
        raise TuneError(f"policy '{name}' has no tunable: name a number with `tunable NAME = V in"
                        f" LOW..HIGH` or `weight NAME = V in LOW..HIGH` to tune it")
    return name, metas


def write_values(loaded: LoadedSpec, policy: str, values: dict[str, int]) -> list[Path]:
    """Write `values` over the defaults of the policy's tunables; the files changed."""
    edits: dict[str, list[tuple[ast.Span, str]]] = {}
    for tunable in loaded.model.policy_tunables(policy):
        value = values.get(tunable.name.name)
        if value is not None and value != tunable.default.value:
            span = tunable.default.span
            edits.setdefault(span.file, []).append((span, str(value)))
    read = loaded.sources.texts()  # the text the tunables' spans point into
    return write_if_unchanged([(Path(file), read[file], _edited(read[file], file, spans))
                               for file, spans in edits.items()])


def _edited(text: str, file: str, spans: list[tuple[ast.Span, str]]) -> str:
    lines = text.split("\n")
    for span, value in sorted(spans, key=lambda e: (e[0].line, e[0].column), reverse=True):
        line = lines[span.line - 1]
        lines[span.line - 1] = line[:span.column - 1] + value + line[span.end_column - 1:]
    out = "\n".join(lines)
    parse_text(out, file)  # a SpecError here is a bug: the numbers alone changed
    return format_text(out, file) if format_text(text, file) == text else out
