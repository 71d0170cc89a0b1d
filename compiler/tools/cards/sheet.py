"""A proof sheet per card: its data, its event in words, its spec text and where that is."""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt.comments import doc_comment
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.tools.cards.sentences import Line, Sentences, capital
from rulespec.compiler.tools.cards.words import Words


@dataclass(frozen=True)
class Datum:
    """One attribute of a card: its name, its value in words, whether the kind's default gave it."""

    name: str
    value: str
    default: bool


@dataclass(frozen=True)
class CardSheet:
    """What a designer compares with the printed card."""

    name: str
    label: str
    kind: str
    data: tuple[Datum, ...]
    condition: str | None  # the event's `when`, in words
    event: tuple[Line, ...] | None  # None: the card has no event
    comment: str
    location: str
    event_location: str | None
    spec_text: str
    action_condition: str | None = None  # the action's `when`, in words
    action: tuple[Line, ...] | None = None  # None: the card has no action


def card_sheets(model: Model) -> list[CardSheet]:
    """Every card of the spec, in declaration order; a card of a kind `per player` once,
    under its declared name (its instances share its data and text)."""
    lines = {path: text.split("\n") for path, text in model.sources.texts().items()}
    sentences = Sentences(Words(model))
    return [_sheet(model, index, sentences, lines) for index in declared_cards(model)]


def declared_cards(model: Model) -> list[int]:
    """The cards as declared: of a kind `per player`, the first player's instance only."""
    return [i for i in model.cards() if model.entity_owner[i] in (None, 0)]


def _sheet(model: Model, index: int, sentences: Sentences, lines: dict[str, list[str]]) -> CardSheet:
    entity = model.entities[index]
    event = model.event_of(index)
    action = model.action_of(index)
    text = _text(entity.span, lines)
    event_apart = event is not None and not _within(event.span, entity.span)
    if event_apart:
        text += "\n\n" + _text(event.span, lines)
    comments = [_comment(entity, lines)] + ([_comment(event, lines)] if event is not None else [])
    return CardSheet(
        name=entity.name.name.split("(")[0], label=entity.label, kind=entity.kind.name,
        data=_data(model, entity, sentences.words),
        condition=sentences.w(event.when) if event is not None and event.when is not None else None,
        event=sentences.block(event.body) if event is not None else None,
        comment="\n\n".join(c for c in comments if c),
        location=f"{entity.span.file}:{entity.span.line}",
        event_location=f"{event.span.file}:{event.span.line}" if event is not None else None,
        spec_text=text,
        action_condition=sentences.w(action.when) if action is not None and action.when is not None else None,
        action=sentences.block(action.body) if action is not None else None,
    )


def _data(model: Model, entity: ast.EntityDecl, words: Words) -> tuple[Datum, ...]:
    given = {a.name.name: a.value for a in entity.attributes}
    kind = model.kinds.get(entity.kind.name)
    fields = [f.name.name for f in kind.fields] if kind else list(given)
    defaults = {f.name.name: f.default for f in kind.fields} if kind else {}
    data = []
    for name in fields + [n for n in given if n not in fields]:
        value = given.get(name, defaults.get(name))
        if value is not None:
            data.append(Datum(name, _value(value, words), name not in given))
    return tuple(data)


def _value(expr: ast.Expr | ast.PerValue, words: Words) -> str:
    if isinstance(expr, ast.PerValue):
        return ", ".join(f"{words.label_of(i.key.name) or i.key.name} {_value(i.value, words)}"
                         for i in expr.items)
    if isinstance(expr, ast.BoolLit):
        return "yes" if expr.value else "no"
    if isinstance(expr, ast.StrLit):
        return expr.value
    if isinstance(expr, ast.NameRef):
        return words.label_of(expr.name) or expr.name
    return words.expr(expr)


def _text(span: ast.Span, lines: dict[str, list[str]]) -> str:
    source = lines.get(span.file, [])
    return "\n".join(source[span.line - 1:span.end_line])


def _within(inner: ast.Span, outer: ast.Span) -> bool:
    return inner.file == outer.file and outer.line <= inner.line and inner.end_line <= outer.end_line


def _comment(node: ast.Node, lines: dict[str, list[str]]) -> str:
    source = lines.get(node.span.file)
    return doc_comment(source, node.span.line) if source else ""


# ------------------------------------------------------------------ as text


def sheet_text(sheet: CardSheet) -> str:
    """The sheet as plain text: the terminal's and the golden files' form."""
    out = [f"{sheet.label} ({sheet.kind} {sheet.name})  {sheet.location}"]
    if sheet.data:
        out.append("data: " + ", ".join(f"{d.name} {d.value}" for d in sheet.data if not d.default))
    if sheet.event is None:
        out.append("no event")
    else:
        where = f"  {sheet.event_location}" if sheet.event_location != sheet.location else ""
        only = f" (only if {sheet.condition})" if sheet.condition else ""
        out.append(f"event{only}:{where}")
        out += event_lines(sheet.event, 1)
    if sheet.action is not None:
        only = f" (only if {sheet.action_condition})" if sheet.action_condition else ""
        out.append(f"action{only}:")
        out += event_lines(sheet.action, 1)
    return "\n".join(out) + "\n"


def event_lines(lines: tuple[Line, ...], depth: int) -> list[str]:
    out = []
    for line in lines:
        if not line.text:  # an if / else if / else: its branches stand side by side
            out += event_lines(line.children, depth)
            continue
        out.append("  " * depth + "- " + capital(line.text))
        out += event_lines(line.children, depth + 1)
    return out
