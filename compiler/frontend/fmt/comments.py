"""The comments of a spec file, and which statement or declaration each one belongs to.

The parser drops comments, so the formatter finds them in the text and hangs
each on a node of the AST: *leading* (own lines above the node), *trailing*
(after the node's last token, on its line), or *closing* (after the last
item of a body, above its `}`). A comment inside an expression or a header
leads the statement or declaration it sits in: it moves above it, never lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulespec.compiler.frontend import ast

_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|#[^\n]*')

# Nodes written on lines of their own, items of a body.
UNIT_TYPES: tuple[type, ...] = (
    ast.Decl, ast.Stmt, ast.Modifier, ast.Forbid, ast.Trigger, ast.Option, ast.EventBlock, ast.ActionBlock,
    ast.ChoiceRule, ast.MenuRule, ast.Preference, ast.OptionPreference, ast.Tunable,
    ast.RequireConnected, ast.RequireInRegion, ast.Field, ast.AttributeValue,
) + tuple(getattr(ast, name) for name in ("Placement", "BoardColour") if hasattr(ast, name))  # newer constructs


@dataclass(frozen=True, slots=True)
class Comment:
    """One `#` comment: where it starts, its text, and how it sat in the source."""

    line: int
    column: int
    text: str
    own_line: bool  # nothing but blanks before it on its line
    blank_before: bool  # an empty line just above it

    @property
    def position(self) -> tuple[int, int]:
        return (self.line, self.column)


def scan(text: str) -> list[Comment]:
    """Every comment of a file's text, in order (a `#` inside a string is no comment)."""
    lines = text.split("\n")
    found = []
    for number, line in enumerate(lines, start=1):
        for match in _TOKEN.finditer(line):
            if match.group().startswith("#"):
                column = match.start() + 1
                found.append(Comment(
                    number, column, match.group().rstrip(),
                    own_line=not line[:match.start()].strip(),
                    blank_before=number > 1 and not lines[number - 2].strip()))
    return found


def blank_lines_above(text: str) -> set[int]:
    """The line numbers whose line above is empty."""
    lines = text.split("\n")
    return {n for n in range(2, len(lines) + 1) if not lines[n - 2].strip()}


@dataclass
class Attached:
    """Comments hung on nodes (keyed by node identity): what the printer asks for."""

    leading: dict[int, list[Comment]] = field(default_factory=dict)
    trailing: dict[int, list[Comment]] = field(default_factory=dict)
    closing: dict[int, list[Comment]] = field(default_factory=dict)
    # Nodes the printer must not lay out on one line: they hold comments.
    holding: set[int] = field(default_factory=set)
    total: int = 0

    def add(self, table: dict[int, list[Comment]], node: ast.Node, comment: Comment) -> None:
        table.setdefault(id(node), []).append(comment)


def attach(spec_file: ast.SpecFile, comments: list[Comment]) -> Attached:
    """Hang every comment on a declaration, statement or body of the file."""
    found = Attached(total=len(comments))
    _distribute(list(spec_file.decls), comments, None, found)
    return found


def child_sequences(node: ast.Node) -> list[tuple[ast.Node, list[ast.Node]]]:
    """The bodies of a node, each with its items in source order: (container, items)."""
    out: list[tuple[ast.Node, list[ast.Node]]] = []
    direct: list[ast.Node] = []
    for child in _children_in_order(node):
        if isinstance(child, ast.Block):
            out.append((child, list(child.body)))
        elif isinstance(child, UNIT_TYPES):
            direct.append(child)
    if direct or has_item_body(node):
        out.append((node, sorted(direct, key=_start)))
    return out


def has_item_body(node: ast.Node) -> bool:
    """Whether the node is written with a brace body of items (not a statement block)."""
    if isinstance(node, ast.EntityDecl):
        return bool(node.events or node.actions)
    return isinstance(node, (ast.EffectDecl, ast.ConstraintDecl, ast.TestDecl, ast.MapDecl,
                             ast.PolicyDecl, ast.ChoiceRule, ast.MenuRule, ast.Menu)) \
        or type(node).__name__ == "BoardDecl"


