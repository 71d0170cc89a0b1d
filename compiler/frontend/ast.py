"""Typed, frozen AST nodes of the rulespec language, each with a source span.

It stays whole: every node class and the one walk over them, the language in one file.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Iterator, Union


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node came from: file, 1-based line and column, and its end."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def __reduce__(self):
        return (Span, (self.file, self.line, self.column, self.end_line, self.end_column))


NOWHERE = Span("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every node: walks its children generically."""

    span: Span

    def __reduce__(self):
        # Pickling (the parse cache) by constructor: far faster to load than
        # the generic per-field state of slotted dataclasses.
        return (type(self), tuple(getattr(self, name) for name in _all_fields(type(self))))

    def children(self) -> list[Node]:
        """The nodes directly under this one, in field order (a list: walks are hot)."""
        found: list[Node] = []
        for name in _child_fields(type(self)):
            value = getattr(self, name)
            if isinstance(value, Node):
                found.append(value)
            elif isinstance(value, tuple):
                for item in value:
                    if isinstance(item, Node):
                        found.append(item)
                    elif isinstance(item, tuple):
                        found.extend(x for x in item if isinstance(x, Node))
        return found

    def walk(self) -> Iterator[Node]:
        """This node and every node under it, parents before children, in field order.

        With a stack, not nested generators: a node deep in a rule is not passed up
        through one generator per level (the checks walk every rule several times)."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            children = node.children()
            children.reverse()
            stack.extend(children)

    def find_all(self, cls: type) -> Iterator[Node]:
        return (n for n in self.walk() if isinstance(n, cls))

    def dump(self, indent: int = 0) -> str:
        pad = "  " * indent
        scalars = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if f.name != "span" and not _holds_nodes(getattr(self, f.name))
        ]
        lines = [f"{pad}{type(self).__name__}({', '.join(scalars)})"]
        lines += [child.dump(indent + 1) for child in self.children()]
        return "\n".join(lines)


@functools.lru_cache(maxsize=None)
def _all_fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.lru_cache(maxsize=None)
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields that may hold child nodes: every field but the span (walks are hot)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.name != "span")


def _holds_nodes(value: object) -> bool:
    if isinstance(value, Node):
        return True
    return isinstance(value, tuple) and any(
        isinstance(v, (Node, tuple)) for v in value
    )


@dataclass(frozen=True, slots=True)
class Ident(Node):
    """A name written in the spec, kept with its span for error messages."""

    name: str


@dataclass(frozen=True, slots=True)
class TypeRef(Node):
    """A type: int, bool, str, player, region, zone, an enum or a kind; '?' allows none."""

    name: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Param(Node):
    """A typed parameter of a definition, procedure, action, signal or effect."""

    name: str
    type: TypeRef


# ---------------------------------------------------------------- expressions


class Expr(Node):
    """Base of expressions (marker only)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    """An integer literal."""

    value: int


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    """A string literal."""

    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    """true or false."""

    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit(Expr):
    """none: no player, no card, no space."""


@dataclass(frozen=True, slots=True)
class NameRef(Expr):
    """A bare name: a local, a parameter, a track, a var, an entity, a zone, a set."""

    name: str


@dataclass(frozen=True, slots=True)
class CallExpr(Expr):
    """name(args): a definition, a builtin, a counter or per-player track, a zone."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    """obj.name: an attribute of an entity."""

    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class AttrAt(Expr):
    """obj.name(key): an attribute that holds a value per value of an enum, at one of them."""

    obj: Expr
    name: str
    key: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    """not e."""

    operand: Expr


@dataclass(frozen=True, slots=True)
class Negate(Expr):
    """-e."""

    operand: Expr


@dataclass(frozen=True, slots=True)
class BinOp(Expr):
    """Arithmetic: + - * / (floor division) %."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class BoolOp(Expr):
    """and / or over two or more operands, short-circuit."""

    op: str
    operands: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    """A comparison: == != < <= > >=."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Member(Expr):
    """e in collection (or not in)."""

    element: Expr
    collection: Expr
    negated: bool


@dataclass(frozen=True, slots=True)
class Range(Expr):
    """lo..hi, inclusive: a collection of integers."""

    low: Expr
    high: Expr


@dataclass(frozen=True, slots=True)
class ListOf(Expr):
    """[a, b, c]: a collection of the values written, in that order."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Cond(Expr):
    """if c then a else b."""

    test: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True, slots=True)
