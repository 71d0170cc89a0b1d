"""What a game's spec declares, as entries of a reference: signature, comment, place, details."""

from __future__ import annotations

import re
from collections import defaultdict
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Sources
from rulespec.compiler.frontend.fmt.comments import doc_comment
from rulespec.compiler.frontend.fmt.exprs import expr_doc, field_text, literal, params_text, quote, type_text
from rulespec.compiler.frontend.fmt.layout import render
from rulespec.compiler.frontend.fmt.printer import tunable_text
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.parse import parse_files, spec_files

BODY_WIDTH = 88
SHOWN_USES = 6
SHOWN_MEMBERS = 12


@dataclass(frozen=True)
class Entry:
    """One declaration as the reference shows it."""

    category: str
    name: str
    signature: str
    comment: str
    span: ast.Span
    details: tuple[str, ...] = ()
    code: str = ""  # a body worth reading (a define's expression), laid out
    name_span: ast.Span | None = None  # where the name itself is written (go to definition)

    @property
    def location(self) -> str:
        return f"{self.span.file}:{self.span.line}"

    @property
    def anchor(self) -> str:
        return f"{self.category}-{self.name}"


@dataclass(frozen=True)
class Section:
    title: str
    blurb: str
    entries: tuple[Entry, ...]


@dataclass
class Reference:
    """Everything a designer looks up in one game's spec, in sections."""

    game: str
    title: str
    sections: list[Section] = field(default_factory=list)

    def entries(self) -> list[Entry]:
        return [e for s in self.sections for e in s.entries]


class _Comments:
    """The doc comments of declarations, from the spec texts already read."""

    def __init__(self, sources: Sources):
        self.lines = {path: text.split("\n") for path, text in sources.texts().items()}

    def of(self, node: ast.Node, name: str = "") -> str:
        """The comment right above the declaration, else the line the file's
        opening comment gives its name (`#   give(p, n)   p gains n`)."""
        lines = self.lines.get(node.span.file)
        if not lines:
            return ""
        return doc_comment(lines, node.span.line) or (header_mention(lines, name) if name else "")

    def below(self, node: ast.Node) -> str:
        """The first paragraph of comment under a line (a variant file's opening words)."""
        lines = self.lines.get(node.span.file) or []
        number = node.span.line
        while number < len(lines) and not lines[number].strip():
            number += 1
        paragraph = []
        while number < len(lines) and lines[number].strip().startswith("#") \
                and lines[number].strip() != "#":
            paragraph.append(lines[number].strip()[1:].strip())
            number += 1
        return " ".join(paragraph)

    def add(self, sources: Sources) -> None:
        for path, text in sources.texts().items():
            self.lines.setdefault(path, text.split("\n"))


def header_mention(lines: list[str], name: str) -> str:
    """A line of the file's opening comment that starts with the name, and its continuation."""
    mention = re.compile(rf"^#\s+{re.escape(name)}\b(\([^)]*\))?\s{{2,}}(?P<text>\S.*)$")
    found: list[str] = []
    indent = 0
    for line in lines:
        text = line.strip()
        if not text.startswith("#"):
            break
        if found:
            rest = line.rstrip()[1:]
            if len(rest) - len(rest.lstrip()) >= indent and rest.strip():
                found.append(rest.strip())
                continue
            break
        match = mention.match(line.rstrip())
        if match:
            found.append(match.group("text"))
            indent = match.start("text") - 1
    return " ".join(found)


def uses_index(spec: ast.Spec) -> dict[str, list[ast.Span]]:
    """Where each name is called, emitted, activated or resolved (for 'used at')."""
    uses: dict[str, list[ast.Span]] = defaultdict(list)
    for decl in spec.decls():
        for node in decl.walk():
            match node:
                case ast.CallStmt() | ast.ActionRef():
                    uses[node.name.name].append(node.span)
                case ast.CallExpr():
                    uses[node.name].append(node.span)
                case ast.Emit():
                    uses[node.signal.name].append(node.span)
                case ast.Activate() | ast.Cancel() | ast.Active():
                    uses[node.effect.name].append(node.span)
                case ast.Allowed():
                    uses[node.action.name].append(node.span)
    return uses


