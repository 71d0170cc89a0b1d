"""Statements and designer-test steps back to spec text (the layout rules are in printer.py)."""

from __future__ import annotations

from typing import Callable, Protocol

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt.exprs import ATOM, COMMA, INDENT, args_doc, clauses, expr_doc, literal, quote
from rulespec.compiler.frontend.fmt.layout import Doc, concat, fill, glue, group, join, nest



class Printer(Protocol):
    """What statements need of printer.Printer (which imports this module)."""

    def with_block(self, head: Doc, block: ast.Block) -> Doc: ...
    def block_parts(self, block: ast.Block) -> Doc: ...
    def statement_body(self, block: ast.Block) -> Doc: ...
    def one_line(self, block: ast.Block) -> bool: ...
    def body(self, items: list, show: Callable, container: ast.Node) -> Doc: ...
    def item(self, node: ast.Node) -> Doc: ...


def statement_doc(printer: Printer, stmt: ast.Node) -> Doc:
    return _STATEMENTS[type(stmt).__name__](printer, stmt)


def printable_statements() -> set[str]:
    """The statement node classes this module writes (the exhaustiveness test reads it)."""
    return set(_STATEMENTS)


def _ref(ref: ast.Ref) -> Doc:
    return concat(ref.name.name, args_doc(ref.args) if ref.args is not None else "")


def _where(where: ast.Expr | None) -> Doc | None:
    return concat("where ", nest(INDENT, expr_doc(where))) if where is not None else None


def _if(p: Printer, s: ast.If) -> Doc:
    blocks = [block for _, block in s.branches] + ([s.otherwise] if s.otherwise else [])
    flat = all(p.one_line(b) for b in blocks)
    show = p.block_parts if flat else p.statement_body
    parts: list[Doc] = []
    for number, (test, block) in enumerate(s.branches):
        word = "if " if number == 0 else " else if "
        parts += [word, clauses(expr_doc(test), indent=2 * INDENT), " ", show(block)]
    if s.otherwise is not None:
        parts += [" else ", show(s.otherwise)]
    return group(*parts) if flat else concat(*parts)


def _for(p: Printer, s: ast.For) -> Doc:
    head = clauses(concat(f"for {s.var.name} in ", expr_doc(s.source)), _where(s.where))
    return p.with_block(head, s.body)


def _move_all(p: Printer, s: ast.MoveAll) -> Doc:
    return clauses(concat(f"move all {s.var.name} in ", expr_doc(s.source)), _where(s.where),
                   concat("to ", expr_doc(s.dest)), indent=0)  # the statement is nested


def _choose(p: Printer, s: ast.Choose) -> Doc:
    head = concat(expr_doc(s.chooser, ATOM), f" chooses {s.var.name} in ", expr_doc(s.source))
    action = None
    if s.action is not None:
        action = concat(f"as {s.action.name.name}", args_doc(s.action.args))
    prompt = quote(s.prompt) if s.prompt is not None else None
    forced = "unless forced" if s.forced else None
    skip = "or skip" if s.skip else None
    return clauses(*_tail_kept(head, _where(s.where), action, prompt, forced, skip), indent=0)  # nested


def _tail_kept(*items: Doc | None) -> list[Doc]:
    """The clauses with `unless forced` and `or skip` kept on the line of the clause before
    them: at the start of a line of their own they would read as a condition's `or`."""
    kept: list[Doc] = []
    for item in items:
        if item in ("unless forced", "or skip"):
            kept[-1] = glue(kept[-1], " " + item)
        elif item is not None:
            kept.append(item)
    return kept


def _menu(p: Printer, s: ast.Menu) -> Doc:
    prompt = f" {quote(s.prompt)}" if s.prompt is not None else ""
    forced = "unless forced " if s.forced else ""
    head = concat(expr_doc(s.chooser, ATOM), f" chooses{prompt} ", forced)
    if s.asked is not None:
        head = concat(expr_doc(s.chooser, ATOM), " chooses (", expr_doc(s.asked), ") ", forced)
    return concat(head, p.body(list(s.options), p.item, s))


def _activate(p: Printer, s: ast.Activate) -> Doc:
    args = args_doc(s.args) if s.args else ""
    until = f" until {s.lifetime.name}" if s.lifetime is not None else ""
    return concat(f"activate {s.effect.name}", args, until)


def _cancel(p: Printer, s: ast.Cancel) -> Doc:
    return concat(f"cancel {s.effect.name}", args_doc(s.args) if s.args is not None else "")


def _strings(values: tuple[str, ...]) -> Doc:
    return fill([quote(v) for v in values], COMMA)