class Quantifier(Expr):
    """count / any / all (x in collection where condition)."""

    kind: str
    var: Ident
    source: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class SumOf(Expr):
    """sum(value for x in collection where condition)."""

    value: Expr
    var: Ident
    source: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class Extreme(Expr):
    """max / min (value for x in collection where condition else default): the highest or
    lowest value, the default when no member is there; argmax / argmin: the member of the
    highest or lowest value, the first in the collection's order on a tie, none when none is there."""

    op: str
    value: Expr
    var: Ident
    source: Expr
    where: Expr | None
    default: Expr | None

    @property
    def member(self) -> bool:
        """Whether it gives the member (argmax, argmin) rather than the value."""
        return self.op.startswith("arg")

    @property
    def highest(self) -> bool:
        return self.op.endswith("max")


EXTREMES = ("max", "min", "argmax", "argmin")


@dataclass(frozen=True, slots=True)
class Reachable(Expr):
    """reachable(x from s where condition): s and the spaces joined to it by chains of
    adjacent spaces that each satisfy the condition, in declaration order."""

    var: Ident
    start: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class Allowed(Expr):
    """allowed action(args): no constraint or active effect forbids it."""

    action: Ident
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Active(Expr):
    """active effect or active effect(args): is such an instance in force."""

    effect: Ident
    args: tuple[Expr, ...] | None


# ---------------------------------------------------------------- statements


class Stmt(Node):
    """Base of statements (marker only)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Ref(Node):
    """An assignable place: a local, var, track, track(player) or counter(args)."""

    name: Ident
    args: tuple[Expr, ...] | None


@dataclass(frozen=True, slots=True)
class Block(Node):
    """A sequence of statements in braces."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    """let x = e: a new local."""

    name: Ident
    value: Expr


@dataclass(frozen=True, slots=True)
class SetStmt(Stmt):
    """set ref to e."""

    target: Ref
    value: Expr


@dataclass(frozen=True, slots=True)
class AddStmt(Stmt):
    """add n to ref (clamped to the ref's bounds)."""

    amount: Expr
    target: Ref


@dataclass(frozen=True, slots=True)
class RemoveStmt(Stmt):
    """remove n from ref (clamped to the ref's bounds)."""

    amount: Expr
    target: Ref


@dataclass(frozen=True, slots=True)
class Roll(Stmt):
    """roll x: a new local holding a six-sided die."""

    name: Ident


@dataclass(frozen=True, slots=True)
class RollDice(Stmt):
    """roll a, b from n dice: n dice sorted highest first into new locals (0 where none is left)."""

    names: tuple[Ident, ...]
    count: Expr


@dataclass(frozen=True, slots=True)
class MoveCard(Stmt):
    """move card to zone (on top); `move card to bottom of zone`: under the others."""

    card: Expr
    dest: Expr
    bottom: bool = False


@dataclass(frozen=True, slots=True)
class MoveAll(Stmt):
    """move all x in source where condition to zone."""

    var: Ident
    source: Expr
    where: Expr | None
    dest: Expr


@dataclass(frozen=True, slots=True)
class PickRandom(Stmt):
    """pick x at random in coll [where cond] [or skip]: a member drawn from the seeded stream."""

    var: Ident
    source: Expr
    where: Expr | None
    skip: bool = False  # with no member: the rest of the block skipped (else a rule error)


@dataclass(frozen=True, slots=True)
class Shuffle(Stmt):
    """shuffle zone."""

    zone: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    """reveal zone / conceal zone: switch its contents to public or back."""

    zone: Expr
    public: bool


@dataclass(frozen=True, slots=True)
class Show(Stmt):
    """show card [to player]: the card made known to everyone (or to one player) while it
    stays where it lies; its zone stays hidden."""

    card: Expr
    to: Expr | None


@dataclass(frozen=True, slots=True)
class CopyCounter(Stmt):
    """copy counter to counter: remember a whole counter at once."""

    source: Ident
    dest: Ident


@dataclass(frozen=True, slots=True)
class ClearCounter(Stmt):
    """clear counter: every cell back to 0."""

    counter: Ident


@dataclass(frozen=True, slots=True)
class If(Stmt):
    """if / else if / else."""

    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True, slots=True)
