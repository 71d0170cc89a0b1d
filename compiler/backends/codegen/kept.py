"""Filters kept between decisions: a filter's members remembered until what it reads changes.

`x in S where A and B` over a kind or region S, where A is calls of rules (a define,
`allowed`) on names that cannot fail to read, and the rules read only the state:
the members satisfying A are made once and kept in `state.memo`, stamped with the
write counts (`state.stamps`) of everything A reads, as checks/termination.py works
reads out; every write of a track, counter or var in generated code, and the runtime's
card moves and effect changes, count one more write of what they change. While the
stamps are the same, so is A's list, and only B is tested, on A's members, in S's order.

The same answers, the same errors: A is pure, so its list is the one the walk would make;
when making it fails, the helper says so and the caller walks S testing A and B as
written, failing where it would have. A state's copy carries the kept lists (they were
true of it); a view that hides cards (runtime/policy.py) and a re-dealt world
(runtime/bots/search.py) start with none.

Defines are kept the same way (define_stamps): a define of a number or a truth that walks
enough items keeps its value in state.memo by its name and arguments (rules.py.j2), while that
pays. Whether it does is not in the rules: a define asked once per option of a decision whose
move changes what it reads never finds its value, one asked by several rules between two moves
often does. So each kept define counts its look-ups on trial and stops keeping when too few find
their value (runtime/values.py, Keeping); its values are the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.checks.termination import ANY, EFFECTS, PENDING, RESULT, ZONES, RuleGraph
from rulespec.compiler.frontend.checks.types import TypeInfer, type_of_ref

KEPT_MIN_MEMBERS = 8  # smaller collections cost less to walk than to look up
# A define's value is kept when working it out visits about this many items or more
# (a look-up in state.memo costs about as much as a walk over a dozen).
KEPT_DEFINE_WORK = 12
KEPT_DEFINE_PARAMS = 2  # and its parameters of types of few values, so few are kept
FEW_VALUES = frozenset({"player", "bool", "enum", "entity"})
UNSIZED = 8  # the members guessed for a collection of no fixed size (a zone, a range)
SAFE_BUILTINS = frozenset({"opponent", "adjacent", "min", "max", "abs", "has_event"})
ZONE_BUILTINS = frozenset({"size", "top"})
UNSEEN = frozenset({"game_over", "winner", "losers", "end_reason", "deciding"})  # not stamped
_BINDERS = (ast.Quantifier, ast.SumOf, ast.Extreme, ast.Reachable)


class Stamps:
    """Which write count (`state.stamps[i]`) stands for what: the zones (with where each card
    lies and what is revealed) 0, the effects 1, then each track, counter and var by name.
    runtime/state.py sizes the list from the state's own slots, never fewer than these."""

    def __init__(self, model):
        self.index: dict = {ZONES: 0, EFFECTS: 1}
        for name in (*model.tracks, *model.counters, *model.var_index):
            self.index.setdefault(("name", name), len(self.index))

    def of(self, name: str) -> int:
        """The stamp a write of this track, counter or var counts on."""
        return self.index[("name", name)]

    def read(self, atoms: frozenset) -> list[int] | None:
        """The stamps of what is read, or None when something read has none."""
        if atoms & {RESULT, PENDING, ANY}:
            return None
        return sorted({self.index[a] for a in atoms if a in self.index})


@dataclass(frozen=True)
class Kept:
    """A kept filter's helper: `name(state, *args)` gives (members, True), or (S, False)."""

    name: str
    number: int
    params: tuple[str, ...]
    stamps: tuple[int, ...]
    var: str
    iterable: str
    condition: str
    spec: str

    @property
    def key(self) -> str:
        return repr(self.number) if not self.params else f"({self.number}, {', '.join(self.params)})"


