"""One spec file's AST, with its comments, as a layout document: the canonical form of the text.

The rules of the layout: four spaces a level; one declaration, statement or
body item a line; a blank line kept where the source had one (never two);
bodies of items (effects, constraints, tests, cards, menus) always open onto
their own lines, while a block of statements holding one simple statement
stays on one line when it fits; long lines break before `and`/`or`,
comparisons, `where`, `when`, `then`/`else` and between list items,
continuing four spaces in (eight for the condition of an `if`); trailing
comments of consecutive lines line up.
"""

from __future__ import annotations

from typing import Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt.comments import FILE_END, Attached, Comment
from rulespec.compiler.frontend.fmt.exprs import (COMMA, INDENT, clauses, expr_doc, field_text, literal, names_doc, params_text, quote,
                    type_text, when)
from rulespec.compiler.frontend.fmt.statements import statement_doc
from rulespec.compiler.frontend.fmt.layout import HARD, LINE, Doc, concat, fill, fill_parts, group, join, nest

TRAILING, RUN_END = "\x00", "\x01"  # mark a trailing comment and its run, for aligning them


class Printer:
    """Builds the document of one file from its declarations and attached comments."""

    def __init__(self, comments: Attached, blank_above: set[int]):
        self.comments = comments
        self.blank_above = blank_above
        self.emitted = 0
        self.run = 0  # trailing comments of one run (consecutive items) line up
        self.lists = 0

    # ------------------------------------------------------------ sequences and comments
    def file(self, spec_file: ast.SpecFile) -> Doc:
        body = self._items(list(spec_file.decls), self.decl, FILE_END)
        return concat(body, HARD) if body != "" else ""

    def _items(self, items: list[ast.Node], show: Callable[[ast.Node], Doc],
               container: ast.Node) -> Doc:
        """Items one a line, each with its comments; the body's closing comments last."""
        parts: list[Doc] = []
        for item in items:  # a run of trailing comments: a paragraph of items
            if self.comments.leading.get(id(item)) or item.span.line in self.blank_above:
                self.run += 1
            parts += self._with_comments(item, show(item), first=not parts)
        self.run += 1
        for comment in self.comments.closing.get(id(container), []):
            parts += self._comment_line(comment, first=not parts)
        return concat(*parts)

    def _with_comments(self, item: ast.Node, doc: Doc, first: bool) -> list[Doc]:
        """The item's comments above it (those from inside it last, below its blank line),
        the item, and the comment that ends its line."""
        start = (item.span.line, item.span.column)
        leading = self.comments.leading.get(id(item), [])
        above = [c for c in leading if c.position < start]
        inside = [c for c in leading if c.position > start]
        parts: list[Doc] = []
        for comment in above:
            parts += self._comment_line(comment, first=first and not parts)
        if parts or not first:
            parts.append(HARD)
            if item.span.line in self.blank_above:
                parts.append(HARD)
        for comment in inside:
            self.emitted += 1
            parts += [comment.text, HARD]
        parts.append(doc)
        for comment in self.comments.trailing.get(id(item), []):
            self.emitted += 1
            parts.append(self.trailing(comment))
        return parts

    def trailing(self, comment: Comment, run: str | None = None) -> Doc:
        """A comment after code, marked with its run: the comments of a run line up."""
        return concat(f"{TRAILING}{self.run if run is None else run}{RUN_END}", comment.text)

    def _comment_line(self, comment: Comment, first: bool) -> list[Doc]:
        self.emitted += 1
        parts: list[Doc] = [] if first else [HARD]
        if comment.blank_before and not first:
            parts.append(HARD)
        return parts + [comment.text]

    def body(self, items: list[ast.Node], show: Callable[[ast.Node], Doc],
             container: ast.Node) -> Doc:
        """A brace body of items, always one a line (`{ }` when empty)."""
        inner = self._items(items, show, container)
        if inner == "":
            return "{ }"
        return concat("{", nest(INDENT, HARD, inner), HARD, "}")

    def with_block(self, head: Doc, block: ast.Block) -> Doc:
        """head { ... }: on one line, head and all, when the block holds one simple
        statement and the whole fits."""
        if self.one_line(block):
            return group(head, " ", self.block_parts(block))
        return concat(head, " ", self.statement_body(block))

    def statement_body(self, block: ast.Block) -> Doc:
        return self.body(list(block.body), self.stmt, block)

    def one_line(self, block: ast.Block) -> bool:
        """A block of one simple statement, or of one loop or `if` made of such blocks."""
        return (len(block.body) <= 1 and id(block) not in self.comments.holding
                and all(_simple(s) or self._one_line_compound(s) for s in block.body))

    def _one_line_compound(self, stmt: ast.Node) -> bool:
        blocks = [c for c in stmt.children() if isinstance(c, ast.Block)]
        return (isinstance(stmt, (ast.If, ast.For, ast.Repeat, ast.While))
                and all(self.one_line(b) for b in blocks))

    def block_parts(self, block: ast.Block) -> Doc:
        if not block.body:
            return "{ }"
        return concat("{", nest(INDENT, LINE, self.stmt(block.body[0])), LINE, "}")

    # ------------------------------------------------------------ declarations
    def decl(self, decl: ast.Node) -> Doc:
        return getattr(self, "decl_" + type(decl).__name__)(decl)

    def decl_GameDecl(self, d: ast.GameDecl) -> Doc:
        return f"game {d.name.name} {quote(d.title)}"

    def decl_PlayersDecl(self, d: ast.PlayersDecl) -> Doc:
        items = [f"{p.name.name} {quote(p.label)}" for p in d.players]
        if d.seats is not None:
            default, low, high = (literal(e) for e in d.seats)
            items[-1] += f" seats {default} in {low}..{high}"
        return concat("players ", nest(INDENT, fill(items, COMMA)))

    def decl_ParamDecl(self, d: ast.ParamDecl) -> Doc:
        doc = f" {quote(d.doc)}" if d.doc is not None else ""
        domain = ""
        if d.low is not None and d.high is not None:
            domain = f" in {literal(d.low)}..{literal(d.high)}"
        elif d.choices:
            domain = " in { " + ", ".join(literal(c) for c in d.choices) + " }"
        return f"param {d.name.name}: {type_text(d.type)} = {literal(d.default)}{domain}{doc}"

    def decl_EnumDecl(self, d: ast.EnumDecl) -> Doc:
        if not d.fields:
            values = fill([v.name for v in d.values], COMMA)
            return concat(f"enum {d.name.name} {{ ", nest(INDENT, values), " }")
        fields = concat("(", nest(INDENT, self.listed([(f, field_text(f)) for f in d.fields])), ")")
        items = [(v, concat(v.name, f" ({', '.join(_attribute_text(a) for a in data)})" if data else ""))
                 for v, data in zip(d.values, d.data)]
        return concat(f"enum {d.name.name} ", fields, " { ", nest(INDENT, self.listed(items, d)), " }")

    def decl_TrackDecl(self, d: ast.TrackDecl) -> Doc:
        per = " per player" if d.per_player else ""
        if d.flag:
            return f"flag {d.name.name} {quote(d.label)}{per}"
        on = f" on {d.on.name}" if d.on is not None else ""
        bounds = ", ".join(f"{b.value.name} {b.low}..{b.high}" for b in d.bounds)
        excepts = f" except {bounds}" if bounds else ""
        shown = f" {d.visibility}" if d.visibility != "public" else ""
        return (f"track {d.name.name} {quote(d.label)}{per}{on} {d.low}..{d.high} start {d.start}"
                f"{excepts}{shown}")

    def decl_VarDecl(self, d: ast.VarDecl) -> Doc:
        return f"var {d.name.name}: {type_text(d.type)} = {literal(d.initial)}"

    def decl_ZoneDecl(self, d: ast.ZoneDecl) -> Doc:
        per = " per player" if d.per_player else ""
        ordered = " ordered" if d.ordered else ""
        return f"zone {d.name.name} {quote(d.label)}{per} {d.visibility}{ordered}"

    def decl_CounterDecl(self, d: ast.CounterDecl) -> Doc:
        per = " per player" if d.per_player else ""
        word = "flag" if d.flag else "counter"
        return f"{word} {d.name.name} {quote(d.label)}{per} on {d.kind.name}"

    def decl_KindDecl(self, d: ast.KindDecl) -> Doc:
        fields = [(f, field_text(f)) for f in d.fields]
        per = " per player" if d.per_player else ""
        return concat(f"kind {d.name.name}: {d.category}(", nest(INDENT, self.listed(fields, d)), ")" + per)

    def listed(self, items: list[tuple[ast.Node, Doc]], closing: ast.Node | None = None) -> Doc:
        """A comma list that fills its lines; an item's comments keep their place in it, and
        the comments after its last item (kept for `closing`) stand before the `)`."""
        self.lists += 1
        run = f"list {self.lists}"  # the comments of one list line up among themselves
        parts: list[Doc] = []
        commented = False  # the item before ended its line with a comment (and its comma)
        for number, (node, doc) in enumerate(items):
            leading = self.comments.leading.get(id(node), [])
            trailing = self.comments.trailing.get(id(node), [])
            last = number == len(items) - 1
            if number:
                parts.append(HARD if commented else concat(",", HARD) if leading else COMMA)
            for comment in reversed(leading):
                doc = concat(comment.text, HARD, doc)
            if leading and not number:  # below the opening parenthesis, not after it
                doc = concat(HARD, doc)
            if trailing:
                doc = concat(doc, "" if last else ",", self.trailing(trailing[0], run), HARD if last else "")
            self.emitted += len(leading) + len(trailing)
            commented = bool(trailing)
            parts.append(doc)
        after = self.comments.closing.get(id(closing), []) if closing is not None else []
        if after:
            self.emitted += len(after)
            parts[-1] = concat(parts[-1], *(concat(HARD, c.text) for c in after), HARD)
        return fill_parts(parts)

    def decl_LifetimesDecl(self, d: ast.LifetimesDecl) -> Doc:
        return concat("lifetimes ", nest(INDENT, fill([n.name for n in d.names], COMMA)))

    def decl_ActionDecl(self, d: ast.ActionDecl) -> Doc:
        return concat(f"action {d.name.name}", _params(d.params), f" {quote(d.label)}")

    def decl_SignalDecl(self, d: ast.SignalDecl) -> Doc:
        label = f" {quote(d.label)}" if d.label is not None else ""
        return concat(f"signal {d.name.name}", _params(d.params), label)

    def decl_ConstraintDecl(self, d: ast.ConstraintDecl) -> Doc:
        return concat(f"constraint {d.name.name} {quote(d.label)} ",
                      self.body(list(d.forbids), self.item, d))

    def decl_EffectDecl(self, d: ast.EffectDecl) -> Doc:
        params = _params(d.params) if d.params else ""
        items = sorted((*d.modifiers, *d.forbids, *d.triggers), key=lambda n: (n.span.line, n.span.column))
        return concat(f"effect {d.name.name}", params, f" {quote(d.label)} ", self.body(items, self.item, d))

    def decl_DefineDecl(self, d: ast.DefineDecl) -> Doc:
        result = f" -> {type_text(d.type)}" if d.type is not None else ""
        return _equation(concat(f"define {d.name.name}", _params(d.params), result), d.body)

    def decl_QuantityDecl(self, d: ast.QuantityDecl) -> Doc:
        return _equation(concat(f"quantity {d.name.name}", _params(d.params)), d.body)

    def decl_ProcedureDecl(self, d: ast.ProcedureDecl) -> Doc:
        if d.role == "start":
            head: Doc = "start"
        elif d.role == "procedure":
            result = f" -> {type_text(d.returns)}" if d.returns is not None else ""
            head = concat(f"procedure {d.name.name}", _params(d.params), result)
        else:
            head = f"{d.role} {d.name.name} {quote(d.label)}"
        return self.with_block(head, d.body)

    def decl_InvariantDecl(self, d: ast.InvariantDecl) -> Doc:
        return _equation(f"invariant {d.name.name} {quote(d.label)}", d.test)

    def decl_TallyDecl(self, d: ast.TallyDecl) -> Doc:
        return _equation(f"tally {d.name.name} {quote(d.label)}", d.value)

    def decl_AssertDecl(self, d: ast.AssertDecl) -> Doc:
        return _equation(f"assert {d.name.name} {quote(d.label)}", d.test)

    def decl_BalanceBotDecl(self, d: ast.BalanceBotDecl) -> Doc:
        return f"balance bot {quote(d.agent)}"

    def decl_BotDecl(self, d: ast.BotDecl) -> Doc:
        return _equation(f"bot {d.name.name} {quote(d.label)}", d.value)

    def decl_PolicyDecl(self, d: ast.PolicyDecl) -> Doc:
        base = f" extends {d.extends.name}" if d.extends is not None else ""
        items = sorted([*d.tunables, *d.rules], key=lambda n: (n.span.line, n.span.column))
        return concat(f"policy {d.name.name} {quote(d.label)}{base} ", self.body(items, self.item, d))

    def decl_MapDecl(self, d: ast.MapDecl) -> Doc:
        return concat("map ", self.body(list(d.rules), self.item, d))

    def decl_BoardDecl(self, d) -> Doc:
        shows = concat("show ", nest(INDENT, fill([n.name for n in d.shows], COMMA)), " ") if d.shows else ""
        grid = f"hex {d.hex_size} from {d.hex_origin[0]}, {d.hex_origin[1]} " if d.hex_size else ""
        items = sorted(list(d.places) + list(d.colours), key=lambda n: (n.span.line, n.span.column))
        return concat(f"board {d.width} by {d.height} {grid}", shows, self.body(items, self.item, d))

    def decl_ChangesDecl(self, d: ast.ChangesDecl) -> Doc:
        return concat("changes test ", nest(INDENT, fill([quote(t) for t in d.tests], COMMA)))

    def decl_ExcludesDecl(self, d: ast.ExcludesDecl) -> Doc:
        names = fill([v.name for v in d.variants], COMMA)
        return concat("excludes ", nest(INDENT, names, " ", quote(d.reason)))

    def decl_TestDecl(self, d: ast.TestDecl) -> Doc:
        return concat(f"test {quote(d.name)} ", self.body(list(d.steps), self.stmt, d))

    def decl_EntityDecl(self, d: ast.EntityDecl) -> Doc:
        parts: list[Doc] = [f"{d.kind.name.strip()} {d.name.name} {quote(d.label)}"]
        if d.attributes:
            attrs = [(a, _attribute_text(a)) for a in d.attributes]
            parts.append(concat(" (", self.listed(attrs, None if d.events or d.abilities or d.actions else d), ")"))
        if d.copies is not None:
            parts.append(f" copies {d.copies}")
        if d.regions:
            parts.append(concat(" in ", nest(INDENT, fill([r.name for r in d.regions], COMMA))))
        if d.adjacent:
            parts += [HARD, "adjacent ", nest(INDENT, fill([a.name for a in d.adjacent], COMMA))]
        head = nest(INDENT, *parts)
        items = sorted((*d.events, *d.abilities, *d.actions), key=lambda n: (n.span.line, n.span.column))
        if not items:
            return head
        return concat(head, " ", self.body(items, self.item, d))

    def decl_LinkDecl(self, d: ast.LinkDecl) -> Doc:
        return f"link {d.first.name} -- {d.second.name}"

    def decl_VariantDecl(self, d: ast.VariantDecl) -> Doc:
        return f"variant {d.name.name} {quote(d.label)}"

    def decl_ReplaceDecl(self, d: ast.ReplaceDecl) -> Doc:
        return concat("replace ", self.decl(d.decl))

    def decl_EventDecl(self, d: ast.EventDecl) -> Doc:
        return self.with_block(clauses(f"event {d.card.name}", when(d.when)), d.body)

    def decl_RemoveDecl(self, d: ast.RemoveDecl) -> Doc:
        return f"remove {d.name.name}"

    # ------------------------------------------------------------ body items
    def item(self, node: ast.Node) -> Doc:
        return getattr(self, "item_" + type(node).__name__)(node)

    def item_Modifier(self, m: ast.Modifier) -> Doc:
        head = concat(f"modify {m.quantity.name}{names_doc(m.names)} by ", expr_doc(m.delta))
        low = concat("min ", expr_doc(m.low)) if m.low is not None else None
        high = concat("max ", expr_doc(m.high)) if m.high is not None else None
        return clauses(head, low, high, when(m.when))

    def item_Forbid(self, f: ast.Forbid) -> Doc:
        patterns = [f"{p.action.name}{names_doc(p.names)}" for p in f.patterns]
        parts: list[Doc] = [f"forbid {patterns[0]}"]
        for pattern in patterns[1:]:
            parts += [COMMA, pattern]
        return nest(INDENT, fill_parts(parts + [LINE, concat("when ", expr_doc(f.when))]))

    def item_Allow(self, a: ast.Allow) -> Doc:
        patterns = [f"{p.action.name}{names_doc(p.names)}" for p in a.patterns]
        parts: list[Doc] = [f"allow {patterns[0]}"]
        for pattern in patterns[1:]:
            parts += [COMMA, pattern]
        despite = ", ".join(c.name for c in a.constraints)
        return nest(INDENT, fill_parts(parts + [LINE, concat("when ", expr_doc(a.when)),
                                               LINE, f"despite {despite}"]))

    def item_Trigger(self, t: ast.Trigger) -> Doc:
        return self.with_block(clauses(f"on {t.signal.name}{names_doc(t.names)}", when(t.when)), t.body)

    def item_Ability(self, a: ast.Ability) -> Doc:
        """while in zone { ... }: on one line, when it holds one modifier, or one trigger whose
        block is one simple statement, with no comments, and the whole fits."""
        zones = ", ".join(z.name for z in a.zones)
        items = list(a.items())
        if len(items) == 1 and self._one_line_item(a, items[0]):
            return group(f"while in {zones} ", "{", nest(INDENT, LINE, self.item(items[0])), LINE, "}")
        return concat(f"while in {zones} ", self.body(items, self.item, a))

    def _one_line_item(self, ability: ast.Ability, item: ast.Node) -> bool:
        comments = self.comments
        if id(ability) in comments.holding or id(ability) in comments.closing \
                or comments.leading.get(id(item)) or comments.trailing.get(id(item)):
            return False
        return isinstance(item, (ast.Modifier, ast.Allow)) or (
            isinstance(item, ast.Trigger) and self.one_line(item.body))

    def item_EventBlock(self, e: ast.EventBlock) -> Doc:
        return self.with_block(clauses("event", when(e.when)), e.body)

    def item_ActionBlock(self, a: ast.ActionBlock) -> Doc:
        return self.with_block(clauses("action", when(a.when)), a.body)

    def item_ChoiceRule(self, r: ast.ChoiceRule) -> Doc:
        head = f"choosing {r.var.name}: {type_text(r.type)}"
        head += f" as {r.action.name}" if r.action is not None else ""
        prompts = (" ", _prompts(r.prompts)) if r.prompts else ()
        return concat(head, *prompts, " ", self.body(list(r.prefs), self.item, r))

    def item_MenuRule(self, r: ast.MenuRule) -> Doc:
        return concat("choosing ", _prompts(r.prompts), " ", self.body(list(r.prefs), self.item, r))

    def item_Preference(self, p: ast.Preference) -> Doc:
        head = concat(_line_word(p), nest(INDENT, expr_doc(p.value)))
        return clauses(head, _weight(p.weight)) if p.weight is not None else head

    def item_OptionPreference(self, p: ast.OptionPreference) -> Doc:
        return clauses(_line_word(p) + ", ".join(o.name for o in p.options), when(p.when), _weight(p.weight))

    def item_Tunable(self, t: ast.Tunable) -> Doc:
        return f"tunable {tunable_text(t)}"

    def item_RequireConnected(self, r: ast.RequireConnected) -> Doc:
        return "require connected"

    def item_RequireInRegion(self, r: ast.RequireInRegion) -> Doc:
        return f"require every {r.kind.name} in region"

    def item_Placement(self, p) -> Doc:
        player = f"({p.player.name})" if p.player is not None else ""
        return f"{p.target.name}{player} at {'hex ' if p.hex else ''}{p.x}, {p.y}"

    def item_BoardColour(self, c) -> Doc:
        return f"{c.target.name} colour {quote(c.colour)}"

    def item_Option(self, o: ast.Option) -> Doc:
        return self.with_block(clauses(f"option {o.name.name} {quote(o.label)}", when(o.when)), o.body)

    # ------------------------------------------------------------ statements
    def stmt(self, s: ast.Node) -> Doc:
        doc = statement_doc(self, s)
        return nest(INDENT, doc) if _simple(s) else doc  # a long statement continues four in


