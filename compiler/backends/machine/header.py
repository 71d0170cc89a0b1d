"""A machine layout rendered as a readable C header (templates/state.h.j2)."""

from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined

from rulespec.compiler.backends.machine.layout import Field, Layout


def described(field: Field) -> str:
    """A field's comment: its declaration, where it is, and the values it holds."""
    where = f", {field.at}" if field.at else ""
    values = f"bits, {field.bits} a row" if field.bits else f"{field.low}..{field.high}"
    none = f", none: {field.none}" if field.none is not None else ""
    text = f"{field.declared}{where}: {values}{none}"
    return text.replace("*/", "* /")  # a comment never ends early, whatever a name holds


def environment() -> Environment:
    env = Environment(loader=PackageLoader("rulespec.compiler.backends.machine", "templates"),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, autoescape=False)
    env.filters["described"] = described
    return env


def render_header(layout: Layout) -> str:
    """The C header of a layout: one typedef struct, its offsets asserted, the object part named."""
    guard = f"RULESPEC_{layout.game.upper()}_STATE_H"
    return environment().get_template("state.h.j2").render(layout=layout, guard=guard)
