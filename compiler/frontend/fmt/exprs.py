"""Expressions back to spec text: precedence decides the parentheses, and/or and if/then/else may break."""

from __future__ import annotations

from typing import Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt.layout import HARD, LINE, Align, Doc, concat, fill, fill_parts, group, join, nest, render

# Binding strength of each level of the grammar (compiler/frontend/grammar.lark), loosest first.
COND, OR, AND, NOT, COMPARE, RANGE, SUM, PRODUCT, UNARY, ATOM = range(10)
_BINARY = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "%": PRODUCT}
COMMA = concat(",", LINE)
INDENT = 4


def quote(text: str) -> str:
    """A string literal that parses back to `text`."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def literal(expr: ast.Expr | ast.PerValue) -> str:
    """A literal of a declaration (a default, an attribute value): may be a negative number;
    an attribute's values per value of an enum, `(value n, ...)`."""
    if isinstance(expr, ast.IntLit):
        return str(expr.value)
    if isinstance(expr, ast.PerValue):
        return "(" + ", ".join(f"{i.key.name} {literal(i.value)}" for i in expr.items) + ")"
    return expr_text(expr)


def field_text(field: ast.Field) -> str:
    """A kind's field: `name: type [on ENUM] [= default]`."""
    on = f" on {field.on.name}" if field.on is not None else ""
    default = f" = {literal(field.default)}" if field.default is not None else ""
    return f"{field.name.name}: {type_text(field.type)}{on}{default}"


def expr_text(expr: ast.Expr) -> str:
    """An expression on one line."""
    return render(expr_doc(expr), 10**6)


def type_text(ref: ast.TypeRef) -> str:
    return ref.name + ("?" if ref.optional else "")


def params_text(params: tuple[ast.Param, ...]) -> list[str]:
    return [f"{p.name}: {type_text(p.type)}" for p in params]


def level(expr: ast.Expr) -> int:
    """How tightly the expression binds, as written without parentheses."""
    match expr:
        case ast.Cond():
            return COND
        case ast.BoolOp(op="or"):
            return OR
        case ast.BoolOp():
            return AND
        case ast.Not():
            return NOT
        case ast.Compare() | ast.Member():
            return COMPARE
        case ast.Range():
            return RANGE
        case ast.BinOp(op=op):
            return _BINARY[op]
        case ast.Negate():
            return UNARY
    return ATOM


def expr_doc(expr: ast.Expr, at_least: int = COND) -> Doc:
    """The expression, in parentheses when it binds looser than its place asks."""
    doc = _PRINTERS[type(expr).__name__](expr)
    return concat("(", Align(doc), ")") if level(expr) < at_least else doc


def args_doc(args: tuple[ast.Expr, ...]) -> Doc:
    return concat("(", nest(4, fill([expr_doc(a) for a in args], COMMA)), ")")


def names_doc(names: tuple[ast.Ident, ...]) -> str:
    return "(" + ", ".join(n.name for n in names) + ")"


def clauses(head: Doc, *rest: Doc | None, indent: int = INDENT) -> Doc:
    """A head and its clauses (`where ...`, `when ...`): each breaks onto a line of its own,
    four in, only when it does not fit."""
    return nest(indent, fill([head, *(r for r in rest if r is not None)]))


def when(condition: ast.Expr | None) -> Doc | None:
    return concat("when ", nest(INDENT, expr_doc(condition))) if condition is not None else None


def _where(where: ast.Expr | None) -> Doc:
    return concat(" where ", expr_doc(where)) if where is not None else ""


def _bool_op(e: ast.BoolOp) -> Doc:
    """`a or (b and c)`: an `and` inside an `or` keeps its parentheses, for the reader."""
    inner = NOT if e.op == "or" else AND + 1
    parts = [expr_doc(e.operands[0], inner)]
    for operand in e.operands[1:]:
        parts += [LINE, concat(e.op, " ", expr_doc(operand, inner))]
    return fill_parts(parts)


def _cond(e: ast.Cond) -> Doc:
    """`if a then x else z` breaks only where it must; a chain with `else if` is written a
    branch a line, lined up under its `if`, so it reads as the cases it is."""
    parts: list[Doc] = []
    while True:
        head = "if " if not parts else "else if "
        branch = group(head, expr_doc(e.test, OR), nest(INDENT, LINE, "then ", expr_doc(e.then, OR)))
        parts += [branch, LINE]
        if not isinstance(e.otherwise, ast.Cond):
            break
        e = e.otherwise
    last = concat("else ", expr_doc(e.otherwise))
    if len(parts) == 2:
        return fill_parts(parts + [last])
    return Align(concat(*(HARD if part is LINE else part for part in parts), last))


