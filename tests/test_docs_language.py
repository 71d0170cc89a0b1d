"""docs/LANGUAGE.md covers every construct of compiler/frontend/grammar.lark, and its examples are true.

- Every quoted keyword of the grammar, and the leading keywords of every alternative (`move
  all`, `expect not offered`, `dice random`), appear in the page's code (a fenced block or
  `inline code`); every builtin the checker knows has a row in the Builtins table.
- An example cited as `# game/file.rules:N` (a code line) or `` `code` (game/file.rules:N) ``
  (inline) is that spec line: its text (spaces squeezed, `…` for parts left out) is part of
  line N of spec/game/file.rules, so an example cannot drift from the specs. When a
  spec edit moves the line, `RULESPEC_UPDATE_DOCS=1` rewrites the number (the text is looked
  up in that file; it must be found on exactly one line).
- An example with no citation at all is a whole piece of spec: it must parse. The page says
  these use the tiny game tests/specs/mini; a `policy` or a `variant` example is also checked
  in a copy of it (the variant turned on), as the page says each was. (The Heldenhain test
  examples only parse here: checking a copy of Heldenhain takes seconds.)
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from rulespec.compiler.frontend.checks.symbols import EVENT_LOCALS
from rulespec.compiler.frontend.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES
from rulespec.compiler.frontend.loader import load_spec
from rulespec.compiler.frontend.parse import parse_text

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "LANGUAGE.md"
GRAMMAR = REPO / "compiler" / "frontend" / "grammar.lark"
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
CITED = re.compile(r"\s+#\s+([\w./-]+\.rules):(\d+)\s*$")


def squeeze(text: str) -> str:
    return " ".join(text.split())


def doc_code(text: str) -> str:
    return "\n".join(FENCE.findall(text) + re.findall(r"`([^`\n]+)`", text))


def grammar_alternatives() -> list[tuple[str, list[str]]]:
    """(rule, its tokens) for each alternative of each grammar rule, comments dropped."""
    text = re.sub(r"//[^\n]*", "", GRAMMAR.read_text(encoding="utf-8"))
    alternatives = []
    for rule, body in re.findall(r"^\??([a-z_]+):(.*?)(?=^\??[a-z_]+:|^[A-Z%]|\Z)", text, re.M | re.S):
        for alternative in re.split(r"\n\s*\|", body):
            tokens = re.findall(r'"[^"]*"|[\[\]()*+]|\w+', alternative.split("->")[0])
            alternatives.append((rule, tokens))
    return alternatives


def leading_keywords(tokens: list[str]) -> list[str]:
    """The keywords an alternative starts with (after a leading NAME or atom: `x chooses`)."""
    words = []
    for token in tokens[1:] if tokens and tokens[0] in ("NAME", "atom") else tokens:
        if not re.fullmatch(r'"[a-z_]+"', token):
            break
        words.append(token.strip('"'))
    return words


DOC_TEXT = DOC.read_text(encoding="utf-8")
CODE = doc_code(DOC_TEXT)


def test_every_keyword_of_the_grammar_is_in_the_page() -> None:
    keywords = {t.strip('"') for _, tokens in grammar_alternatives() for t in tokens
                if re.fullmatch(r'"[a-z_]+"', t)}
    assert len(keywords) > 50, "the grammar reader found too few keywords"
    missing = sorted(k for k in keywords if not re.search(rf"\b{k}\b", CODE))
    assert not missing, f"docs/LANGUAGE.md never shows these keywords in code: {missing}"


def test_every_form_of_the_grammar_is_in_the_page() -> None:
    forms = {" ".join(words) for _, tokens in grammar_alternatives() if (words := leading_keywords(tokens))}
    assert {"move all", "expect not offered", "dice random", "chooses"} <= forms
    missing = sorted(f for f in forms if not re.search(r"\b" + r"\s+".join(f.split()) + r"\b", CODE))
    assert not missing, f"docs/LANGUAGE.md shows no example of these forms: {missing}"


def test_every_builtin_has_a_row_in_the_builtins_table() -> None:
    table = DOC_TEXT.split("### Builtins", 1)[1].split("\n## ", 1)[0]
    rows = " ".join(re.findall(r"^\| (`[^|]+`) \|", table, re.M))
    for name in (*BUILTIN_VALUES, *BUILTIN_RESULTS, *EVENT_LOCALS):
        assert re.search(rf"`{name}\b", rows), f"docs/LANGUAGE.md, Builtins: no row for '{name}'"


INLINE = re.compile(r"`([^`\n]+)` \(([\w./-]+\.rules)(?::(\d+))?\)")


def cited_lines() -> list[tuple[int, str, str, int | None]]:
    """(line of the page, example text, cited file, cited line or None) for each citation:
    a code line ending `# game/file.rules:N`, or inline code followed by `(game/file.rules:N)`."""
    found = []
    for number, line in enumerate(DOC_TEXT.splitlines(), 1):
        cited = CITED.search(line)
        if cited and not line.startswith("|"):
            found.append((number, line[:cited.start()], cited[1], int(cited[2])))
        for inline in INLINE.finditer(line):
            found.append((number, inline[1], inline[2], int(inline[3]) if inline[3] else None))
    return found


def cited_file(name: str) -> Path:
    """A cited file: under spec/ (`heldenhain/…`), else from the top of the repository."""
    return REPO / "spec" / name if (REPO / "spec" / name).is_file() else REPO / name


def shows(text: str, line: str) -> bool:
    """The example is part of the line; `…` stands for text left out."""
    at = 0
    for piece in (p.strip() for p in squeeze(text).split("…")):
        at = line.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def test_cited_examples_are_the_spec_lines_they_cite() -> None:
    cited = cited_lines()
    assert len(cited) > 100, "the citation reader found too few examples"
    wrong, moved = [], {}
    for number, text, name, line in cited:
        path = cited_file(name)
        assert path.is_file(), f"docs/LANGUAGE.md:{number}: cites {name}, which is not a file"
        lines = [squeeze(s) for s in path.read_text(encoding="utf-8").splitlines()]
        if (line is None and any(shows(text, s) for s in lines)) or (
                line is not None and line <= len(lines) and shows(text, lines[line - 1])):
            continue
        at = [k for k, s in enumerate(lines, 1) if shows(text, s)]
        wrong.append(f"docs/LANGUAGE.md:{number}: '{squeeze(text)}' is not at {name}:{line}"
                     + (f" but at line {at[0]}" if len(at) == 1 else f" (found on {len(at)} lines)"))
        if len(at) == 1 and line is not None:
            moved.setdefault(number, []).append((f"{name}:{line}", f"{name}:{at[0]}"))
    if moved and os.environ.get("RULESPEC_UPDATE_DOCS"):
        rewrite_citations(moved)
        wrong = [w for w in wrong if int(w.split(":")[1]) not in moved]
    assert not wrong, "\n".join(wrong) + "\n(RULESPEC_UPDATE_DOCS=1 renumbers the moved ones)"


def rewrite_citations(moved: dict[int, list[tuple[str, str]]]) -> None:
    lines = DOC_TEXT.splitlines(keepends=True)
    for number, changes in moved.items():
        for old, new in changes:
            lines[number - 1] = re.sub(re.escape(old) + r"(?!\d)", new, lines[number - 1])
    DOC.write_text("".join(lines), encoding="utf-8")


UNCITED = [block for block in FENCE.findall(DOC_TEXT) if not CITED.search(block)
           and not re.search(r"#\s+[\w./-]+\.rules:\d+", block)]


@pytest.mark.parametrize("block", UNCITED, ids=[b.split("\n", 1)[0][:40] for b in UNCITED])
def test_uncited_examples_parse(block: str) -> None:
    parse_text(block, "docs/LANGUAGE.md")


MINI_EXAMPLES = [b for b in UNCITED if re.match(r"(policy|variant) ", b)]


@pytest.mark.parametrize("block", MINI_EXAMPLES, ids=[b.split("\n", 1)[0][:40] for b in MINI_EXAMPLES])
def test_mini_examples_check_in_a_copy_of_mini(block: str, tmp_path: Path) -> None:
    mini = tmp_path / "mini"
    shutil.copytree(REPO / "tests" / "specs" / "mini", mini)
    variant = re.match(r"variant (\w+)", block)
    if variant:
        (mini / "variants" / f"{variant[1]}.rules").write_text(block, encoding="utf-8")
    else:
        (mini / "zz_example.rules").write_text(block, encoding="utf-8")
    load_spec(mini, variants=(variant[1],) if variant else ())  # a SpecError fails the test
