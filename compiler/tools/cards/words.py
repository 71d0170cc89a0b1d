"""Expressions in plain words, with the spec's own labels (players, entities, tracks, zones).

Names the spec gives no label for (locals, defines, procedures) are written
as code between backticks; the HTML sheet shows them in a code face.
"""

from __future__ import annotations

from typing import Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import Model

# How tightly words bind, loosest first. OPEN: a phrase whose last clause takes all that follows
# ("if ... then ..., else ...", "... such that P"); OPENED: a phrase that ends in an OPEN one. Then
# or, and, not, comparisons, phrases closed by their own words ("half of X, rounded down", "the
# smaller of A and B"), sums, products, signs, atoms. A part is put in parentheses when it binds
# looser than its place asks, so the words group exactly what the expression groups.
OPENED, OPEN, OR, AND, NOT, COMPARE, PHRASE, SUM, PRODUCT, UNARY, ATOM = range(11)
MINUS = "\u2212"
_COMPARE = {"==": "is", "!=": "is not", ">=": "is at least", "<=": "is at most",
            ">": "is more than", "<": "is less than"}
_ARITHMETIC = {"+": "+", "-": MINUS, "*": "×", "%": "mod"}


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
        return "your" if _is_name(expr, "you") else f"{self.part(expr, ATOM)}'s"

    def owner(self, expr: ast.Expr) -> str:
        """A player before a counter's label: `your Supply`, `Blue Supply`."""
        return "your" if _is_name(expr, "you") else self.part(expr, ATOM)

    # ------------------------------------------------------------ expressions
    def expr(self, expr: ast.Expr) -> str:
        """The expression in words, as a whole (a sentence's own clause)."""
        return self.words_of(expr)[0]

    def words_of(self, expr: ast.Expr) -> tuple[str, int]:
        """The words and how tightly they bind (a level below)."""
        method: Callable[[ast.Expr], tuple[str, int] | str] | None = getattr(
            self, "w_" + type(expr).__name__, None)
        if method is None:
            return cannot(expr), ATOM
        out = method(expr)
        return out if isinstance(out, tuple) else (out, ATOM)

    def part(self, expr: ast.Expr, at_least: int) -> str:
        """A part of a larger phrase: in parentheses when its words bind looser than the place asks."""
        text, level = self.words_of(expr)
        return f"({text})" if level < at_least else text

    def operand(self, expr: ast.Expr) -> str:
        """An amount in a sentence ("Add 2 ... ", "Repeat ... times"): compound ones in parentheses."""
        return self.part(expr, UNARY)

    def item(self, expr: ast.Expr) -> str:
        """One item of a comma-separated list: anything with its own commas or clauses in parentheses."""
        return self.part(expr, SUM)

    def items(self, exprs: tuple[ast.Expr, ...]) -> str:
        return ", ".join(self.item(e) for e in exprs)

    def w_IntLit(self, e: ast.IntLit):
        return (f"{MINUS}{-e.value}", UNARY) if e.value < 0 else str(e.value)

    def w_StrLit(self, e: ast.StrLit) -> str:
        return f"“{e.value}”"

    def w_BoolLit(self, e: ast.BoolLit) -> str:
        return "true" if e.value else "false"

    def w_NoneLit(self, e: ast.NoneLit) -> str:
        return "none"

    def w_NameRef(self, e: ast.NameRef) -> str:
        return self.name(e.name)

    def w_CallExpr(self, e: ast.CallExpr):
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
                return f"{self.owner(args[0])} {label} in {self.part(args[1], ATOM)}"
            return f"{label} in {self.part(args[-1], ATOM)}" if args else label
        if name in model.track_values and args:  # a track on an enum: `t(p, value)` or `t(value)`
            value = self.part(args[-1], ATOM)
            if model.tracks[name].per_player and len(args) == 2:
                return f"{self.player(args[0])} {self.label_of(name)} of {value}"
            return f"the {self.label_of(name)} of {value}"
        if (name in model.tracks or name in model.zones) and len(args) == 1:
            return f"{self.player(args[0])} {self.label_of(name)}"
        return self.call(name, args)

    def call(self, name: str, args: tuple[ast.Expr, ...]) -> str:
        return f"{code(name)}({self.items(args)})"

    def w_Attr(self, e: ast.Attr) -> str:
        field = "name" if e.name == "label" else e.name.replace("_", " ")
        if _is_name(e.obj, "you"):
            return f"your {field}"
        return f"the {field} of {self.part(e.obj, ATOM)}"

    def w_AttrAt(self, e: ast.AttrAt) -> str:
        field, key = e.name.replace("_", " "), self.part(e.key, ATOM)
        if _is_name(e.obj, "you"):
            return f"your {field} for {key}"
        return f"the {field} of {self.part(e.obj, ATOM)} for {key}"

    def tail(self, expr: ast.Expr, at_least: int) -> tuple[str, bool]:
        """The last part of a phrase: an open one ("... such that P") may stand there bare, since
        nothing of the phrase follows it; the phrase then ends in an open one (OPENED)."""
        text, level = self.words_of(expr)
        if level == OPEN:
            return text, True
        return self.part(expr, at_least), False

    def w_Not(self, e: ast.Not):
        if isinstance(e.operand, ast.Active):
            return self.w_Active(e.operand, "is not in effect")
        return f"not {self.part(e.operand, SUM)}", NOT

    def w_Negate(self, e: ast.Negate):
        return f"{MINUS}{self.part(e.operand, ATOM)}", UNARY

    def w_BinOp(self, e: ast.BinOp):
        if e.op == "/":  # floor division: a phrase of its own, closed by "rounded down"
            if isinstance(e.right, ast.IntLit) and e.right.value == 2:
                return f"half of {self.part(e.left, UNARY)}, rounded down", PHRASE
            return f"{self.part(e.left, UNARY)} ÷ {self.part(e.right, UNARY)}, rounded down", PHRASE
        level = SUM if e.op in "+-" else PRODUCT
        return f"{self.part(e.left, level)} {_ARITHMETIC[e.op]} {self.part(e.right, level + 1)}", level

    def w_BoolOp(self, e: ast.BoolOp):
        last, open_ = self.tail(e.operands[-1], NOT)
        text = f" {e.op} ".join([self.part(o, NOT) for o in e.operands[:-1]] + [last])
        return text, OPENED if open_ else OR if e.op == "or" else AND

    def w_Compare(self, e: ast.Compare):
        right, open_ = self.tail(e.right, SUM)
        return f"{self.part(e.left, SUM)} {_COMPARE[e.op]} {right}", OPENED if open_ else COMPARE

    def w_Member(self, e: ast.Member):
        word = "is not" if e.negated else "is"
        source = e.collection
        if isinstance(source, ast.NameRef) and source.name in self.model.kinds:
            return f"{self.part(e.element, SUM)} {word} a {source.name}", COMPARE
        return f"{self.part(e.element, SUM)} {word} in {self.collection(source)}", COMPARE

    def w_Range(self, e: ast.Range):
        return f"{self.part(e.low, SUM)} to {self.part(e.high, SUM)}", PHRASE

    def w_ListOf(self, e: ast.ListOf):
        items = [self.part(i, SUM) for i in e.items]
        text = items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
        return text, PHRASE

    def w_Cond(self, e: ast.Cond):
        return (f"if {self.part(e.test, OR)} then {self.part(e.then, OR)}, "
                f"else {self.expr(e.otherwise)}", OPEN)

    def w_Quantifier(self, e: ast.Quantifier):
        each = self.each(e.var.name, e.source)
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        level = OPEN if such else PHRASE
        if e.kind == "count":
            return f"the number of {each}{such}", level
        if e.kind == "any":
            return (f"there is {_article(each)}{such}" if such else f"there is {_article(each)}"), level
        if e.where is None:
            return "always true"
        return f"for every {each}, {self.expr(e.where)}", OPEN

    def w_SumOf(self, e: ast.SumOf):
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        return (f"the sum of {self.part(e.value, SUM)} over every {self.each(e.var.name, e.source)}{such}",
                OPEN if such else PHRASE)

    def w_Extreme(self, e: ast.Extreme):
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        word = "highest" if e.highest else "lowest"
        each = self.each(e.var.name, e.source)
        if e.member:
            return f"the {each} of {word} {self.part(e.value, SUM)}{such}", OPEN
        otherwise = f" ({self.part(e.default, SUM)} if there is none)"
        return f"the {word} {self.part(e.value, SUM)} of every {each}{such}{otherwise}", OPEN

    def w_Reachable(self, e: ast.Reachable):
        such = f" such that {self.expr(e.where)}" if e.where is not None else ""
        return (f"the spaces reachable from {self.part(e.start, ATOM)} through adjacent spaces "
                f"{code(e.var.name)}{such}", OPEN if such else ATOM)

    def w_Allowed(self, e: ast.Allowed):
        label = self.label_of(e.action.name)
        action = f"“{label}”" if label else code(e.action.name)
        return f"{action} is allowed for {self.items(e.args)}", COMPARE

    def w_Active(self, e: ast.Active, verb: str = "is in effect"):
        args = f" ({self.items(e.args)})" if e.args else ""
        return f"{self.effect(e.effect.name)}{args} {verb}", COMPARE

    def effect(self, name: str) -> str:
        label = self.label_of(name)
        return f"“{label}”" if label else code(name)

    # ------------------------------------------------------------ collections
    def collection(self, source: ast.Expr) -> str:
        if isinstance(source, ast.NameRef) and source.name in self.model.kinds:
            return f"every {source.name}"
        if isinstance(source, ast.Range):
            return f"the numbers {self.expr(source)}"
        return self.part(source, SUM)

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
        return "your opponent" if _is_name(args[0], "you") else f"the opponent of {self.part(args[0], ATOM)}"

    def builtin_adjacent(self, args) -> str:
        return f"the spaces adjacent to {self.part(args[0], ATOM)}"

    def builtin_min(self, args):
        last, open_ = self.tail(args[1], SUM)
        return f"the smaller of {self.part(args[0], SUM)} and {last}", OPENED if open_ else PHRASE

    def builtin_max(self, args):
        last, open_ = self.tail(args[1], SUM)
        return f"the larger of {self.part(args[0], SUM)} and {last}", OPENED if open_ else PHRASE

    def builtin_abs(self, args) -> str:
        return f"the size of {self.part(args[0], SUM)} without its sign"

    def builtin_size(self, args) -> str:
        return f"the number of cards in {self.part(args[0], ATOM)}"

    def builtin_top(self, args) -> str:
        return f"the top card of {self.part(args[0], ATOM)}"

    def builtin_event_allowed(self, args):
        return (f"the event of {self.part(args[0], ATOM)} may take place for {self.part(args[1], SUM)}",
                COMPARE)

    def builtin_has_event(self, args):
        return f"{self.part(args[0], SUM)} has an event", COMPARE

    def builtin_action_allowed(self, args):
        return (f"the action of {self.part(args[0], ATOM)} may be used by {self.part(args[1], SUM)}",
                COMPARE)

    def builtin_has_action(self, args):
        return f"{self.part(args[0], SUM)} has an action", COMPARE

    def builtin_known(self, args):
        who = "you know" if _is_name(args[0], "you") else f"{self.part(args[0], SUM)} knows"
        return f"{who} where {self.part(args[1], SUM)} is", COMPARE

    def builtin_known_in(self, args) -> str:
        who = "you know" if _is_name(args[0], "you") else f"{self.part(args[0], SUM)} knows"
        return f"the cards {who} are in {self.part(args[1], ATOM)}"


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
