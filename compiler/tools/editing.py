"""What an editor asks of a spec, without the protocol: problems, declarations, hovers, names.

The editor's unsaved texts are checked by the real loader: the game folder's
.rules files are mirrored into a private folder with the open buffers in
place of the saved files, and every span found there is mapped back to the
real file. A game that does not check still answers hover, definition and
completion: it is loaded without the checks, a file with a syntax error in the
form it last parsed (or left out, if it never did); failing that, the names of
its last good load stay.
"""

from __future__ import annotations

import atexit
import dataclasses
import hashlib
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.errors import SpecError
from rulespec.compiler.tools.hovers import Declaration, declarations
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.frontend.parse import SPEC_SUFFIX, parse_text

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = sorted({
    "game", "players", "param", "enum", "track", "var", "zone", "counter", "kind", "lifetimes",
    "action", "signal", "constraint", "effect", "define", "quantity", "procedure", "phase", "setup",
    "start", "invariant", "assert", "bot", "policy", "map", "test", "event", "variant", "replace",
    "remove", "link", "let", "set", "to", "add", "from", "roll", "move", "bottom", "of", "all", "shuffle",
    "reveal", "show",
    "conceal", "copy", "clear", "if", "else", "for", "in", "where", "repeat", "while", "break",
    "chooses", "option", "when", "as", "resolve", "activate", "until", "cancel", "expire", "emit",
    "win", "lose", "log", "modify", "by", "min", "max", "forbid", "on", "and", "or", "not", "then", "count",
    "any", "sum", "allowed", "active", "true", "false", "none", "you", "this", "per", "player",
})


@dataclass(frozen=True)
class Problem:
    """One diagnostic, in a real file: 1-based line and column, end exclusive."""

    path: Path
    line: int
    column: int
    end_line: int
    end_column: int
    message: str


def game_folder(path: Path) -> Path:
    """The game folder a .rules file belongs to (its tests/ and variants/ are part of it)."""
    folder = path.resolve().parent
    if folder.name in ("tests", "variants") and any(folder.parent.glob(f"*{SPEC_SUFFIX}")):
        return folder.parent
    return folder


@dataclass
class Game:
    """One game folder as the editor sees it: its last check and last good load."""

    folder: Path
    mirror: Path
    declarations: dict[str, Declaration] = field(default_factory=dict)
    parsed: dict[Path, str] = field(default_factory=dict)  # per file, the last text of it that parsed


