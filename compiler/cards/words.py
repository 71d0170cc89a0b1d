"""Expressions in plain words, with the spec's own labels (players, entities, tracks, zones).

Names the spec gives no label for (locals, defines, procedures) are written
as code between backticks; the HTML sheet shows them in a code face.
"""

from __future__ import annotations

from typing import Callable

from .. import ast
from ..model import Model

_COMPARE = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most",
            ">": "is more than", "<": "is less than"}
_ARITHMETIC = {"+": "+", "-": "-", "*": "×", "/": "÷", "%": "mod"}


def code(name: str) -> str:
    return f"`{name}`"


class Words:
    """Puts expressions of one checked spec into words."""

    def __init__(self, model: Model):
        self.model = model
        self.player_labels = dict(zip(model.players, model.player_labels))
        self.entity_labels = {e.name.name: e.label for e in model.entities}

    # ------------------------------------------------------------ names
    def label_of(self, name: str) -> str | None:
        """The spec's own word for a name, when it gives one."""
        model = self.model
        if name in self.player_labels:
            return self.player_labels[name]
        if name in self.entity_labels:
            return self.entity_labels[name]
        for table in (model.tracks, model.zones, model.counters):
            if name in table:
                return _noun(table[name].label)
        if name in model.effects:
            return model.effects[name].label
        if name in model.actions:
            return model.actions[name].label
        return None

    def name(self, name: str) -> str:
        if name == "you":
            return "you"
        if name == "this":
            return "this card"
        if name == "players":
            return "the players"
        label = self.label_of(name)
        if label is not None:
            return label
        if name in self.model.kinds:
            return f"every {name}"
        return code(name)

    def player(self, expr: ast.Expr) -> str:
        """A player in a possessive place: `your` for you."""
        return "your" if _is_name(expr, "you") else f"{self.expr(expr)}'s"

    def owner(self, expr: ast.Expr) -> str:
        """A player before a counter's label: `your Supply`, `Blue Supply`."""
        return "your" if _is_name(expr, "you") else self.expr(expr)

    # ------------------------------------------------------------ expressions
    def expr(self, expr: ast.Expr) -> str:
        method: Callable[[ast.Expr], str] | None = getattr(self, "w_" + type(expr).__name__, None)
        if method is None:
            return cannot(expr)
        return method(expr)

    def operand(self, expr: ast.Expr) -> str:
        """An expression inside a larger one: compound ones in parentheses."""
        text = self.expr(expr)
        return f"({text})" if isinstance(expr, (ast.BoolOp, ast.Cond)) else text

    def w_IntLit(self, e: ast.IntLit) -> str:
        return str(e.value)

    def w_StrLit(self, e: ast.StrLit) -> str:
        return f"“{e.value}”"

    def w_BoolLit(self, e: ast.BoolLit) -> str:
        return "true" if e.value else "false"

    def w_NoneLit(self, e: ast.NoneLit) -> str:
        return "none"

    def w_NameRef(self, e: ast.NameRef) -> str:
        return self.name(e.name)

    def w_CallExpr(self, e: ast.CallExpr) -> str:
        builtin = getattr(self, "builtin_" + e.name, None)
        if builtin is not None and e.name not in self.model.defines:
            return builtin(e.args)
        return self.place(e.name, e.args)

    def place(self, name: str, args: tuple[ast.Expr, ...]) -> str:
        """A counter, a per-player track or zone, or a call of a define."""
        model = self.model
        if name in model.counters:
            counter = model.counters[name]
            label = _noun(counter.label)
            if counter.per_player and len(args) == 2:
                return f"{self.owner(args[0])} {label} on {self.expr(args[1])}"
            return f"{label} on {self.expr(args[-1])}" if args else label
        if (name in model.tracks or name in model.zones) and len(args) == 1:
            return f"{self.player(args[0])} {self.label_of(name)}"
        return self.call(name, args)

    def call(self, name: str, args: tuple[ast.Expr, ...]) -> str:
        return f"{code(name)}({', '.join(self.expr(a) for a in args)})"

    def w_Attr(self, e: ast.Attr) -> str:
        field = "name" if e.name == "label" else e.name.replace("_", " ")
        if _is_name(e.obj, "you"):
            return f"your {field}"
        return f"the {field} of {self.operand(e.obj)}"

    def w_Not(self, e: ast.Not) -> str:
        return f"not {self.operand(e.operand)}"

    def w_Negate(self, e: ast.Negate) -> str:
        return f"-{self.operand(e.operand)}"

    def w_BinOp(self, e: ast.BinOp) -> str:
        text = f"{self.operand(e.left)} {_ARITHMETIC[e.op]} {self.operand(e.right)}"
        return text + (" (rounded down)" if e.op == "/" else "")

    def w_BoolOp(self, e: ast.BoolOp) -> str:
        return f" {e.op} ".join(self.operand(o) for o in e.operands)

    def w_Compare(self, e: ast.Compare) -> str:
        return f"{self.operand(e.left)} {_COMPARE[e.op]} {self.operand(e.right)}"

    def w_Member(self, e: ast.Member) -> str:
        word = "is not" if e.negated else "is"
        source = e.collection
        if isinstance(source, ast.NameRef) and source.name in self.model.kinds:
            return f"{self.operand(e.element)} {word} a {source.name}"
        return f"{self.operand(e.element)} {word} in {self.collection(source)}"

    def w_Range(self, e: ast.Range) -> str:
        return f"{self.operand(e.low)} to {self.operand(e.high)}"

    def w_Cond(self, e: ast.Cond) -> str:
        return f"if {self.expr(e.test)} then {self.operand(e.then)}, else {self.operand(e.otherwise)}"

    def w_Quantifier(self, e: ast.Quantifier) -> str:
        each = self.each(e.var.name, e.source)
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        if e.kind == "count":
            return f"the number of {each}{such}"
        if e.kind == "any":
            return f"there is {_article(each)}{such}" if such else f"there is {_article(each)}"
        return f"for every {each}, {self.expr(e.where)}" if e.where is not None else "always true"

    def w_SumOf(self, e: ast.SumOf) -> str:
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        return f"the sum of {self.operand(e.value)} over every {self.each(e.var.name, e.source)}{such}"

    def w_Reachable(self, e: ast.Reachable) -> str:
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        return (f"the spaces reachable from {self.operand(e.start)} through adjacent spaces "
                f"{code(e.var.name)}{such}")

    def w_Allowed(self, e: ast.Allowed) -> str:
        label = self.label_of(e.action.name)
        action = f"“{label}”" if label else code(e.action.name)
        return f"{action} is allowed for {', '.join(self.expr(a) for a in e.args)}"

    def w_Active(self, e: ast.Active) -> str:
        args = f" ({', '.join(self.expr(a) for a in e.args)})" if e.args else ""
        return f"{self.effect(e.effect.name)}{args} is in effect"

    def effect(self, name: str) -> str:
        label = self.label_of(name)
        return f"“{label}”" if label else code(name)

    # ------------------------------------------------------------ collections
    def collection(self, source: ast.Expr) -> str:
        if isinstance(source, ast.NameRef) and source.name in self.model.kinds:
            return f"every {source.name}"
        if isinstance(source, ast.Range):
            return f"the numbers {self.expr(source)}"
        return self.expr(source)

    def each(self, var: str, source: ast.Expr) -> str:
        """`space s`, `s in NAME`, `player p`, `c from 1 to 3`: one member of a collection."""
        if isinstance(source, ast.NameRef) and source.name in self.model.kinds:
            return f"{source.name} {code(var)}"
        if _is_name(source, "players"):
            return f"player {code(var)}"
        if isinstance(source, ast.Range):
            return f"number {code(var)} from {self.expr(source)}"
        return f"{code(var)} in {self.collection(source)}"

    # ------------------------------------------------------------ builtins
    def builtin_opponent(self, args) -> str:
        return "your opponent" if _is_name(args[0], "you") else f"the opponent of {self.expr(args[0])}"

    def builtin_adjacent(self, args) -> str:
        return f"the spaces adjacent to {self.operand(args[0])}"

    def builtin_min(self, args) -> str:
        return f"the smaller of {self.operand(args[0])} and {self.operand(args[1])}"

    def builtin_max(self, args) -> str:
        return f"the larger of {self.operand(args[0])} and {self.operand(args[1])}"

    def builtin_abs(self, args) -> str:
        return f"the size of {self.operand(args[0])} without its sign"

    def builtin_size(self, args) -> str:
        return f"the number of cards in {self.operand(args[0])}"

    def builtin_top(self, args) -> str:
        return f"the top card of {self.operand(args[0])}"

    def builtin_event_allowed(self, args) -> str:
        return f"the event of {self.operand(args[0])} may take place for {self.operand(args[1])}"

    def builtin_has_event(self, args) -> str:
        return f"{self.operand(args[0])} has an event"


def cannot(node: ast.Node) -> str:
    """What the sheet says for a construct it has no words for: never a guess."""
    return f"[not put into words: {type(node).__name__}; see the spec text]"


def _noun(label: str) -> str:
    """A label as a noun in a sentence: quoted when it is a phrase of its own (has a comma)."""
    return f"“{label}”" if "," in label else label


def _is_name(expr: ast.Expr, name: str) -> bool:
    return isinstance(expr, ast.NameRef) and expr.name == name


def _article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def expression_words() -> set[str]:
    """The expression node classes put into words (the exhaustiveness test reads it)."""
    return {name[2:] for name in dir(Words) if name.startswith("w_")}