def _params(params: tuple[ast.Param, ...]) -> Doc:
    return concat("(", nest(INDENT, fill(params_text(params), COMMA)), ")")


def _equation(head: Doc, body: ast.Expr) -> Doc:
    """`head = body`: the body on the next line, four in, when the whole does not fit."""
    return group(head, " =", nest(INDENT, LINE, expr_doc(body)))




def _attribute_text(a: ast.AttributeValue) -> str:
    """`starred`, `ops 3`: an attribute as written."""
    return a.name.name if _bare(a) else f"{a.name.name} {literal(a.value)}"


def _bare(attribute: ast.AttributeValue) -> bool:
    """`starred` for `starred true`: a bare attribute name means true."""
    return isinstance(attribute.value, ast.BoolLit) and attribute.value.value is True


def _simple(stmt: ast.Node) -> bool:
    """A statement with no body of its own: it may share a line with its block's braces."""
    return not any(isinstance(c, (ast.Block, ast.Option)) for c in stmt.children())


__all__ = ["Printer", "TRAILING", "RUN_END", "join", "group"]


def tunable_text(t: ast.Tunable) -> str:
    """NAME = DEFAULT in LOW..HIGH "label", as `tunable` and `weight` write it."""
    text = f"{t.name.name} = {t.default.value}"
    if t.low is not None and t.high is not None:
        text += f" in {t.low.value}..{t.high.value}"
    return text + (f" {quote(t.label)}" if t.label is not None else "")


def _prompts(prompts: tuple[str, ...]) -> Doc:
    """A policy rule's prompts, as `changes test` lays out its names."""
    return nest(INDENT, fill([quote(p) for p in prompts], COMMA))


def _line_word(p: ast.Preference | ast.OptionPreference) -> str:
    return "never " if p.never else "avoid " if p.avoid else "prefer "


def _weight(w: ast.Weight | None) -> Doc | None:
    if w is None:
        return None
    return "weight " + (tunable_text(w.declares) if w.declares is not None else literal(w.value))