def _used_at(name: str, uses: dict[str, list[ast.Span]]) -> tuple[str, ...]:
    places = list(dict.fromkeys(f"{Path(s.file).name}:{s.line}" for s in uses.get(name, [])))
    if not places:
        return ("not used in the spec",)
    shown = ", ".join(places[:SHOWN_USES])
    more = f" and {len(places) - SHOWN_USES} more" if len(places) > SHOWN_USES else ""
    return (f"used at {shown}{more}",)


def _code(expr: ast.Expr) -> str:
    return render(expr_doc(expr), BODY_WIDTH)


def _params(params: tuple[ast.Param, ...]) -> str:
    return "(" + ", ".join(params_text(params)) + ")"


def _param_details(d: ast.ParamDecl) -> tuple[str, ...]:
    if d.low is not None and d.high is not None:
        domain = f"from {literal(d.low)} to {literal(d.high)}"
    elif d.choices:
        domain = "one of " + ", ".join(literal(c) for c in d.choices)
    else:
        domain = f"any {type_text(d.type)}"
    return (f"--param {d.name.name}=VALUE: {domain}; default {literal(d.default)}",)


def _param(d: ast.ParamDecl) -> str:
    doc = f" {quote(d.doc)}" if d.doc else ""
    return f"param {d.name.name}: {type_text(d.type)} = {literal(d.default)}{doc}"


# ------------------------------------------------------------------ the sections


def build_reference(model: Model, folder: Path) -> Reference:
    """The reference of a loaded (checked) spec; variants are read from folder/variants."""
    comments = _Comments(model.sources)
    uses = uses_index(model.spec)
    reference = Reference(model.game, model.title)
    entry = _Maker(comments, uses)
    sections = [
        ("Game", "The game, its sides in turn order, and its parameters (`--param`).",
         entry.game(model) + [entry.param(d) for d in model.params.values()]),
        ("Tracks", "Bounded numbers: `add`/`remove` clamp to the bounds.",
         [entry.track(d) for d in _decls(model, ast.TrackDecl)]),
        ("Variables", "Typed globals (`set v to ...`).", [entry.var(d) for d in model.vars.values()]),
        ("Zones", "Where cards are; visibility: hidden, owner, public.",
         [entry.zone(d) for d in _decls(model, ast.ZoneDecl)]),
        ("Counters", "Numbers on each space or card (`NAME(player, space)`).",
         [entry.counter(d) for d in _decls(model, ast.CounterDecl)]),
        ("Enums", "Named values.", [entry.enum(d) for d in model.enums.values()]),
        ("Kinds", "Kinds of entities with their attributes, and how many the spec declares.",
         [entry.kind(d, model) for d in model.kinds.values()]),
        ("Defines", "Derived rules, written once and used everywhere.",
         [entry.define(d) for d in model.defines.values()]),
        ("Quantities", "Numbers that effects may modify (`modify q(...) by n`).",
         [entry.quantity(d) for d in model.quantities.values()]),
        ("Procedures", "Helpers to call from events, phases and other procedures.",
         [entry.procedure(d) for d in model.procedures.values() if d.role == "procedure"]),
        ("Phases and setups", "The round skeleton and the starting positions.",
         [entry.procedure(d) for d in model.procedures.values() if d.role != "procedure"]
         + ([entry.procedure(model.start)] if model.start else [])),
        ("Actions", "Moves that constraints and effects may forbid.",
         [entry.action(d) for d in model.actions.values()]),
        ("Constraints", "Always in force.", [entry.constraint(d) for d in model.constraints]),
        ("Effects", "Lasting effects: in force while active (`activate e until ...`).",
         [entry.effect(d) for d in model.effects.values()]),
        ("Signals", "What happens, for triggers (`on signal(...)`) to hear.",
         [entry.signal(d) for d in model.signals.values()]),
        ("Lifetimes", "What `activate ... until` may name.",
         [entry.lifetime(i) for i in model.lifetimes.values()]),
        ("Invariants and asserts", "Invariants hold after every decision; asserts are checked once.",
         [entry.rule("invariant", d) for d in model.invariants]
         + [entry.rule("assert", d) for d in model.asserts]),
        ("Bots", "Evaluations of a position for the search bots.",
         [entry.bot(d) for d in model.bots.values()]),
        ("Policies", "Preferences over the options a decision offers.",
         [entry.policy(d) for d in model.policies.values()]),
        ("Tunables", "A policy's numbers that `rulespec tune` searches by play, within their ranges.",
         [entry.tunable(d, t) for d in model.policies.values() for t in d.declared_tunables()]),
        ("Variants", "Overlays on the base game (`--variant NAME`).", _variants(folder, entry, comments)),
    ]
    reference.sections = [Section(t, b, tuple(e)) for t, b, e in sections if e]
    return reference


