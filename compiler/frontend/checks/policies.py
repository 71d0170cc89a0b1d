"""Policies: each rule answers some decision, names options its menus have, and reads only
what the deciding player can see."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Iterator

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.locations import location
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.reuse import VERDICTS
from rulespec.compiler.frontend.checks.scope import ScopedVisitor
from rulespec.compiler.frontend.checks.types import Type, compatible, resolve_type

OPTION_TYPES = ("int", "player")  # besides kinds and the categories
KNOWLEDGE = ("known", "known_in")  # builtins that read what a player knows, of any zone


@dataclass(frozen=True)
class Site:
    """A decision the spec can ask, with what rules match on."""

    node: ast.Node  # ast.Choose or ast.Menu
    location: str
    prompt: str
    element: Type | None  # a `chooses`: the type of its options
    action: str | None  # a `chooses ... as action(...)`: the action
    options: tuple[str, ...]  # a menu: its option names

    @property
    def is_menu(self) -> bool:
        return isinstance(self.node, ast.Menu)


class _SiteFinder(ScopedVisitor):
    """Every `chooses` and menu of the game (not of its designer tests), with option types."""

    def __init__(self, model: Model):
        super().__init__(model)
        self.sites: list[Site] = []

    def run(self) -> list[Site]:
        decls = [d for d in self.model.spec.decls() if not isinstance(d, ast.TestDecl)]
        return VERDICTS.gather("decision sites", self.model, decls, self.sites_of)

    def sites_of(self, decl: ast.Decl) -> list[Site]:
        self.sites = []
        self.visit(decl)
        return self.sites

    def visit_Choose(self, stmt: ast.Choose) -> None:
        action = stmt.action.name.name if stmt.action is not None else None
        self.sites.append(Site(stmt, location(stmt.span), stmt.asking, self.element_of(stmt.source),
                               action, ()))
        super().visit_Choose(stmt)

    def visit_Menu(self, stmt: ast.Menu) -> None:
        names = tuple(o.name.name for o in stmt.options)
        self.sites.append(Site(stmt, location(stmt.span), stmt.asking, None, None, names))
        super().visit_Menu(stmt)


def decision_sites(model: Model) -> list[Site]:
    """The game's decisions in source order."""
    return _SiteFinder(model).run()


def rule_chain(model: Model, name: str) -> list[tuple[str, int, ast.Node]]:
    """(declaring policy, index, rule) in the order they are tried: own rules, then the base's."""
    return [(decl.name.name, i, rule) for decl in model.policy_chain(name)
            for i, rule in enumerate(decl.rules)]


def fits(model: Model, rule: ast.Node, site: Site) -> bool:
    """Whether a rule's pattern matches a decision site."""
    if isinstance(rule, ast.MenuRule):
        return site.is_menu and site.prompt in rule.prompts
    if not isinstance(rule, ast.ChoiceRule) or site.is_menu:
        return False
    if rule.action is not None and rule.action.name != site.action:
        return False
    if rule.prompts and site.prompt not in rule.prompts:
        return False
    wanted = resolve_type(model, rule.type.name)
    return site.element is not None and site.element.base != "unknown" and compatible(site.element, wanted)



