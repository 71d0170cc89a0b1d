"""The expression emitter: one `emit_<Node>` method per expression node, Python out.

An emitted expression is a `Code` (code.py): its text, its precedence (so
operands are parenthesised only when Python needs it), whether it is surely a
bool, and what else is known (a constant's value, a fresh list, a set twin);
operations on constants fold.
It stays whole: one method per expression node, as the exhaustive visitor the
interpreter mirrors, is easier to check against it in one file than split.
Names resolve as in the interpreter: comprehension bindings, then the
routine's locals, then the game's globals. A local that may still be unbound
where it is read falls back to the global (or to the interpreter's "unknown
name" error) at run time, exactly like the interpreter's environment lookup.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from rulespec.runtime.values import zone_value

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.backends.codegen.analysis import Routine, may_grow
from rulespec.compiler.backends.codegen.code import (ARITHMETIC, COMPARISONS, P_ADD, P_AND, P_ATOM, P_CMP, P_COND, P_MUL, P_NOT, P_OR,
                   P_UNARY, Code, Table, fold_arithmetic, fold_comparison, numbers)
from rulespec.compiler.backends.codegen.context import Gen
from rulespec.compiler.backends.codegen.dialect import PYTHON, PythonDialect
from rulespec.compiler.backends.codegen.kept import KEPT_MIN_MEMBERS, Kept, free_names, is_rule_call
from rulespec.compiler.backends.codegen.names import mangle
from rulespec.compiler.backends.codegen.walks import Loop


# The modules whose any and all walk in a helper (walks.py); tests.py keeps its generator
# expressions (read once a designer test, and simplest as written).
WALKING = ("rules", "procedures")


class Scope:
    """How the names of one routine read: bindings, then locals, then globals.

    style: "py" (locals are Python locals), "slot" (L[i] of a frame), "dict"
    (L['name'] of a designer test's environment) or "none" (no locals).
    """

    def __init__(self, style: str = "none", routine: Routine | None = None,
                 bindings: list[tuple[str, str, bool]] | None = None):
        self.style = style
        self.routine = routine
        self.locals: set[str] = set(routine.locals) if routine else set()
        self.definite: set[str] = set(routine.params) if routine and style != "dict" else set()
        self.nonnull: set[str] = set(routine.nonnull) if routine else set()
        self.maybe: set[str] = set()  # locals read or written while perhaps unbound
        self._bindings: list[tuple[str, str, bool]] = list(bindings or [])

    def binding(self, name: str) -> tuple[str, bool] | None:
        for bound, code, nonnull in reversed(self._bindings):
            if bound == name:
                return code, nonnull
        return None

    def push(self, name: str, code: str, nonnull: bool = True) -> None:
        self._bindings.append((name, code, nonnull))

    def pop(self) -> None:
        self._bindings.pop()

    def is_local(self, name: str) -> bool:
        return name in self.locals

    def local(self, name: str) -> str:
        if self.style == "py":
            return mangle("local", name)
        if self.style == "slot":
            return f"L[{self.routine.slots[name]}]"
        if self.style == "dict":
            return f"L[{name!r}]"
        raise InternalError(f"no locals in this scope, yet '{name}' is one")

    def is_definite(self, name: str) -> bool:
        return self.style != "dict" and name in self.definite

    def hidden(self, stmt: ast.Stmt, offset: int = 0) -> str:
        """A slot of the frame that a suspending loop keeps its state in."""
        if self.style == "dict":
            return f"L[{'@loop%d_%d' % (self.routine.hidden[id(stmt)], offset)!r}]"
        return f"L[{self.routine.hidden[id(stmt)] + offset}]"


class ExprEmitter:
    """Emits expressions of one scope; `gen.ref` records every table it uses; `dialect` writes
    what depends on the target's values (dialect.py)."""

    def __init__(self, gen: Gen, scope: Scope, dialect: PythonDialect = PYTHON):
        self.gen = gen
        self.model = gen.model
        self.scope = scope
        self.dialect = dialect

    # ------------------------------------------------------------ entry points
    def emit(self, node: ast.Expr) -> Code:
        method = getattr(self, "emit_" + type(node).__name__, None)
        if method is None:
            raise InternalError(f"code generation does not handle {type(node).__name__} at {node.span}")
        try:
            return method(node)
        except (IndexError, KeyError, TypeError, AttributeError) as err:
            raise InternalError(f"cannot generate {type(node).__name__} at {node.span}"
                                f" (does the spec check?): {type(err).__name__}: {err}") from err

    def value(self, node: ast.Expr) -> str:
        return self.emit(node).text

    def truth(self, node: ast.Expr) -> Code:
        """An expression whose truth alone matters (if, while, where): no bool() needed."""
        if isinstance(node, ast.BoolOp):
            return self._boolop(node, [self.truth(o) for o in node.operands], wrap=False)
        if isinstance(node, ast.Not):
            return self._not(self.truth(node.operand))
        return self.emit(node)

    def test(self, node: ast.Expr) -> str:
        return self.truth(node).text

    def loc(self, node: ast.Node) -> str:
        return repr(self.gen.loc(node))

    def ref(self, name: str) -> str:
        return self.gen.ref(name)

    # ------------------------------------------------------------ literals
    def emit_IntLit(self, node: ast.IntLit) -> Code:
        return Code.constant(node.value)

    def emit_StrLit(self, node: ast.StrLit) -> Code:
        return self.dialect.value(node.value)

    def emit_BoolLit(self, node: ast.BoolLit) -> Code:
        return Code.constant(node.value)

    def emit_NoneLit(self, node: ast.NoneLit) -> Code:
        return self.dialect.value(None)

    # ------------------------------------------------------------ names
    def emit_NameRef(self, node: ast.NameRef) -> Code:
        return self.dispatch(node.name, lambda: self.global_value(node), self.bound_value)

    def bound_value(self, text: str) -> Code:
        """A binding's text; an entity's constant (a card's `this` in its ability) as one."""
        index = self.gen.this_constants.get(text)
        return Code(text) if index is None else self.entity(index)

    def dispatch(self, name: str, static: Callable[[], Code], dynamic: Callable[[str], Code]) -> Code:
        """A name read as the interpreter does: a binding or local if bound, else global."""
        bound = self.scope.binding(name)
        if bound is not None:
            return dynamic(bound[0])
        if not self.scope.is_local(name):
            return static()
        local = self.scope.local(name)
        if self.scope.is_definite(name):
            return dynamic(local)
        self.scope.maybe.add(name)
        if self.scope.style == "dict":
            return Code(f"{dynamic(local).at(P_OR)} if {name!r} in L else {static().at(P_COND)}", P_COND)
        unbound = self.ref("UNBOUND")
        return Code(f"{static().at(P_OR)} if {local} == {unbound} else {dynamic(local).at(P_COND)}",
                    P_COND)

    def global_value(self, node: ast.NameRef) -> Code:
        """A name no local binds: track, var, param, player, entity, enum value, zone, builtin."""
        name, model = node.name, self.model
        if name in model.tracks:
            return self.dialect.track(self, name, None)
        if name in model.var_index:
            return self.dialect.var(self, name)
        if name in model.params:
            return self.dialect.param(self, name)
        if name in model.players:
            return Code.constant(model.players.index(name))
        if name in model.entity_index:
            return self.entity(model.entity_index[name])
        if name in model.enum_of_value:
            return self.dialect.value(name)
        if name in model.zones:
            return self.dialect.value(zone_value(model.zones[name].slot))
        if name == "game_over":
            return self.dialect.game_over(self)
        if name == "winner":
            return Code(f"{self.ref('winner_of')}(state)")
        if name == "losers":
            return Code(f"{self.ref('losers_of')}(state)")
        if name == "deciding":
            return Code(f"{self.ref('deciding_of')}(state)")
        if name == "end_reason":
            return Code(f"{self.ref('end_reason_of')}(state)")
        return Code(f"{self.ref('unknown_name')}({name!r}, {self.loc(node)})")

    def is_global_entity(self, node: ast.Expr) -> bool:
        """A name that surely means an entity: no local or binding can shadow it here."""
        return (isinstance(node, ast.NameRef) and node.name in self.model.entity_index
                and not self.scope.is_local(node.name) and self.scope.binding(node.name) is None
                and not any(node.name in d for d in (self.model.tracks, self.model.var_index,
                                                     self.model.params))
                and node.name not in self.model.players)

    def nonnull(self, node: ast.Expr) -> bool:
        """Whether an expression surely is not none (so attributes need no check)."""
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.BoolLit)):
            return True
        if isinstance(node, ast.CallExpr) and node.name in self.model.instances:
            return self.nonnull(node.args[0])  # card(p): an entity whenever p is a player
        if not isinstance(node, ast.NameRef):
            return False
        bound = self.scope.binding(node.name)
        if bound is not None:
            return bound[1]
        if self.scope.is_local(node.name):
            return self.scope.is_definite(node.name) and node.name in self.scope.nonnull
        return node.name in self.model.entity_index or node.name in self.model.players

    def is_simple(self, node: ast.Expr) -> bool:
        """Cheap and pure enough to evaluate twice."""
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
            return True
        if isinstance(node, ast.NameRef):
            if self.scope.binding(node.name) is not None:
                return True
            if self.scope.is_local(node.name):
                return self.scope.is_definite(node.name)
            return True
        return False

    # ------------------------------------------------------------ calls
    def args(self, nodes: tuple[ast.Expr, ...], width: int | None = None, kept: bool = False) -> list[str]:
        """Arguments as the interpreter binds them: extra ones dropped, missing ones unbound;
        kept: a routine or effect keeps them, so each is held to the bound of whole numbers
        (a define's are not: it keeps nothing, and what it gives is checked where it is kept)."""
        codes = [self.kept(a) if kept else self.value(a) for a in nodes]
        if width is None:
            return codes
        codes = codes[:width]
        return codes + [self.ref("UNBOUND")] * (width - len(codes))

    def kept(self, node: ast.Expr) -> str:
        """A value a rule keeps (a local, var, counter or argument): bound-checked when it may
        grow past the bound of whole numbers (rulespec.runtime.values.bounded, analysis.may_grow)."""
        code = self.emit(node)
        if code.is_constant or not may_grow(self.model, node):
            return code.text
        return f"{self.ref('bounded')}({code.text}, {self.loc(node)})"

    def emit_CallExpr(self, node: ast.CallExpr) -> Code:
        name, model = node.name, self.model
        if name in ("size", "top"):
            if name == "size":
                return self.dialect.zone_size(self, node.args[0])
            return Code(f"{self.ref('top_card')}(state, {self.zone_slot(node.args[0]).text})")
        if name in model.defines:
            inlined = self._inlined(model.defines[name], node.args)
            if inlined is not None:
                return inlined
            return self._call(self.gen.defines[name], node.args, len(model.defines[name].params))
        if name in model.quantities:
            return self._call(self.gen.quantities[name], node.args, len(model.quantities[name].params))
        if name in model.procedures:  # the whole value of let, set or return: a plain function
            routine = self.gen.by_key[f"procedure {name}"]
            args = self.args(node.args, len(routine.params), kept=True)
            return Code(f"{self.ref(routine.plain_name)}({', '.join(['state'] + args)})")
        if name in model.counters:
            return self.dialect.counter(self, name, node.args)
        if name in model.tracks:
            return self.dialect.track(self, name, node.args)
        if name in model.zones:
            slot = self.offset(model.zones[name].slot, node.args[0])
            if slot.number is not None:
                return self.dialect.value(zone_value(slot.number))
            return Code(f"{self.ref('zone_value')}({slot.text})")
        if name in model.instances:
            return self._instance(model.instances[name], node.args[0])
        builtin = getattr(self, "builtin_" + name, None)
        if builtin is not None:
            return builtin(node)
        return Code(f"{self.ref('unknown_function')}({name!r}, {self.loc(node)})")

    def _inlined(self, decl: ast.DefineDecl, args: tuple[ast.Expr, ...]) -> Code | None:
        """A small define's body in place of the call (a Python call costs more than most
        bodies), when that is the same computation. Arguments are evaluated where the body
        reads them, so each must be simple (pure, cannot fail: read twice or never, the
        same), except at most one read once, by the first thing the body evaluates (then
        it is evaluated first, as the call would). The body binds no names of its own (a
        comprehension's variable could capture an argument's text); its other names resolve
        in the define's own scope, as in its function."""
        params = [p.name for p in decl.params]
        body = self._plain_body(decl)
        if (len(args) != len(params) or not inlinable(body) or decl.name.name in self.gen.inlining
                or len(self.gen.inlining) >= INLINE_DEPTH):
            return None
        loose = [p for p, a in zip(params, args) if not self.is_simple(a)]
        if len(loose) > 1 or (loose and not evaluated_first(body, loose[0])):
            return None
        bindings = []
        for param, arg in zip(params, args):
            code = self.emit(arg)
            bindings.append((param, code.at(P_ATOM), self.nonnull(arg)))
        self.gen.inlining.append(decl.name.name)
        try:
            return type(self)(self.gen, Scope("none", bindings=bindings), self.dialect).emit(body)
        finally:
            self.gen.inlining.pop()

    def _plain_body(self, decl: ast.DefineDecl) -> ast.Expr:
        """A define's body, unrolled when it is an any/all over a small kind (then it binds no
        name: it may be inlined), as its own function's scope (its parameters bound) reads it."""
        if not isinstance(decl.body, ast.Quantifier):
            return decl.body
        own = type(self)(self.gen, Scope("none", bindings=[(p.name, "", True) for p in decl.params]), self.dialect)
        return own._unrolled(decl.body) or decl.body

    def _call(self, function: str, args: tuple[ast.Expr, ...], width: int) -> Code:
        return Code(f"{self.ref(function)}({', '.join(['state'] + self.args(args, width))})")

    def offset(self, slot: int, arg: ast.Expr) -> Code:
        """slot + arg, folded when the argument is a constant."""
        code = self.emit(arg)
        if code.number is not None:
            return Code.constant(slot + code.number)
        if slot == 0:
            return code
        return Code(f"{slot} + {code.at(P_ADD + 1)}", P_ADD)

    def track_slot(self, name: str, args: tuple[ast.Expr, ...]) -> tuple[Code, int | None]:
        """The slot of a track's cell (`t(p)`; on an enum `t(p, value)` or `t(value)`) and,
        on an enum, the value's place when it is a constant (else None)."""
        model = self.model
        track = model.tracks[name]
        if name not in model.track_values:
            return (self.offset(track.slot, args[0]) if track.per_player else Code.constant(track.slot)), None
        width = len(model.players) if track.per_player else 1
        value = self.emit(args[-1])
        index = model.track_value_index(name, value.value) if value.is_constant else None
        if index is not None:
            base = track.slot + index * width
            return (self.offset(base, args[0]) if track.per_player else Code.constant(base)), index
        enum = model.enum_of_value.get(model.track_values[name][0], "")
        place = f"{self.ref(self.gen.enum_index[enum])}[{value.text}]"
        cell = f"{track.slot} + {place} * {width}" if width > 1 else f"{track.slot} + {place}"
        if track.per_player:
            cell += f" + {self.emit(args[0]).at(P_ADD + 1)}"
        return Code(cell, P_ADD), None

    def builtin_opponent(self, node: ast.CallExpr) -> Code:
        player = self.emit(node.args[0])
        seats = self.seat_count()
        if player.number is not None and seats.is_constant:
            return Code.constant((player.number + 1) % seats.value)
        if self.nonnull(node.args[0]):
            return Code(f"({player.at(P_ADD)} + 1) % {seats.at(P_MUL + 1)}", P_MUL)
        if self.is_simple(node.args[0]):  # opponent(none) is none, without a call
            none = self.dialect.value(None).text
            return Code(f"{none} if {self.dialect.none_test(player).text} else ({player.at(P_ADD)} + 1)"
                        f" % {seats.at(P_MUL + 1)}", P_COND)
        return Code(f"{self.ref('opponent_of')}({player.text}, {seats.text})")  # opponent(none) is none

    def seat_count(self) -> Code:
        """How many players take part: the seat param when the spec declares one."""
        if self.model.seats is None:
            return Code.constant(self.gen.players)
        return self.dialect.param(self, self.model.seats.name.name)

    def seated(self) -> Code:
        """The players taking part, as a collection."""
        if self.model.seats is None:
            return Code(self.ref("PLAYERS"))
        return Code(f"range({self.seat_count().text})")

    def builtin_adjacent(self, node: ast.CallExpr) -> Code:
        return self.dialect.adjacent(self, self.value(node.args[0]))

    def builtin_min(self, node: ast.CallExpr) -> Code:
        return self._fold("min", node)

    def builtin_max(self, node: ast.CallExpr) -> Code:
        return self._fold("max", node)

    def _fold(self, function: str, node: ast.CallExpr) -> Code:
        args = [self.emit(a) for a in node.args]
        if len(args) == 1:  # min([x]) is x itself
            return args[0]
        values = numbers(args)
        if values is not None:
            return Code.constant(min(values) if function == "min" else max(values))
        return Code(f"{function}({', '.join(a.text for a in args)})")

    def builtin_abs(self, node: ast.CallExpr) -> Code:
        number = self.emit(node.args[0])
        if number.number is not None:
            return Code.constant(abs(number.number))
        return Code(f"abs({number.text})")

    def _instance(self, instances: tuple[int, ...], player: ast.Expr) -> Code:
        """name(p): p's instance of a card of a kind `per player` (a constant tuple, indexed)."""
        code = self.emit(player)
        if code.number is not None and 0 <= code.number < len(instances):
            return self.entity(instances[code.number])
        return Code(f"{instances!r}[{code.text}]")

    def builtin_owner(self, node: ast.CallExpr) -> Code:
        card = self.emit(node.args[0])
        owners = self.model.entity_owner
        if card.number is not None and 0 <= card.number < len(owners) and owners[card.number] is not None:
            return Code.constant(owners[card.number])
        if self.nonnull(node.args[0]) and None not in owners:
            return Code(f"{self.ref('OWNER')}[{card.text}]")
        return Code(f"{self.ref('owner_of')}({self.ref('OWNER')}, {card.text}, {self.loc(node)})")

    def builtin_has_event(self, node: ast.CallExpr) -> Code:
        card = self.emit(node.args[0])
        if card.number is not None and 0 <= card.number < len(self.model.entities):
            return Code.constant(bool(self.model.entities[card.number].events))
        return Code(f"{self.ref('HAS_EVENT')}[{card.text}]", P_ATOM, True)

    def builtin_has_action(self, node: ast.CallExpr) -> Code:
        card = self.emit(node.args[0])
        if card.number is not None and 0 <= card.number < len(self.model.entities):
            return Code.constant(bool(self.model.entities[card.number].actions))
        if not self.gen.has_actions:
            return Code.constant(False)
        return Code(f"{card.at(P_CMP + 1)} in {self.ref('ACTION_CARDS')}", P_CMP, True)

    def builtin_action_allowed(self, node: ast.CallExpr) -> Code:
        card, player = self.args(node.args[:2])
        if not self.gen.has_actions:
            return Code.constant(False)
        call = f"{self.ref('action_allowed')}(state, {card}, {player})"
        if self.is_simple(node.args[0]):  # most cards have no action: no call for them
            return Code(f"{card} in {self.ref('ACTION_CARDS')} and {call}", P_AND, True)
        return Code(call, P_ATOM, True)

    def builtin_event_allowed(self, node: ast.CallExpr) -> Code:
        card, player = self.args(node.args[:2])
        return Code(f"{self.ref('event_allowed')}(state, {self.ref('EVENT_WHEN')}, {card}, {player})",
                    P_ATOM, True)

    def builtin_known(self, node: ast.CallExpr) -> Code:
        player, card = self.args(node.args[:2])
        return Code(f"{self.ref('knows')}(state, {player}, {card})", P_ATOM, True)

    def builtin_known_in(self, node: ast.CallExpr) -> Code:
        player, slot = self.value(node.args[0]), self.zone_slot(node.args[1])
        return Code(f"{self.ref('known_in')}(state, {player}, {slot.text})", fresh=True)

    # ------------------------------------------------------------ attributes
    def emit_Attr(self, node: ast.Attr) -> Code:
        if node in self.gen.player_labels.attributes:
            return self.player_label(node.obj, node)
        if isinstance(node.obj, ast.NameRef):
            return self.dispatch(node.obj.name, lambda: self._global_attr(node),
                                 lambda v: self._attr(node, Code(v), self.nonnull(node.obj),
                                                      self.is_simple(node.obj)))
        return self._attr(node, self.emit(node.obj), False)

    def player_label(self, obj: ast.Expr, attr: ast.Attr | None) -> Code:
        """A player's label (labels.py): `p.label`, or a player `log` writes (none reads "none")."""
        player = self.emit(obj)
        if player.number is not None:
            return Code.constant(self.model.player_labels[player.number])
        labels = self.ref("PLAYER_LABELS")
        if self.nonnull(obj):
            return Code(f"{labels}[{player.text}]", P_ATOM)
        if attr is None:
            return Code(f"{self.ref('label_of')}({labels}, {player.text})", P_ATOM)
        return Code(f"{self.ref('attr_of')}({labels}, {player.text}, 'label', {self.loc(attr)})", P_ATOM)

    def _global_attr(self, node: ast.Attr) -> Code:
        obj = node.obj
        if isinstance(obj, ast.NameRef) and self.is_global_entity(obj):
            index = self.model.entity_index[obj.name]
            known = self._known_attr(index, node.name)
            if known is not None:
                return known
        return self._attr(node, self.emit(obj), self.nonnull(obj), self.is_simple(obj))

    def _known_attr(self, entity: int, name: str) -> Code | None:
        """An attribute of a known entity, as a constant (None when it has none)."""
        if not 0 <= entity < len(self.model.entities):
            return None
        if name == "label":
            return self.dialect.value(self.model.entities[entity].label)
        attrs = self.model.entity_attrs[entity]
        if name not in attrs:
            return None
        value = attrs[name]
        self.gen.literal(value)  # only literals reach generated code
        if name in self.gen.entity_attrs and isinstance(value, int) and not isinstance(value, bool):
            return self.entity(value)
        return self.dialect.value(value)

    def entity(self, index: int) -> Code:
        """An entity's index, by its name (E_cuba)."""
        return Code.constant(index, self.gen.entity(index))

    def _attr(self, node: ast.Attr, obj: Code, nonnull: bool, simple: bool = False) -> Code:
        known = None if obj.number is None else self._known_attr(obj.number, node.name)
        if known is not None:
            return known
        data = self.model.enum_attrs.get(node.name)
        if data is not None and obj.is_constant and obj.value in data:  # a named enum value's data
            self.gen.literal(data[obj.value])  # only literals reach generated code
            return self.dialect.value(data[obj.value])
        if node.name == "label":
            table = self.ref("ENTITY_LABELS")
        elif node.name in self.gen.attr_tables:
            table = self.ref(self.gen.attr_tables[node.name])
        else:
            message = f"no entity has an attribute {node.name!r}"
            return Code(f"{self.ref('rule_error')}({message!r}, {self.loc(node)})")
        is_bool = node.name != "label" and self.gen.attr_bool[node.name]
        read = self.dialect.attribute(self, node.name, table, obj)
        if nonnull:
            return Code(read, P_ATOM, is_bool)
        checked = self.dialect.attribute_checked(self, node.name, table, obj, self.loc(node))
        if simple:  # read twice: the check inline, attr_of called only to raise its error
            return Code(f"{read} if {self.dialect.none_test(obj, True).text} else {checked}", P_COND, is_bool)
        return Code(checked, P_ATOM, is_bool)

    def emit_AttrAt(self, node: ast.AttrAt) -> Code:
        """obj.name(key): the entity's row of the attribute, at the key's place in its enum."""
        enum = self.model.attr_enums.get(node.name)
        if enum is None or node.name not in self.gen.attr_tables:
            message = f"no entity has an attribute {node.name!r} on an enum"
            return Code(f"{self.ref('rule_error')}({message!r}, {self.loc(node)})")
        obj, key = self.emit(node.obj), self.emit(node.key)
        values = [v.name for v in self.model.enums[enum].values]
        place = values.index(key.value) if key.is_constant and key.value in values else None
        if obj.number is not None and place is not None and 0 <= obj.number < len(self.model.entities):
            row = self.model.entity_attrs[obj.number].get(node.name)
            if row is not None:
                self.gen.literal(row[place])  # only literals reach generated code
                return self.dialect.value(row[place])
        table = self.ref(self.gen.attr_tables[node.name])
        at = str(place) if place is not None else self.dialect.value_place(self, enum, key)
        is_bool = self.gen.attr_bool[node.name]
        read = self.dialect.attribute_at(self, node.name, table, obj, at)
        if self.nonnull(node.obj):
            return Code(read, P_ATOM, is_bool)
        checked = self.dialect.attribute_at(self, node.name, table, obj, at, self.loc(node))
        if self.is_simple(node.obj):  # as _attr: the check inline, attr_of called only to raise
            return Code(f"{read} if {self.dialect.none_test(obj, True).text} else {checked}", P_COND, is_bool)
        return Code(checked, P_ATOM, is_bool)

    # ------------------------------------------------------------ operators
    def emit_Not(self, node: ast.Not) -> Code:
        return self._not(self.truth(node.operand))

    def _not(self, operand: Code) -> Code:
        if operand.is_constant:
            return Code.constant(not operand.value)
        return Code(f"not {operand.at(P_NOT)}", P_NOT, True)

    def emit_Negate(self, node: ast.Negate) -> Code:
        operand = self.emit(node.operand)
        if operand.number is not None:
            return Code.constant(-operand.number)
        return Code(f"-{operand.at(P_UNARY)}", P_UNARY)

    def emit_BinOp(self, node: ast.BinOp) -> Code:
        op, prec, _ = ARITHMETIC[node.op]
        left, right = self.emit(node.left), self.emit(node.right)
        folded = fold_arithmetic(node.op, left, right)
        if folded is not None:
            return folded
        return Code(f"{left.at(prec)} {op} {right.at(prec + 1)}", prec)

    def emit_BoolOp(self, node: ast.BoolOp) -> Code:
        # the operands' truth is enough: bool() of the whole makes the value
        return self._boolop(node, [self.truth(o) for o in node.operands], wrap=True)

    def _boolop(self, node: ast.BoolOp, operands: list[Code], wrap: bool) -> Code:
        operands = _without_constants(node.op, operands)
        if len(operands) == 1 and operands[0].is_constant:
            return operands[0]
        prec = P_AND if node.op == "and" else P_OR
        text = f" {node.op} ".join(o.at(prec + 1) for o in operands)
        if all(o.is_bool for o in operands) or not wrap:
            return Code(text, prec, all(o.is_bool for o in operands))
        return Code(f"bool({text})", P_ATOM, True)  # `and` of the interpreter is all(): a bool

    def emit_Compare(self, node: ast.Compare) -> Code:
        if node.op not in COMPARISONS:
            raise InternalError(f"unknown comparison {node.op!r} at {node.span}")
        left, right = self.emit(node.left), self.emit(node.right)
        folded = fold_comparison(node.op, left, right)
        if folded is not None:
            return folded
        return Code(f"{left.at(P_CMP + 1)} {node.op} {right.at(P_CMP + 1)}", P_CMP, True)

    def emit_Cond(self, node: ast.Cond) -> Code:
        test = self.truth(node.test)
        if test.is_constant:  # the other branch is never evaluated
            return self.emit(node.then if test.value else node.otherwise)
        then, otherwise = self.emit(node.then), self.emit(node.otherwise)
        return Code(f"{then.at(P_OR)} if {test.at(P_OR)} else {otherwise.at(P_COND)}", P_COND,
                    then.is_bool and otherwise.is_bool)

    def emit_Range(self, node: ast.Range) -> Code:
        return Code(f"list({self.range_of(node).text})", fresh=True)

    def emit_ListOf(self, node: ast.ListOf) -> Code:
        """`[a, b, c]`: the items' values, in order."""
        return Code(f"[{', '.join(self.emit(item).text for item in node.items)}]", fresh=True)

    def range_of(self, node: ast.Range) -> Code:
        low, high = self.emit(node.low), self.emit(node.high)
        return self.dialect.int_range(self, low, high, node)

    # ------------------------------------------------------------ zones and collections
    def zone_slot(self, node: ast.Expr) -> Code:
        """The slot of a zone written directly (deck, hand(p)) or held in a value."""
        zones = self.model.zones
        if isinstance(node, ast.CallExpr) and node.name in zones:
            zone = zones[node.name]
            return self.offset(zone.slot, node.args[0])
        dynamic = lambda v: Code(f"{self.ref('zone_slot')}({v}, {self.loc(node)})")  # noqa: E731
        if isinstance(node, ast.NameRef) and node.name in zones:
            return self.dispatch(node.name, lambda: Code.constant(zones[node.name].slot), dynamic)
        return dynamic(self.value(node))

    def collection(self, node: ast.Expr, snapshot: bool = False) -> Code:
        """Something to iterate over, in collection order (a copy of zones if `snapshot`)."""
        if isinstance(node, ast.Range):
            return self.range_of(node)
        if isinstance(node, ast.Reachable):
            return self.emit_Reachable(node)
        if isinstance(node, ast.ListOf):
            return self.emit_ListOf(node)
        dynamic = lambda v: self.dialect.collection_of(self, Code(v), node)  # noqa: E731
        if isinstance(node, ast.NameRef):
            return self.dispatch(node.name, lambda: self._global_collection(node, snapshot), dynamic)
        if isinstance(node, ast.CallExpr) and node.name in self.model.zones:
            return self.dialect.zone_cards(self, node, snapshot)
        if isinstance(node, ast.CallExpr) and node.name == "adjacent":
            return self.builtin_adjacent(node)
        if isinstance(node, ast.CallExpr) and node.name == "known_in" and node.name not in self.model.defines:
            return self.builtin_known_in(node)
        if isinstance(node, ast.BinOp) and node.op == "+":  # a union (checks/typecheck.py)
            return self.dialect.union(self, self.collection(node.left), self.collection(node.right))
        return dynamic(self.value(node))

    def _global_collection(self, node: ast.NameRef, snapshot: bool) -> Code:
        name, model = node.name, self.model
        if name in model.kinds:
            return self._table(self._kind_table(name))
        if name in model.enums:
            return Code(self.ref(self.gen.enum_tables[name]))
        if name == "players":
            return self.seated()
        if name == "losers":
            return Code(f"{self.ref('losers_of')}(state)", fresh=True)
        if name in model.zones:
            return self.dialect.zone_cards(self, node, snapshot)
        region = self._global_region(node)
        if region is not None:
            return self._table(self._region_table(region))
        return self.dialect.collection_of(self, self.global_value(node), node)

    def _global_region(self, node: ast.NameRef) -> int | None:
        """The region a name surely means, if it does."""
        index = self.model.entity_index.get(node.name)
        return index if self.is_global_entity(node) and index in self.gen.region_tables else None

    def _kind_table(self, kind: str) -> Table:
        return Table(self.gen.kind_tables[kind], self.gen.kind_sets[kind])

    def _region_table(self, region: int) -> Table:
        return Table(self.gen.region_tables[region], self.gen.region_sets[region])

    def _table(self, table: Table) -> Code:
        return Code(self.ref(table.name), table=table)

    def as_set(self, code: Code) -> Code:
        """The frozenset twin of a table read: the same members, each once."""
        table = code.table
        if table is None:
            raise InternalError(f"{code.text} reads no table")
        name = self.ref(table.set_name)
        return Code(name if table.index is None else f"{name}[{table.index}]")

    def emit_Member(self, node: ast.Member) -> Code:
        item = self.emit(node.element)
        coll = node.collection
        negated = node.negated
        dynamic = lambda v: self.dialect.member_of(self, item, Code(v), negated, node)  # noqa: E731
        if isinstance(coll, ast.CallExpr) and coll.name in self.model.zones:
            return self.dialect.in_zone(self, node.element, item, coll, negated)
        if isinstance(coll, ast.NameRef):
            return self.dispatch(coll.name, lambda: self._global_member(node, item), dynamic)
        if isinstance(coll, ast.ListOf):
            return self.dialect.in_list(self, item, coll, negated)
        if isinstance(coll, ast.Range):
            return self.member(item, self.collection(coll), negated)
        if isinstance(coll, ast.Reachable):
            return self.member(item, self.emit_Reachable(coll), negated)
        if isinstance(coll, ast.CallExpr) and coll.name == "adjacent":
            return self.dialect.in_table(self, item, self.builtin_adjacent(coll).table, negated)
        if isinstance(coll, ast.BinOp) and coll.op == "+":  # in a union: in its members
            return self.member(item, self.collection(coll), negated)
        if isinstance(coll, ast.CallExpr) and coll.name == "known_in" and coll.name not in self.model.defines:
            return self.member(item, self.collection(coll), negated)
        return self.dialect.member_of(self, item, self.emit(coll), negated, node)

    def _global_member(self, node: ast.Member, item: Code) -> Code:
        coll, model, negated = node.collection, self.model, node.negated
        name = coll.name
        if name in model.zones:
            return self.dialect.in_zone(self, node.element, item, coll, negated)
        if name in model.kinds:
            return self._in_table(item, self._kind_table(name), model.kind_members.get(name, []), negated)
        if name in model.enums:
            values = [v.name for v in model.enums[name].values]
            if item.is_constant:
                return Code.constant((item.value in values) != negated)
            return self.member(item, Code(self.ref(self.gen.enum_index[name])), negated)
        region = self._global_region(coll)
        if region is not None:
            return self._in_table(item, self._region_table(region), model.region_members[region], negated)
        if name == "players":
            return self.member(item, self.seated(), negated)
        if name == "losers":
            return self.member(item, Code(f"{self.ref('losers_of')}(state)"), negated)
        return self.dialect.member_of(self, item, self.global_value(coll), negated, node)

    def _in_table(self, item: Code, table: Table, members: list[int], negated: bool) -> Code:
        """item in a table's members (its frozenset), folded when the item is a constant."""
        if item.is_constant:
            return Code.constant((item.value in members) != negated)
        return self.dialect.in_table(self, item, table, negated)

    def member(self, item: Code, coll: Code, negated: bool) -> Code:
        return self.dialect.member(self, item, coll, negated)

    # ------------------------------------------------------------ quantifiers
    def bind(self, var: ast.Ident, named: ast.Ident | None = None) -> str:
        """Bind `var` in what follows (until pop) to a Python variable named after it (or `named`)."""
        name = mangle("bound", (named or var).name)
        self.scope.push(var.name, name, True)
        return name

    def comprehension(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None,
                      value: ast.Expr | None = None, narrow: str | None = None, keep: bool = True
                      ) -> tuple[str, str, str, str | None, str | None]:
        """(python var, iterable, for clause, condition, value) of `var in source where ...`.

        keep: walk a kept filter's members when it can (kept_clause; the iterable is then
        "", the clause says what is walked). narrow ("ordered" or "unordered"): when `where`
        starts with `var in C`, walk the (usually much smaller) C and test membership of
        `source` instead; the same items, in C's order, or in no particular order when that
        is allowed.
        """
        kept = self.kept_clause(var, source, where, value) if keep and self.dialect.keeps else None
        if kept is not None:
            name, clause, condition, item = kept
            return name, "", clause, condition, item
        narrowed = self._narrowed(var, source, where, narrow) if narrow and self.dialect.narrows else None
        if narrowed is not None:
            source, where = narrowed
        iterable = self.collection(source)
        if narrowed is not None and narrow == "unordered" and iterable.table is not None:
            iterable = self.as_set(iterable)  # each member once: a spec may list a link twice
        name = self.bind(var)
        try:
            condition = self.test(where) if where is not None else None
            item = self.value(value) if value is not None else None
        finally:
            self.scope.pop()
        return name, iterable.text, self.dialect.clause(name, iterable), condition, item

    def filtered(self, var: ast.Ident, source: ast.Expr, where: ast.Expr,
                 named: ast.Ident | None = None) -> tuple[str, str, str]:
        """(python var, for clause, condition) of a list of `var in source where ...`
        (named: the Python variable is named after this one instead of `var`)."""
        kept = self.kept_clause(var, source, where, named=named)
        if kept is not None:
            return kept[0], kept[1], kept[2]
        iterable = self.collection(source).text
        name = self.bind(var, named)
        try:
            condition = self.truth(where).at(P_NOT)
        finally:
            self.scope.pop()
        return name, f"{name} in {iterable}", condition

    # ------------------------------------------------------------ kept filters (kept.py)
    def kept_clause(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None,
                    value: ast.Expr | None = None, named: ast.Ident | None = None
                    ) -> tuple[str, str, str, str | None] | None:
        """(python var, for clause, condition, value) walking a kept filter's members: when
        the first tests of `where` call a rule, read only the state and names that cannot
        fail, and `source` is a kind or region of some size. Else None."""
        if (not self.dialect.keeps or where is None or self.collection(source).table is None
                or self._size(source) < KEPT_MIN_MEMBERS):
            return None
        parts = list(where.operands) if isinstance(where, ast.BoolOp) and where.op == "and" else [where]
        stamps: set[int] = set()
        names: list[str] = []
        lead = 0
        for part in parts:
            if not is_rule_call(part, self.model):
                break
            reads = self.gen.kept.reads(part)
            free = [n for n in free_names(part, frozenset({var.name})) if self.shadowed(n)]
            if reads is None or not all(self.is_simple(ast.NameRef(part.span, n)) for n in free):
                break
            stamps.update(reads)
            names += [n for n in free if n not in names]
            lead += 1
        if not lead:
            return None
        first = parts[0] if lead == 1 else ast.BoolOp(where.span, "and", tuple(parts[:lead]))
        rest = parts[lead:]
        helper = self._kept_helper(var, source, first, names, sorted(stamps), where)
        args = ", ".join(["state"] + [self.value(ast.NameRef(where.span, n)) for n in names])
        name = self.bind(var, named)
        try:
            condition = f"kept_[1] or {self.truth(first).at(P_OR)}"
            if rest:
                tail = rest[0] if len(rest) == 1 else ast.BoolOp(where.span, "and", tuple(rest))
                condition = f"({condition}) and {self.truth(tail).at(P_AND)}"
            item = self.value(value) if value is not None else None
        finally:
            self.scope.pop()
        clause = f"kept_ in ({self.gen.kept_helper(helper)}({args}),) for {name} in kept_[0]"
        return name, clause, condition, item

    def _size(self, source: ast.Expr) -> int:
        """How many members a kind or region has (0 for any other collection)."""
        model = self.model
        if not isinstance(source, ast.NameRef):
            return 0
        if source.name in model.kinds:
            return len(model.kind_members.get(source.name, []))
        index = model.entity_index.get(source.name)
        return len(model.region_members.get(index, [])) if index is not None else 0

    def _kept_helper(self, var: ast.Ident, source: ast.Expr, test: ast.Expr, names: list[str],
                     stamps: list[int], where: ast.Expr) -> Kept:
        """The helper keeping `var in source where test` (rules.py), its names as arguments."""
        params = tuple(f"arg_{i}" for i in range(len(names)))
        bindings = [(n, p, self.nonnull(ast.NameRef(where.span, n))) for n, p in zip(names, params)]
        saved, self.gen.module = self.gen.module, "rules"
        try:
            inner = type(self)(self.gen, Scope("none", bindings=bindings), self.dialect)
            iterable = inner.collection(source).text
            inner.scope.push(var.name, "item_", True)
            condition = inner.test(test)
        finally:
            self.gen.module = saved
        return self.gen.kept.helper(iterable, condition, params, stamps, "item_", self.gen.where(where))

    def _narrowed(self, var: ast.Ident, source: ast.Expr, where: ast.Expr | None, narrow: str):
        """(new source, new where) for `x in S where x in C and rest`, or None."""
        if not isinstance(where, ast.BoolOp) or where.op != "and":
            return None
        first = where.operands[0]
        if not (isinstance(first, ast.Member) and not first.negated
                and isinstance(first.element, ast.NameRef) and first.element.name == var.name):
            return None
        inner = first.collection
        if any(isinstance(n, ast.NameRef) and n.name == var.name for n in inner.walk()):
            return None  # C depends on the variable itself
        if not self._small(inner) or self._small(source):
            return None
        swapped = ast.Member(first.span, first.element, source, False)
        rest = where.operands[1:]
        condition = swapped if not rest else ast.BoolOp(where.span, "and", (swapped,) + rest)
        return inner, condition

    def _small(self, node: ast.Expr) -> bool:
        """A collection usually much smaller than a kind: adjacency, a region, a zone."""
        if isinstance(node, ast.CallExpr):
            return node.name == "adjacent" or node.name in self.model.zones
        if isinstance(node, ast.NameRef):
            if node.name in self.model.kinds or node.name == "players":
                return False
            if self.scope.binding(node.name) is not None or self.scope.is_local(node.name):
                return True
            return node.name in self.model.zones or node.name in self.model.entity_index
        return False

    def emit_Quantifier(self, node: ast.Quantifier) -> Code:
        unrolled = self._unrolled(node)
        if unrolled is not None:
            return self.emit_BoolOp(unrolled)
        if self.gen.module in WALKING and self.dialect.walks:
            loop = self.loop(node)
            if loop is not None:
                return Code(self.gen.walk(loop, node), P_ATOM, True)
        if node.kind not in ("count", "any", "all"):
            raise InternalError(f"unknown quantifier {node.kind!r} at {node.span}")
        narrow = {"count": "unordered", "any": "ordered"}.get(node.kind)
        var, source, clause, condition, _ = self.comprehension(  # any, all: stop early instead
            node.var, node.source, node.where, narrow=narrow, keep=node.kind == "count")
        return self.dialect.reduce(node.kind, var, source, clause, condition)

    def loop(self, node: ast.Expr) -> Loop | None:
        """An `any` or `all` testing its members as a loop (a define's whole body, or a walk
        helper's), or None: another expression, or one written without a walk (no test, or
        unrolled over a small kind)."""
        if not isinstance(node, ast.Quantifier) or node.kind not in ("any", "all"):
            return None
        if node.where is None or self._unrolled(node) is not None:
            return None
        narrow = "ordered" if node.kind == "any" else None  # any: the smaller collection first
        var, iterable, _, condition, _ = self.comprehension(node.var, node.source, node.where,
                                                            narrow=narrow, keep=False)
        if node.kind == "any":
            return Loop(var, iterable, condition, True)
        return Loop(var, iterable, f"not ({condition})", False)

    def _unrolled(self, node: ast.Quantifier) -> ast.BoolOp | None:
        """`any(x in K where P)` over a kind of at most UNROLL_MEMBERS entities as
        `P[e1] or P[e2] ...` (`all`: `and`), in K's order: the same tests, short-circuit as the
        walk, without a generator; each P reads its entity by name, so its attributes fold."""
        source = node.source
        if (node.kind not in ("any", "all") or node.where is None or not isinstance(source, ast.NameRef)
                or source.name not in self.model.kinds and source.name not in self.model.enums
                or self.shadowed(source.name)):
            return None
        if source.name in self.model.kinds:
            names = [self.model.entities[m].name.name for m in self.model.kind_members.get(source.name, [])]
        else:  # an enum: its values, by name
            names = [v.name for v in self.model.enums[source.name].values]
        if not 2 <= len(names) <= (UNROLL_MEMBERS if source.name in self.model.kinds else UNROLL_VALUES):
            return None
        parts = []
        for entity in names:
            part = renamed(node.where, node.var.name, entity)
            if part is None or self.shadowed(entity):
                return None
            parts.append(part)
        return ast.BoolOp(node.span, "or" if node.kind == "any" else "and", tuple(parts))

    def shadowed(self, name: str) -> bool:
        """Whether `name` reads a binding or a local here rather than the global."""
        return self.scope.binding(name) is not None or self.scope.is_local(name)

    def emit_SumOf(self, node: ast.SumOf) -> Code:
        var, source, clause, condition, item = self.comprehension(node.var, node.source, node.where,
                                                                  node.value, narrow="unordered")
        return self.dialect.reduce("sum", var, source, clause, condition, item)

    def emit_Reachable(self, node: ast.Reachable) -> Code:
        """A path in the map graph filtered by `where`: the runtime walks it (rulespec.runtime.values.reachable)."""
        start = self.value(node.start)
        name = self.bind(node.var)
        try:
            condition = self.test(node.where) if node.where is not None else "True"
        finally:
            self.scope.pop()
        return self.dialect.reachable(self, start, name, condition, node)

    # ------------------------------------------------------------ effects
    def emit_Extreme(self, node: ast.Extreme) -> Code:
        """max / min: Python's, `default` on an empty walk; argmax / argmin walk in the
        collection's order (the first member wins a tie), as the interpreter does."""
        if node.member:
            var, _, clause, condition, item = self.comprehension(node.var, node.source, node.where,
                                                                 node.value, keep=False)
            return self.dialect.extreme(self, var, clause, condition, item, node.highest)
        var, source, clause, condition, item = self.comprehension(node.var, node.source, node.where,
                                                                  node.value, narrow="unordered")
        return self.dialect.reduce(node.op, var, source, clause, condition, item, self.value(node.default))

    def emit_Allowed(self, node: ast.Allowed) -> Code:
        name = node.action.name
        if name not in self.gen.allowed:
            return Code.constant(True)  # nothing ever forbids it
        return Code(f"{self.ref(self.gen.allowed[name])}("
                    f"{', '.join(['state'] + self.args(node.args, self.gen.forbidden[name]))})",
                    P_ATOM, True)

    def emit_Active(self, node: ast.Active) -> Code:
        name = node.effect.name
        if name not in self.model.effect_index:
            message = f"unknown effect {name!r}"
            return Code(f"{self.ref('rule_error')}({message!r}, {self.loc(node)})")
        index = self.model.effect_index[name]
        args = "None" if node.args is None else f"[{', '.join(self.args(node.args))}]"
        return Code(f"{self.ref('is_active')}(state, {index}, {args})", P_ATOM, True)


