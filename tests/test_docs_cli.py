"""docs/CLI.md documents every command and every option the click tree registers, and nothing else.

The convention the page follows, checked here:
- each command has a `## NAME` section, and is named in the page's opening list of commands;
- the section's first fenced block is its synopsis, `rulespec NAME …`, listing every option of the
  command (one spelling at least) and no option the command lacks; a choice option shows its
  values as `--flag a|b|c`, exactly the choices click accepts;
- every spelling (`-o` and `--output`) appears somewhere in the section;
- every option is described: in the section's text outside the synopsis, or in the "Shared
  options" table on a row whose commands column names the command (and every command that
  table names has that option);
- an option's default value is stated there too: "default 10", "Defaults: `--seed 1`, …"
  or "`--backend both`, the default".
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from rulespec.compiler.cli import main
from rulespec.compiler.cli.base import COMMAND_MODULES, import_commands

DOC = Path(__file__).resolve().parent.parent / "docs" / "CLI.md"
FLAG = r"(?<![\w-]){}(?![\w-])"


def commands() -> dict[str, click.Command]:
    for module in sorted(set(COMMAND_MODULES.values())):
        import_commands(module)
    return dict(main.commands)


def sections(text: str) -> dict[str, str]:
    """The text under each `## heading`, up to the next one (### subsections stay inside)."""
    return {m[1]: m[2] for m in re.finditer(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S)}


def options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and not p.hidden]


def mentions(text: str, flag: str) -> bool:
    return re.search(FLAG.format(re.escape(flag)), text) is not None


def synopsis(section: str) -> str:
    found = re.search(r"^```\n(.*?)^```", section, re.M | re.S)
    return found[1] if found else ""


def shared_table(text: str) -> dict[str, set[str]]:
    """Shared options: each row's flag and the commands its second column names."""
    rows = re.findall(r"^\| `(--[\w-]+)[^`]*` \| ([^|]+) \|", sections(text)["Shared options"], re.M)
    return {flag: {c.strip() for c in names.split(",")} for flag, names in rows}


DOC_TEXT = DOC.read_text(encoding="utf-8")
SECTIONS = sections(DOC_TEXT)
COMMANDS = commands()


def test_every_command_has_a_section_and_is_listed_first() -> None:
    listed = re.search(r"^Commands: (.*?)\.(?:\s|$)", DOC_TEXT, re.M | re.S)
    assert listed, "docs/CLI.md: the opening 'Commands: …' list is gone"
    named = set(re.findall(r"`([\w-]+)`", listed[1]))
    for name in COMMANDS:
        assert name in SECTIONS, f"docs/CLI.md has no '## {name}' section"
        assert name in named, f"docs/CLI.md: '{name}' is missing from the opening list of commands"
    assert named <= set(COMMANDS), f"docs/CLI.md lists commands that do not exist: {named - set(COMMANDS)}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_synopsis_lists_every_option_and_only_those(name: str) -> None:
    section, command = SECTIONS[name], COMMANDS[name]
    usage = synopsis(section)
    assert usage.startswith(f"rulespec {name}"), f"## {name}: the first code block is not its synopsis"
    spellings = set()
    for option in options(command):
        flags = option.opts + option.secondary_opts
        spellings.update(flags)
        assert any(mentions(usage, f) for f in flags), f"## {name}: the synopsis lacks {flags[0]}"
        for flag in flags:
            assert mentions(section, flag), f"## {name}: {flag} is never mentioned"
    written = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", usage))
    assert written <= spellings, f"## {name}: the synopsis shows options it lacks: {written - spellings}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_choice_options_show_exactly_their_values(name: str) -> None:
    usage = synopsis(SECTIONS[name])
    for option in options(COMMANDS[name]):
        if not isinstance(option.type, click.Choice):
            continue
        shown = re.search(FLAG.format(re.escape(option.opts[0])) + r" ([\w|-]+)", usage)
        assert shown, f"## {name}: the synopsis shows no values for {option.opts[0]}"
        assert set(shown[1].split("|")) == set(option.type.choices), (
            f"## {name}: {option.opts[0]} takes {'|'.join(option.type.choices)}, the synopsis says {shown[1]}")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_is_described(name: str) -> None:
    body = SECTIONS[name].replace(synopsis(SECTIONS[name]), "")
    shared = shared_table(DOC_TEXT)
    for option in options(COMMANDS[name]):
        flags = option.opts + option.secondary_opts
        in_table = any(name in shared.get(f, ()) for f in flags)
        assert in_table or any(mentions(body, f) for f in flags), (
            f"## {name}: {flags[0]} is in the synopsis but described nowhere (say what it does in the"
            f" section, or name '{name}' on its row of the Shared options table)")


def test_the_shared_options_table_names_only_commands_that_have_the_option() -> None:
    for flag, names in shared_table(DOC_TEXT).items():
        for name in names:
            assert name in COMMANDS, f"Shared options: {flag} names an unknown command '{name}'"
            flags = {f for o in options(COMMANDS[name]) for f in o.opts + o.secondary_opts}
            assert flag in flags, f"Shared options: '{name}' has no {flag}"


def states_default(text: str, flag: str, value: object) -> bool:
    shown = re.escape(str(value))
    value_at = rf"(?<![\w.]){shown}(?![\w.])"
    return any(re.search(p, text) for p in (
        rf"[Dd]efault[^.;\n]{{0,60}}?{value_at}",                   # (default 10)
        rf"Defaults:[^.]*?`{re.escape(flag)} {shown}`",              # Defaults: `--seed 1`, …
        rf"`{re.escape(flag)} {shown}`,? \(?the default"))            # `--backend both`, the default


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_default_is_stated(name: str) -> None:
    rows = dict(re.findall(r"^\| `(--[\w-]+)[^\n]*?\| ([^\n]*)", sections(DOC_TEXT)["Shared options"], re.M))
    for option in options(COMMANDS[name]):
        value = option.default
        if value is None or value == "" or option.is_flag or option.multiple or callable(value):
            continue
        row = rows.get(option.opts[0], "")
        described = states_default(SECTIONS[name], option.opts[0], value) or (
            name in row and states_default(row, option.opts[0], value))
        assert described, f"## {name}: the default of {option.opts[0]} ({value}) is not stated"