def check_policies(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    problems = _balance_bots(model)
    evaluations = Visibility(model, EVALUATION)
    for bot in model.bots.values():
        problems += [Diagnostic(m, span) for m, span in evaluations.evaluation(bot)]
    if not model.policies:
        return problems
    sites = decision_sites(model)
    for decl in model.policies.values():
        problems += _extends(model, decl)
        problems += _rules(model, decl, sites)
        problems += [Diagnostic(m, span) for m, span in Visibility(model).policy(decl)]
    return problems


def _balance_bots(model: Model) -> list[Diagnostic]:
    """`balance bot "AGENT"`: declared once, and a bot this spec can seat (as --agents checks
    it: a search bot needs the policy or evaluation it names)."""
    from rulespec.runtime.bots.agents import check_agent
    decls = [d for d in model.spec.decls() if isinstance(d, ast.BalanceBotDecl)]
    problems = [Diagnostic(f"the balance bot is declared twice: the first at {decls[0].span}", d.span)
                for d in decls[1:]]
    if decls:
        offers = SimpleNamespace(bots=tuple(model.bots), policies=tuple(model.policies),
                                 tunables=tuple((n, model.tunable_metas(n)) for n in model.policies))
        try:
            check_agent(decls[0].agent, offers)
        except ValueError as err:
            problems.append(Diagnostic(f"balance bot \"{decls[0].agent}\": {err}", decls[0].span))
    return problems


def _extends(model: Model, decl: ast.PolicyDecl) -> list[Diagnostic]:
    base = decl.extends
    if base is None:
        return []
    if base.name not in model.policies:
        hint = did_you_mean(base.name, [n for n in model.policies if n != decl.name.name])
        return [Diagnostic(f"unknown policy '{base.name}'{hint}", base.span)]
    seen, name = [decl.name.name], base.name
    while name in model.policies:
        if name in seen:
            path = " -> ".join(seen + [name])
            return [Diagnostic(f"policy '{decl.name.name}' extends itself ({path})", base.span)]
        seen.append(name)
        nxt = model.policies[name].extends
        name = nxt.name if nxt is not None else ""
    return []


def _rules(model: Model, decl: ast.PolicyDecl, sites: list[Site]) -> list[Diagnostic]:
    problems = []
    chain = rule_chain(model, decl.name.name)
    for index, rule in enumerate(decl.rules):
        if isinstance(rule, ast.ChoiceRule) and not _option_type(model, rule.type.name):
            continue  # the names pass reports an unknown type
        matched = [s for s in sites if fits(model, rule, s)]
        earlier = [r for o, i, r in chain[:index] if o == decl.name.name]
        if len(rule.prompts) > 1:
            problems += _each_prompt(model, rule, sites, matched, earlier)
        elif not matched:
            problems.append(Diagnostic(_no_site(model, rule, sites, _only(rule.prompts)), rule.span))
        elif shadow := _shadowed(model, matched, earlier):
            problems.append(Diagnostic(shadow, rule.span))
        if matched and isinstance(rule, ast.MenuRule):
            problems += _menu_options(rule, matched)
    return problems


def _option_type(model: Model, name: str) -> bool:
    return name in OPTION_TYPES or name in model.kinds or name in ("space", "card", "region")


def _only(prompts: tuple[str, ...]) -> str | None:
    return prompts[0] if prompts else None


def _shadowed(model: Model, matched: list[Site], earlier: list[ast.Node]) -> str | None:
    """Why a rule (or one prompt of it) answers none of the decisions it fits: an earlier rule
    of the same policy answers them all."""
    if not all(any(fits(model, r, s) for r in earlier) for s in matched):
        return None
    first = next(r for r in earlier if any(fits(model, r, s) for s in matched))
    return f"this rule answers no decision: the rule at {first.span} comes first"


def _each_prompt(model: Model, rule: ast.Node, sites: list[Site], matched: list[Site],
                 earlier: list[ast.Node]) -> list[Diagnostic]:
    """A rule naming several prompts: each one asked by a decision the rule fits, named once,
    and not answered first by an earlier rule - reported at the prompt."""
    problems, seen = [], set()
    for prompt, span in zip(rule.prompts, rule.prompt_spans or (rule.span,) * len(rule.prompts)):
        asking = [s for s in matched if s.prompt == prompt]
        if prompt in seen:
            problems.append(Diagnostic(f"the prompt \"{prompt}\" is named twice in this rule", span))
        elif not asking:
            problems.append(Diagnostic(_no_site(model, rule, sites, prompt), span))
        elif shadow := _shadowed(model, asking, earlier):
            problems.append(Diagnostic(shadow, span))
        seen.add(prompt)
    return problems


def _no_site(model: Model, rule: ast.Node, sites: list[Site], prompt: str | None) -> str:
    if isinstance(rule, ast.MenuRule):
        prompts = [s.prompt for s in sites if s.is_menu]
        return f"no menu asks \"{prompt}\"{did_you_mean(prompt, prompts)}"
    wanted = resolve_type(model, rule.type.name)
    what = f"no `chooses` offers {wanted}"
    if rule.action is not None:
        what += f" as {rule.action.name}"
    if prompt is not None:
        prompts = [s.prompt for s in sites if not s.is_menu]
        what += f" asking \"{prompt}\"{did_you_mean(prompt, prompts)}"
    return what


def _menus(prompts: tuple[str, ...]) -> str:
    return " or ".join(f"\"{p}\"" for p in prompts)


def _menu_options(rule: ast.MenuRule, matched: list[Site]) -> list[Diagnostic]:
    names = sorted({o for s in matched for o in s.options})
    asked = tuple(dict.fromkeys(s.prompt for s in matched))
    problems = []
    for pref in rule.prefs:
        for option in pref.options:
            if option.name not in names:
                problems.append(Diagnostic(
                    f"the menu {_menus(asked)} has no option '{option.name}'"
                    f"{did_you_mean(option.name, names)} (options: {', '.join(names)})", option.span))
    return problems


# ------------------------------------------------------------------ what a policy may see


POLICY, EVALUATION = "a policy", "an evaluation"  # who reads, as the messages name it


class Visibility:
    """Finds the places a policy would read cards its player cannot see, or a policy or an
    evaluation (`bot`) would read a track the table hides from its player.

    A policy decides with its player's knowledge: zones it sees (public ones,
    its own `owner` zones, named `zone(you)`), the size of any zone and what it
    knows of any zone (`known(you, c)`, `known_in(you, zone)`); not
    the cards of a hidden zone or of another player's hand, followed through
    the defines, quantities and constraints it uses. (A var holding a card the
    player cannot see reads as none: the policy bot masks it.) An evaluation scores
    positions a search guessed, hidden cards dealt at random, so it may read any zone and
    anyone's knowledge; but no search re-deals a track, so a hidden or another player's
    `owner` track is refused to both.
    """

    def __init__(self, model: Model, reader: str = POLICY):
        self.model = model
        self.reader = reader
        # What each body reads that the policy may not, at its own spans (None: being walked)
        self.done: dict[tuple[str, str, frozenset[str]], list[tuple[str, ast.Span]] | None] = {}
        self.found: list[tuple[str, ast.Span]] = []

    def policy(self, decl: ast.PolicyDecl) -> list[tuple[str, ast.Span]]:
        for rule in decl.rules:
            for expr in _rule_exprs(rule):
                self.expr(expr, frozenset({"you"}))
        return self.found

    def evaluation(self, decl: ast.BotDecl) -> list[tuple[str, ast.Span]]:
        """What one `bot` evaluation reads that its player may not (each call told once)."""
        return self.reads(decl.value, frozenset({"you"}))

    def reads(self, expr: ast.Expr, yous: frozenset[str]) -> list[tuple[str, ast.Span]]:
        """What `expr` reads that the player named by the locals `yous` may not see."""
        self.found = []
        self.expr(expr, yous)
        return self.found

    def expr(self, node: ast.Node, yous: frozenset[str], sized: bool = False) -> None:
        if isinstance(node, (ast.Quantifier, ast.SumOf, ast.Extreme)):
            inner = yous - {node.var.name}
            self.expr(node.source, yous)
            for part in (getattr(node, "value", None), node.where):
                if part is not None:
                    self.expr(part, inner)
            if getattr(node, "default", None) is not None:
                self.expr(node.default, yous)
            return
        if isinstance(node, ast.NameRef):
            self.zone(node.name, None, yous, sized, node.span)
            self.track(node.name, None, yous, node.span)
            return
        if isinstance(node, ast.CallExpr):
            self.call(node, yous, sized)
            return
        if isinstance(node, ast.Allowed):
            self.allowed(node, yous)
        for child in node.children():
            self.expr(child, yous)

    def call(self, node: ast.CallExpr, yous: frozenset[str], sized: bool) -> None:
        model, name = self.model, node.name
        if name == "size":
            for arg in node.args:
                self.expr(arg, yous, sized=True)
            return
        if name in KNOWLEDGE and name not in model.defines and self.reader == POLICY:
            self.knowledge(node, yous)
            return
        if name in model.zones:
            self.zone(name, node.args[0] if node.args else None, yous, sized, node.span)
        if name in model.tracks:
            self.track(name, node.args[0] if node.args else None, yous, node.span)
        for arg in node.args:
            self.expr(arg, yous)
        mine = frozenset(i for i, a in enumerate(node.args) if _is_you(a, yous))
        if name in model.defines:
            decl = model.defines[name]
            self.body("define", name, decl.params, mine, [decl.body], node.span)
        elif name in model.quantities:
            decl = model.quantities[name]
            self.body("quantity", name, decl.params, mine, [decl.body], node.span)
            self.modifiers(name, mine, node.span)

    def knowledge(self, node: ast.CallExpr, yous: frozenset[str]) -> None:
        """`known(you, c)`, `known_in(you, zone)`: what `you` has seen, of any zone; what
        another player knows is not the policy's to read."""
        if not node.args:
            return
        if not _is_you(node.args[0], yous):
            self.found.append((f"a policy reads only what `you` knows: name the player `you` in"
                               f" {node.name}(...)", node.args[0].span))
        for arg in node.args[1:]:
            self.expr(arg, yous, sized=node.name == "known_in")

    def allowed(self, node: ast.Allowed, yous: frozenset[str]) -> None:
        mine = frozenset(i for i, a in enumerate(node.args) if _is_you(a, yous))
        forbids = [f for c in self.model.constraints for f in c.forbids]
        forbids += [f for e in self.model.effects.values() for f in e.forbids]
        for forbid in forbids:
            for pattern in forbid.patterns:
                if pattern.action.name == node.action.name:
                    names = frozenset(n.name for i, n in enumerate(pattern.names) if i in mine)
                    self.once(("allowed", node.action.name, names), [forbid.when], names, node.span,
                              f"the forbid of '{node.action.name}'")

    def modifiers(self, quantity: str, mine: frozenset[int], site: ast.Span) -> None:
        for effect in self.model.effects.values():
            for mod in effect.modifiers:
                if mod.quantity.name == quantity:
                    names = frozenset(n.name for i, n in enumerate(mod.names) if i in mine)
                    parts = [p for p in (mod.delta, mod.low, mod.high, mod.when) if p is not None]
                    self.once(("modify", f"{effect.name.name} {quantity}", names), parts, names, site,
                              f"effect '{effect.name.name}'")

    def body(self, word: str, name: str, params, mine: frozenset[int], parts, site: ast.Span) -> None:
        names = frozenset(p.name for i, p in enumerate(params) if i in mine)
        self.once((word, name, names), parts, names, site, f"{word} '{name}'")

    def once(self, key, parts, yous: frozenset[str], site: ast.Span, what: str) -> None:
        """What a body reads that the policy may not, told at `site`, the call that reached it
        (the policy's own line, where the designer can change what it reads), with where in
        the body: walked once per body, told at every call."""
        if key not in self.done:
            self.done[key] = None  # a body that reaches itself adds nothing the first walk misses
            outer, self.found = self.found, []
            for part in parts:
                self.expr(part, yous)
            self.done[key], self.found = self.found, outer
        for message, span in self.done[key] or ():
            self.found.append((f"{message}; read in {what} at {span}", site))

    def zone(self, name: str, owner: ast.Expr | None, yous, sized: bool, span: ast.Span) -> None:
        zone = self.model.zones.get(name)
        if zone is None or sized or zone.visibility == "public" or self.reader == EVALUATION:
            return
        if zone.visibility == "owner" and zone.per_player and owner is not None and _is_you(owner, yous):
            return
        shown = f"{name}(...)" if zone.per_player else name
        self.found.append((f"a policy reads only what `you` can see: the cards of '{shown}' are"
                           f" {'hidden' if zone.visibility == 'hidden' else 'seen only by their owner'}"
                           f" (its size may be read; name the owner `you`)", span))


    def track(self, name: str, owner: ast.Expr | None, yous, span: ast.Span) -> None:
        """A track the table hides from the policy's player: a `hidden` one, or another
        player's value of an `owner` one."""
        track = self.model.tracks.get(name)
        if track is None or track.visibility == "public":
            return
        if track.visibility == "owner" and owner is not None and _is_you(owner, yous):
            return
        shown = f"{name}(...)" if track.per_player else name
        seen = "hidden from every player" if track.visibility == "hidden" else "seen only by its owner"
        self.found.append((f"{self.reader} reads only what `you` can see: track '{shown}' is {seen}"
                           f"{'' if track.visibility == 'hidden' else ' (name the owner `you`)'}", span))


def _is_you(expr: ast.Expr, yous: frozenset[str]) -> bool:
    return isinstance(expr, ast.NameRef) and expr.name in yous


def _rule_exprs(rule: ast.Node) -> Iterator[ast.Expr]:
    for pref in getattr(rule, "prefs", ()):
        for part in (getattr(pref, "value", None), getattr(pref, "when", None)):
            if part is not None:
                yield part
