"""Types and arity: operands, conditions, collections, attributes, calls and assignments agree."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model, list_option_kind
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.signatures import Signature, call_signature, decl_signature
from rulespec.compiler.frontend.checks.symbols import Globals, literal_names, name_span
from rulespec.compiler.frontend.checks.types import (BOOL, CARD, INT, PLAYER, ZONE, Type, comparable, compatible, element,
                    literal_type, optional, type_of_ref)

ORDERING = ("<", "<=", ">", ">=")


def _written(item: ast.Expr) -> str | None:
    """A list item that names one fixed value (a name, a number), as written; else None."""
    if isinstance(item, ast.NameRef):
        return f"'{item.name}'"
    if isinstance(item, ast.IntLit):
        return str(item.value)
    return None


class TypeCheck(ScopedVisitor):
    """Reports every expression or statement whose parts have the wrong type or number."""

    reuse_as = "types"

    def __init__(self, model: Model):
        super().__init__(model)
        self.globals = Globals(model)

    def run(self) -> list[Diagnostic]:
        super().run()
        for decl in self.model.spec.decls():
            if isinstance(decl, ast.VarDecl):
                self.literal(decl.initial, decl.type, f"the value of var '{decl.name.name}'")
            elif isinstance(decl, ast.ParamDecl):
                self.literal(decl.default, decl.type, f"the default of param '{decl.name.name}'")
        return self.problems

    def literal(self, expr: ast.Expr, ref: ast.TypeRef, what: str) -> None:
        actual, wanted = literal_type(self.model, expr), type_of_ref(self.model, ref)
        if actual is None:
            hint = did_you_mean(expr.name, literal_names(self.model, wanted))
            self.report(f"unknown name '{expr.name}'{hint}", expr.span)
        elif not compatible(actual, wanted):
            self.report(f"{what} must be {wanted}, not {actual}", expr.span)

    # ------------------------------------------------------------ hooks of the walk
    def expect(self, expr: ast.Expr, wanted: Type, what: str) -> None:
        self.visit(expr)
        actual = self.infer(expr)
        if not compatible(actual, wanted):
            self.report(f"{what} must be {wanted}, not {actual}", expr.span)

    def score(self, expr: ast.Expr, what: str) -> None:
        self.visit(expr)
        actual = self.infer(expr)
        if not (compatible(actual, INT) or compatible(actual, BOOL)) or actual.optional:
            self.report(f"{what} must be int or bool, not {actual}", expr.span)

    def source(self, expr: ast.Expr, what: str) -> None:
        self.visit(expr)
        actual = self.infer(expr)
        if element(actual) is None:
            self.report(f"{what} needs a collection, not {actual}", expr.span)

    def shown(self, expr: ast.Expr) -> None:
        self.visit(expr)
        actual = self.infer(expr)
        if actual.base in ("collection", "zone"):
            self.report(f"a prompt shows one value, not a {actual}: name one, or count them"
                        f" with count(x in ...)", expr.span)

    def args(self, name: str, sig: Signature | None, args: tuple[ast.Expr, ...], span: ast.Span) -> None:
        """Visit the arguments of a call and check them against the signature."""
        for arg in args:
            self.visit(arg)
        if sig is None:
            return
        count, wanted = len(args), len(sig.params)
        if count != wanted and not (sig.variadic and count > wanted):
            self.report(f"{sig.word} '{name}' takes {sig.arity()}, not {count}", span)
            return
        for i, (arg, param) in enumerate(zip(args, sig.params + (sig.params[-1:] * count)), start=1):
            actual = self.infer(arg)
            if not compatible(actual, param):
                self.report(f"argument {i} of '{name}' must be {param}, not {actual}", arg.span)

    # ------------------------------------------------------------ expressions
    def visit_Extreme(self, node: ast.Extreme) -> None:
        super().visit_Extreme(node)
        if not node.member and node.default is None:
            self.report(f"'{node.op}' needs `else VALUE`: its value when no member is there"
                        f" ({node.op}(... else 0))", node.span)
        elif node.member and node.default is not None:
            self.report(f"'{node.op}' gives none when no member is there: it takes no `else`"
                        f" (write `if x == none`)", node.default.span)

    def visit_Not(self, node: ast.Not) -> None:
        self.expect(node.operand, BOOL, "the operand of 'not'")

    def visit_Negate(self, node: ast.Negate) -> None:
        self.expect(node.operand, INT, "the operand of '-'")

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        for operand in node.operands:
            self.expect(operand, BOOL, f"each operand of '{node.op}'")

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if node.op == "+" and self.infer(node).base == "collection":
            self.union(node)
            return
        self.expect(node.left, INT, f"each operand of '{node.op}'")
        self.expect(node.right, INT, f"each operand of '{node.op}'")

    def union(self, node: ast.BinOp) -> None:
        """`a + b` of two collections: their members, a's first; both hold the same kind."""
        self.generic_visit(node)
        left, right = self.infer(node.left), self.infer(node.right)
        a, b = element(left), element(right)
        if b is None:
            self.report(f"'+' joins a collection only with another collection, not {right}"
                        f" (a number adds only to a number)", node.right.span)
        elif not comparable(a, b):
            self.report(f"cannot join a collection of {a} with a collection of {b}: a union holds"
                        f" members of one kind", node.span)

    def visit_Choose(self, stmt: ast.Choose) -> None:
        super().visit_Choose(stmt)
        if isinstance(stmt.source, ast.ListOf):
            named = {"int": ("int", "enum"), "player": ("player",), "entity": ("entity",)}
            members = element(self.infer(stmt.source))
            kind = list_option_kind(self.model, stmt.source)
            if members is not None and members.base in ("int", "enum", "player", "entity") \
                    and members.base not in named[kind]:
                self.report(f"cannot tell how to name the options of this list of {members}: write"
                            f" one item out, as a name or a number", stmt.source.span)

    def visit_ListOf(self, node: ast.ListOf) -> None:
        """`[a, b, c]`: single values of one type, each written once."""
        self.generic_visit(node)
        first, seen = self.infer(node.items[0]), set()
        for item in node.items:
            actual = self.infer(item)
            if actual.base in ("collection", "zone"):
                self.report(f"a list holds single values, not a {actual}: join collections with"
                            f" '+'", item.span)
            elif not comparable(first, actual):
                self.report(f"a list holds values of one type: {actual} after {first}", item.span)
            written = _written(item)
            if written in seen:
                self.report(f"{written} is listed twice", item.span)
            elif written is not None:
                seen.add(written)

    def visit_Range(self, node: ast.Range) -> None:
        self.expect(node.low, INT, "each end of '..'")
        self.expect(node.high, INT, "each end of '..'")

    def visit_Compare(self, node: ast.Compare) -> None:
        if node.op in ORDERING:
            self.expect(node.left, INT, f"each side of '{node.op}'")
            self.expect(node.right, INT, f"each side of '{node.op}'")
            return
        self.generic_visit(node)
        left, right = self.infer(node.left), self.infer(node.right)
        if not comparable(left, right):
            self.report(f"cannot compare {left} with {right}", node.span)

    def visit_Member(self, node: ast.Member) -> None:
        self.generic_visit(node)
        item, coll = self.infer(node.element), self.infer(node.collection)
        members = element(coll)
        if members is None:
            self.report(f"the right of 'in' must be a collection, not {coll}", node.collection.span)
        elif not comparable(item, members):
            self.report(f"cannot look for {item} in a collection of {members}", node.span)

    def visit_Cond(self, node: ast.Cond) -> None:
        self.expect(node.test, BOOL, "the condition of 'if … then … else'")
        self.generic_visit(node)
        then, otherwise = self.infer(node.then), self.infer(node.otherwise)
        if not comparable(then, otherwise):
            self.report(f"the two branches of 'if … then … else' differ: {then} and {otherwise}", node.span)

    def visit_NameRef(self, node: ast.NameRef) -> None:
        name, model = node.name, self.model
        if name in self.env:
            return
        for word, table in (("track", model.tracks), ("zone", model.zones)):
            if name in table and table[name].per_player:
                self.report(f"{word} '{name}' is per player: write '{name}(p)' for a player p", node.span)
            elif word == "track" and name in model.track_values:
                on = model.track_decls[name].on.name
                self.report(f"track '{name}' holds a number per {on}: write '{name}(v)' for a {on} v",
                            node.span)

    def visit_CallExpr(self, node: ast.CallExpr) -> None:
        sig = call_signature(self.model, node.name)
        span = name_span(node.span, node.name)
        if sig is not None and sig.word in ("track", "zone") and not sig.params:
            self.report(f"{sig.word} '{node.name}' is not per player: write '{node.name}' "
                        "without arguments", span)
            sig = None
        self.args(node.name, sig, node.args, span)

    def visit_Attr(self, node: ast.Attr) -> None:
        self.visit(node.obj)
        obj = self.infer(node.obj)
        span = ast.Span(node.span.file, node.span.end_line, node.span.end_column - len(node.name),
                        node.span.end_line, node.span.end_column)
        field = self.types.field(obj, node.name)
        if field is not None and field.on is not None:
            on = field.on.name
            self.report(f"attribute '{node.name}' holds a value per {on}: write "
                        f"'.{node.name}(v)' for a {on} v", span)
            return
        if self.types.attribute(obj, node.name) is not None:
            return
        self.no_attribute(node, obj, span)

    def visit_AttrAt(self, node: ast.AttrAt) -> None:
        self.visit(node.obj)
        obj = self.infer(node.obj)
        start = node.obj.span
        span = ast.Span(node.span.file, start.end_line, start.end_column + 1, start.end_line,
                        start.end_column + 1 + len(node.name))
        field = self.types.field(obj, node.name)
        if field is not None and field.on is None:
            self.report(f"attribute '{node.name}' holds one value, not one per value of an enum: "
                        f"write '.{node.name}' without '(...)'", span)
            self.visit(node.key)
        elif field is not None:
            self.expect(node.key, Type("enum", field.on.name), f"the {field.on.name} of '.{node.name}(...)'")
        else:
            self.visit(node.key)
            if self.types.attribute(obj, node.name) is None:
                self.no_attribute(node, obj, span)

    def no_attribute(self, node: ast.Attr | ast.AttrAt, obj: Type, span: ast.Span) -> None:
        if obj.base == "player":
            self.report(f"a player has no attribute '{node.name}' (only 'label')", span)
        elif obj.base != "entity":
            self.report(f"only spaces, regions and cards have attributes, not {obj}", span)
        else:
            names = [f.name.name for f in self.types.fields(obj)] + ["label"]
            self.report(f"{obj} has no attribute '{node.name}'{did_you_mean(node.name, names)}", span)

    def visit_Allowed(self, node: ast.Allowed) -> None:
        sig = decl_signature("action", self.model.actions.get(node.action.name), self.model)
        self.args(node.action.name, sig, node.args, node.action.span)

    def visit_Active(self, node: ast.Active) -> None:
        sig = decl_signature("effect", self.model.effects.get(node.effect.name), self.model)
        if node.args is not None:
            self.args(node.effect.name, sig, node.args, node.effect.span)

    # ------------------------------------------------------------ statements
    def visit_Let(self, stmt: ast.Let) -> None:
        value = self.infer(stmt.value)
        if value.base == "collection":
            self.report("a local cannot hold a collection: use it where it is needed", stmt.value.span)
        super().visit_Let(stmt)

    def visit_SetStmt(self, stmt: ast.SetStmt) -> None:
        target = self.target(stmt.target)
        self.expect(stmt.value, target or Type("unknown"), f"the new value of '{stmt.target.name.name}'")

    def visit_AddStmt(self, stmt: ast.AddStmt) -> None:
        self.change(stmt.amount, stmt.target, "add")

    def visit_RemoveStmt(self, stmt: ast.RemoveStmt) -> None:
        self.change(stmt.amount, stmt.target, "remove")

    def change(self, amount: ast.Expr, ref: ast.Ref, verb: str) -> None:
        target = self.target(ref)
        self.expect(amount, INT, f"the amount to {verb}")
        if target is not None and not compatible(target, INT):
            self.report(f"cannot {verb} to '{ref.name.name}': it is {target}, not a number", ref.span)

    def target(self, ref: ast.Ref) -> Type | None:
        """The type of an assignable place; reports places that cannot be set."""
        name, model = ref.name.name, self.model
        if name in self.env or name in model.vars:
            return self.plain_target(ref)
        if name in model.tracks or name in model.counters:
            self.args(name, call_signature(model, name), ref.args or (), ref.name.span)
            return BOOL if name in model.flags else INT
        for arg in ref.args or ():
            self.visit(arg)
        what = self.globals.describe(name)
        if what is not None:
            self.report(f"cannot set '{name}': it is {what}, not a local, var, track or counter", ref.span)
        return None

    def plain_target(self, ref: ast.Ref) -> Type:
        """A local or a var: a name without arguments."""
        name = ref.name.name
        local = name in self.env and (ref.args is None or name not in self.model.vars)
        if ref.args is not None:
            self.report(f"{'local' if local else 'var'} '{name}' takes no arguments", ref.span)
        return self.env[name] if local else type_of_ref(self.model, self.model.vars[name].type)

    def visit_MoveCard(self, stmt: ast.MoveCard) -> None:
        self.expect(stmt.card, CARD, "what 'move' moves")
        self.expect(stmt.dest, ZONE, "where 'move' puts a card")

    def visit_MoveAll(self, stmt: ast.MoveAll) -> None:
        members = self.element_of(stmt.source)
        if element(self.infer(stmt.source)) is not None and not compatible(members, CARD):
            self.report(f"'move all' moves cards, not {members}", stmt.source.span)
        super().visit_MoveAll(stmt)
        if not compatible(self.infer(stmt.dest), ZONE):
            self.report(f"where 'move all' puts cards must be zone, not {self.infer(stmt.dest)}",
                        stmt.dest.span)

    def visit_Shuffle(self, stmt: ast.Shuffle) -> None:
        self.expect(stmt.zone, ZONE, "what 'shuffle' shuffles")

    def visit_Reveal(self, stmt: ast.Reveal) -> None:
        self.expect(stmt.zone, ZONE, f"what '{'reveal' if stmt.public else 'conceal'}' shows")

    def visit_Show(self, stmt: ast.Show) -> None:
        self.expect(stmt.card, CARD, "what 'show' shows")
        if stmt.to is not None:
            self.expect(stmt.to, PLAYER, "whom 'show' shows a card")

    def visit_Log(self, stmt: ast.Log) -> None:
        for part in stmt.parts:
            self.visit(part)
        if stmt.to is not None:
            self.expect(stmt.to, PLAYER, "whom 'log to' writes a line")

    def visit_CopyCounter(self, stmt: ast.CopyCounter) -> None:
        counters, kinds = self.model.counters, self.model.counter_kinds
        src, dst = stmt.source.name, stmt.dest.name
        if src in counters and dst in counters and (
                counters[src].per_player != counters[dst].per_player or kinds.get(src) != kinds.get(dst)
                or (src in self.model.flags) != (dst in self.model.flags)):
            self.report(f"cannot copy '{src}' to '{dst}': they are not kept on the same things", stmt.span)

    def visit_CallStmt(self, stmt: ast.CallStmt) -> None:
        sig = decl_signature("procedure", self.model.procedures.get(stmt.name.name), self.model)
        self.args(stmt.name.name, sig, stmt.args, stmt.name.span)

    def visit_ActionRef(self, node: ast.ActionRef) -> None:
        sig = decl_signature("action", self.model.actions.get(node.name.name), self.model)
        self.args(node.name.name, sig, node.args, node.name.span)

    def visit_Resolve(self, stmt: ast.Resolve) -> None:
        self.expect(stmt.card, CARD, "the card whose action to resolve" if stmt.action else "the card to resolve")
        self.expect(stmt.player, PLAYER, "the player who resolves it")

    def visit_Activate(self, stmt: ast.Activate) -> None:
        sig = decl_signature("effect", self.model.effects.get(stmt.effect.name), self.model)
        self.args(stmt.effect.name, sig, stmt.args, stmt.effect.span)

    def visit_Cancel(self, stmt: ast.Cancel) -> None:
        sig = decl_signature("effect", self.model.effects.get(stmt.effect.name), self.model)
        if stmt.args is not None:
            self.args(stmt.effect.name, sig, stmt.args, stmt.effect.span)

    def visit_Emit(self, stmt: ast.Emit) -> None:
        sig = decl_signature("signal", self.model.signals.get(stmt.signal.name), self.model)
        self.args(stmt.signal.name, sig, stmt.args, stmt.signal.span)

    def visit_Win(self, stmt: ast.Win) -> None:
        self.expect(stmt.player, optional(PLAYER), "the winner")

    def visit_Lose(self, stmt: ast.Lose) -> None:
        for player in stmt.players:
            self.expect(player, PLAYER, "a player who loses")

    # ------------------------------------------------------------ patterns of effects and constraints
    def visit_Modifier(self, mod: ast.Modifier) -> None:
        self.pattern_arity(mod.quantity, mod.names, self.model.quantities, "quantity")
        super().visit_Modifier(mod)

    def visit_ActionPattern(self, node: ast.ActionPattern) -> None:
        self.pattern_arity(node.action, node.names, self.model.actions, "action")

    def visit_Trigger(self, trigger: ast.Trigger) -> None:
        self.pattern_arity(trigger.signal, trigger.names, self.model.signals, "signal")
        super().visit_Trigger(trigger)

    def pattern_arity(self, ident: ast.Ident, names: tuple[ast.Ident, ...], table: dict, word: str) -> None:
        decl = table.get(ident.name)
        if decl is not None and len(names) != len(decl.params):
            sig = decl_signature(word, decl, self.model)
            self.report(f"{word} '{ident.name}' takes {sig.arity()}, but the pattern names {len(names)}",
                        ident.span)


def check_types(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every type or arity mismatch."""
    return TypeCheck(model).run()