def _decls(model: Model, cls: type) -> list:
    seen: set[str] = set()
    found = []
    for decl in model.spec.decls():
        if isinstance(decl, cls) and decl.name.name not in seen:
            seen.add(decl.name.name)
            found.append(decl)
    return found


class _Maker:
    """Makes the entry of each kind of declaration."""

    def __init__(self, comments: _Comments, uses: dict[str, list[ast.Span]]):
        self.comments = comments
        self.uses = uses

    def _entry(self, category: str, decl: ast.Node, name: str, signature: str,
               details: tuple[str, ...] = (), code: str = "") -> Entry:
        ident = decl if isinstance(decl, ast.Ident) else getattr(decl, "name", None)
        where = ident.span if isinstance(ident, ast.Ident) else decl.span
        return Entry(category, name, signature, self.comments.of(decl, name), decl.span, details, code, where)

    def game(self, model: Model) -> list[Entry]:
        found = []
        for decl in model.spec.decls():
            if isinstance(decl, ast.GameDecl):
                found.append(self._entry("game", decl, decl.name.name,
                                         f"game {decl.name.name} {quote(decl.title)}"))
            elif isinstance(decl, ast.PlayersDecl):
                items = ", ".join(f"{p.name.name} {quote(p.label)}" for p in decl.players)
                found.append(self._entry("players", decl, "players", f"players {items}",
                                         ("in turn order; opponent(p) is the next side",)))
        return found

    def param(self, d: ast.ParamDecl) -> Entry:
        return self._entry("param", d, d.name.name, _param(d), _param_details(d))

    def track(self, d: ast.TrackDecl) -> Entry:
        per = " per player" if d.per_player else ""
        if d.flag:
            return self._entry("track", d, d.name.name, f"flag {d.name.name} {quote(d.label)}{per}",
                               (f"read as a truth {d.name.name}(p), set to true or false",))
        on = f" on {d.on.name}" if d.on is not None else ""
        excepts = ", ".join(f"{b.value.name} {b.low}..{b.high}" for b in d.bounds)
        args = ", ".join((["p"] if d.per_player else []) + (["v"] if d.on is not None else []))
        use = f"{d.name.name}({args})" if args else d.name.name
        return self._entry("track", d, d.name.name,
                           f"track {d.name.name} {quote(d.label)}{per}{on} {d.low}..{d.high} start {d.start}"
                           + (f" except {excepts}" if excepts else ""),
                           (f"read and set as {use}",))

    def var(self, d: ast.VarDecl) -> Entry:
        return self._entry("var", d, d.name.name,
                           f"var {d.name.name}: {type_text(d.type)} = {literal(d.initial)}")

    def zone(self, d: ast.ZoneDecl) -> Entry:
        per = " per player" if d.per_player else ""
        ordered = " ordered" if d.ordered else ""
        return self._entry("zone", d, d.name.name,
                           f"zone {d.name.name} {quote(d.label)}{per} {d.visibility}{ordered}")

    def counter(self, d: ast.CounterDecl) -> Entry:
        per = " per player" if d.per_player else ""
        use = f"{d.name.name}(p, x)" if d.per_player else f"{d.name.name}(x)"
        word = "flag" if d.flag else "counter"
        how = f"read as a truth {use}, set to true or false" if d.flag else f"read and set as {use}"
        return self._entry("counter", d, d.name.name,
                           f"{word} {d.name.name} {quote(d.label)}{per} on {d.kind.name}", (how,))

    def enum(self, d: ast.EnumDecl) -> Entry:
        values = ", ".join(v.name for v in d.values)
        return self._entry("enum", d, d.name.name, f"enum {d.name.name} {{ {values} }}")

    def kind(self, d: ast.KindDecl, model: Model) -> Entry:
        fields = ", ".join(field_text(f) for f in d.fields)
        members = [model.entities[i].name.name for i in model.kind_members.get(d.name.name, [])]
        shown = ", ".join(members[:SHOWN_MEMBERS]) + (", ..." if len(members) > SHOWN_MEMBERS else "")
        count = f"{len(members)} declared" + (f": {shown}" if members else "")
        per = " per player" if d.per_player else ""
        details = (count, "each card once per player: name(p) is p's, owner(c) whose; "
                   "'while in zone { ... }' on a card holds while it lies there") if d.per_player else (count,)
        return self._entry("kind", d, d.name.name, f"kind {d.name.name}: {d.category}({fields}){per}", details)

    def define(self, d: ast.DefineDecl) -> Entry:
        result = f" -> {type_text(d.type)}" if d.type is not None else ""
        return self._entry("define", d, d.name.name, f"define {d.name.name}{_params(d.params)}{result}",
                           _used_at(d.name.name, self.uses), _code(d.body))

    def quantity(self, d: ast.QuantityDecl) -> Entry:
        return self._entry("quantity", d, d.name.name, f"quantity {d.name.name}{_params(d.params)}",
                           _used_at(d.name.name, self.uses), _code(d.body))

    def procedure(self, d: ast.ProcedureDecl) -> Entry:
        if d.role == "procedure":
            signature = f"procedure {d.name.name}{_params(d.params)}"
        elif d.role == "start":
            signature = "start"
        else:
            signature = f"{d.role} {d.name.name} {quote(d.label)}"
        details = _used_at(d.name.name, self.uses) if d.role != "start" else ("runs the game",)
        return self._entry(d.role, d, d.name.name, signature, details)

    def action(self, d: ast.ActionDecl) -> Entry:
        return self._entry("action", d, d.name.name, f"action {d.name.name}{_params(d.params)} {quote(d.label)}")

    def constraint(self, d: ast.ConstraintDecl) -> Entry:
        forbids = sorted({p.action.name for f in d.forbids for p in f.patterns})
        return self._entry("constraint", d, d.name.name, f"constraint {d.name.name} {quote(d.label)}",
                           (f"forbids {', '.join(forbids)}",))

    def effect(self, d: ast.EffectDecl) -> Entry:
        params = _params(d.params) if d.params else ""
        parts = [f"modifies {', '.join(sorted({m.quantity.name for m in d.modifiers}))}"] if d.modifiers else []
        parts += [f"forbids {', '.join(sorted({p.action.name for f in d.forbids for p in f.patterns}))}"] \
            if d.forbids else []
        parts += [f"hears {', '.join(sorted({t.signal.name for t in d.triggers}))}"] if d.triggers else []
        details = ("; ".join(parts),) if parts else ("a marker: no modifier, prohibition or trigger",)
        return self._entry("effect", d, d.name.name, f"effect {d.name.name}{params} {quote(d.label)}",
                           details + _used_at(d.name.name, self.uses))

    def signal(self, d: ast.SignalDecl) -> Entry:
        label = f" {quote(d.label)}" if d.label is not None else ""
        return self._entry("signal", d, d.name.name, f"signal {d.name.name}{_params(d.params)}{label}",
                           tuple(x.replace("used at", "emitted at") for x in _used_at(d.name.name, self.uses)))

    def lifetime(self, name: ast.Ident) -> Entry:
        return self._entry("lifetime", name, name.name, f"lifetimes {name.name}",
                           (f"activate e until {name.name}; expire {name.name}",))

    def rule(self, category: str, d: ast.InvariantDecl | ast.AssertDecl) -> Entry:
        return self._entry(category, d, d.name.name, f"{category} {d.name.name} {quote(d.label)}",
                           code=_code(d.test))

    def bot(self, d: ast.BotDecl) -> Entry:
        return self._entry("bot", d, d.name.name, f"bot {d.name.name} {quote(d.label)}",
                           (f"--agents greedy:{d.name.name} or mc:{d.name.name}",),
                           _code(d.value))

    def policy(self, d: ast.PolicyDecl) -> Entry:
        base = f" extends {d.extends.name}" if d.extends is not None else ""
        rules = len(d.rules)
        return self._entry("policy", d, d.name.name, f"policy {d.name.name} {quote(d.label)}{base}",
                           (f"{rules} rule{'s' if rules != 1 else ''} over choices and menus; "
                            f"--agents policy:{d.name.name} or mcts:{d.name.name}",))

    def tunable(self, d: ast.PolicyDecl, t: ast.Tunable) -> Entry:
        return self._entry("tunable", t, t.name.name, f"tunable {tunable_text(t)}",
                           (f"in policy {d.name.name}; rulespec tune GAME --policy {d.name.name}"
                            f" searches it; --agents 'policy:{d.name.name}({t.name.name}=N)' plays N",))

    def variant(self, file: ast.SpecFile) -> Entry | None:
        header = next((d for d in file.decls if isinstance(d, ast.VariantDecl)), None)
        if header is None:
            return None
        entry = self._entry("variant", header, header.name.name,
                            f"variant {header.name.name} {quote(header.label)}", (_changes(file),))
        if not entry.comment:
            entry = dataclasses.replace(entry, comment=self.comments.below(header))
        return entry