class Editing:
    """The open buffers and the games they belong to."""

    def __init__(self) -> None:
        self.buffers: dict[Path, str] = {}
        self.games: dict[Path, Game] = {}
        self._root = Path(tempfile.mkdtemp(prefix="rulespec-lsp-"))
        atexit.register(shutil.rmtree, self._root, ignore_errors=True)  # the mirrors go with the server

    def game(self, path: Path) -> Game:
        folder = game_folder(path)
        if folder not in self.games:
            key = hashlib.sha256(str(folder).encode()).hexdigest()[:12]
            self.games[folder] = Game(folder, self._root / key / folder.name)
        return self.games[folder]

    # ------------------------------------------------------------ problems
    def check(self, path: Path) -> dict[Path, list[Problem]]:
        """Every problem of the game the file belongs to, by real file (the file itself: [] if fine)."""
        path = path.resolve()
        game = self.game(path)
        variants = (path.stem,) if path.parent.name == "variants" else ()
        text = self._text(path)
        try:
            parse_text(text, str(path))
        except SpecError as err:  # a syntax error: the rest of the game cannot be checked
            self._names_unchecked(game, variants, broken=path)
            return {path: [_problem(d, path, path) for d in err.diagnostics]}
        game.parsed[path] = text
        self._mirror(game)
        found: dict[Path, list[Problem]] = {path: []}
        try:
            loaded = load_spec(game.mirror, variants=variants)
        except SpecError as err:
            for diagnostic in err.diagnostics:
                real = self._real(game, Path(diagnostic.span.file))
                found.setdefault(real, []).append(_problem(diagnostic, real, path))
            self._names_unchecked(game, variants)
            return found
        except Exception as err:  # noqa: BLE001 - an editor server reports, never dies
            found[path].append(Problem(path, 1, 1, 1, 2, f"rulespec could not check this game: {err}"))
            return found
        game.declarations = self._declarations(game, loaded)
        return found

    def _text(self, path: Path) -> str:
        return self.buffers[path] if path in self.buffers else path.read_text(encoding="utf-8")

    def _names_unchecked(self, game: Game, variants: tuple[str, ...], broken: Path | None = None) -> None:
        """The names of a game that does not check, for hover and definition: loaded without
        the checks; a file that does not parse in its last form that did."""
        try:
            self._mirror(game, broken)
            loaded = load_spec(game.mirror, variants=variants, check=False)
            game.declarations = self._declarations(game, loaded)
        except Exception:  # noqa: BLE001 - then the names of the last good load stay
            pass

    def _mirror(self, game: Game, broken: Path | None = None) -> None:
        for source in game.folder.rglob(f"*{SPEC_SUFFIX}"):
            target = game.mirror / source.relative_to(game.folder)
            text = self._text(source.resolve())
            if source.resolve() == broken:
                text = game.parsed.get(broken)
                if text is None:  # it never parsed here: the game without it
                    target.unlink(missing_ok=True)
                    continue
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        for target in list(game.mirror.rglob(f"*{SPEC_SUFFIX}")):  # files deleted since
            if not (game.folder / target.relative_to(game.mirror)).exists():
                target.unlink()

    def _real(self, game: Game, shown: Path) -> Path:
        absolute = shown if shown.is_absolute() else (Path.cwd() / shown)
        try:
            return game.folder / absolute.resolve().relative_to(game.mirror.resolve())
        except ValueError:
            return absolute

    # ------------------------------------------------------------ names
    def _declarations(self, game: Game, loaded) -> dict[str, Declaration]:
        prefixes = {str(game.mirror), str(game.mirror.resolve())}
        found = {}
        for d in declarations(loaded):
            hover = d.hover
            for prefix in prefixes:
                hover = hover.replace(prefix, game.folder.name)
            found[d.name] = dataclasses.replace(d, path=self._real(game, d.path), hover=hover)
        return found

    def declaration(self, path: Path, name: str) -> Declaration | None:
        return self.game(path.resolve()).declarations.get(name)

    def completions(self, path: Path, line: int) -> list[str]:
        """Names in scope at a line: the game's declarations, the locals around it, keywords."""
        names = set(self.game(path.resolve()).declarations)
        names |= local_names(self._text(path.resolve()), str(path), line)
        return sorted(names) + [k for k in KEYWORDS if k not in names]


def word_at(text: str, line: int, column: int) -> str | None:
    """The name under a 0-based line and column."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    for match in _NAME.finditer(lines[line]):
        if match.start() <= column <= match.end():
            return match.group()
    return None


def local_names(text: str, path: str, line: int) -> set[str]:
    """Parameters and locals of the declaration around a 1-based line (none when it does not parse)."""
    try:
        tree = parse_text(text, path)
    except SpecError:
        return set()
    around = next((d for d in tree.decls if d.span.line <= line <= d.span.end_line), None)
    if around is None:
        return set()
    names = {"you", "this"} if isinstance(around, (ast.EventDecl, ast.EntityDecl)) else set()
    for node in around.walk():
        if isinstance(node, ast.Param):
            names.add(node.name)
        for attr in ("var", "name"):
            value = getattr(node, attr, None)
            if isinstance(node, _BINDING_NODES) and isinstance(value, ast.Ident):
                names.add(value.name)
        if isinstance(node, ast.RollDice):
            names.update(n.name for n in node.names)
    return names


# The nodes that bind the name in their `var` or `name`.
_BINDING_NODES = (ast.Let, ast.Roll, ast.For, ast.Choose, ast.PickRandom, ast.MoveAll,
                  ast.Quantifier, ast.SumOf, ast.Extreme, ast.Reachable)


def _problem(diagnostic, real: Path, fallback: Path) -> Problem:
    span = diagnostic.span
    if span.line < 1:  # a problem with no place in a file (e.g. a missing file): the file's top
        return Problem(fallback, 1, 1, 1, 2, diagnostic.message)
    end_line, end_column = span.end_line, span.end_column
    if (end_line, end_column) <= (span.line, span.column):
        end_line, end_column = span.line, span.column + 1
    return Problem(real, span.line, span.column, end_line, end_column, diagnostic.message)