UNROLL_MEMBERS = 3  # the largest kind an any/all is unrolled over
UNROLL_VALUES = 8  # and the largest enum (its values are names: each part folds what it reads)
INLINE_DEPTH = 3  # defines inlined inside inlined defines, at most
INLINE_NODES = 24  # the largest body inlined, in expression nodes
_BINDERS = (ast.Quantifier, ast.SumOf, ast.Extreme, ast.Reachable)


def inlinable(body: ast.Expr) -> bool:
    """A define body small enough to inline, and binding no names."""
    nodes = 0
    for node in body.walk():
        nodes += 1
        if nodes > INLINE_NODES or isinstance(node, _BINDERS):
            return False
    return True


def evaluated_first(body: ast.Expr, name: str) -> bool:
    """Whether `name` occurs once in `body`, read before anything else is evaluated there."""
    if sum(1 for n in body.walk() if isinstance(n, ast.NameRef) and n.name == name) != 1:
        return False
    node = body
    while True:
        if isinstance(node, ast.NameRef):
            return node.name == name
        if isinstance(node, ast.Cond):
            node = node.test
        elif isinstance(node, ast.BoolOp):
            node = node.operands[0]
        elif isinstance(node, (ast.Compare, ast.BinOp)):
            node = node.left
        elif isinstance(node, (ast.Not, ast.Negate)):
            node = node.operand
        elif isinstance(node, ast.Attr):
            node = node.obj
        else:
            return False