def _changes(file: ast.SpecFile) -> str:
    replaced, removed, added, excluded, tests = [], [], [], [], 0
    for decl in file.decls:
        if isinstance(decl, ast.ReplaceDecl):
            replaced.append(_what(decl.decl))
        elif isinstance(decl, ast.RemoveDecl):
            removed.append(decl.name.name)
        elif isinstance(decl, ast.TestDecl):
            tests += 1
        elif isinstance(decl, ast.ExcludesDecl):
            excluded += [v.name for v in decl.variants]
        elif not isinstance(decl, (ast.VariantDecl, ast.ChangesDecl)):
            added.append(_what(decl))
    parts = [f"replaces {', '.join(replaced)}"] if replaced else []
    parts += [f"removes {', '.join(removed)}"] if removed else []
    parts += [f"adds {', '.join(added)}"] if added else []
    parts += [f"{tests} test{'s' if tests != 1 else ''} of its own"] if tests else []
    parts += [f"not with {', '.join(excluded)}"] if excluded else []
    return "; ".join(parts) or "changes nothing"


def _what(decl: ast.Decl) -> str:
    """`setup NAME`, `card NAME`, `link a -- b`: a declaration in two words."""
    if isinstance(decl, ast.LinkDecl):
        return f"link {decl.first.name} -- {decl.second.name}"
    if isinstance(decl, ast.EntityDecl):
        return f"{decl.kind.name} {decl.name.name}"
    if isinstance(decl, ast.EventDecl):
        return f"event {decl.card.name}"
    if isinstance(decl, ast.ProcedureDecl):
        return decl.role if decl.role == "start" else f"{decl.role} {decl.name.name}"
    word = type(decl).__name__.removesuffix("Decl").lower()
    name = getattr(decl, "name", None)
    return f"{word} {name.name}" if isinstance(name, ast.Ident) else word


def _variants(folder: Path, entry: _Maker, comments: _Comments) -> list[Entry]:
    variants = folder / "variants"
    if not variants.is_dir():
        return []
    sources = Sources()
    parsed = parse_files(spec_files(variants), sources, Path.cwd())
    comments.add(sources)
    return [e for e in (entry.variant(f) for f in parsed.files) if e is not None]
