"""Kinds and entities: known kinds, attributes present and well typed, regions and links in place."""

from __future__ import annotations

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import Diagnostic, did_you_mean
from rulespec.compiler.frontend.model import Model
from rulespec.compiler.frontend.checks.symbols import article, literal_names
from rulespec.compiler.frontend.checks.types import BOOL, Type, compatible, literal_type, type_of_ref


class KindCheck:
    """Collects the problems of kind declarations, counters and entities."""

    def __init__(self, model: Model):
        self.model = model
        self.problems: list[Diagnostic] = []

    def report(self, message: str, span: ast.Span) -> None:
        self.problems.append(Diagnostic(message, span))

    def run(self) -> list[Diagnostic]:
        for decl in self.model.spec.decls():
            if isinstance(decl, ast.KindDecl):
                self.kind(decl)
            elif isinstance(decl, ast.CounterDecl):
                self.counter(decl)
            elif isinstance(decl, ast.EntityDecl):
                self.entity(decl)
            elif isinstance(decl, ast.EnumDecl) and decl.fields:
                self.enum_data(decl)
        return self.problems

    def enum_data(self, decl: ast.EnumDecl) -> None:
        """An enum's fields hold plain values, named apart from every kind's attributes (a
        read `x.name` is an enum value's by its name alone); each value gives its data."""
        kinds = {f.name.name for k in self.model.kinds.values() for f in k.fields}
        others = {f.name.name for e in self.model.enums.values() if e is not decl for f in e.fields}
        for field in decl.fields:
            name, wanted = field.name.name, type_of_ref(self.model, field.type)
            if field.on is not None or wanted.base not in ("int", "bool", "str", "enum") or wanted.optional:
                self.report(f"data on an enum's values is a number, a truth, a text or an enum value,"
                            f" not '{field.type.name}{'?' if wanted.optional else ''}'"
                            f"{' on ' + field.on.name if field.on else ''}", field.span)
            elif name in kinds or name in others or name == "label":
                self.report(f"attribute '{name}' of enum '{decl.name.name}' is named as an attribute"
                            f" of {'entities' if name in kinds or name == 'label' else 'another enum'}:"
                            f" give it a name of its own", field.name.span)
            elif field.default is not None:
                self.value(field.default, wanted, f"the default of '{name}'")
        for value, attributes in zip(decl.values, decl.data):
            self.given(decl, attributes, decl.fields, decl.name.name, value)

    # ------------------------------------------------------------ kinds and counters
    def kind(self, decl: ast.KindDecl) -> None:
        if decl.per_player and decl.category != "card":
            self.report(f"only cards exist once per player: '{decl.name.name}' is a kind of "
                        f"{decl.category}; drop 'per player'", decl.name.span)
        seen: dict[str, ast.Span] = {}
        for field in decl.fields:
            name = field.name.name
            if name in seen:
                self.report(f"duplicate attribute '{name}'; first declared at {seen[name]}", field.name.span)
            elif name == "label":
                self.report("'label' is every entity's label; choose another attribute name", field.name.span)
            seen.setdefault(name, field.name.span)
            if field.on is not None:
                self.field_on(decl, field)
            if field.default is not None:
                self.value(field.default, type_of_ref(self.model, field.type), f"the default of '{name}'")

    def field_on(self, decl: ast.KindDecl, field: ast.Field) -> None:
        """`name: T on ENUM`: an enum, and the same one wherever the attribute's name is declared."""
        on = field.on.name
        if on not in self.model.enums:
            self.report(f"attribute '{field.name.name}' is on '{on}', which is not an enum"
                        f"{did_you_mean(on, self.model.enums)}", field.on.span)
            return
        for kind in self.model.kinds.values():
            other = next((f for f in kind.fields if f.name.name == field.name.name), None)
            if kind is decl or other is None:
                continue
            if other.on is None or other.on.name != on:
                held = f"a value per {other.on.name}" if other.on is not None else "one value"
                self.report(f"attribute '{field.name.name}' holds {held} on {kind.name.name}: an "
                            f"attribute of that name must hold the same on every kind", field.name.span)
            break

    def counter(self, decl: ast.CounterDecl) -> None:
        kind = decl.kind.name
        if kind in ("space", "card") and kind not in self.model.kinds:
            return  # every space, or every card, whatever its kind
        if kind not in self.model.kinds:
            self.report(f"unknown kind '{kind}'{did_you_mean(kind, self.model.kinds)}", decl.kind.span)
        elif self.model.category(kind) not in ("space", "card"):
            self.report(f"counter '{decl.name.name}' must be on a kind of space or card; "
                        f"'{kind}' is a kind of {self.model.category(kind)}", decl.kind.span)

    def value(self, expr: ast.Expr, wanted: Type, what: str) -> None:
        """A literal in a declaration must have the type wanted."""
        actual = literal_type(self.model, expr)
        if actual is None:
            self.report(f"unknown name '{expr.name}'{did_you_mean(expr.name, literal_names(self.model, wanted))}",
                        expr.span)
        elif not compatible(actual, wanted):
            self.report(f"{what} must be {wanted}, not {actual}", expr.span)

    # ------------------------------------------------------------ entities
    def entity(self, decl: ast.EntityDecl) -> None:
        kind = self.model.kinds.get(decl.kind.name)
        if kind is None:
            hint = did_you_mean(decl.kind.name, self.model.kinds)
            self.report(f"unknown kind '{decl.kind.name}'{hint}", decl.kind.span)
            return
        self.attributes(decl, kind)
        self.regions(decl, kind.category)
        self.links(decl, kind.category)
        self.events(decl, kind.category)

    def attributes(self, decl: ast.EntityDecl, kind: ast.KindDecl) -> None:
        self.given(decl, decl.attributes, kind.fields, kind.name.name, decl.name)

    def given(self, decl: ast.Decl, attributes: tuple[ast.AttributeValue, ...], declared: tuple[ast.Field, ...],
              owner: str, ident: ast.Ident) -> None:
        """The attributes written for an entity (or an enum value): known, once, well typed, and
        every field without a default given."""
        fields = {f.name.name: f for f in declared}
        seen: dict[str, ast.Span] = {}
        for attribute in attributes:
            name = attribute.name.name
            if name in seen:
                self.report(f"duplicate attribute '{name}'; first given at {seen[name]}", attribute.name.span)
            elif name not in fields:
                self.report(f"{owner} has no attribute '{name}'{did_you_mean(name, fields)}",
                            attribute.name.span)
            elif fields[name].on is not None or isinstance(attribute.value, ast.PerValue):
                self.per_value(decl, attribute, fields[name])
            else:
                self.attribute(attribute, type_of_ref(self.model, fields[name].type))
            seen.setdefault(name, attribute.name.span)
        for field_name, field in fields.items():
            if field.default is None and field_name not in seen:
                self.report(f"{owner} '{ident.name}' has no value for attribute '{field_name}'", ident.span)

    def per_value(self, decl: ast.EntityDecl, attribute: ast.AttributeValue, field: ast.Field) -> None:
        """name (value n, ...) for an attribute `on ENUM`: known values, each once, well typed."""
        name, given = attribute.name.name, attribute.value
        if field.on is None:
            self.report(f"attribute '{name}' holds one value, not one per value of an enum: write "
                        f"'{name} VALUE'", given.span)
            return
        on = field.on.name
        if not isinstance(given, ast.PerValue):
            self.report(f"attribute '{name}' holds a value per {on}: write '{name} (v n, ...)' for "
                        f"{on} values v", attribute.span)
            return
        enum = self.model.enums.get(on)
        if enum is None:
            return  # the kind's field reports it
        values = [v.name for v in enum.values]
        wanted = type_of_ref(self.model, field.type)
        seen: dict[str, ast.Span] = {}
        for item in given.items:
            key = item.key.name
            if key in seen:
                self.report(f"'{key}' has its value given twice in '{name}'", item.key.span)
            elif key not in values:
                self.report(f"'{key}' is not a value of enum '{on}'{did_you_mean(key, values)}", item.key.span)
            seen.setdefault(key, item.key.span)
            self.value(item.value, wanted, f"'{name}' at {key}")
        missing = [v for v in values if v not in seen]
        if field.default is None and missing:
            self.report(f"{decl.kind.name} '{decl.name.name}' has no value for '{name}' at "
                        f"{', '.join(missing)} (its kind gives no default)", attribute.span)

    def attribute(self, attribute: ast.AttributeValue, wanted: Type) -> None:
        name = attribute.name.name
        bare = isinstance(attribute.value, ast.BoolLit) and attribute.value.span == attribute.span
        if bare and not compatible(BOOL, wanted):
            self.report(f"attribute '{name}' needs a value: it is {wanted}", attribute.span)
        else:
            self.value(attribute.value, wanted, f"attribute '{name}'")

    def regions(self, decl: ast.EntityDecl, category: str) -> None:
        if decl.regions and category == "card":
            self.report(f"a card is in no region: '{decl.name.name}' is a card", decl.regions[0].span)
            return
        for region in decl.regions:
            name = region.name
            if name == decl.name.name:
                self.report(f"region '{name}' cannot be in itself", region.span)
            elif name not in self.model.entity_index:
                self.report(f"unknown region '{name}'{did_you_mean(name, self.regions_named())}", region.span)
            elif self.category_of(name) != "region":
                self.report(f"'{name}' is {self.what(name)}, not a region", region.span)

    def links(self, decl: ast.EntityDecl, category: str) -> None:
        if decl.adjacent and category != "space":
            self.report(f"only spaces are adjacent to others; '{decl.name.name}' is a {category}",
                        decl.adjacent[0].span)
            return
        for other in decl.adjacent:
            if other.name in self.model.entity_index and self.category_of(other.name) != "space":
                self.report(f"'{other.name}' is {self.what(other.name)}, not a space", other.span)

    def events(self, decl: ast.EntityDecl, category: str) -> None:
        if decl.abilities and category != "card":
            self.report(f"only cards have 'while in' abilities; '{decl.name.name}' is a {category}",
                        decl.abilities[0].span)
        if decl.events and category != "card":
            self.report(f"only cards have events; '{decl.name.name}' is a {category}", decl.events[0].span)
        for extra in decl.events[1:]:
            self.report(f"a card has one event; '{decl.name.name}' already has one", extra.span)
        if decl.actions and category != "card":
            self.report(f"only cards have actions; '{decl.name.name}' is a {category}", decl.actions[0].span)
        for extra in decl.actions[1:]:
            self.report(f"a card has one action; '{decl.name.name}' already has one: write both in one "
                        "action, with a menu if the player picks", extra.span)

    def category_of(self, name: str) -> str | None:
        return self.model.entity_category(self.model.entity_index[name])

    def what(self, name: str) -> str:
        return article(self.model.entities[self.model.entity_index[name]].kind.name)

    def regions_named(self) -> list[str]:
        return [e.name.name for i, e in enumerate(self.model.entities)
                if self.model.entity_category(i) == "region"]


def check_kinds(model: Model, test_files: list[ast.SpecFile]) -> list[Diagnostic]:
    """Every problem of kinds, counters and entities."""
    return KindCheck(model).run()
