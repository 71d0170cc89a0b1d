"""Spec text in, AST out: lark parses, one Transformer builds typed nodes.

It stays whole: one Transformer method per rule of grammar.lark, read beside it.
"""

from __future__ import annotations

import dataclasses
import re
import functools
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.cache import cache_root, cached_pickle, digest, source_version, store
from rulespec.compiler.frontend.errors import MAX_SUGGESTED, Diagnostic, SpecError, Sources, closest
from rulespec.compiler.frontend.inputs import SPEC_SUFFIX, spec_files  # noqa: F401 - their home is inputs.py



@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser; its tables come from lark's own cache file when one is there (lark
    checks it against the grammar's hash), since building them costs more than a parse."""
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text()
    tables: str | bool = False
    try:
        cache_root().mkdir(parents=True, exist_ok=True)
        tables = str(cache_root() / f"grammar-{digest(grammar)[:16]}.lark")
    except OSError:
        pass  # no cache folder: build the tables
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                start=["start", "expr"], cache=tables)  # expr: the values inside a prompt


# What a spec may hold, so no input takes the front end or the back ends past
# Python's recursion limit or its int-from-text limit: the deepest real spec
# nests under 20 levels, and no count of a game needs more than 64 bits.
MAX_DEPTH = 100
MAX_INT = 2**63 - 1


def parse_text(text: str, path: str) -> ast.SpecFile:
    """Parse one file's text; raises SpecError pointing at the bad token."""
    try:
        tree = _parser().parse(text, start="start")
    except UnexpectedInput as exc:
        raise SpecError([_syntax_diagnostic(exc, text, path)]) from None
    _within_limits(tree, path)
    try:
        decls = _number_tests(_Builder(path).transform(tree))
    except VisitError as exc:  # a prompt's braces (_Builder._prompt) that do not parse
        if isinstance(exc.orig_exc, SpecError):
            raise exc.orig_exc from None
        raise
    return ast.SpecFile(_file_span(path), path, tuple(decls))


def _number_tests(decls: list[ast.Decl]) -> list[ast.Decl]:
    """Each test's place in its file: keys of compiled tests stay put when others come and go."""
    tests = iter(range(len(decls)))
    return [dataclasses.replace(d, number=next(tests)) if isinstance(d, ast.TestDecl) else d
            for d in decls]


def parse_files(paths: list[Path], sources: Sources, root: Path) -> ast.Spec:
    """Parse several files, collecting the syntax errors of all of them.

    A file parsed before with the same text is taken from the on-disk parse
    cache (the key holds the parser's own source too), so an edit re-parses
    only the edited file and an unchanged spec builds no parser at all.
    """
    files, problems = [], []
    for path in paths:
        shown = _display_path(path, root)
        try:
            text = _read(path, shown, sources)
            files.append(_parse_cached(text, shown))
        except SpecError as err:
            problems.extend(err.diagnostics)
    store(PARSE_CACHE).flush()
    if problems:
        raise SpecError(problems)
    return ast.Spec(_file_span("<spec>"), tuple(files))