class KeptFilters:
    """The kept filters of one generation, made once per distinct filter text."""

    def __init__(self, model):
        self.model = model
        self.stamps = Stamps(model)
        self.graph = RuleGraph(model)
        self.helpers: dict[tuple[str, str, int], Kept] = {}
        self._safe: dict[tuple[str, str], bool] = {}
        self._regions = self._region_collections()

    def reads(self, part: ast.Expr) -> list[int] | None:
        """The stamps of what `part` reads, or None when it cannot be kept."""
        extra = self._unsafe(part, set())
        if extra is None:
            return None
        return self.stamps.read(self.graph.reads(part) | extra)

    def _unsafe(self, node: ast.Node, seen: set) -> frozenset | None:
        """Atoms the rule graph does not see (zones read through values), or None when `node`
        (or a rule it calls) reads what no stamp covers."""
        model, extra = self.model, set()
        for n in node.walk():
            if isinstance(n, ast.NameRef) and n.name in UNSEEN:
                return None
            if isinstance(n, (ast.Quantifier, ast.SumOf, ast.Extreme)) and not self._static(n.source):
                extra.add(ZONES)
            if isinstance(n, ast.Member) and not self._static(n.collection):
                extra.add(ZONES)
            key = None
            if isinstance(n, ast.CallExpr):
                if n.name in model.defines:
                    key = ("define", n.name)
                elif n.name in model.quantities:
                    key = ("quantity", n.name)
                elif n.name in ZONE_BUILTINS:
                    extra.add(ZONES)
                elif not (n.name in model.tracks or n.name in model.counters or n.name in model.zones
                          or n.name in SAFE_BUILTINS):
                    return None
            elif isinstance(n, ast.Allowed):
                key = ("allowed", n.action.name)
            if key is not None and key not in seen:
                seen.add(key)
                for body in self.graph.bodies.get(key, ()):
                    found = self._unsafe(body, seen)
                    if found is None:
                        return None
                    extra |= found
        return frozenset(extra)

    def define_stamps(self, decl: ast.DefineDecl) -> list[int] | None:
        """The stamps a define's value is kept under (between decisions, by its arguments),
        or None: when its value is not a number or a truth (a list a caller might hold),
        when what it reads has no stamp, or when working it out costs less than a look-up."""
        env = {p.name: type_of_ref(self.model, p.type) for p in decl.params}
        if TypeInfer(self.model).infer(decl.body, env).base not in ("int", "bool"):
            return None
        if len(env) > KEPT_DEFINE_PARAMS or any(t.base not in FEW_VALUES for t in env.values()):
            return None  # a key of numbers would keep a value for each number it is asked of
        if self.work(decl.body, frozenset({decl.name.name})) < KEPT_DEFINE_WORK:
            return None
        return self.reads(decl.body)

    def work(self, node: ast.Node, busy: frozenset) -> int:
        """About how many items working `node` out visits: a walk's members times its test,
        a define's body where it is called (busy: the defines being sized, against recursion)."""
        model = self.model
        if isinstance(node, (ast.Quantifier, ast.SumOf, ast.Extreme)):
            inner = sum(self.work(p, busy) for p in (node.where, getattr(node, "value", None))
                        if p is not None)
            return self.work(node.source, busy) + self._members(node.source) * (1 + inner)
        if isinstance(node, ast.Reachable):
            return len(model.entities)
        total = 0  # the rest costs little beside a walk
        if isinstance(node, ast.CallExpr) and node.name in model.defines and node.name not in busy:
            total += self.work(model.defines[node.name].body, busy | {node.name})
        return total + sum(self.work(child, busy) for child in node.children())

    def _members(self, source: ast.Expr) -> int:
        """How many members walking `source` visits: a kind's, a region's, the players', or a guess."""
        model = self.model
        if isinstance(source, ast.NameRef):
            if source.name == "players":
                return len(model.players)
            if source.name in model.kinds:
                return len(model.kind_members.get(source.name, ()))
            index = model.entity_index.get(source.name)
            if index in model.region_members:
                return len(model.region_members[index])
        return UNSIZED

    def _region_collections(self) -> set[int]:
        """The ids of the collections in rules (a forbid's or modifier's test, a define) that
        hold a region whatever the state: a parameter typed region, as in `c in r` of an
        effect on a region. What a region holds never changes, where a zone's cards do."""
        model, infer, found, other = self.model, TypeInfer(self.model), set(), set()

        def look(part: ast.Node | None, env: dict) -> None:
            for n in (part.walk() if part is not None else ()):
                collection = (n.collection if isinstance(n, ast.Member) else
                              n.source if isinstance(n, (ast.Quantifier, ast.SumOf, ast.Extreme)) else None)
                if collection is not None:
                    t = infer.infer(collection, env)
                    region = t.base == "entity" and t.category == "region" and not t.optional
                    (found if region else other).add(id(collection))  # a region each time seen

        def typed(params) -> dict:
            return {p.name: type_of_ref(model, p.type) for p in params}

        for decl in model.defines.values():
            look(decl.body, typed(decl.params))
        owners = [((), c.forbids, ()) for c in model.constraints]
        owners += [(e.params, e.forbids, e.modifiers) for e in model.effects.values()]
        for params, forbids, modifiers in owners:
            for forbid in forbids:
                for pattern in forbid.patterns:
                    action = model.actions.get(pattern.action.name)
                    if action is not None:
                        env = typed(params)
                        env.update(zip((n.name for n in pattern.names),
                                       typed(action.params).values()))
                        look(forbid.when, env)
            for mod in modifiers:
                quantity = model.quantities.get(mod.quantity.name)
                if quantity is not None:
                    env = typed(params)
                    env.update(zip((n.name for n in mod.names), typed(quantity.params).values()))
                    for part in (mod.delta, mod.low, mod.high, mod.when):
                        look(part, env)
        return found - other

    def _static(self, node: ast.Expr) -> bool:
        """A collection no write changes: a kind, the players, a region, a map's links, a range."""
        if id(node) in self._regions:
            return True
        if isinstance(node, ast.NameRef):
            model = self.model
            return (node.name in model.kinds or node.name == "players"
                    or model.entity_index.get(node.name) in model.region_members)
        if isinstance(node, ast.CallExpr):
            return node.name == "adjacent"
        return isinstance(node, ast.Range)

    def helper(self, iterable: str, condition: str, params: tuple[str, ...], stamps: list[int],
               var: str, spec: str) -> Kept:
        key = (iterable, condition, len(params))
        if key not in self.helpers:
            number = len(self.helpers)
            self.helpers[key] = Kept(f"kept_{number}", number, params, tuple(stamps), var, iterable,
                                     condition, spec)
        return self.helpers[key]


