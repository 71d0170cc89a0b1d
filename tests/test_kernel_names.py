"""The kernel names no game: no file under runtime/ or compiler/ says a word only one spec declares.

All game knowledge lives in spec/ (docs/DESIGN: "It knows no game"). The words a spec owns are
read from its text (every `.rules` file, variants and tests too; the files are in `rulespec fmt`
layout, so each declaration starts a line):
- the game's id, its folder, its variants' names, and its title (the part before any
  parenthesis or dash: "Twilight Struggle", "Risiko");
- its players' ids and labels ("usa", "USA") and every entity's id (spaces, cards, regions);
- every track and counter name (`defcon`, `influence`, `oxygen`: the words docs/DESIGN
  names as the ones the kernel must not know);
- the name of every other declaration when it has an underscore (a zone, param, define,
  procedure… named `card_being_played`): one-word names such as `deck`, `hand` or `score`
  are the language's own vocabulary and are not checked.
A few ids are plain English or the kernel's own term, listed in ALLOWED with the reason.

Every file under runtime/ and compiler/ is read: code, docstrings, comments, templates, the
web table's js and css, the grammar. compiler/tools/reference/ is included: it is `rulespec doc`,
which builds a reference of whatever spec it is given, not a reader of one game's data, so it
has no more reason than the rest to name a game.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KERNEL = ("runtime", "compiler")
TEXT_SUFFIXES = {".py", ".lark", ".j2", ".html", ".js", ".css", ".md", ".txt", ".json", ".svg", ".toml"}

ALLOWED = {
    "mine": "an English word (a Terraforming Mars tile; the search bot says 'mine' of its own seat)",
    "capital": "an English word (a Terraforming Mars tile; 'Capital' starts sentences in card sheets)",
    "p1": "the placeholder player of examples (Heldenhain and Terraforming Mars use it as an id too)",
    "seat_count": "the kernel's own term for the number of seated players (runtime/meta.py)",
    "turn": "the kernel's word for a player's turn (the terminal seat, the table)",
    "generation": "an English word (code generation; a Terraforming Mars track)",
    "passed": "an English word (tests passed; a Terraforming Mars track)",
    "used": "an English word (a Terraforming Mars counter)",
    "mc": "the Monte Carlo bot's name, `--agents mc` (a Terraforming Mars track)",
    "tr": "the HTML table row element in the web table (a Terraforming Mars track)",
}

DECLARED = re.compile(r"^(?:replace )?(track|counter|zone|var|param|enum|lifetimes|action|signal|effect"
                      r"|define|quantity|procedure|phase|setup|invariant|bot|policy|assert|tally"
                      r"|constraint) (\w+)", re.M)


def spec_words(game: Path) -> dict[str, str]:
    """The distinctive words of one spec (lower case), each with what declares it."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(game.rglob("*.rules")))
    words = {game.name: "its folder"}
    words.update((p.stem, "a variant") for p in game.glob("variants/*.rules"))
    for name, title in re.findall(r'^game (\w+) "([^"]*)"', text, re.M):
        words[name] = "its game id"
        words[re.split(r"\s*[(:]|\s+-\s+", title)[0]] = "its title"
    for players in re.findall(r"^players (.*?)(?=^\S|\Z)", text, re.M | re.S):
        for name, label in re.findall(r'(\w+) "([^"]*)"', players):
            words[name] = words[label] = "a player"
    kinds = set(re.findall(r"^kind (\w+):", text, re.M))
    for kind, name in re.findall(r'^(?:replace )?(\w+) (\w+) "', text, re.M):
        if kind in kinds:
            words[name] = f"a {kind}"
    for keyword, name in DECLARED.findall(text):
        if "_" in name or keyword in ("track", "counter"):
            words[name] = f"a {keyword}"
    return {w.lower(): why for w, why in words.items() if w.lower() not in ALLOWED}


def all_spec_words() -> dict[str, tuple[str, str]]:
    found = {}
    for game in sorted(p for p in (REPO / "spec").iterdir() if p.is_dir()):
        found.update((w, (game.name, why)) for w, why in spec_words(game).items())
    return found


def kernel_files() -> list[Path]:
    return sorted(p for top in KERNEL for p in (REPO / top).rglob("*")
                  if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts)


def test_no_kernel_file_names_a_game() -> None:
    words = all_spec_words()
    phrases = {w: why for w, why in words.items() if " " in w}
    places = defaultdict(list)
    for path in kernel_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            lower = line.lower()
            said = {w for w in re.findall(r"\w+", lower) if w in words}
            said |= {p for p in phrases if p in lower and re.search(rf"\b{re.escape(p)}\b", lower)}
            for word in said:
                places[word].append(f"{path.relative_to(REPO)}:{number}")
    assert not places, "the kernel names a game:\n" + "\n".join(
        f"  '{w}' ({words[w][1]} of {words[w][0]}) at {', '.join(at)}" for w, at in sorted(places.items()))


def test_the_rule_finds_what_it_should() -> None:
    # Guards the collector itself: were it to find nothing, the test above could not fail.
    words = all_spec_words()
    for word in ("twilight struggle", "twilight_struggle", "usa", "korean_war", "card_being_played",
                 "heldenhain", "two_action_points", "terraforming mars", "defcon", "influence", "oxygen"):
        assert word in words, word
    assert "deck" not in words and "mine" not in words