def _without_constants(op: str, operands: list[Code]) -> list[Code]:
    """and/or operands with the constants that cannot change the result left out.

    A constant that decides the result (false for and, true for or) ends the
    list: what follows it is never evaluated, as in the interpreter.
    """
    kept: list[Code] = []
    for operand in operands:
        if not operand.is_constant:
            kept.append(operand)
        elif bool(operand.value) == (op == "or"):
            kept.append(Code.constant(op == "or"))
            break
    return kept or [Code.constant(op == "and")]


def renamed(node: ast.Node, name: str, new: str) -> ast.Node | None:
    """`node` with every read of `name` reading `new`, or None when something in it binds `name`."""
    if isinstance(node, ast.NameRef):
        return ast.NameRef(node.span, new) if node.name == name else node
    if isinstance(node, _BINDERS) and node.var.name == name:
        return None
    changes = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        after = _renamed_value(value, name, new)
        if after is None and value is not None:  # None: something binds `name` (or a field is unset)
            return None
        if after is not value:
            changes[field.name] = after
    return dataclasses.replace(node, **changes) if changes else node


def _renamed_value(value, name: str, new: str):
    """A field's value renamed: a node, a tuple of nodes (or of tuples of them), or as it is."""
    if isinstance(value, ast.Node):
        return renamed(value, name, new)
    if not isinstance(value, tuple):
        return value
    after = tuple(_renamed_value(v, name, new) for v in value)
    if any(a is None and v is not None for a, v in zip(after, value)):
        return None
    return value if all(a is b for a, b in zip(after, value)) else after
