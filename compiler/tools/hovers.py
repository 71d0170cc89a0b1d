"""What the editor shows over a name: its declaration, its comment, and for a card its proof text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulespec.compiler.tools.cards import card_sheets
from rulespec.compiler.tools.cards.sheet import event_lines
from rulespec.compiler.frontend.fmt.comments import doc_comment
from rulespec.compiler.frontend.loader import LoadedSpec
from rulespec.compiler.tools.reference import build_reference


@dataclass(frozen=True)
class Declaration:
    """A name the spec declares: where, and what a hover shows."""

    name: str
    path: Path
    line: int
    column: int
    hover: str  # markdown


def declarations(loaded: LoadedSpec) -> list[Declaration]:
    """Every declared name of a loaded spec with its hover text (first declaration wins)."""
    model = loaded.model
    found: dict[str, Declaration] = {}
    for entry in build_reference(model, loaded.folder).entries():
        parts = [f"```rulespec\n{entry.signature}\n```"]
        parts += [entry.comment] if entry.comment else []
        parts += [f"```rulespec\n{entry.code}\n```"] if entry.code else []
        parts += [f"*{d}*" for d in entry.details]
        parts.append(f"`{entry.location}`")
        found.setdefault(entry.name, _declaration(entry.name, entry.name_span or entry.span, "\n\n".join(parts)))
    sheets = {s.name: s for s in card_sheets(model)}
    lines = {path: text.split("\n") for path, text in model.sources.texts().items()}
    for entity in model.entities:
        name = entity.name.name
        if name in found:
            continue
        sheet = sheets.get(name)
        found[name] = _declaration(name, entity.name.span, _entity_hover(entity, sheet, lines))
    for player, label in zip(model.players, model.player_labels):
        found.setdefault(player, Declaration(player, Path("<players>"), 0, 0, f"player **{label}** (`{player}`)"))
    return [d for d in found.values() if d.line > 0] + [d for d in found.values() if d.line == 0]


def _declaration(name: str, span, hover: str) -> Declaration:
    return Declaration(name, Path(span.file), span.line, span.column, hover)


def _entity_hover(entity, sheet, lines: dict[str, list[str]]) -> str:
    parts = [f"**{entity.label}** ({entity.kind.name} `{entity.name.name}`)"]
    if sheet is not None:
        parts.append(", ".join(f"{d.name} {d.value}" for d in sheet.data if not d.default) or "no data")
        if sheet.comment:
            parts.append(sheet.comment)
        if sheet.event is not None:
            only = f" (only if {sheet.condition})" if sheet.condition else ""
            parts.append(f"Event{only}:\n" + "\n".join(event_lines(sheet.event, 0)))
        if sheet.action is not None:
            only = f" (only if {sheet.action_condition})" if sheet.action_condition else ""
            parts.append(f"Action{only}:\n" + "\n".join(event_lines(sheet.action, 0)))
    else:
        source = lines.get(entity.span.file)
        comment = doc_comment(source, entity.span.line) if source else ""
        parts += [comment] if comment else []
    parts.append(f"`{entity.span.file}:{entity.span.line}`")
    return "\n\n".join(parts)