def _binary(e: ast.BinOp) -> Doc:
    """A chain of + and - may break before an operator; * / % never break."""
    strength = _BINARY[e.op]
    if strength != SUM:
        return concat(expr_doc(e.left, strength), f" {e.op} ", expr_doc(e.right, strength + 1))
    terms: list[Doc] = []
    while isinstance(e, ast.BinOp) and _BINARY[e.op] == SUM:
        terms = [LINE, concat(e.op, " ", expr_doc(e.right, SUM + 1))] + terms
        e = e.left
    return fill_parts([expr_doc(e, SUM)] + terms)


def _negate(e: ast.Negate) -> Doc:
    if isinstance(e.operand, ast.Negate):  # "--" would read as one token
        return concat("-(", expr_doc(e.operand), ")")
    return concat("-", expr_doc(e.operand, UNARY))


def _member(e: ast.Member) -> Doc:
    word = " not in " if e.negated else " in "
    return concat(expr_doc(e.element, RANGE), word, expr_doc(e.collection, RANGE))


def _quantifier(e: ast.Quantifier) -> Doc:
    inner = concat(e.var.name, " in ", expr_doc(e.source, RANGE), _where(e.where))
    return concat(e.kind, "(", nest(INDENT, inner), ")")


def _sum(e: ast.SumOf) -> Doc:
    inner = concat(expr_doc(e.value), " for ", e.var.name, " in ", expr_doc(e.source, RANGE),
                   _where(e.where))
    return concat("sum(", nest(INDENT, inner), ")")


def _extreme(e: ast.Extreme) -> Doc:
    otherwise = concat(" else ", expr_doc(e.default)) if e.default is not None else ""
    inner = concat(expr_doc(e.value), " for ", e.var.name, " in ", expr_doc(e.source, RANGE),
                   _where(e.where), otherwise)
    return concat(e.op, "(", nest(INDENT, inner), ")")


def _reachable(e: ast.Reachable) -> Doc:
    inner = concat(e.var.name, " from ", expr_doc(e.start, RANGE), _where(e.where))
    return concat("reachable(", nest(INDENT, inner), ")")


def _compare(e: ast.Compare) -> Doc:
    """May break before the operator: `count(...)` / `> count(...)`."""
    right = concat(e.op, " ", expr_doc(e.right, RANGE))
    return fill_parts([expr_doc(e.left, RANGE), LINE, right])


def _active(e: ast.Active) -> Doc:
    return concat("active ", e.effect.name, args_doc(e.args) if e.args is not None else "")


_PRINTERS: dict[str, Callable[[ast.Expr], Doc]] = {
    "IntLit": lambda e: str(e.value),
    "StrLit": lambda e: quote(e.value),
    "BoolLit": lambda e: "true" if e.value else "false",
    "NoneLit": lambda e: "none",
    "NameRef": lambda e: e.name,
    "CallExpr": lambda e: concat(e.name, args_doc(e.args)),
    "Attr": lambda e: concat(expr_doc(e.obj, ATOM), ".", e.name),
    "AttrAt": lambda e: concat(expr_doc(e.obj, ATOM), ".", e.name, args_doc((e.key,))),
    "Not": lambda e: concat("not ", expr_doc(e.operand, NOT)),
    "Negate": _negate,
    "BinOp": _binary,
    "BoolOp": _bool_op,
    "Compare": _compare,
    "Member": _member,
    "Range": lambda e: concat(expr_doc(e.low, SUM), "..", expr_doc(e.high, SUM)),
    "ListOf": lambda e: concat("[", nest(4, fill([expr_doc(i) for i in e.items], COMMA)), "]"),
    "Cond": _cond,
    "Quantifier": _quantifier,
    "SumOf": _sum,
    "Extreme": _extreme,
    "Reachable": _reachable,
    "Allowed": lambda e: concat("allowed ", e.action.name, args_doc(e.args)),
    "Active": _active,
}


def printable_expressions() -> set[str]:
    """The expression node classes this module writes (the exhaustiveness test reads it)."""
    return set(_PRINTERS)


__all__ = ["expr_doc", "expr_text", "literal", "quote", "args_doc", "names_doc", "join",
           "type_text", "params_text", "printable_expressions"]