def _children_in_order(node: ast.Node) -> list[ast.Node]:
    return list(node.children())


def _start(node: ast.Node) -> tuple[int, int]:
    return (node.span.line, node.span.column)


def _end(node: ast.Node) -> tuple[int, int]:
    return (node.span.end_line, node.span.end_column)


def _inside(node: ast.Node, comment: Comment) -> bool:
    return _start(node) < comment.position < _end(node)


def _distribute(units: list[ast.Node], comments: list[Comment], container: ast.Node | None,
                found: Attached) -> None:
    inner: dict[int, list[Comment]] = {}
    if comments and container is not None:
        found.holding.add(id(container))
    for comment in comments:
        home = next((u for u in units if _inside(u, comment)), None)
        if home is not None:
            inner.setdefault(id(home), []).append(comment)
            continue
        before = _trailing_home(units, comment)
        after = next((u for u in units if _start(u) > comment.position), None)
        if before is not None:
            found.add(found.trailing, before, comment)
        elif after is not None:
            found.add(found.leading, after, comment)
        elif container is not None:
            found.add(found.closing, container, comment)
        else:
            found.add(found.closing, _FILE_END, comment)
    for unit in units:
        if id(unit) in inner:
            found.holding.add(id(unit))
            _descend(unit, inner[id(unit)], found)


_FILE_END = ast.Ident(ast.NOWHERE, "<end of file>")
FILE_END = _FILE_END


def _trailing_home(units: list[ast.Node], comment: Comment) -> ast.Node | None:
    """The item that ends on the comment's line, before it (for a comment after code)."""
    if comment.own_line:
        return None
    ending = [u for u in units if u.span.end_line == comment.line and _end(u) <= comment.position]
    return ending[-1] if ending else None


def _descend(unit: ast.Node, comments: list[Comment], found: Attached) -> None:
    """Comments inside a unit: into the body that holds each, else above the unit."""
    owner = unit.decl if isinstance(unit, ast.ReplaceDecl) else unit  # whose bodies they are
    sequences = child_sequences(owner)
    loose: list[Comment] = []
    by_body: dict[int, list[Comment]] = {}
    item_body = any(c is owner for c, _ in sequences)
    for comment in comments:
        body = next((c for c, _ in sequences if c is not owner and _inside(c, comment)), None)
        if body is not None:
            by_body.setdefault(id(body), []).append(comment)
        elif item_body and _after_header(owner, sequences, comment):
            by_body.setdefault(id(owner), []).append(comment)
        else:
            loose.append(comment)
    for container, items in sequences:
        if id(container) in by_body:
            _distribute(items, by_body[id(container)], container, found)
    for comment in loose:
        found.add(found.leading, unit, comment)


def _after_header(unit: ast.Node, sequences, comment: Comment) -> bool:
    """Whether a comment inside a unit sits among its items rather than in its header:
    after the first item's start, or on a line of its own below the unit's first line."""
    items = next(items for c, items in sequences if c is unit)
    if items and comment.position > _start(items[0]):
        return True
    return comment.own_line and comment.line > unit.span.line


# ------------------------------------------------------------------ a declaration's own comment

_RULE = re.compile(r"^#\s*[-=#]{4,}")  # a section rule: "# ------ Scoring" heads a section


def doc_comment(lines: list[str], line: int) -> str:
    """The comment a declaration at `line` (1-based) carries: the `#` lines right above
    it (no blank between), else the comment at the end of its own line; '' if none."""
    above: list[str] = []
    number = line - 1
    while number >= 1 and lines[number - 1].lstrip().startswith("#"):
        text = lines[number - 1].strip()
        if _RULE.match(text):
            break
        above.append(_uncomment(text))
        number -= 1
    if above:
        return "\n".join(reversed(above)).strip("\n")
    own = [m.group() for m in _TOKEN.finditer(lines[line - 1]) if m.group().startswith("#")] \
        if 0 < line <= len(lines) else []
    return _uncomment(own[0]) if own else ""


def _uncomment(text: str) -> str:
    body = text[1:]
    return body[1:] if body.startswith(" ") else body