def _read(path: Path, shown: str, sources: Sources) -> str:
    """A spec file's text; SpecError when it cannot be read or is not UTF-8."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise SpecError([Diagnostic(f"cannot read this file: {err.strerror or err}",
                                    _file_span(shown))]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        sources.add(shown, raw.decode("utf-8", errors="replace"))
        start = raw.rfind(b"\n", 0, err.start) + 1
        line = raw.count(b"\n", 0, err.start) + 1
        column = len(raw[start:err.start].decode("utf-8", errors="replace")) + 1
        message = (f"not UTF-8 text: the byte 0x{raw[err.start]:02x} is not part of any character"
                   f" (save the file as UTF-8)")
        raise SpecError([Diagnostic(message, ast.Span(shown, line, column, line, column + 1))]) from None
    sources.add(shown, text)
    return text


def _within_limits(tree: Tree, path: str) -> None:
    """SpecError at the first number over MAX_INT or construct nested over MAX_DEPTH deep."""
    stack: list[tuple[Tree | Token, int, ast.Span]] = [(tree, 1, _file_span(path))]
    while stack:
        node, depth, around = stack.pop()
        if not isinstance(node, (Tree, Token)):  # an optional part left out (None)
            continue
        if isinstance(node, Token):
            if node.type == "INT" and (len(node) > len(str(MAX_INT)) or int(node) > MAX_INT):
                span = ast.Span(path, node.line, node.column, node.end_line, node.end_column)
                raise SpecError([Diagnostic(f"this number is too large: numbers in a spec are at"
                                            f" most {MAX_INT}", span)])
            continue
        meta = node.meta
        span = around if meta.empty else ast.Span(path, meta.line, meta.column,
                                                    meta.end_line, meta.end_column)
        if depth > MAX_DEPTH:
            raise SpecError([Diagnostic(f"nested too deeply: more than {MAX_DEPTH} levels of"
                                        f" expressions and blocks (split it with a 'define' or a"
                                        f" 'let')", span)])
        stack.extend((child, depth + 1, span) for child in reversed(node.children))


PARSE_CACHE = "parsed"


_PARSED: dict[str, ast.SpecFile] = {}  # this process's parses: a file is loaded once


def _parse_cached(text: str, shown: str) -> ast.SpecFile:
    key = digest(source_version("grammar.lark", "parse.py", "ast.py"), shown, text)
    if key not in _PARSED:
        _PARSED[key] = cached_pickle(PARSE_CACHE, key, lambda: parse_text(text, shown))
    return _PARSED[key]


def _display_path(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _file_span(path: str) -> ast.Span:
    return ast.Span(path, 1, 1, 1, 1)


# ------------------------------------------------------------ syntax errors

_WORDS = {
    "NAME": "a name", "STRING": "a string", "INT": "a number", "$END": "the end of the file",
}


def _describe(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else terminal.lower()


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
        return Diagnostic(message, ast.Span(path, line, column, line, column + 1))
    token = getattr(exc, "token", None)
    expected = sorted({_describe(t) for t in getattr(exc, "expected", ()) or ()})
    if isinstance(exc, UnexpectedToken) and token is not None and token.type != "$END":
        found = f"'{token}'" if token.type != "STRING" else f"string {token}"
        width = max(len(str(token)), 1)
        message = f"unexpected {found}"
    else:
        line, column = _last_line_column(text)
        width = 1
        message = "unexpected end of file"
        opened = _open_block(text)
        if opened:
            message += f"; the block opened at line {opened[0]}, column {opened[1]} is still open"
    if expected and len(expected) <= 8:
        message += f"; expected {', '.join(expected[:-1])}{' or ' if len(expected) > 1 else ''}{expected[-1]}"
    if isinstance(exc, UnexpectedToken) and token is not None and token.type != "$END":
        misspelt = _misspelt_keyword(exc, text)
        if misspelt is not None:
            word, keyword, span = misspelt
            if span is None:
                return Diagnostic(f"{message}; did you mean '{keyword}'?",
                                  ast.Span(path, line, column, line, column + width))
            found = f"'{token}'" if token.type != "STRING" else f"string {token}"
            return Diagnostic(f"unexpected {found} after '{word}'; did you mean '{keyword}'?",
                              ast.Span(path, span[0], span[1], span[0], span[1] + len(word)))
    return Diagnostic(message, ast.Span(path, line, column, line, column + width))


_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _word_before(line: str) -> tuple[str, int] | None:
    """The word that ends `line` before its trailing spaces or tabs, and the offset it starts at;
    None without such spaces, or for a word over MAX_SUGGESTED characters. It walks back at most
    that far, so a 5 MB run of letters costs no more than a short one (a regex search from every
    start of the run was quadratic in it)."""
    end = len(line.rstrip(" \t"))
    if end == len(line):
        return None
    start = end
    while start > 0 and line[start - 1] in _WORD_CHARACTERS:
        if end - start >= MAX_SUGGESTED:
            return None
        start -= 1
    while start < end and line[start].isdigit():
        start += 1
    return (line[start:end], start) if start < end else None


@functools.cache
def _keywords() -> tuple[str, ...]:
    """The words of the grammar (`expect`, `chooses`, `event`, ...)."""
    return tuple(sorted({t.pattern.value for t in _parser().terminals
                         if t.pattern.type == "str" and t.pattern.value.isidentifier()}))


def _misspelt_keyword(exc: UnexpectedToken, text: str):
    """A keyword the writer likely meant: the unexpected word itself, when a keyword close to it
    was expected (span None: the caret stays), or the word just before it on the line, when that
    is no keyword but close to one the grammar accepts in its place (`expcet not x`: the caret
    moves onto `expcet`)."""
    token = exc.token
    if token.type == "NAME":
        close = _closest(str(token), _words_of(exc.expected))
        if close:
            return str(token), close, None
    start = getattr(token, "start_pos", None)
    line_start = text.rfind("\n", 0, start or 0) + 1
    before = _word_before(text[line_start:start]) if start is not None else None
    if before is None or before[0] in _keywords():
        return None
    word, column = before[0], before[1] + 1
    try:
        parser = _parser().parse_interactive(text[:line_start + before[1]], start="start")
        parser.exhaust_lexer()
        accepted = _words_of(parser.accepts())
    except UnexpectedInput:
        return None
    close = _closest(word, accepted)
    return (word, close, (token.line, column)) if close else None


def _words_of(terminals) -> list[str]:
    """The keywords among lark's terminal names."""
    names = _terminal_names()
    return sorted({_parser().get_terminal(t).pattern.value for t in terminals if t in names}
                  & set(_keywords()))


def _closest(word: str, keywords: list[str]) -> str | None:
    return closest(word, keywords, cutoff=0.7)


@functools.cache
def _terminal_names() -> frozenset[str]:
    return frozenset(t.name for t in _parser().terminals)


def _last_line_column(text: str) -> tuple[int, int]:
    lines = text.rstrip().splitlines() or [""]
    return len(lines), len(lines[-1]) + 1


_NOISE = re.compile(r'"(?:\\.|[^"\\\n])*"|#[^\n]*')