def is_rule_call(part: ast.Expr, model) -> bool:
    """Whether a test is a call of a define or `allowed` (or its negation) on plain names:
    what a rule says of the item, worth keeping; a comparison with the numbers of the moment
    (points left to spend) changes as often as they do."""
    if isinstance(part, ast.Not):
        part = part.operand
    if isinstance(part, ast.Allowed):
        args = part.args
    elif isinstance(part, ast.CallExpr) and part.name in model.defines:
        args = part.args
    else:
        return False
    return all(isinstance(a, (ast.NameRef, ast.IntLit, ast.StrLit, ast.BoolLit)) for a in args)


def free_names(node: ast.Node, bound: frozenset = frozenset()) -> list[str]:
    """The names `node` reads that it does not bind itself, in order of first reading."""
    out: list[str] = []
    _free(node, bound, out)
    return out


def _free(node: ast.Node, bound: frozenset, out: list[str]) -> None:
    if isinstance(node, ast.NameRef):
        if node.name not in bound and node.name not in out:
            out.append(node.name)
        return
    if isinstance(node, _BINDERS):
        outer = node.start if isinstance(node, ast.Reachable) else node.source
        _free(outer, bound, out)
        inner = bound | {node.var.name}
        for part in (getattr(node, "where", None), getattr(node, "value", None)):
            if part is not None:
                _free(part, inner, out)
        return
    for child in node.children():
        _free(child, bound, out)
