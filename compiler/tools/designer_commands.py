"""The designer's commands: `doc`, `cards`, `fmt` and `lsp`, added to the `rulespec` group by cli.py.

Each failure is one line (`rulespec: error: ...`) or the spec's rendered
diagnostics, exit 1; nothing is written when something fails.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from rulespec.compiler.frontend.errors import SpecError, Sources
from rulespec.compiler.frontend.loader import LoadedSpec, find_spec_dir, load_spec


class DesignerError(click.ClickException):
    """Bad input to a designer command: one line, exit 1."""

    def show(self, file=None) -> None:
        click.echo(f"rulespec: error: {self.format_message()}", err=True)


def _load(game: str, variants: tuple[str, ...] = ()) -> LoadedSpec:
    try:
        folder = find_spec_dir(game)
    except FileNotFoundError:
        raise DesignerError(f"no spec found for '{game}': not a folder with .rules files "
                            "nor a game under spec/") from None
    return load_spec(folder, variants=variants)


_variant = click.option("--variant", "variants", multiple=True, metavar="V",
                        help="Turn a variant on (repeatable).")


# ------------------------------------------------------------------ doc


@click.command("doc")
@click.argument("game", metavar="GAME")
@_variant
@click.option("--html", "html_dir", default=None, metavar="DIR", help="Write DIR/index.html instead.")
@click.option("--find", "find", default=None, metavar="TEXT",
              help="Only the entries whose name (or section) contains TEXT.")
def doc(game: str, variants: tuple[str, ...], html_dir: str | None, find: str | None) -> None:
    """A reference of the game's spec: every declaration, its comment and its line."""
    from rich.console import Console

    from rulespec.compiler.tools.reference import build_reference
    from rulespec.compiler.tools.reference.render import print_reference, write_reference_html
    loaded = _load(game, variants)
    reference = build_reference(loaded.model, loaded.folder)
    if html_dir is not None:
        click.echo(f"wrote {write_reference_html(reference, Path(html_dir))}")
        return
    if print_reference(reference, Console(highlight=False, width=None if sys.stdout.isatty() else 100), find) == 0:
        raise DesignerError(f"nothing in {reference.game} is called '{find}'")


# ------------------------------------------------------------------ cards


@click.command("cards")
@click.argument("game", metavar="GAME")
@_variant
@click.option("--html", "html_dir", default=None, metavar="DIR", help="Write DIR/index.html.")
@click.option("--card", "names", multiple=True, metavar="NAME", help="Only this card (repeatable).")
def cards(game: str, variants: tuple[str, ...], html_dir: str | None, names: tuple[str, ...]) -> None:
    """Proof sheets: each card's data and its event in plain words, beside its spec text."""
    from rulespec.compiler.tools.cards import card_sheets, sheet_text
    from rulespec.compiler.tools.cards.html import write_cards_html
    from rulespec.compiler.frontend.errors import did_you_mean
    loaded = _load(game, variants)
    sheets = card_sheets(loaded.model)
    if names:
        known = {s.name for s in sheets}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise DesignerError(f"no card '{unknown[0]}' in {loaded.model.game}{did_you_mean(unknown[0], known)}")
        sheets = [s for s in sheets if s.name in names]
    if html_dir is not None:
        path = write_cards_html(loaded.model.title, loaded.model.game, sheets, Path(html_dir))
        click.echo(f"wrote {path} ({len(sheets)} cards)")
        return
    click.echo("\n".join(sheet_text(s) for s in sheets), nl=False)


# ------------------------------------------------------------------ fmt


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True, metavar="SPEC_DIR...")
@click.option("--check", is_flag=True, help="Change nothing: list the files not formatted, exit 1 if any.")
@click.option("--diff", "show_diff", is_flag=True, help="With --check: show what would change.")
def fmt(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Lay out .rules files canonically (comments kept, meaning unchanged)."""
    from rulespec.compiler.frontend.fmt import format_text, rules_files
    from rulespec.runtime.files import read_exact, write_if_unchanged
    files = _rules_files(paths, rules_files)
    texts = {path: read_exact(path) for path in files}
    formatted, problems, sources = {}, [], Sources()
    for path, text in texts.items():
        try:
            formatted[path] = format_text(text, str(path))
        except SpecError as err:
            sources.add(str(path), text)
            problems += err.diagnostics
    if problems:
        error = SpecError(problems)
        error.sources = sources
        raise error
    changed = [p for p in files if formatted[p] != texts[p]]
    if check:
        for path in changed:
            click.echo(f"not formatted: {path}")
            if show_diff:
                click.echo("".join(difflib.unified_diff(texts[path].splitlines(True), formatted[path].splitlines(True),
                                                        str(path), f"{path} (formatted)")), nl=False)
        if changed:
            click.echo(f"{len(changed)} of {len(files)} files not formatted (run: rulespec fmt {' '.join(paths)})")
            sys.exit(1)
        click.echo(f"{len(files)} files formatted")
        return
    for path in write_if_unchanged([(p, texts[p], formatted[p]) for p in changed]):
        click.echo(f"formatted {path}")
    click.echo(f"{len(changed)} of {len(files)} files changed")


def _rules_files(paths: tuple[str, ...], rules_files) -> list[Path]:
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if not path.exists():
            raise DesignerError(f"no such file or folder: {text}")
        files = rules_files(path)
        if not files:
            raise DesignerError(f"no .rules files in {text}")
        found += [f for f in files if f not in found]
    return found


# ------------------------------------------------------------------ lsp


@click.command("lsp")
@click.option("--textmate", "textmate_file", default=None, metavar="FILE",
              help="Write a TextMate grammar for highlighting to FILE instead, and stop.")
def lsp(textmate_file: str | None) -> None:
    """An editor server (Language Server Protocol) on stdin/stdout."""
    if textmate_file is not None:
        from rulespec.compiler.tools.textmate import textmate_json
        from rulespec.runtime.files import write_atomic
        click.echo(f"wrote {write_atomic(Path(textmate_file), textmate_json())}")
        return
    try:
        from rulespec.compiler.tools.lsp import serve
    except ImportError as err:
        raise DesignerError(f"the editor server needs pygls ({err}): pip install pygls") from None
    serve()


COMMANDS = (doc, cards, fmt, lsp)


def register(group: click.Group) -> None:
    for command in COMMANDS:
        group.add_command(command)
