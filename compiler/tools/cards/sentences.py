"""Statements in plain words: each one a sentence, a block's statements nested under it.

A card's event becomes a list of Lines; an `activate` brings the lasting
effect's own rules along (its modifiers, prohibitions and triggers), so the
sheet shows what the effect does, not only its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulespec.compiler.backends.codegen.expr import renamed
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.fmt import shape
from rulespec.compiler.tools.cards.words import Words, cannot, code


PROCEDURE_DEPTH = 1  # an event's procedures put into words; one they call is named only


@dataclass(frozen=True)
class Line:
    """One sentence, and the sentences that belong under it."""

    text: str
    children: tuple[Line, ...] = ()


def capital(text: str) -> str:
    return text[:1].upper() + text[1:] if text and not text.startswith("`") else text


class Sentences:
    """Puts statements of one checked spec into sentences."""

    def __init__(self, words: Words):
        self.words = words
        self.model = words.model
        # effects and procedures being put into words (one inside its own trigger or call)
        self._expanding: list[str] = []

    def block(self, body: tuple[ast.Node, ...] | ast.Block) -> tuple[Line, ...]:
        stmts = body.body if isinstance(body, ast.Block) else body
        return tuple(self.stmt(s) for s in stmts)

    def stmt(self, stmt: ast.Node) -> Line:
        method: Callable[[ast.Node], Line] | None = getattr(self, "s_" + type(stmt).__name__, None)
        if method is None:
            return Line(cannot(stmt))
        return method(stmt)

    def w(self, expr: ast.Expr) -> str:
        return self.words.expr(expr)

    # ------------------------------------------------------------ places
    def s_Let(self, s: ast.Let) -> Line:
        return Line(f"Let {code(s.name.name)} be {self.w(s.value)}.")

    def target(self, ref: ast.Ref) -> str:
        return self.words.place(ref.name.name, ref.args) if ref.args else self.words.name(ref.name.name)

    def s_SetStmt(self, s: ast.SetStmt) -> Line:
        return Line(f"Set {self.target(s.target)} to {self.w(s.value)}.")

    def _counter_move(self, verb: str, amount: ast.Expr, ref: ast.Ref, preposition: str) -> Line | None:
        counter = self.model.counters.get(ref.name.name)
        if counter is None or not ref.args:
            return None
        owner = f"{self.words.owner(ref.args[0])} " if counter.per_player and len(ref.args) == 2 else ""
        return Line(f"{verb} {self.words.operand(amount)} {owner}{self.words.label_of(ref.name.name)} "
                    f"{preposition} {self.w(ref.args[-1])}.")

    def s_AddStmt(self, s: ast.AddStmt) -> Line:
        return (self._counter_move("Add", s.amount, s.target, "to")
                or Line(f"Add {self.words.operand(s.amount)} to {self.target(s.target)}."))

    def s_RemoveStmt(self, s: ast.RemoveStmt) -> Line:
        return (self._counter_move("Remove", s.amount, s.target, "from")
                or Line(f"Remove {self.words.operand(s.amount)} from {self.target(s.target)}."))

    def s_CopyCounter(self, s: ast.CopyCounter) -> Line:
        return Line(f"Copy every value of {self.words.name(s.source.name)} "
                    f"into {self.words.name(s.dest.name)}.")

    def s_ClearCounter(self, s: ast.ClearCounter) -> Line:
        return Line(f"Clear {self.words.name(s.counter.name)} (every value back to 0).")

    # ------------------------------------------------------------ dice and cards
    def s_Roll(self, s: ast.Roll) -> Line:
        return Line(f"Roll a six-sided die: {code(s.name.name)}.")

    def s_RollDice(self, s: ast.RollDice) -> Line:
        names = ", ".join(code(n.name) for n in s.names)
        return Line(f"Roll {self.words.operand(s.count)} dice, highest first: {names} (0 where none is left).")

    def s_MoveCard(self, s: ast.MoveCard) -> Line:
        return Line(f"Move {self.w(s.card)} to {self.w(s.dest)} ({'at the bottom' if s.bottom else 'on top'}).")

    def s_MoveAll(self, s: ast.MoveAll) -> Line:
        such = f" such that {self.w(s.where)}" if s.where is not None else ""
        return Line(f"Move every {self.words.each(s.var.name, s.source)}{such} to {self.w(s.dest)}.")

    def s_PickRandom(self, s: ast.PickRandom) -> Line:
        such = f" such that {self.w(s.where)}" if s.where is not None else ""
        skip = "; with none, the rest of this part is skipped" if s.skip else ""
        return Line(f"Pick {self.words.each(s.var.name, s.source)}{such} at random{skip}.")

    def s_Shuffle(self, s: ast.Shuffle) -> Line:
        return Line(f"Shuffle {self.w(s.zone)}.")

    def s_Reveal(self, s: ast.Reveal) -> Line:
        if s.public:
            return Line(f"Reveal {self.w(s.zone)} (everyone sees its cards).")
        return Line(f"Conceal {self.w(s.zone)} again.")

    def s_Show(self, s: ast.Show) -> Line:
        whom = "everyone" if s.to is None else self.w(s.to)
        return Line(f"Show {self.w(s.card)} to {whom} (it stays where it is; its zone stays hidden).")

    def s_Resolve(self, s: ast.Resolve) -> Line:
        what = "action" if s.action else "event"
        return Line(f"Carry out the {what} of {self.w(s.card)} for {self.w(s.player)}.")

    # ------------------------------------------------------------ control
    def s_If(self, s: ast.If) -> Line:
        lines = []
        for number, (test, body) in enumerate(s.branches):
            word = "If" if number == 0 else "Otherwise, if"
            if number == 0 and len(s.branches) == 1 and s.otherwise is None and _guards_choice(test, body):
                lines.append(Line("If there is a choice to make:", self.block(body)))
                continue
            lines.append(Line(f"{word} {self.w(test)}:", self.block(body)))
        if s.otherwise is not None:
            lines.append(Line("Otherwise:", self.block(s.otherwise)))
        return lines[0] if len(lines) == 1 else Line("", tuple(lines))

    def s_For(self, s: ast.For) -> Line:
        such = f" such that {self.w(s.where)}" if s.where is not None else ""
        return Line(f"For each {self.words.each(s.var.name, s.source)}{such}:", self.block(s.body))

    def s_Repeat(self, s: ast.Repeat) -> Line:
        return Line(f"Repeat {self.words.operand(s.count)} times:", self.block(s.body))

    def s_While(self, s: ast.While) -> Line:
        return Line(f"As long as {self.w(s.test)}:", self.block(s.body))

    def s_Break(self, s: ast.Break) -> Line:
        return Line("Stop repeating.")

    # ------------------------------------------------------------ choices
    def chooser(self, expr: ast.Expr) -> str:
        return "You choose" if isinstance(expr, ast.NameRef) and expr.name == "you" \
            else f"{capital(self.w(expr))} chooses"

    def s_Choose(self, s: ast.Choose) -> Line:
        such = f" such that {self.w(s.where)}" if s.where is not None else ""
        action = ""
        if s.action is not None:
            label = self.words.label_of(s.action.name.name)
            name = f"“{label}”" if label else code(s.action.name.name)
            action = f", where {name} is allowed"
        prompt = f" (asked: “{s.prompt}”)" if s.prompt else ""
        forced = "; with only one to choose, it is taken without asking" if s.forced else ""
        skip = "; with none to choose, the rest of this part is skipped" if s.skip else ""
        article = "an" if self.words.each(s.var.name, s.source)[:1] in "aeiou" else "a"
        return Line(f"{self.chooser(s.chooser)} {article} {self.words.each(s.var.name, s.source)}"
                    f"{such}{action}{prompt}{forced}{skip}.")

    def s_Menu(self, s: ast.Menu) -> Line:
        prompt = f" (asked: “{s.prompt}”)" if s.prompt else ""
        if s.asked is not None:
            prompt = f" (asked: {self.w(s.asked)})"
        forced = " (with only one offered, it is taken without asking)" if s.forced else ""
        return Line(f"{self.chooser(s.chooser)} one{prompt}{forced}:", tuple(self.option(o) for o in s.options))

    def option(self, o: ast.Option) -> Line:
        only = f" (only if {self.w(o.when)})" if o.when is not None else ""
        return Line(f"“{o.label}”{only}:", self.block(o.body) or (Line("Nothing happens."),))

    # ------------------------------------------------------------ calls, effects, signals
    def s_CallStmt(self, s: ast.CallStmt) -> Line:
        """A procedure's own sentences under its name, its parameters bound as an effect's are;
        named only, when it is already being put into words or PROCEDURE_DEPTH deep."""
        procedure = self.model.procedures.get(s.name.name)
        if procedure is None:
            return Line(f"Do {self.words.call(s.name.name, s.args)}.")
        named = procedure.label and procedure.label != s.name.name
        body, unbound = _bound(self.model, procedure, s.args)
        bound = ", ".join(f"{code(p.name)} = {self.words.item(a)}" for p, a in unbound)
        head = f"Carry out {f'“{procedure.label}”' if named else code(s.name.name)}" + \
            (f" (with {bound})" if bound else "")
        key = f"procedure {s.name.name}"
        deep = sum(1 for k in self._expanding if k.startswith("procedure "))
        if key in self._expanding or deep >= PROCEDURE_DEPTH:
            return Line(f"{head}.")
        self._expanding.append(key)
        try:
            return Line(f"{head}:", self.block(body) or (Line("Nothing happens."),))
        finally:
            self._expanding.pop()


    def s_Activate(self, s: ast.Activate) -> Line:
        effect = self.model.effects.get(s.effect.name)
        args = f" for {self.words.items(s.args)}" if s.args else ""
        if effect is not None and s.args and len(effect.params) == len(s.args):
            bound = ", ".join(f"{code(p.name)} = {self.words.item(a)}" for p, a in zip(effect.params, s.args))
            args = f" (with {bound})"
        until = f"until {code(s.lifetime.name)}" if s.lifetime else "for the rest of the game"
        rules = self.effect_rules(effect) if effect is not None else ()
        return Line(f"{self.words.effect(s.effect.name)}{args} is in effect {until}:" if rules
                    else f"{self.words.effect(s.effect.name)}{args} is in effect {until}.", rules)

    def effect_rules(self, effect: ast.EffectDecl) -> tuple[Line, ...]:
        if effect.name.name in self._expanding:
            return (Line("(its rules as above)"),)
        self._expanding.append(effect.name.name)
        try:
            items = sorted((*effect.modifiers, *effect.forbids, *effect.triggers),
                           key=lambda n: (n.span.line, n.span.column))
            return tuple(self.item(i) for i in items)
        finally:
            self._expanding.pop()

    def item(self, node: ast.Node) -> Line:
        method = getattr(self, "i_" + type(node).__name__, None)
        return method(node) if method is not None else Line(cannot(node))

    def i_Modifier(self, m: ast.Modifier) -> Line:
        bounds = [f"at least {self.w(m.low)}"] if m.low is not None else []
        bounds += [f"at most {self.w(m.high)}"] if m.high is not None else []
        limits = f" ({', '.join(bounds)})" if bounds else ""
        when = f" when {self.w(m.when)}" if m.when is not None else ""
        names = ", ".join(n.name for n in m.names)
        return Line(f"{code(f'{m.quantity.name}({names})')} changes by {self.words.operand(m.delta)}"
                    f"{limits}{when}.")

    def i_Forbid(self, f: ast.Forbid) -> Line:
        actions = " or ".join(self._pattern(p) for p in f.patterns)
        return Line(f"Forbidden: {actions} when {self.w(f.when)}.")

    def _pattern(self, p: ast.ActionPattern) -> str:
        label = self.words.label_of(p.action.name)
        name = f"“{label}”" if label else code(p.action.name)
        return f"{name} ({', '.join(code(n.name) for n in p.names)})"

    def i_Trigger(self, t: ast.Trigger) -> Line:
        when = f" and {self.w(t.when)}" if t.when is not None else ""
        names = ", ".join(n.name for n in t.names)
        return Line(f"Whenever {code(f'{t.signal.name}({names})')} happens{when}:", self.block(t.body))

    def s_Cancel(self, s: ast.Cancel) -> Line:
        args = f" for {self.words.items(s.args)}" if s.args else ""
        return Line(f"End {self.words.effect(s.effect.name)}{args}.")

    def s_Expire(self, s: ast.Expire) -> Line:
        return Line(f"End every effect lasting until {code(s.lifetime.name)}.")

    def s_Emit(self, s: ast.Emit) -> Line:
        return Line(f"Announce {self.words.call(s.signal.name, s.args)} (for the triggers that hear it).")

    def s_Return(self, s: ast.Return) -> Line:
        return Line(f"The procedure ends, giving {self.w(s.value)}.")

    def s_Win(self, s: ast.Win) -> Line:
        if isinstance(s.player, ast.NoneLit):
            return Line(f"The game ends in a draw: “{s.reason}”.")
        who = "You win" if _is_you(s.player) else f"{capital(self.w(s.player))} wins"
        return Line(f"{who} the game: “{s.reason}”.")

    def s_Lose(self, s: ast.Lose) -> Line:
        who = " and ".join(self.words.item(p) for p in s.players)
        verb = "loses" if len(s.players) == 1 else "lose"
        return Line(f"{capital(who)} {verb} the game, and nobody wins: “{s.reason}”.")

    def s_Log(self, s: ast.Log) -> Line:
        where = "the log" if s.to is None else f"{self.w(s.to)}'s log alone"
        return Line(f"Write in {where}: {' '.join(self.words.item(p) for p in s.parts)}.")

    # ------------------------------------------------------------ test steps (never on a card)
    def s_DiceStep(self, s: ast.DiceStep) -> Line:
        return Line("Dice roll at random." if s.random else
                    f"The next dice roll {', '.join(str(v) for v in s.values)}.")

    def s_ChooseStep(self, s: ast.ChooseStep) -> Line:
        return Line(f"Choose {', '.join(f'“{i}”' for i in s.option_ids)}.")

    def s_ExpectOffered(self, s: ast.ExpectOffered) -> Line:
        word = "is not" if s.negated else "is"
        return Line(f"Expect that {', '.join(f'“{i}”' for i in s.option_ids)} {word} offered.")

    def s_ExpectOptions(self, s: ast.ExpectOptions) -> Line:
        if s.option_ids is None:
            return Line(f"Expect the number of options offered {s.op} {s.count}.")
        return Line(f"Expect exactly {', '.join(f'“{i}”' for i in s.option_ids)} offered.")

    def s_ParamStep(self, s: ast.ParamStep) -> Line:
        return Line(f"With param {code(s.name.name)} = {self.w(s.value)}.")

    def s_VariantStep(self, s: ast.VariantStep) -> Line:
        return Line(f"With variant {code(s.name.name)}.")

    def s_StartEffects(self, s: ast.StartEffects) -> Line:
        return Line(f"Start the lasting effects of {code(s.card.name)} for {code(s.player.name)}.")

    def s_StartStep(self, s: ast.StartStep) -> Line:
        return Line("Start the game.")

    def s_Expect(self, s: ast.Expect) -> Line:
        return Line(f"Expect that {self.w(s.test)}.")


def _guards_choice(test: ast.Expr, body: ast.Block) -> bool:
    """`if any(x in S where P) { you chooses x in S where P ... }`: the test only asks
    whether the choice has an option."""
    first = body.body[0] if body.body else None
    return (isinstance(test, ast.Quantifier) and test.kind == "any" and isinstance(first, ast.Choose)
            and test.var.name == first.var.name and shape(test.source) == shape(first.source)
            and shape(test.where) == shape(first.where))


def statement_words() -> set[str]:
    """The statement node classes put into words (the exhaustiveness test reads it)."""
    return {name[2:] for name in dir(Sentences) if name.startswith("s_")}


def _is_you(expr: ast.Expr) -> bool:
    return isinstance(expr, ast.NameRef) and expr.name == "you"


def _bound(model, procedure: ast.ProcedureDecl, args: tuple[ast.Expr, ...]) -> tuple[ast.Block, list]:
    """The procedure's body with each parameter passed `you`, `this` or a local reading that
    name, so it says "You choose"; the (parameter, argument) pairs left to state (a player or
    an entity by name, any other expression)."""
    body, unbound = procedure.body, []
    for param, arg in zip(procedure.params, args):
        plain = isinstance(arg, ast.NameRef) and arg.name not in model.players and arg.name not in model.entity_index
        renamed_body = renamed(body, param.name, arg.name) if plain else None
        if renamed_body is None:
            unbound.append((param, arg))
        else:
            body = renamed_body
    return body, unbound