def _offered(p: Printer, s: ast.ExpectOffered) -> Doc:
    word = "expect not offered " if s.negated else "expect offered "
    message = f" {quote(s.message)}" if s.message is not None else ""
    return concat(word, _strings(s.option_ids), message)


def _options(p: Printer, s: ast.ExpectOptions) -> Doc:
    message = f" {quote(s.message)}" if s.message is not None else ""
    if s.option_ids is None:
        return concat(f"expect count(options) {s.op} {s.count}", message)
    return concat("expect options == [", _strings(s.option_ids), "]", message)


def _expect(p: Printer, s: ast.Expect) -> Doc:
    message = f" {quote(s.message)}" if s.message is not None else ""
    return concat("expect ", expr_doc(s.test), message)


def _dice(p: Printer, s: ast.DiceStep) -> Doc:
    return "dice random" if s.random else "dice " + ", ".join(str(v) for v in s.values)


_STATEMENTS: dict[str, Callable[[Printer, ast.Node], Doc]] = {
    "Let": lambda p, s: concat(f"let {s.name.name} = ", expr_doc(s.value)),
    "SetStmt": lambda p, s: concat("set ", _ref(s.target), " to ", expr_doc(s.value)),
    "AddStmt": lambda p, s: concat("add ", expr_doc(s.amount), " to ", _ref(s.target)),
    "RemoveStmt": lambda p, s: concat("remove ", expr_doc(s.amount), " from ", _ref(s.target)),
    "Roll": lambda p, s: f"roll {s.name.name}",
    "RollDice": lambda p, s: concat("roll ", ", ".join(n.name for n in s.names), " from ",
                                    expr_doc(s.count), " dice"),
    "MoveCard": lambda p, s: concat("move ", expr_doc(s.card), " to bottom of " if s.bottom else " to ",
                                    expr_doc(s.dest)),
    "MoveAll": _move_all,
    "Shuffle": lambda p, s: concat("shuffle ", expr_doc(s.zone)),
    "PickRandom": lambda p, s: clauses(*_tail_kept(concat(f"pick {s.var.name} at random in ", expr_doc(s.source)),
                                                   _where(s.where), "or skip" if s.skip else None), indent=0),
    "Reveal": lambda p, s: concat("reveal " if s.public else "conceal ", expr_doc(s.zone)),
    "Show": lambda p, s: concat("show ", expr_doc(s.card),
                                *(() if s.to is None else (" to ", expr_doc(s.to)))),
    "CopyCounter": lambda p, s: f"copy {s.source.name} to {s.dest.name}",
    "ClearCounter": lambda p, s: f"clear {s.counter.name}",
    "If": _if,
    "For": _for,
    "Repeat": lambda p, s: p.with_block(clauses(concat("repeat ", expr_doc(s.count))), s.body),
    "While": lambda p, s: p.with_block(clauses(concat("while ", expr_doc(s.test)), indent=2 * INDENT),
                                       s.body),
    "Break": lambda p, s: "break",
    "Choose": _choose,
    "Menu": _menu,
    "CallStmt": lambda p, s: concat(s.name.name, args_doc(s.args)),
    "Resolve": lambda p, s: concat("resolve action " if s.action else "resolve ", expr_doc(s.card), " for ",
                                   expr_doc(s.player)),
    "Activate": _activate,
    "Cancel": _cancel,
    "Expire": lambda p, s: f"expire {s.lifetime.name}",
    "Emit": lambda p, s: concat(f"emit {s.signal.name}", args_doc(s.args)),
    "Win": lambda p, s: concat("win ", expr_doc(s.player), f" {quote(s.reason)}"),
    "Lose": lambda p, s: concat("lose ", join(", ", [expr_doc(e) for e in s.players]),
                                f" {quote(s.reason)}"),
    "Log": lambda p, s: concat("log ", *(() if s.to is None else ("to ", expr_doc(s.to), " ")),
                               nest(INDENT, fill([expr_doc(e) for e in s.parts], COMMA))),
    "Return": lambda p, s: concat("return ", expr_doc(s.value)),
    "DiceStep": _dice,
    "ChooseStep": lambda p, s: concat("choose ", _strings(s.option_ids)),
    "ExpectOffered": _offered,
    "ExpectOptions": _options,
    "ParamStep": lambda p, s: f"param {s.name.name} = {literal(s.value)}",
    "VariantStep": lambda p, s: f"variant {s.name.name}",
    "StartStep": lambda p, s: "start",
    "StartEffects": lambda p, s: f"start effects of {s.card.name} for {s.player.name}",
    "Expect": _expect,
}

__all__ = ["statement_doc", "printable_statements", "join"]
