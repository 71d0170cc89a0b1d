"""docs/LANGUAGE.md covers every construct of compiler/grammar.lark, and its examples are true.

- Every quoted keyword of the grammar, and the leading keywords of every alternative (`move
  all`, `expect not offered`, `dice random`), appear in the page's code (a fenced block or
  `inline code`); every builtin the checker knows has a row in the Builtins table.
- An example cited as `# game/file.rules:N` is that spec line: its text (spaces squeezed) is
  part of line N of spec/game/file.rules, so an example cannot drift from the specs. When a
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

from compiler.checks.symbols import EVENT_LOCALS
from compiler.checks.types import BUILTIN_RESULTS, BUILTIN_VALUES
from compiler.loader import load_spec
from compiler.parse import parse_text

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "LANGUAGE.md"
GRAMMAR = REPO / "compiler" / "grammar.lark"
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


def cited_lines() -> list[tuple[int, str, str, int]]:
    """(line of the page, example text, spec file, cited line) for each cited example line."""
    found = []
    for number, line in enumerate(DOC_TEXT.splitlines(), 1):
        cited = CITED.search(line)
        if cited and not line.startswith("|"):
            found.append((number, squeeze(line[:cited.start()]).rstrip(" …"), cited[1], int(cited[2])))
    return found


def test_cited_examples_are_the_spec_lines_they_cite() -> None:
    cited = cited_lines()
    assert len(cited) > 50, "the citation reader found too few examples"
    wrong, moved = [], {}
    for number, text, spec, line in cited:
        path = REPO / "spec" / spec
        assert path.is_file(), f"docs/LANGUAGE.md:{number}: cites {spec}, which is not under spec/"
        lines = [squeeze(s) for s in path.read_text(encoding="utf-8").splitlines()]
        if line <= len(lines) and text in lines[line - 1]:
            continue
        at = [k for k, s in enumerate(lines, 1) if text in s]
        wrong.append(f"docs/LANGUAGE.md:{number}: '{text}' is not at {spec}:{line}"
                     + (f" but at line {at[0]}" if len(at) == 1 else f" (found on {len(at)} lines)"))
        if len(at) == 1:
            moved[number] = (f"{spec}:{line}", f"{spec}:{at[0]}")
    if moved and os.environ.get("RULESPEC_UPDATE_DOCS"):
        rewrite_citations(moved)
        wrong = [w for w in wrong if int(w.split(":")[1]) not in moved]
    assert not wrong, "\n".join(wrong) + "\n(RULESPEC_UPDATE_DOCS=1 renumbers the moved ones)"


def rewrite_citations(moved: dict[int, tuple[str, str]]) -> None:
    lines = DOC_TEXT.splitlines(keepends=True)
    for number, (old, new) in moved.items():
        lines[number - 1] = lines[number - 1].replace(f"# {old}", f"# {new}")
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