class For(Stmt):
    """for x in collection where condition { ... }."""

    var: Ident
    source: Expr
    where: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    """repeat n { ... }."""

    count: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class While(Stmt):
    """while condition { ... }."""

    test: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Break(Stmt):
    """break out of the innermost loop."""


@dataclass(frozen=True, slots=True)
class ActionRef(Node):
    """action(args) named by a choice, so constraints filter its options."""

    name: Ident
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    """player chooses x in collection where condition [as action(args)] "prompt"."""

    chooser: Expr
    var: Ident
    source: Expr
    where: Expr | None
    action: ActionRef | None
    prompt: str | None
    shows: tuple[Expr, ...] = ()  # the values the prompt names: "Keep {c} for 3 MC?"
    pieces: tuple[str, ...] = ()  # the prompt's text around them (one more than shows)
    skip: bool = False  # `or skip`: no option, no decision, the rest of the block skipped
    forced: bool = False  # `unless forced`: one option, no decision, the rules take it

    @property
    def asking(self) -> str:
        """The prompt as written (policies match it): its values still in braces."""
        return self.prompt or f"Choose {self.var.name}"

    @property
    def option_kind(self) -> str:
        """How the options are named, decided statically: int (a range), player or entity."""
        if isinstance(self.source, Range):
            return "int"
        if isinstance(self.source, NameRef) and self.source.name == "players":
            return "player"
        return "entity"


@dataclass(frozen=True, slots=True)
class Option(Node):
    """option id "label" [when condition] { ... } of a menu."""

    name: Ident
    label: str
    when: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class Menu(Stmt):
    """player chooses "prompt" { option ... }."""

    chooser: Expr
    prompt: str | None
    options: tuple[Option, ...]
    shows: tuple[Expr, ...] = ()  # the values the prompt names, as in Choose
    pieces: tuple[str, ...] = ()
    asked: Expr | None = None  # `p chooses (EXPR) { ... }`: a prompt made when it is asked
    forced: bool = False  # `unless forced`, as in Choose: one option offered runs it undecided

    @property
    def asking(self) -> str:
        """The prompt as written (policies match it): its values still in braces; a prompt
        made when asked has none (no `choosing "..."` rule names it)."""
        return "" if self.asked is not None else self.prompt or "Choose"


@dataclass(frozen=True, slots=True)
class CallStmt(Stmt):
    """procedure(args)."""

    name: Ident
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Resolve(Stmt):
    """resolve card for player: run the card's event with `you` = player;
    resolve action card for player: run the card's action instead."""

    card: Expr
    player: Expr
    action: bool = False


@dataclass(frozen=True, slots=True)
class Activate(Stmt):
    """activate effect(args) until lifetime."""

    effect: Ident
    args: tuple[Expr, ...]
    lifetime: Ident | None


@dataclass(frozen=True, slots=True)
class Cancel(Stmt):
    """cancel effect / cancel effect(args)."""

    effect: Ident
    args: tuple[Expr, ...] | None


@dataclass(frozen=True, slots=True)
class Expire(Stmt):
    """expire lifetime: end every effect activated until it."""

    lifetime: Ident