def _open_block(text: str) -> tuple[int, int] | None:
    """Line and column of the innermost '{' never closed."""
    stack: list[tuple[int, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _NOISE.sub(lambda m: " " * len(m.group()), raw)
        for col, char in enumerate(line, start=1):
            if char == "{":
                stack.append((number, col))
            elif char == "}" and stack:
                stack.pop()
    return stack[-1] if stack else None


# ------------------------------------------------------------ tree -> AST


def _unquote(token: Token) -> str:
    body = str(token)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _unbrace(text: str) -> str:
    """A piece of a prompt around its values: escapes undone, `{{` and `}}` single braces."""
    return _unquote(Token("STRING", f'"{text}"')).replace("{{", "{").replace("}}", "}")


def _without_skip(expr: ast.Expr) -> tuple[ast.Expr, bool]:
    """`cond or skip` read as one expression (nothing tells the parser where the condition ends
    when no prompt follows it): the condition, and whether `or skip` closed it."""
    if not (isinstance(expr, ast.BoolOp) and expr.op == "or" and isinstance(expr.operands[-1], ast.NameRef)
            and expr.operands[-1].name == "skip"):
        return expr, False
    kept = expr.operands[:-1]
    if len(kept) == 1:
        return kept[0], True
    first, last = kept[0].span, kept[-1].span
    span = ast.Span(first.file, first.line, first.column, last.end_line, last.end_column)
    return ast.BoolOp(span, "or", kept), True


@v_args(meta=True)
class _Builder(Transformer):
    """Turns lark's tree into ast nodes; tokens become str and int here."""

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _span(self, meta) -> ast.Span:
        if getattr(meta, "empty", True):
            return ast.Span(self.path, 1, 1, 1, 1)
        return ast.Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _ident(self, token: Token) -> ast.Ident:
        end = token.column + len(token)
        return ast.Ident(ast.Span(self.path, token.line, token.column, token.line, end), str(token))

    def _idents(self, tokens) -> tuple[ast.Ident, ...]:
        return tuple(self._ident(t) for t in tokens if t is not None)

    # -- file and declarations
    def start(self, meta, children):
        return children

    def game_decl(self, meta, c):
        return ast.GameDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]))

    def player_item(self, meta, c):
        return ast.PlayerItem(self._span(meta), self._ident(c[0]), _unquote(c[1]))

    def players_decl(self, meta, c):
        *items, seats = c
        return ast.PlayersDecl(self._span(meta), tuple(items), seats)

    def seats_clause(self, meta, c):
        return tuple(c)

    def param_decl(self, meta, c):
        name, type_, default, domain, doc = c
        low, high, choices = domain if domain is not None else (None, None, ())
        return ast.ParamDecl(self._span(meta), self._ident(name), type_, default,
                             _unquote(doc) if doc is not None else None, low, high, choices)

    def param_range(self, meta, c):
        return (c[0], c[1], ())

    def param_choices(self, meta, c):
        return (None, None, tuple(c))

    def enum_decl(self, meta, c):
        name, *rest = c
        fields = tuple(f for f in rest if isinstance(f, ast.Field))
        values = [v for v in rest if isinstance(v, tuple)]
        return ast.EnumDecl(self._span(meta), self._ident(name), tuple(v[0] for v in values),
                            fields, tuple(v[1] for v in values) if fields else ())

    def enum_value(self, meta, c):
        return (self._ident(c[0]), c[1] or ())


    def track_decl(self, meta, c):
        name, label, per, on, low, high, start, bounds, visibility = c
        return ast.TrackDecl(self._span(meta), self._ident(name), _unquote(label),
                             per is not None, low.value, high.value, start.value,
                             on, tuple(bounds or ()), visibility=visibility or "public")

    def track_on(self, meta, c):
        return self._ident(c[0])

    def track_except(self, meta, c):
        return tuple(c)

    def track_bound(self, meta, c):
        return ast.TrackBound(self._span(meta), self._ident(c[0]), c[1].value, c[2].value)

    def per_player(self, meta, c):
        return True

    def var_decl(self, meta, c):
        return ast.VarDecl(self._span(meta), self._ident(c[0]), c[1], c[2])

    def zone_decl(self, meta, c):
        name, label, per, visibility, ordered = c
        return ast.ZoneDecl(self._span(meta), self._ident(name), _unquote(label),
                            per is not None, visibility, ordered is not None)

    def hidden(self, meta, c):
        return "hidden"

    def owner_only(self, meta, c):
        return "owner"

    def public(self, meta, c):
        return "public"

    def ordered(self, meta, c):
        return True

    def counter_decl(self, meta, c):
        name, label, per, kind = c
        return ast.CounterDecl(self._span(meta), self._ident(name), _unquote(label),
                               per is not None, self._ident(kind))

    def flag_decl(self, meta, c):
        name, label, per, kind = c
        if kind is None:  # a yes/no state of each player: a track kept as 0 or 1
            return ast.TrackDecl(self._span(meta), self._ident(name), _unquote(label),
                                 per is not None, 0, 1, 0, flag=True)
        return ast.CounterDecl(self._span(meta), self._ident(name), _unquote(label),
                               per is not None, self._ident(kind), True)

    def kind_decl(self, meta, c):
        per = bool(c) and c[-1] is True
        fields = tuple(f for f in c[2:] if f is not None and f is not True)
        return ast.KindDecl(self._span(meta), self._ident(c[0]), c[1], fields, per)

    def space_category(self, meta, c):
        return "space"

    def card_category(self, meta, c):
        return "card"

    def region_category(self, meta, c):
        return "region"

    def field(self, meta, c):
        return ast.Field(self._span(meta), self._ident(c[0]), c[1], c[3], c[2])

    def lifetimes_decl(self, meta, c):
        return ast.LifetimesDecl(self._span(meta), self._idents(c))

    def action_decl(self, meta, c):
        return ast.ActionDecl(self._span(meta), self._ident(c[0]), c[1], _unquote(c[2]))

    def signal_decl(self, meta, c):
        label = _unquote(c[2]) if len(c) > 2 and c[2] is not None else None
        return ast.SignalDecl(self._span(meta), self._ident(c[0]), c[1], label)

    def constraint_decl(self, meta, c):
        return ast.ConstraintDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]), tuple(c[2:]))

    def effect_decl(self, meta, c):
        name, params, label, *items = c
        items = [i for i in items if i is not None]
        return ast.EffectDecl(
            self._span(meta), self._ident(name), params or (), _unquote(label),
            tuple(i for i in items if isinstance(i, ast.Modifier)),
            tuple(i for i in items if isinstance(i, ast.Forbid)),
            tuple(i for i in items if isinstance(i, ast.Trigger)),
        )

    def effect_item(self, meta, c):
        return c[0]

    def define_decl(self, meta, c):
        return ast.DefineDecl(self._span(meta), self._ident(c[0]), c[1], c[2], c[3])

    def quantity_decl(self, meta, c):
        return ast.QuantityDecl(self._span(meta), self._ident(c[0]), c[1], c[2])

    def procedure_decl(self, meta, c):
        name = self._ident(c[0])
        return ast.ProcedureDecl(self._span(meta), "procedure", name, name.name, c[1], c[3], c[2])

    def return_stmt(self, meta, c):
        return ast.Return(self._span(meta), c[0])

    def phase_decl(self, meta, c):
        return ast.ProcedureDecl(self._span(meta), "phase", self._ident(c[0]), _unquote(c[1]), (), c[2])

    def setup_decl(self, meta, c):
        return ast.ProcedureDecl(self._span(meta), "setup", self._ident(c[0]), _unquote(c[1]), (), c[2])

    def start_decl(self, meta, c):
        span = self._span(meta)
        return ast.ProcedureDecl(span, "start", ast.Ident(span, "start"), "start", (), c[0])

    def invariant_decl(self, meta, c):
        return ast.InvariantDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]), c[2])

    def tally_decl(self, meta, c):
        return ast.TallyDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]), c[2])

    def assert_decl(self, meta, c):
        return ast.AssertDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]), c[2])

    def balance_decl(self, meta, c):
        return ast.BalanceBotDecl(self._span(meta), _unquote(c[0]))

    def bot_decl(self, meta, c):
        return ast.BotDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]), c[2])

    # -- policies
    def policy_decl(self, meta, c):
        name, label, base, *items = c
        rules = tuple(i for i in items if not isinstance(i, ast.Tunable))
        tunables = tuple(i for i in items if isinstance(i, ast.Tunable))
        return ast.PolicyDecl(self._span(meta), self._ident(name), _unquote(label),
                              self._ident(base) if base is not None else None, rules, tunables)

    def tunable_line(self, meta, c):
        return dataclasses.replace(c[0], span=self._span(meta))

    def tunable_spec(self, meta, c):
        name, default, low, high, label = c
        return ast.Tunable(self._span(meta), self._ident(name), default, low, high,
                           _unquote(label) if label is not None else None)

    def weight_number(self, meta, c):
        return ast.Weight(self._span(meta), c[0], None)

    def weight_named(self, meta, c):
        name = self._ident(c[0])
        return ast.Weight(self._span(meta), ast.NameRef(name.span, name.name), None)

    def weight_declared(self, meta, c):
        tunable = c[0]
        return ast.Weight(self._span(meta), ast.NameRef(tunable.name.span, tunable.name.name), tunable)

    def prompts(self, meta, c):
        return [(_unquote(t), ast.Span(self.path, t.line, t.column, t.end_line, t.end_column)) for t in c]

    def choice_rule(self, meta, c):
        var, kind, action, prompts, *prefs = c
        type_ = ast.TypeRef(self._ident(kind).span, str(kind))
        prompts = prompts or []
        return ast.ChoiceRule(self._span(meta), self._ident(var), type_,
                              self._ident(action) if action is not None else None,
                              tuple(t for t, _ in prompts), tuple(prefs), tuple(s for _, s in prompts))

    def menu_rule(self, meta, c):
        prompts, *prefs = c
        return ast.MenuRule(self._span(meta), tuple(t for t, _ in prompts), tuple(prefs),
                            tuple(s for _, s in prompts))

    def prefer(self, meta, c):
        return ast.Preference(self._span(meta), False, c[0], c[1])

    def avoid(self, meta, c):
        return ast.Preference(self._span(meta), True, c[0], c[1])

    def never(self, meta, c):
        return ast.Preference(self._span(meta), True, c[0], None, never=True)

    def prefer_option(self, meta, c):
        return ast.OptionPreference(self._span(meta), False, self._idents(c[:-2]), c[-2], c[-1])

    def avoid_option(self, meta, c):
        return ast.OptionPreference(self._span(meta), True, self._idents(c[:-2]), c[-2], c[-1])

    def never_option(self, meta, c):
        return ast.OptionPreference(self._span(meta), True, self._idents(c[:-1]), c[-1], None, never=True)

    def map_decl(self, meta, c):
        return ast.MapDecl(self._span(meta), tuple(c))

    def board_decl(self, meta, c):
        width, height, grid, shows, *items = c
        size, origin = grid if grid is not None else (0, (0, 0))
        places = tuple(i for i in items if isinstance(i, ast.Placement))
        colours = tuple(i for i in items if isinstance(i, ast.BoardColour))
        return ast.BoardDecl(self._span(meta), int(width), int(height), shows or (), places,
                             size, origin, colours)

    def board_hex(self, meta, c):
        return int(c[0]), (c[1].value, c[2].value)

    def hex_placement(self, meta, c):
        return ast.Placement(self._span(meta), self._ident(c[0]), None, c[1].value, c[2].value, True)

    def board_colour(self, meta, c):
        return ast.BoardColour(self._span(meta), self._ident(c[0]), _unquote(c[1]))

    def board_shows(self, meta, c):
        return self._idents(c)

    def placement(self, meta, c):
        player = self._ident(c[1]) if c[1] is not None else None
        return ast.Placement(self._span(meta), self._ident(c[0]), player, int(c[2]), int(c[3]))

    def require_connected(self, meta, c):
        return ast.RequireConnected(self._span(meta))

    def require_in_region(self, meta, c):
        return ast.RequireInRegion(self._span(meta), self._ident(c[0]))

    def test_decl(self, meta, c):
        return ast.TestDecl(self._span(meta), _unquote(c[0]), tuple(c[1:]))

    def params(self, meta, c):
        return tuple(p for p in c if p is not None)

    def param(self, meta, c):
        return ast.Param(self._span(meta), str(c[0]), c[1])

    def type(self, meta, c):
        return ast.TypeRef(self._span(meta), str(c[0]), c[1] is not None)

    # -- overlays
    def link_decl(self, meta, c):
        return ast.LinkDecl(self._span(meta), self._ident(c[0]), self._ident(c[1]))

    def variant_decl(self, meta, c):
        return ast.VariantDecl(self._span(meta), self._ident(c[0]), _unquote(c[1]))

    def changes_decl(self, meta, c):
        spans = tuple(ast.Span(self.path, t.line, t.column, t.end_line, t.end_column) for t in c)
        return ast.ChangesDecl(self._span(meta), tuple(_unquote(t) for t in c), spans)

    def excludes_decl(self, meta, c):
        return ast.ExcludesDecl(self._span(meta), tuple(self._ident(t) for t in c[:-1]), _unquote(c[-1]))

    def replace_decl(self, meta, c):
        return ast.ReplaceDecl(self._span(meta), c[0])

    def event_decl(self, meta, c):
        return ast.EventDecl(self._span(meta), self._ident(c[0]), c[1], c[2])

    def remove_decl(self, meta, c):
        return ast.RemoveDecl(self._span(meta), self._ident(c[0]))

    # -- entities
    def entity_decl(self, meta, c):
        kind, name, label, attrs, copies, regions, adjacent, body = c
        body = body or ()
        return ast.EntityDecl(
            self._span(meta), self._ident(kind), self._ident(name), _unquote(label),
            attrs or (), regions or (), adjacent or (),
            tuple(b for b in body if isinstance(b, ast.EventBlock)),
            tuple(b for b in body if isinstance(b, ast.Ability)),
            tuple(b for b in body if isinstance(b, ast.ActionBlock)),
            copies,
        )

    def copies(self, meta, c):
        return int(c[0])

    def attributes(self, meta, c):
        return tuple(c)

    def attribute(self, meta, c):
        value = c[1] if c[1] is not None else ast.BoolLit(self._span(meta), True)
        return ast.AttributeValue(self._span(meta), self._ident(c[0]), value)

    def attribute_per_value(self, meta, c):
        items = tuple(c[1:])
        span = ast.Span(items[0].span.file, items[0].span.line, items[0].span.column,
                        items[-1].span.end_line, items[-1].span.end_column)
        return ast.AttributeValue(self._span(meta), self._ident(c[0]), ast.PerValue(span, items))

    def value_at(self, meta, c):
        return ast.ValueAt(self._span(meta), self._ident(c[0]), c[1])

    def in_regions(self, meta, c):
        return self._idents(c)

    def adjacency(self, meta, c):
        return self._idents(c)

    def entity_body(self, meta, c):
        return tuple(c)

    def ability_block(self, meta, c):
        zones = tuple(self._ident(t) for t in c if isinstance(t, Token))
        items = [i for i in c if isinstance(i, ast.Node)]
        return ast.Ability(
            self._span(meta), zones,
            tuple(i for i in items if isinstance(i, ast.Modifier)),
            tuple(i for i in items if isinstance(i, ast.Forbid)),
            tuple(i for i in items if isinstance(i, ast.Trigger)),
            tuple(i for i in items if isinstance(i, ast.Allow)),
        )

    def allow(self, meta, c):
        patterns = tuple(x for x in c if isinstance(x, ast.ActionPattern))
        when = next(x for x in c if isinstance(x, ast.Node) and not isinstance(x, ast.ActionPattern))
        names = tuple(self._ident(t) for t in c if isinstance(t, Token))
        return ast.Allow(self._span(meta), patterns, when, names)

    def event_block(self, meta, c):
        return ast.EventBlock(self._span(meta), c[0], c[1])

    def action_block(self, meta, c):
        return ast.ActionBlock(self._span(meta), c[0], c[1])

    # -- literals
    def positive(self, meta, c):
        return ast.IntLit(self._span(meta), int(c[0]))

    def negative(self, meta, c):
        return ast.IntLit(self._span(meta), -int(c[0]))

    def str_literal(self, meta, c):
        return ast.StrLit(self._span(meta), _unquote(c[0]))

    def true_literal(self, meta, c):
        return ast.BoolLit(self._span(meta), True)

    def false_literal(self, meta, c):
        return ast.BoolLit(self._span(meta), False)

    def none_literal(self, meta, c):
        return ast.NoneLit(self._span(meta))

    def name_literal(self, meta, c):
        return ast.NameRef(self._span(meta), str(c[0]))

    # -- effects
    def modifier(self, meta, c):
        name, *rest = c
        names, delta, bounds, when = [], None, [], None
        for item in rest:
            if isinstance(item, Token):
                names.append(item)
            elif isinstance(item, tuple):
                bounds.append(item)
            elif item is not None and delta is None:
                delta = item
            elif item is not None:
                when = item
        low = next((e for kind, e in bounds if kind == "min"), None)
        high = next((e for kind, e in bounds if kind == "max"), None)
        return ast.Modifier(self._span(meta), self._ident(name), self._idents(names),
                            delta, low, high, when)

    def lower_bound(self, meta, c):
        return ("min", c[0])

    def upper_bound(self, meta, c):
        return ("max", c[0])

    def forbid(self, meta, c):
        return ast.Forbid(self._span(meta), tuple(c[:-1]), c[-1])

    def action_pattern(self, meta, c):
        return ast.ActionPattern(self._span(meta), self._ident(c[0]), self._idents(c[1:]))

    def trigger(self, meta, c):
        name, *rest = c
        names = [t for t in rest if isinstance(t, Token)]
        others = [x for x in rest if not isinstance(x, Token)]
        when, body = others[-2], others[-1]
        return ast.Trigger(self._span(meta), self._ident(name), self._idents(names), when, body)

    # -- test steps
    def dice_step(self, meta, c):
        return ast.DiceStep(self._span(meta), tuple(int(t) for t in c))

    def choose_step(self, meta, c):
        return ast.ChooseStep(self._span(meta), tuple(_unquote(t) for t in c))

    def dice_random_step(self, meta, c):
        return ast.DiceStep(self._span(meta), (), True)

    def param_step(self, meta, c):
        return ast.ParamStep(self._span(meta), self._ident(c[0]), c[1])

    def variant_step(self, meta, c):
        return ast.VariantStep(self._span(meta), self._ident(c[0]))

    def start_step(self, meta, c):
        return ast.StartStep(self._span(meta))

    def start_effects_step(self, meta, c):
        return ast.StartEffects(self._span(meta), self._ident(c[0]), self._ident(c[1]))

    def expect_offered(self, meta, c):
        return self._offered(meta, c, False)

    def expect_not_offered(self, meta, c):
        return self._offered(meta, c, True)

    def _offered(self, meta, c, negated: bool):
        *ids, message = c
        return ast.ExpectOffered(self._span(meta), tuple(_unquote(t) for t in ids), negated,
                                 _unquote(message) if message is not None else None)

    def expect_options(self, meta, c):
        op, *ids, message = c
        if str(op) != "==":
            raise SpecError([Diagnostic(f"options are compared with '==' (the exact options), not"
                                        f" '{op}': count them with count(options) {op} N",
                                        self._ident(op).span)])
        return ast.ExpectOptions(self._span(meta), tuple(_unquote(t) for t in ids), "==", len(ids),
                                 _unquote(message) if message is not None else None)

    def expect_option_count(self, meta, c):
        op, count, message = c
        return ast.ExpectOptions(self._span(meta), None, str(op), int(count),
                                 _unquote(message) if message is not None else None)

    def expect_step(self, meta, c):
        message = _unquote(c[1]) if c[1] is not None else None
        return ast.Expect(self._span(meta), c[0], message)

    # -- statements
    def block(self, meta, c):
        return ast.Block(self._span(meta), tuple(c))

    def let_stmt(self, meta, c):
        return ast.Let(self._span(meta), self._ident(c[0]), c[1])

    def set_stmt(self, meta, c):
        return ast.SetStmt(self._span(meta), c[0], c[1])

    def add_stmt(self, meta, c):
        return ast.AddStmt(self._span(meta), c[0], c[1])

    def remove_stmt(self, meta, c):
        return ast.RemoveStmt(self._span(meta), c[0], c[1])

    def roll_stmt(self, meta, c):
        return ast.Roll(self._span(meta), self._ident(c[0]))

    def roll_dice_stmt(self, meta, c):
        *names, count = c
        return ast.RollDice(self._span(meta), tuple(self._ident(n) for n in names), count)

    def move_stmt(self, meta, c):
        return ast.MoveCard(self._span(meta), c[0], c[1])

    def move_bottom_stmt(self, meta, c):
        return ast.MoveCard(self._span(meta), c[0], c[1], bottom=True)

    def move_all_stmt(self, meta, c):
        return ast.MoveAll(self._span(meta), self._ident(c[0]), c[1], c[2], c[3])

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self._span(meta), c[0])

    def reveal_stmt(self, meta, c):
        return ast.Reveal(self._span(meta), c[0], True)

    def conceal_stmt(self, meta, c):
        return ast.Reveal(self._span(meta), c[0], False)

    def show_stmt(self, meta, c):
        return ast.Show(self._span(meta), c[0], c[1])

    def copy_stmt(self, meta, c):
        return ast.CopyCounter(self._span(meta), self._ident(c[0]), self._ident(c[1]))

    def clear_stmt(self, meta, c):
        return ast.ClearCounter(self._span(meta), self._ident(c[0]))

    def if_stmt(self, meta, c):
        test, block, *rest = c
        branches = [(test, block)]
        otherwise = None
        for item in rest:
            if isinstance(item, tuple):
                branches.append(item)
            elif item is not None:
                otherwise = item
        return ast.If(self._span(meta), tuple(branches), otherwise)

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def for_stmt(self, meta, c):
        return ast.For(self._span(meta), self._ident(c[0]), c[1], c[2], c[3])

    def repeat_stmt(self, meta, c):
        return ast.Repeat(self._span(meta), c[0], c[1])

    def while_stmt(self, meta, c):
        return ast.While(self._span(meta), c[0], c[1])

    def break_stmt(self, meta, c):
        return ast.Break(self._span(meta))

    def choose_stmt(self, meta, c):
        chooser, var, source, where, action, prompt, forced, skip = c
        if skip is None and prompt is None and action is None and forced is None:
            # `where cond or skip`, unprompted
            if where is not None:
                where, skip = _without_skip(where)
            else:
                source, skip = _without_skip(source)
        text, shows, pieces = self._prompt(prompt)
        return ast.Choose(self._span(meta), chooser, self._ident(var), source, where, action, text,
                          shows, pieces, bool(skip), bool(forced))

    def pick_stmt(self, meta, c):
        var, source, where, skip = c
        if skip is None:  # `where cond or skip`: see choose_stmt
            if where is not None:
                where, skip = _without_skip(where)
            else:
                source, skip = _without_skip(source)
        return ast.PickRandom(self._span(meta), self._ident(var), source, where, bool(skip))

    def or_skip(self, meta, c):
        return True

    def unless_forced(self, meta, c):
        return True

    def menu_stmt(self, meta, c):
        chooser, prompt, forced, *options = c
        text, shows, pieces = self._prompt(prompt)
        return ast.Menu(self._span(meta), chooser, text, tuple(options), shows, pieces, forced=bool(forced))

    def menu_asked_stmt(self, meta, c):
        chooser, asked, forced, *options = c
        return ast.Menu(self._span(meta), chooser, None, tuple(options), (), (), asked, bool(forced))

    def _prompt(self, token: Token | None) -> tuple[str | None, tuple[ast.Expr, ...], tuple[str, ...]]:
        """A prompt's text, the values it names in braces ("Keep {c} for 3 MC?") parsed as
        expressions where they stand in the file, and the text around them; `{{` is a brace."""
        if token is None:
            return None, (), ()
        raw = str(token)[1:-1]
        shows, pieces, piece, i = [], [], "", 0
        while i < len(raw):
            pair = raw[i:i + 2]
            if pair in ("{{", "}}"):
                piece, i = piece + pair, i + 2
                continue
            if raw[i] == "}":
                raise self._prompt_error("a '}' in a prompt closes no '{' (write '}}' for a brace)", token, i)
            if raw[i] != "{":
                piece, i = piece + raw[i], i + 1
                continue
            end = raw.find("}", i)
            if end < 0:
                raise self._prompt_error("a '{' in a prompt needs its '}' (write '{{' for a brace)", token, i)
            shows.append(self._shown(raw[i + 1:end], token, i + 1))
            pieces.append(_unbrace(piece))
            piece, i = "", end + 1
        pieces.append(_unbrace(piece))
        braces = shows or "{" in raw or "}" in raw
        return _unquote(token), tuple(shows), tuple(pieces) if braces else ()

    def _shown(self, text: str, token: Token, offset: int) -> ast.Expr:
        """The expression inside a prompt's braces, its spans where it stands in the file."""
        if not text.strip():
            raise self._prompt_error("empty braces in a prompt: put a value inside, {c.label}", token, offset - 1)
        padded = "\n" * (token.line - 1) + " " * (token.column + offset) + text
        try:
            tree = _parser().parse(padded, start="expr")
        except UnexpectedInput:
            raise self._prompt_error(f"'{{{text}}}' in a prompt is not a value: write an expression"
                                     f" in the braces, such as {{c.label}}", token, offset - 1) from None
        return self.transform(tree)

    def _prompt_error(self, message: str, token: Token, offset: int) -> SpecError:
        column = token.column + 1 + offset
        return SpecError([Diagnostic(message, ast.Span(self.path, token.line, column, token.line, column + 1))])

    def option(self, meta, c):
        return ast.Option(self._span(meta), self._ident(c[0]), _unquote(c[1]), c[2], c[3])

    def action_ref(self, meta, c):
        return ast.ActionRef(self._span(meta), self._ident(c[0]), c[1])

    def call_stmt(self, meta, c):
        return ast.CallStmt(self._span(meta), self._ident(c[0]), c[1])

    def resolve_stmt(self, meta, c):
        return ast.Resolve(self._span(meta), c[0], c[1])

    def resolve_action_stmt(self, meta, c):
        return ast.Resolve(self._span(meta), c[0], c[1], True)

    def activate_stmt(self, meta, c):
        lifetime = self._ident(c[2]) if c[2] is not None else None
        return ast.Activate(self._span(meta), self._ident(c[0]), c[1] or (), lifetime)

    def cancel_stmt(self, meta, c):
        return ast.Cancel(self._span(meta), self._ident(c[0]), c[1])

    def expire_stmt(self, meta, c):
        return ast.Expire(self._span(meta), self._ident(c[0]))

    def emit_stmt(self, meta, c):
        return ast.Emit(self._span(meta), self._ident(c[0]), c[1])

    def win_stmt(self, meta, c):
        return ast.Win(self._span(meta), c[0], _unquote(c[1]))

    def lose_stmt(self, meta, c):
        return ast.Lose(self._span(meta), tuple(c[:-1]), _unquote(c[-1]))

    def log_stmt(self, meta, c):
        return ast.Log(self._span(meta), tuple(c))

    def log_to_stmt(self, meta, c):
        return ast.Log(self._span(meta), tuple(c[1:]), c[0])

    def ref(self, meta, c):
        return ast.Ref(self._span(meta), self._ident(c[0]), c[1])

    def args(self, meta, c):
        return tuple(a for a in c if a is not None)

    # -- expressions
    def cond_expr(self, meta, c):
        return ast.Cond(self._span(meta), c[0], c[1], c[2])

    def or_expr(self, meta, c):
        return ast.BoolOp(self._span(meta), "or", tuple(c))

    def and_expr(self, meta, c):
        return ast.BoolOp(self._span(meta), "and", tuple(c))

    def not_expr(self, meta, c):
        return ast.Not(self._span(meta), c[0])

    def compare(self, meta, c):
        return ast.Compare(self._span(meta), str(c[1]), c[0], c[2])

    def member(self, meta, c):
        return ast.Member(self._span(meta), c[0], c[1], False)

    def not_member(self, meta, c):
        return ast.Member(self._span(meta), c[0], c[1], True)

    def range_expr(self, meta, c):
        return ast.Range(self._span(meta), c[0], c[1])

    def list_expr(self, meta, c):
        return ast.ListOf(self._span(meta), tuple(c))

    def _binary(op):  # noqa: N805 - builds methods at class creation
        def method(self, meta, c):
            return ast.BinOp(self._span(meta), op, c[0], c[1])
        return method

    add_expr, sub_expr, mul_expr = _binary("+"), _binary("-"), _binary("*")
    div_expr, mod_expr = _binary("/"), _binary("%")

    def negate(self, meta, c):
        return ast.Negate(self._span(meta), c[0])

    def int_expr(self, meta, c):
        return ast.IntLit(self._span(meta), int(c[0]))

    def str_expr(self, meta, c):
        return ast.StrLit(self._span(meta), _unquote(c[0]))

    def true_expr(self, meta, c):
        return ast.BoolLit(self._span(meta), True)

    def false_expr(self, meta, c):
        return ast.BoolLit(self._span(meta), False)

    def none_expr(self, meta, c):
        return ast.NoneLit(self._span(meta))

    def name_expr(self, meta, c):
        return ast.NameRef(self._span(meta), str(c[0]))

    def call_expr(self, meta, c):
        return ast.CallExpr(self._span(meta), str(c[0]), c[1])

    def attr_expr(self, meta, c):
        return ast.Attr(self._span(meta), c[0], str(c[1]))

    def attr_at_expr(self, meta, c):
        return ast.AttrAt(self._span(meta), c[0], str(c[1]), c[2])

    def _quantifier(kind):  # noqa: N805
        def method(self, meta, c):
            return ast.Quantifier(self._span(meta), kind, self._ident(c[0]), c[1], c[2])
        return method

    count_expr, any_expr, all_expr = _quantifier("count"), _quantifier("any"), _quantifier("all")

    def sum_expr(self, meta, c):
        return ast.SumOf(self._span(meta), c[0], self._ident(c[1]), c[2], c[3])

    def extreme_expr(self, meta, c):
        op = str(c[0])
        if op not in ast.EXTREMES:
            raise SpecError([Diagnostic(f"'{op}(... for x in ...)' is not a fold: write sum, max, min,"
                                        " argmax or argmin", self._ident(c[0]).span)])
        return ast.Extreme(self._span(meta), op, c[1], self._ident(c[2]), c[3], c[4], c[5])

    def reachable_expr(self, meta, c):
        return ast.Reachable(self._span(meta), self._ident(c[0]), c[1], c[2])

    def allowed_expr(self, meta, c):
        return ast.Allowed(self._span(meta), self._ident(c[0]), c[1])

    def active_expr(self, meta, c):
        return ast.Active(self._span(meta), self._ident(c[0]), c[1])
