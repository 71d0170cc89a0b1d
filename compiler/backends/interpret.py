"""The reference back end: walks the checked AST directly on the runtime.

Continuations are plain data: a frame is {proc, env, cur, wait}; `cur` is a
stack of cursors [block id, next statement, loop state], so a state waiting in
the middle of an event can be copied and saved like any other.

A new statement kind: a handler `(state, frame, stmt)` in `self._exec`. Expressions
are evaluated by closures built once per node (compiler/frontend/constant.py says how to add
a kind there).
"""

from __future__ import annotations

from typing import Any, Callable

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.identity import KeptByNode
from rulespec.compiler.frontend.errors import InternalError
from rulespec.compiler.backends.evaluate import Evaluator
from rulespec.compiler.frontend.labels import player_labels
from rulespec.compiler.frontend.locations import location
from rulespec.compiler.frontend.model import Model, option_kind
from rulespec.compiler.backends.testplan import Plan, plan_tests
from rulespec.runtime import state as rt
from rulespec.runtime.state import GameOver, RuleError, State
from rulespec.runtime.values import RULE_FAILURES, bounded, fill_prompt, label_of, option_names, rule_error_of, some_card, text_of


_LOCATIONS: dict[ast.Span, str] = {}


def _loc(node: ast.Node) -> str:
    """location(node.span), worked out once per span (statements name theirs at every run)."""
    span = node.span
    found = _LOCATIONS.get(span)
    if found is None:
        found = _LOCATIONS[span] = location(span)
    return found


REGISTRABLE = (ast.Block, ast.While, ast.Menu)
KEPT = (ast.Decl, ast.Block)
# The registrable nodes under each declaration and block, in walk order, kept by the node:
# the models of one process (a game and its variant sets) share the parse's nodes, so what
# a variant leaves alone is walked once, not once per model. (compiler/frontend/identity.py)
_UNDER: KeptByNode[list[ast.Node]] = KeptByNode(200_000)


def _registrable(node: ast.Node) -> list[ast.Node]:
    """The blocks, while loops and menus of node's tree, parents first, in field order."""
    kept = isinstance(node, KEPT)
    if kept:
        found = _UNDER.get((node,))
        if found is not None:
            return found
    out = [node] if isinstance(node, REGISTRABLE) else []
    for child in node.children():
        out += _registrable(child)
    return _UNDER.put((node,), out) if kept else out