@dataclass(frozen=True, slots=True)
class Emit(Stmt):
    """emit signal(args): run the triggers of active effects listening to it."""

    signal: Ident
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Win(Stmt):
    """win player "reason" (win none: a draw): the game ends at once."""

    player: Expr
    reason: str


@dataclass(frozen=True, slots=True)
class Lose(Stmt):
    """lose p, q "reason": the game ends at once, those players lose and nobody wins."""

    players: tuple[Expr, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Log(Stmt):
    """log [to player] parts: a line in the game's log; `to`: written to that player alone."""

    parts: tuple[Expr, ...]
    to: Expr | None = None


@dataclass(frozen=True, slots=True)
class Return(Stmt):
    """return value: a procedure declared `-> T` ends, giving the value to its caller."""

    value: Expr


# ---------------------------------------------------------------- test steps


@dataclass(frozen=True, slots=True)
class DiceStep(Stmt):
    """dice 4, 3: the next die rolls; `dice random`: unqueued rolls use the seeded stream."""

    values: tuple[int, ...]
    random: bool = False


@dataclass(frozen=True, slots=True)
class ChooseStep(Stmt):
    """choose "id": answer the pending decisions, in order."""

    option_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExpectOffered(Stmt):
    """expect [not] offered "id": the pending decision does (not) offer them."""

    option_ids: tuple[str, ...]
    negated: bool
    message: str | None = None


@dataclass(frozen=True, slots=True)
class ExpectOptions(Stmt):
    """expect options == ["a", "b"]: the pending decision offers exactly these, in any order;
    expect count(options) OP n: it offers so many (`option_ids` None)."""

    option_ids: tuple[str, ...] | None
    op: str
    count: int
    message: str | None = None


@dataclass(frozen=True, slots=True)
class ParamStep(Stmt):
    """param NAME = VALUE: the test's game has this param value."""

    name: Name
    value: Expr


@dataclass(frozen=True, slots=True)
class VariantStep(Stmt):
    """variant NAME: the test runs with this variant on."""

    name: Name


@dataclass(frozen=True, slots=True)
class StartStep(Stmt):
    """start: run the game's `start` up to its first decision."""


@dataclass(frozen=True, slots=True)
class StartEffects(Stmt):
    """start effects of CARD for PLAYER: the `activate` statements written directly in the
    card's event, run as its play runs them (you = PLAYER, this = CARD), and nothing else."""

    card: Ident
    player: Ident


@dataclass(frozen=True, slots=True)
class Expect(Stmt):
    """expect condition "message"."""

    test: Expr
    message: str | None


# ---------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Modifier(Node):
    """modify quantity(x, y) by delta [min a] [max b] [when condition]."""

    quantity: Ident
    names: tuple[Ident, ...]
    delta: Expr
    low: Expr | None
    high: Expr | None
    when: Expr | None


@dataclass(frozen=True, slots=True)
class ActionPattern(Node):
    """action(x, y) in a forbid clause; the names bind the action's arguments."""

    action: Ident
    names: tuple[Ident, ...]


@dataclass(frozen=True, slots=True)
class Forbid(Node):
    """forbid action(x, y), ... when condition."""

    patterns: tuple[ActionPattern, ...]
    when: Expr


@dataclass(frozen=True, slots=True)
class Allow(Node):
    """allow action(x, y), ... when condition despite constraint, ...: in a card's `while in`
    block, the named constraints' forbids do not hold for these actions while it does."""

    patterns: tuple[ActionPattern, ...]
    when: Expr
    constraints: tuple[Ident, ...]


@dataclass(frozen=True, slots=True)
class Trigger(Node):
    """on signal(x, y) [when condition] { ... }."""

    signal: Ident
    names: tuple[Ident, ...]
    when: Expr | None
    body: Block


# ---------------------------------------------------------------- declarations


class Decl(Node):
    """Base of top-level declarations (marker only)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class GameDecl(Decl):
    """game id "Title"."""

    name: Ident
    title: str


@dataclass(frozen=True, slots=True)
class PlayerItem(Node):
    """One player of `players`."""

    name: Ident
    label: str


@dataclass(frozen=True, slots=True)
class PlayersDecl(Decl):
    """players a "A", b "B" [seats 2 in 1..5]: the sides, in turn order.

    With `seats`, only the first N of them take part, N the param `players`
    (default, low, high): the collection `players`, `opponent`, the agents and
    the views all see the seated players only."""

    players: tuple[PlayerItem, ...]
    seats: tuple[Expr, Expr, Expr] | None = None  # default, low, high


@dataclass(frozen=True, slots=True)
class ParamDecl(Decl):
    """param name: type = default [in low..high | in {choices}] "doc": set with --param name=value."""

    name: Ident
    type: TypeRef
    default: Expr
    doc: str | None
    low: Expr | None = None
    high: Expr | None = None
    choices: tuple[Expr, ...] = ()


@dataclass(frozen=True, slots=True)
class EnumDecl(Decl):
    """enum name [(fields)] { a [(attributes)], b, c }: with fields, each value carries data,
    read `v.field` (its attributes, else the field's default)."""

    name: Ident
    values: tuple[Ident, ...]
    fields: tuple[Field, ...] = ()
    data: tuple[tuple[AttributeValue, ...], ...] = ()  # each value's attributes, in order


@dataclass(frozen=True, slots=True)
class TrackDecl(Decl):
    """track name "Label" [per player] [on ENUM] lo..hi start n [except VALUE lo..hi, …] [hidden|owner|public].

    With `on ENUM` the track holds one number per value of the enum (per player: per
    player and value); `except` gives some values bounds of their own."""

    name: Ident
    label: str
    per_player: bool
    low: int
    high: int
    start: int
    on: Ident | None = None
    bounds: tuple[TrackBound, ...] = ()
    flag: bool = False  # `flag NAME "label" per player`: holds false or true (kept as 0 or 1)
    visibility: str = "public"  # who sees it at the table: public, owner (per player) or hidden


@dataclass(frozen=True, slots=True)
class TrackBound(Node):
    """`except VALUE lo..hi` of a track on an enum: that value's own bounds."""

    value: Ident
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class VarDecl(Decl):
    """var name: type = initial."""

    name: Ident
    type: TypeRef
    initial: Expr


@dataclass(frozen=True, slots=True)
class ZoneDecl(Decl):
    """zone name "Label" [per player] hidden|owner|public [ordered]."""

    name: Ident
    label: str
    per_player: bool
    visibility: str
    ordered: bool


@dataclass(frozen=True, slots=True)
class CounterDecl(Decl):
    """counter name "Label" [per player] on kind: a number on each space."""

    name: Ident
    label: str
    per_player: bool
    kind: Ident
    flag: bool = False  # `flag NAME ... on KIND`: holds false or true (kept as 0 or 1)


@dataclass(frozen=True, slots=True)
class Field(Node):
    """An attribute a kind declares, with an optional default; `on ENUM`: a value per value of
    the enum (the default is each one's)."""

    name: Ident
    type: TypeRef
    default: Expr | None
    on: Ident | None = None


@dataclass(frozen=True, slots=True)
class KindDecl(Decl):
    """kind name: space|card|region(fields) [per player]; a card kind `per player` has one
    instance of each of its cards per player."""

    name: Ident
    category: str
    fields: tuple[Field, ...]
    per_player: bool = False


@dataclass(frozen=True, slots=True)
class LifetimesDecl(Decl):
    """lifetimes a, b: the names effects may last until."""

    names: tuple[Ident, ...]


@dataclass(frozen=True, slots=True)
class ActionDecl(Decl):
    """action name(params) "Label": a kind of move constraints can forbid."""

    name: Ident
    params: tuple[Param, ...]
    label: str


@dataclass(frozen=True, slots=True)
class SignalDecl(Decl):
    """signal name(params) ["label"]: something that happens, for triggers to hear; the label
    names the use of a card it stands for, in the simulation's card table."""

    name: Ident
    params: tuple[Param, ...]
    label: str | None = None


@dataclass(frozen=True, slots=True)
class ConstraintDecl(Decl):
    """constraint name "Label" { forbid ... }: always in force."""

    name: Ident
    label: str
    forbids: tuple[Forbid, ...]


@dataclass(frozen=True, slots=True)
class EffectDecl(Decl):
    """effect name(params) "Label" { modify / forbid / on ... }: in force while active."""

    name: Ident
    params: tuple[Param, ...]
    label: str
    modifiers: tuple[Modifier, ...]
    forbids: tuple[Forbid, ...]
    triggers: tuple[Trigger, ...]


@dataclass(frozen=True, slots=True)
class DefineDecl(Decl):
    """define name(params) [-> type] = expression: a derived rule."""

    name: Ident
    params: tuple[Param, ...]
    type: TypeRef | None
    body: Expr


@dataclass(frozen=True, slots=True)
class QuantityDecl(Decl):
    """quantity name(params) = base: a number that effects may modify."""

    name: Ident
    params: tuple[Param, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class ProcedureDecl(Decl):
    """procedure, phase, setup or start: statements run by the engine."""

    role: str
    name: Ident
    label: str
    params: tuple[Param, ...]
    body: Block
    returns: TypeRef | None = None  # `procedure f(...) -> T`: every path ends in `return EXPR`


@dataclass(frozen=True, slots=True)
class InvariantDecl(Decl):
    """invariant name "Label" = condition: must hold after every decision."""

    name: Ident
    label: str
    test: Expr


@dataclass(frozen=True, slots=True)
class TallyDecl(Decl):
    """tally name "label" = number: a figure of the spec's own data, reported by `info`."""

    name: Ident
    label: str
    value: Expr


@dataclass(frozen=True, slots=True)
class AssertDecl(Decl):
    """assert name "message" = condition: a rule about the spec's own data, checked by `check`."""

    name: Ident
    label: str
    test: Expr


@dataclass(frozen=True, slots=True)
class BalanceBotDecl(Decl):
    """balance bot "AGENT": the bot simulate and the balance runs play without --agents."""

    agent: str


@dataclass(frozen=True, slots=True)
class BotDecl(Decl):
    """bot name "Label" = value: how good a position is for `you`, for the search bots."""

    name: Ident
    label: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Tunable(Node):
    """tunable name = default [in low..high] ["label"]: a policy's named number, tuned by play."""

    name: Ident
    default: IntLit
    low: IntLit | None
    high: IntLit | None
    label: str | None


@dataclass(frozen=True, slots=True)
class Weight(Node):
    """weight N / weight name / weight name = default in low..high: what a line's value counts."""

    value: Expr  # an IntLit or a NameRef of a tunable
    declares: Tunable | None  # the inline form declares the tunable it names


@dataclass(frozen=True, slots=True)
class Preference(Node):
    """prefer value / avoid value: one tier of a choice rule (higher first; avoid: lower first);
    consecutive weighted lines make one tier, their weighted values summed. `never value` is
    an avoid line (its value a truth) that also marks the options no search may consider."""

    avoid: bool
    value: Expr
    weight: Weight | None = None
    never: bool = False


@dataclass(frozen=True, slots=True)
class OptionPreference(Node):
    """prefer a, b [when condition] / avoid a: one tier of a menu rule, over option names;
    `never a [when condition]`: an avoid line that also marks them for no search to consider."""

    avoid: bool
    options: tuple[Ident, ...]
    when: Expr | None
    weight: Weight | None = None
    never: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceRule(Node):
    """choosing x: type [as action] ["prompt", ...] { prefer ... }: for the `chooses` it matches
    (asking any of the prompts; no prompt: any)."""

    var: Ident
    type: TypeRef
    action: Ident | None
    prompts: tuple[str, ...]
    prefs: tuple[Preference, ...]
    prompt_spans: tuple[Span, ...] = ()  # where each prompt is written, for an error about one


@dataclass(frozen=True, slots=True)
class MenuRule(Node):
    """choosing "prompt", ... { prefer option ... }: for the menus asking one of those prompts."""

    prompts: tuple[str, ...]
    prefs: tuple[OptionPreference, ...]
    prompt_spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class PolicyDecl(Decl):
    """policy name "Label" [extends base] { choosing ... }: preferences over offered options."""

    name: Ident
    label: str
    extends: Ident | None
    rules: tuple[Node, ...]
    tunables: tuple[Tunable, ...] = ()  # the `tunable` lines (inline `weight` ones are in rules)

    def declared_tunables(self) -> list[Tunable]:
        """Every tunable this policy declares, on its own line or in a `weight`, in source order."""
        found = list(self.tunables) + [w.declares for r in self.rules for p in r.prefs
                                      for w in [p.weight] if w is not None and w.declares is not None]
        return sorted(found, key=lambda t: (t.span.line, t.span.column))


@dataclass(frozen=True, slots=True)
class RequireConnected(Node):
    """require connected: the map graph must be connected."""


@dataclass(frozen=True, slots=True)
class RequireInRegion(Node):
    """require every kind in region: each such space sits in a region."""

    kind: Ident


@dataclass(frozen=True, slots=True)
class MapDecl(Decl):
    """map { require ... }: what the map graph must satisfy."""

    rules: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Placement(Node):
    """name [(player)] at x, y in a board: where a space or a zone is drawn."""

    target: Ident
    player: Ident | None
    x: int
    y: int
    hex: bool = False  # `at hex q, r`: x and y are the axial coordinates q, r of the board's grid

    @property
    def key(self) -> str:
        """The name a table knows it by: a space id, a zone, or zone(player)."""
        return self.target.name + (f"({self.player.name})" if self.player else "")


@dataclass(frozen=True, slots=True)
class BoardColour(Node):
    """name colour "#rrggbb" in a board: the fill of a region's or a space's spaces."""

    target: Ident
    colour: str


@dataclass(frozen=True, slots=True)
class BoardDecl(Decl):
    """board W by H [show attributes] { placements }: the table's layout, for play surfaces only."""

    width: int
    height: int
    shows: tuple[Ident, ...]
    places: tuple[Placement, ...]
    hex_size: int = 0  # `hex SIZE from X, Y`: a hex's centre-to-corner size; 0: no hex grid
    hex_origin: tuple[int, int] = (0, 0)  # where hex 0, 0 lies
    colours: tuple[BoardColour, ...] = ()


@dataclass(frozen=True, slots=True)
class ChangesDecl(Decl):
    """changes test "a", "b": in a variant, the base tests it is meant to break."""

    tests: tuple[str, ...]
    test_spans: tuple[Span, ...] = ()  # where each name is written, for an error about one


@dataclass(frozen=True, slots=True)
class TestDecl(Decl):
    """test "name" { steps }: a designer test, run on both back ends."""

    name: str
    steps: tuple[Stmt, ...]
    number: int = 0  # its place among the tests of its file: its stable key

    def variants(self) -> frozenset[str]:
        """The variants the test turns on for itself."""
        return frozenset(s.name.name for s in self.steps if isinstance(s, VariantStep))


@dataclass(frozen=True, slots=True)
class AttributeValue(Node):
    """name value in an entity's attribute list (a bare name means true); for an attribute
    `on ENUM`, name (value n, ...)."""

    name: Ident
    value: Expr | PerValue


@dataclass(frozen=True, slots=True)
class ValueAt(Node):
    """value n in an attribute's per-value list: the number (or literal) at one enum value."""

    key: Ident
    value: Expr


@dataclass(frozen=True, slots=True)
class PerValue(Node):
    """(value n, ...): an entity's values of an attribute `on ENUM`; the rest take the default."""

    items: tuple[ValueAt, ...]


@dataclass(frozen=True, slots=True)
class EventBlock(Node):
    """event [when condition] { ... } of a card."""

    when: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class Ability(Node):
    """while in zone, ... { modify / forbid / on ... } of a card: in force while the card lies
    in one of the zones (for a zone per player, its owner's); `this` is the card."""

    zones: tuple[Ident, ...]
    modifiers: tuple[Modifier, ...]
    forbids: tuple[Forbid, ...]
    triggers: tuple[Trigger, ...]
    allows: tuple[Allow, ...] = ()

    def items(self) -> tuple[Node, ...]:
        """Its modifiers, forbids, triggers and allows in source order."""
        return tuple(sorted(self.modifiers + self.forbids + self.triggers + self.allows,
                            key=lambda n: (n.span.line, n.span.column)))


@dataclass(frozen=True, slots=True)
class EntityDecl(Decl):
    """kind id "Label" (attributes) in regions adjacent spaces { event  while in ...  action }."""

    kind: Ident
    name: Ident
    label: str
    attributes: tuple[AttributeValue, ...]
    regions: tuple[Ident, ...]
    adjacent: tuple[Ident, ...]
    events: tuple[EventBlock, ...]
    abilities: tuple[Ability, ...] = ()
    actions: tuple[ActionBlock, ...] = ()
    copies: int | None = None  # `copies N`: N entities of this text, ids name_1 .. name_N (copy_ids)


@dataclass(frozen=True, slots=True)
class ActionBlock(Node):
    """action [when condition] { ... } of a card: what using the card does, beside its event."""

    when: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class SpecFile(Node):
    """One parsed .rules file."""

    path: str
    decls: tuple[Decl, ...]


@dataclass(frozen=True, slots=True)
class Spec(Node):
    """A whole game: every file of its folder, in path order."""

    files: tuple[SpecFile, ...]

    def decls(self) -> Iterator[Decl]:
        for f in self.files:
            yield from f.decls


AnyExpr = Union[
    IntLit, StrLit, BoolLit, NoneLit, NameRef, CallExpr, Attr, AttrAt, Not, Negate,
    BinOp, BoolOp, Compare, Member, Range, ListOf, Cond, Quantifier, SumOf, Extreme, Reachable,
    Allowed, Active,
]


# ---------------------------------------------------------------- overlays


@dataclass(frozen=True, slots=True)
class LinkDecl(Decl):
    """link a -- b: an adjacency added to both spaces (base or variant)."""

    first: Ident
    second: Ident


@dataclass(frozen=True, slots=True)
class VariantDecl(Decl):
    """variant id "Label": opens a variant file."""

    name: Ident
    label: str


@dataclass(frozen=True, slots=True)
class ExcludesDecl(Decl):
    """excludes a, b "why": in a variant, the variants it cannot be combined with."""

    variants: tuple[Ident, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ReplaceDecl(Decl):
    """replace <declaration>: a variant's version of a base declaration."""

    decl: Decl


@dataclass(frozen=True, slots=True)
class EventDecl(Decl):
    """event card [when condition] { ... }: a card's event written apart from its data."""

    card: Ident
    when: Expr | None
    body: Block


@dataclass(frozen=True, slots=True)
class RemoveDecl(Decl):
    """remove name: a variant drops a base declaration."""

    name: Ident


def copy_ids(decl: EntityDecl) -> tuple[Ident, ...]:
    """The ids an entity declaration gives its entities: its name, or with `copies N` the
    name and a number, name_1 .. name_N (each at the declaration's name)."""
    if decl.copies is None or decl.copies < 2:
        return (decl.name,)
    return tuple(Ident(decl.name.span, f"{decl.name.name}_{i}") for i in range(1, decl.copies + 1))


def node_classes(base: type) -> list[type]:
    """Every node class below `base`, in source order: what a back end must handle."""
    return [c for c in globals().values()
            if isinstance(c, type) and issubclass(c, base) and c is not base]
