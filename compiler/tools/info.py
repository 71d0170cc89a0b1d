"""What `rulespec info` reports about a game: counts, variants and params, as JSON."""

from __future__ import annotations

from typing import Any

from rulespec.compiler.frontend.loader import LoadedSpec, available_variants
from rulespec.runtime.params import params_json


def info_json(loaded: LoadedSpec) -> dict[str, Any]:
    """The keys docs/CLI.md promises for `info --json`, and a few more."""
    from rulespec.compiler.frontend.checks.asserts import tallies

    model = loaded.model
    values = tallies(model)[0]
    counts = model.counts()
    kinds: dict[str, int] = {}
    for c in model.cards():
        kind = model.entities[c].kind.name
        kinds[kind] = kinds.get(kind, 0) + 1
    return {
        "game": model.game, "title": model.title, "spec_hash": model.spec_hash,
        "players": list(model.players),
        "spaces": counts["spaces"], "regions": counts["regions"], "cards": counts["cards"],
        "cards_with_events": counts["cards_with_events"], "phases": counts["phases"],
        "constraints": counts["constraints"], "variants": available_variants(loaded.folder),
        "designer_tests": counts["designer_tests"],
        "cards_without_events": [model.entities[c].name.name for c in model.cards()
                                 if not model.entities[c].events],
        "params": params_json(model.meta()),
        "cards_by_kind": kinds,
        "tallies": {d.name.name: {"label": d.label, "value": values.get(d.name.name)}
                    for d in model.tallies},
    }