class Interpreter:
    """Runs a Model's procedures, events and tests on a runtime State."""

    backend = "interpreted"

    def __init__(self, model: Model):
        self.model = model
        self.meta = model.meta()
        self.blocks: list[ast.Block] = []
        self._block_ids: dict[int, int] = {}
        self.whiles: list[ast.While] = []
        self._while_ids: dict[int, int] = {}
        self.menus: list[ast.Menu] = []
        self._menu_ids: dict[int, int] = {}
        self._register_all()
        self.ev = Evaluator(model, self.meta)
        self.effect_decls = self.ev.effect_decls
        self.logged_players = player_labels(model).logged
        self.players = len(model.players)
        self._exec: dict[type, Callable[[State, dict, Any], None]] = {
            ast.Let: self._let, ast.SetStmt: self._set, ast.AddStmt: self._add,
            ast.RemoveStmt: self._remove, ast.Roll: self._roll, ast.RollDice: self._roll_dice,
            ast.MoveCard: self._move,
            ast.MoveAll: self._move_all, ast.PickRandom: self._pick, ast.Shuffle: self._shuffle, ast.Reveal: self._reveal,
            ast.Show: self._show,
            ast.CopyCounter: self._copy, ast.ClearCounter: self._clear, ast.If: self._if,
            ast.For: self._for, ast.Repeat: self._repeat, ast.While: self._while,
            ast.Break: self._break, ast.Choose: self._choose, ast.Menu: self._menu,
            ast.CallStmt: self._call, ast.Resolve: self._resolve, ast.Activate: self._activate,
            ast.Cancel: self._cancel, ast.Expire: self._expire, ast.Emit: self._emit,
            ast.Win: self._win, ast.Lose: self._lose, ast.Log: self._log, ast.Return: self._return,
        }

    # ------------------------------------------------------------ tables
    def _register_all(self) -> None:
        """Number the blocks, loops and menus in walk order (a saved state names them so)."""
        for root in [self.model.spec, *self.model.tests]:
            for node in _registrable(root):
                self._register(node)

    def _register(self, node: ast.Node) -> None:
        if isinstance(node, ast.Block) and id(node) not in self._block_ids:
            self._block_ids[id(node)] = len(self.blocks)
            self.blocks.append(node)
        elif isinstance(node, ast.While) and id(node) not in self._while_ids:
            self._while_ids[id(node)] = len(self.whiles)
            self.whiles.append(node)
        elif isinstance(node, ast.Menu) and id(node) not in self._menu_ids:
            self._menu_ids[id(node)] = len(self.menus)
            self.menus.append(node)

    def block_id(self, block: ast.Block) -> int:
        if id(block) not in self._block_ids:
            self._register(block)
        return self._block_ids[id(block)]

    # ------------------------------------------------------------ driving
    def begin(self, state: State) -> None:
        """Push the `start` block: the whole game."""
        start = self.model.start
        if start is None:
            raise RuleError("the spec has no `start` block")
        self._push(state, "start", {}, start.body)

    def run(self, state: State) -> None:
        """Execute until a decision is pending or the game is over: one statement a turn of
        the loop; a block's end (loops go round) and a frame's end are handed to their own
        methods."""
        blocks, executors = self.blocks, self._exec
        try:
            while state.frames and state.pending is None:
                frame = state.frames[-1]
                cursors = frame["cur"]
                if not cursors:
                    self._end_of_frame(state, frame)
                    continue
                cursor = cursors[-1]
                body = blocks[cursor[0]].body
                at = cursor[1]
                if at >= len(body):
                    self._end_of_block(state, frame, cursor)
                    continue
                stmt = body[at]
                cursor[1] = at + 1
                execute = executors.get(type(stmt))
                if execute is None:
                    raise InternalError(f"the interpreter does not handle {type(stmt).__name__} at {stmt.span}")
                try:
                    execute(state, frame, stmt)
                except RULE_FAILURES as err:  # none where a value is needed, a divisor of 0
                    raise rule_error_of(err, _loc(stmt)) from None
        except GameOver:
            pass

    def resume(self, state: State, index: int) -> None:
        """Answer the pending decision with option `index`, then run on."""
        pending = state.pending
        state.pending = None
        state.decisions += 1
        frame = state.frames[-1]
        kind, what = frame["wait"]
        frame["wait"] = None
        value = pending["values"][index]
        if kind == "var":
            frame["env"][what] = value
        else:
            option = self.menus[what].options[value]
            frame["cur"].append([self.block_id(option.body), 0, None])
        self.run(state)

    def _push(self, state: State, proc: str, env: dict, body: ast.Block) -> None:
        state.frames.append({"proc": proc, "env": env, "cur": [[self.block_id(body), 0, None]], "wait": None})

    def _end_of_frame(self, state: State, frame: dict) -> None:
        state.frames.pop()
        if frame["proc"].startswith(("event ", "action ")):
            rt.leave_event(state)
        elif "ret" in frame:  # a procedure's value, for the statement that called it
            self._take_value(state, frame["ret"])

    def handles(self, node_class: type) -> bool:
        return node_class in self._exec

    def wrap_statements(self, wrap: Callable[[type, Callable], Callable]) -> None:
        """Run each kind of statement through wrap(kind, its executor) from now on (spec
        coverage counts so: an interpreter never wrapped runs the plain executors)."""
        self._exec = {kind: wrap(kind, run) for kind, run in self._exec.items()}

    def _end_of_block(self, state: State, frame: dict, cursor: list) -> None:
        loop = cursor[2]
        if loop is None:
            frame["cur"].pop()
        elif loop[0] == "for":
            loop[3] += 1
            if loop[3] < len(loop[2]):
                frame["env"][loop[1]] = loop[2][loop[3]]
                cursor[1] = 0
            else:
                frame["cur"].pop()
        elif loop[0] == "repeat":
            loop[1] -= 1
            if loop[1] > 0:
                rt.tick(state, "repeat", self._repeat_at(cursor[0]))
                cursor[1] = 0
            else:
                frame["cur"].pop()
        elif self.ev.truth(state, frame["env"], self.whiles[loop[1]].test):
            rt.tick(state, "while", _loc(self.whiles[loop[1]]))
            cursor[1] = 0
        else:
            frame["cur"].pop()

    # ------------------------------------------------------------ statements
    def _let(self, state, frame, stmt: ast.Let):
        if not self._call_for_value(state, frame, stmt.value):
            frame["env"][stmt.name.name] = bounded(self.ev.value(state, frame["env"], stmt.value), _loc(stmt))

    def _set(self, state, frame, stmt: ast.SetStmt):
        if not self._call_for_value(state, frame, stmt.value):
            value = self.ev.value(state, frame["env"], stmt.value)
            self.ev.assign(state, frame["env"], stmt.target, lambda old: value)

    def _return(self, state, frame, stmt: ast.Return):
        if not self._call_for_value(state, frame, stmt.value):
            self._give(frame, bounded(self.ev.value(state, frame["env"], stmt.value), _loc(stmt)))

    @staticmethod
    def _give(frame: dict, value: Any) -> None:
        """The procedure ends with this value: its frame pops at the next step (called as a
        statement, its frame has no "ret": the value goes nowhere)."""
        if "ret" in frame:
            frame["ret"] = value
        frame["cur"].clear()

    def _call_for_value(self, state, frame, value: ast.Expr) -> bool:
        """`let`/`set`/`return` of a procedure's value: push the procedure; the statement is
        completed with the value when its frame ends (_take_value)."""
        if not (isinstance(value, ast.CallExpr) and value.name in self.model.procedures):
            return False
        proc = self.model.procedures[value.name]
        args = self.ev.kept_args(state, frame["env"], value.args)
        self._push(state, proc.name.name, {p.name: v for p, v in zip(proc.params, args)}, proc.body)
        state.frames[-1]["ret"] = None
        return True

    def _take_value(self, state: State, value: Any) -> None:
        """Complete the statement that called a value procedure (it is the caller's last one run)."""
        caller = state.frames[-1]
        cursor = caller["cur"][-1]
        stmt = self.blocks[cursor[0]].body[cursor[1] - 1]
        try:
            if isinstance(stmt, ast.Let):
                caller["env"][stmt.name.name] = value
            elif isinstance(stmt, ast.SetStmt):
                self.ev.assign(state, caller["env"], stmt.target, lambda old: value)
            else:
                self._give(caller, value)
        except RULE_FAILURES as err:
            raise rule_error_of(err, _loc(stmt)) from None

    def _add(self, state, frame, stmt: ast.AddStmt):
        amount = self.ev.value(state, frame["env"], stmt.amount)
        self.ev.assign(state, frame["env"], stmt.target, lambda old: old + amount)

    def _remove(self, state, frame, stmt: ast.RemoveStmt):
        amount = self.ev.value(state, frame["env"], stmt.amount)
        self.ev.assign(state, frame["env"], stmt.target, lambda old: old - amount)

    def _roll(self, state, frame, stmt: ast.Roll):
        frame["env"][stmt.name.name] = rt.roll(state, 6, _loc(stmt))

    def _roll_dice(self, state, frame, stmt: ast.RollDice):
        env = frame["env"]
        count = self.ev.value(state, env, stmt.count)
        for name, value in zip(stmt.names, rt.roll_sorted(state, count, len(stmt.names), _loc(stmt))):
            env[name.name] = value

    def _move(self, state, frame, stmt: ast.MoveCard):
        card = self.ev.value(state, frame["env"], stmt.card)
        move = rt.move_card_bottom if stmt.bottom else rt.move_card
        move(state, some_card(card, _loc(stmt)), self.ev.zone(state, frame["env"], stmt.dest))

    def _move_all(self, state, frame, stmt: ast.MoveAll):
        env = frame["env"]
        dest = self.ev.zone(state, env, stmt.dest)
        for card in self.ev.members(state, env, stmt.var.name, stmt.source, stmt.where):
            rt.move_card(state, card, dest)

    def _pick(self, state, frame, stmt: ast.PickRandom):
        env = frame["env"]
        members = self.ev.members(state, env, stmt.var.name, stmt.source, stmt.where)
        env.pop(stmt.var.name, None)
        if stmt.skip and not members:  # `or skip`: the rest of the block is skipped
            cursor = frame["cur"][-1]
            cursor[1] = len(self.blocks[cursor[0]].body)
            return
        env[stmt.var.name] = rt.pick_random(state, members, _loc(stmt))

    def _shuffle(self, state, frame, stmt: ast.Shuffle):
        rt.shuffle(state, self.ev.zone(state, frame["env"], stmt.zone))

    def _reveal(self, state, frame, stmt: ast.Reveal):
        slot = self.ev.zone(state, frame["env"], stmt.zone)
        if stmt.public:
            state.revealed[slot] = True
        else:  # what the seats saw while it was revealed, they keep knowing
            rt.conceal_zone(state, slot)

    def _show(self, state, frame, stmt: ast.Show):
        env = frame["env"]
        card = self.ev.value(state, env, stmt.card)
        to = () if stmt.to is None else (self.ev.value(state, env, stmt.to),)
        rt.show_card(state, card, _loc(stmt), *to)
        if to:  # what the player was shown stays in its log
            rt.log_shown(state, card, to[0], self.meta.entity_labels[card], self.meta.player_labels[to[0]],
                         _loc(stmt))

    def _copy(self, state, frame, stmt: ast.CopyCounter):
        src, dst = self.model.counters[stmt.source.name], self.model.counters[stmt.dest.name]
        width = self.players if src.per_player else 1
        for k in range(width):
            state.counters[dst.slot + k][:] = state.counters[src.slot + k]

    def _clear(self, state, frame, stmt: ast.ClearCounter):
        counter = self.model.counters[stmt.counter.name]
        for k in range(self.players if counter.per_player else 1):
            cells = state.counters[counter.slot + k]
            cells[:] = [0] * len(cells)

    def _if(self, state, frame, stmt: ast.If):
        for test, block in stmt.branches:
            if self.ev.truth(state, frame["env"], test):
                frame["cur"].append([self.block_id(block), 0, None])
                return
        if stmt.otherwise is not None:
            frame["cur"].append([self.block_id(stmt.otherwise), 0, None])

    def _for(self, state, frame, stmt: ast.For):
        env = frame["env"]
        items = self.ev.members(state, env, stmt.var.name, stmt.source, stmt.where)
        if items:
            env[stmt.var.name] = items[0]
            frame["cur"].append([self.block_id(stmt.body), 0, ["for", stmt.var.name, items, 0]])

    def _repeat(self, state, frame, stmt: ast.Repeat):
        count = self.ev.value(state, frame["env"], stmt.count)
        if count > 0:
            rt.tick(state, "repeat", _loc(stmt))
            frame["cur"].append([self.block_id(stmt.body), 0, ["repeat", count]])

    def _repeat_at(self, body: int) -> str:
        """Where the `repeat` whose body is block `body` is written."""
        repeats = getattr(self, "_repeats", None)
        if repeats is None or body not in repeats:  # blocks registered since are read too
            # every statement stands in a numbered block: no walk of the whole tree
            self._repeats = repeats = {self.block_id(stmt.body): _loc(stmt) for block in list(self.blocks)
                                       for stmt in block.body if isinstance(stmt, ast.Repeat)}
        return repeats.get(body, "")

    def _while(self, state, frame, stmt: ast.While):
        if self.ev.truth(state, frame["env"], stmt.test):
            rt.tick(state, "while", _loc(stmt))
            frame["cur"].append([self.block_id(stmt.body), 0, ["while", self._while_ids[id(stmt)]]])

    def _break(self, state, frame, stmt: ast.Break):
        cursors = frame["cur"]
        while cursors:
            if cursors.pop()[2] is not None:
                return

    def _choose(self, state, frame, stmt: ast.Choose):
        env = frame["env"]
        player = self.ev.value(state, env, stmt.chooser)
        values = self.ev.members(state, env, stmt.var.name, stmt.source, stmt.where)
        if stmt.action is not None:
            values = [v for v in values if self._allowed_with(state, env, stmt, v)]
        env.pop(stmt.var.name, None)
        if stmt.skip and not values:  # `or skip`: no decision, the rest of the block is skipped
            cursor = frame["cur"][-1]
            cursor[1] = len(self.blocks[cursor[0]].body)
            return
        if stmt.forced and len(values) == 1:  # `unless forced`: the only option, no decision
            env[stmt.var.name] = values[0]
            return
        ids, labels = self.ev.option_ids(option_kind(self.model, stmt), values)
        prompt, about = self._prompt(state, env, stmt)
        rt.ask(state, player, prompt, ids, labels, values, _loc(stmt), about)
        frame["wait"] = ["var", stmt.var.name]

    def _prompt(self, state, env, stmt: ast.Choose | ast.Menu) -> tuple[str, tuple]:
        """The prompt with the values it names filled in, and the entities it names."""
        if isinstance(stmt, ast.Menu) and stmt.asked is not None:  # made when asked
            return text_of(self.ev.value(state, env, stmt.asked)), ()
        if not stmt.pieces:
            return stmt.asking, ()
        texts = self._shown(state, env, stmt.shows)
        return fill_prompt(stmt.pieces, texts), tuple(t[1] for t in texts if type(t) is tuple)

    def _shown(self, state, env, parts: tuple[ast.Expr, ...]) -> list:
        """Each part's text as a prompt or a `log` line writes it: a player by label, and
        (text, entity) where the part names an entity (`c`, `c.label`)."""
        found, out = player_labels(self.model), []
        for part in parts:
            value = self.ev.value(state, env, part)
            if part in found.logged:
                out.append(label_of(self.meta.player_labels, value))
            elif part in found.entities:
                out.append((label_of(self.meta.entity_labels, value), value))
            elif isinstance(part, ast.Attr) and part.obj in found.entities:
                out.append((text_of(value), self.ev.value(state, env, part.obj)))
            else:
                out.append(text_of(value))
        return out

    def _allowed_with(self, state, env, stmt: ast.Choose, value) -> bool:
        env[stmt.var.name] = value
        args = [self.ev.value(state, env, a) for a in stmt.action.args]
        return self.ev.allowed(state, stmt.action.name.name, args)

    def _menu(self, state, frame, stmt: ast.Menu):
        env = frame["env"]
        player = self.ev.value(state, env, stmt.chooser)
        offered = [i for i, o in enumerate(stmt.options)
                   if o.when is None or self.ev.truth(state, env, o.when)]
        if stmt.forced and len(offered) == 1:  # `unless forced`: the only option runs, undecided
            frame["cur"].append([self.block_id(stmt.options[offered[0]].body), 0, None])
            return
        ids, labels = option_names(offered, [o.name.name for o in stmt.options], [o.label for o in stmt.options])
        prompt, about = self._prompt(state, env, stmt)
        rt.ask(state, player, prompt, ids, labels, offered, _loc(stmt), about)
        frame["wait"] = ["menu", self._menu_ids[id(stmt)]]

    def _call(self, state, frame, stmt: ast.CallStmt):
        proc = self.model.procedures[stmt.name.name]
        args = self.ev.kept_args(state, frame["env"], stmt.args)
        env = {p.name: v for p, v in zip(proc.params, args)}
        self._push(state, proc.name.name, env, proc.body)

    def _resolve(self, state, frame, stmt: ast.Resolve):
        card = self.ev.value(state, frame["env"], stmt.card)
        player = self.ev.value(state, frame["env"], stmt.player)
        event = self.model.action_of(card) if stmt.action else self.model.event_of(card)
        if event is None or card in state.blanked:  # blanked: rulespec worth --as blank
            return
        env = {"you": player, "this": card}
        if event.when is None or self.ev.truth(state, env, event.when):
            rt.note_event(state, card, player)  # a use of the card, for simulate's card table
            rt.enter_event(state, self.meta.entity_ids[card], _loc(stmt))
            word = "action " if stmt.action else "event "
            self._push(state, word + self.meta.entity_ids[card], env, event.body)

    def _activate(self, state, frame, stmt: ast.Activate):
        args = self.ev.kept_args(state, frame["env"], stmt.args)
        lifetime = stmt.lifetime.name if stmt.lifetime else None
        rt.activate(state, self.model.effect_index[stmt.effect.name], args, lifetime)

    def _cancel(self, state, frame, stmt: ast.Cancel):
        args = None if stmt.args is None else self.ev.kept_args(state, frame["env"], stmt.args)
        rt.cancel(state, self.model.effect_index[stmt.effect.name], args)

    def _expire(self, state, frame, stmt: ast.Expire):
        rt.expire(state, stmt.lifetime.name)

    def _emit(self, state, frame, stmt: ast.Emit):
        args = self.ev.kept_args(state, frame["env"], stmt.args)
        if state.trace is not None:
            by = self._player_param(stmt.signal.name)
            rt.note_signal(state, stmt.signal.name, [args[i] for i in self._card_params(stmt.signal.name)],
                           None if by is None else args[by])
        triggers, abilities = self._triggers(stmt.signal.name)
        runs = []
        for effect, params, _ in list(self.ev.in_force(state, abilities)):
            if effect not in triggers:  # most active effects wait for another signal
                continue
            for proc, effect_params, names, trigger in triggers[effect]:
                env = dict(zip(effect_params, params))
                env.update(zip(names, args))
                if trigger.when is None or self.ev.truth(state, env, trigger.when):
                    runs.append((proc, env, trigger.body))
        for proc, env, body in reversed(runs):
            self._push(state, proc, env, body)

    def _triggers(self, signal: str) -> tuple[dict[int, list[tuple]], list]:
        """effect index -> ("on NAME", its params, the signal's names, the trigger) for each
        trigger of `signal`, in the order the effect declares them, and the abilities among
        those effects (worked out once)."""
        by_signal = getattr(self, "_by_signal", None)
        if by_signal is None:
            by_signal = self._by_signal = {}
            for index, decl in enumerate(self.effect_decls):
                params = tuple(p.name for p in decl.params)
                for trigger in decl.triggers:
                    by_signal.setdefault(trigger.signal.name, {}).setdefault(index, []).append(
                        ("on " + decl.name.name, params, tuple(n.name for n in trigger.names), trigger))
            by_signal = self._by_signal = {signal: (found, self.ev.abilities_of(found))
                                           for signal, found in by_signal.items()}
        return by_signal.get(signal, ({}, []))

    def _player_param(self, signal: str) -> int | None:
        """Position of a signal's first player parameter: whose use a trace counts."""
        params = self.model.signals[signal].params
        return next((i for i, p in enumerate(params) if p.type.name == "player"), None)

    def _card_params(self, signal: str) -> list[int]:
        """Positions of a signal's card-typed parameters (traced for coverage)."""
        params = self.model.signals[signal].params
        return [i for i, p in enumerate(params) if self.model.category(p.type.name) == "card"]

    def _win(self, state, frame, stmt: ast.Win):
        winner = self.ev.value(state, frame["env"], stmt.player)
        rt.end_game(state, winner, stmt.reason, _loc(stmt))

    def _lose(self, state, frame, stmt: ast.Lose):
        losers = tuple(self.ev.value(state, frame["env"], p) for p in stmt.players)
        rt.lose_game(state, losers, stmt.reason, _loc(stmt))

    def _log(self, state, frame, stmt: ast.Log):
        env = frame["env"]
        to = () if stmt.to is None else (self.ev.value(state, env, stmt.to),)
        parts, secret = self._shown(state, env, stmt.parts), player_labels(self.model).secret
        for i, part in enumerate(stmt.parts):
            if part in secret:  # read by the seats of these players only (runtime/logview.py)
                parts[i] = rt.secret_part(parts[i], *(env[name] for name in secret[part]))
        rt.log_seen(state, parts, _loc(stmt), *to)

    def rebind_cards(self, state: State, mapping: dict[int, int]) -> None:
        """Replace the cards that suspended frames hold (search bots re-deal unseen cards)."""
        if not hasattr(self, "_card_names"):
            from rulespec.compiler.frontend.bindings import card_bindings
            found = card_bindings(self.model)
            self._card_names = {i: found.of(b) for i, b in enumerate(self.blocks) if found.of(b)}
        for frame in state.frames:
            names = self._card_names.get(frame["cur"][0][0]) if frame["cur"] else None
            if not names:
                continue
            env = frame["env"]
            for name in names & env.keys():
                env[name] = mapping.get(env[name], env[name])
            for cursor in frame["cur"]:
                loop = cursor[2]
                if loop is not None and loop[0] == "for" and loop[1] in names:
                    loop[2] = [mapping.get(v, v) for v in loop[2]]

    # ------------------------------------------------------------ checks and tests
    def check_invariants(self, state: State) -> list[tuple[str, str]]:
        return [(i.name.name, i.label) for i in self.model.invariants
                if not self.ev.truth(state, {}, i.test)]

    def evaluate(self, state: State, bot: str, player: int) -> float:
        """A spec-declared evaluation of the position for `player`."""
        return self.ev.value(state, {"you": player}, self.model.bots[bot].value)

    def prefer(self, state: State, policy) -> list[int]:
        """The pending options a spec-declared policy (a name, or rulespec.runtime.policy.Tuned) likes
        best, by index (compiler/backends/policy.py)."""
        if getattr(self, "_policies", None) is None:
            from rulespec.compiler.backends.policy import PolicyRunner
            self._policies = PolicyRunner(self.model, self.ev)
        return self._policies.prefer(state, policy, self.meta)

    def forbidden(self, state: State, policy) -> list[int]:
        """The pending options a `never` line of the policy marks (compiler/backends/policy.py)."""
        if getattr(self, "_policies", None) is None:
            from rulespec.compiler.backends.policy import PolicyRunner
            self._policies = PolicyRunner(self.model, self.ev)
        return self._policies.forbidden(state, policy, self.meta)

    # The designer tests run from their plan (compiler/backends/testplan.py), as in generated code.
    @property
    def plan(self) -> Plan:
        return plan_tests(self.model)

    def test_keys(self) -> frozenset[str]:
        return self.plan.keys

    def run_test_block(self, state: State, key: str, env: dict) -> None:
        handle = self.block_id(self.plan.blocks[key])
        state.frames.append({"proc": "test", "env": env, "cur": [[handle, 0, None]], "wait": None})
        self.run(state)

    def test_expect(self, state: State, key: str, env: dict) -> bool:
        return self.ev.truth(state, env, self.plan.checks[key].test)

    def test_sides(self, state: State, key: str, env: dict) -> tuple[Any, Any]:
        check = self.plan.checks[key]
        return self.ev.value(state, env, check.left), self.ev.value(state, env, check.right)
