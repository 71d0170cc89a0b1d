"""A person's seat in the terminal, driven through a pseudo-terminal as a person types:
the seat's own view and map, a numbered menu, `?` for the spec line, undo, save and
`rulespec play --resume`; after the first decision only what changed is drawn, players
by their labels, cards with their figures (ops, cost)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

REPO = Path(__file__).resolve().parent.parent
RULESPEC = [sys.executable, "-m", "rulespec.compiler.cli"]
WAIT = 120  # seconds pexpect waits for a prompt before it gives up (a hang, not a timing)


def _spawn(*args: str):
    env = dict(os.environ, COLUMNS="140", LINES="60", TERM="dumb", NO_COLOR="1", PYTHONUNBUFFERED="1")
    child = pexpect.spawn(RULESPEC[0], RULESPEC[1:] + list(args), cwd=str(REPO), env=env,
                          encoding="utf-8", timeout=WAIT, dimensions=(60, 140))
    return child


def _answer(child, text: str, expect: str) -> str:
    child.sendline(text)
    child.expect(expect)
    return child.before


def test_a_person_plays_twilight_struggle_at_the_terminal(tmp_path):
    child = _spawn("play", "twilight_struggle", "--agents", "human,random", "--seed", "4")
    child.expect("USSR> ")
    screen = child.before
    assert "Hand (USSR)" in screen and "Hand (USA)" in screen and "8 hidden" in screen
    assert "Eastern Europe" in screen and "East Germany" in screen  # the map, by region
    assert "Place 1 setup influence in Eastern Europe" in screen and "1. Austria" in screen
    assert "USSR 0  USA 0" in screen and "ussr 0" not in screen  # tracks by the players' labels
    assert re.search(r"Hand \(USSR\) +\S[^\n]*\(ops \d[,)]", screen)  # the cards in hand with their ops
    said = _answer(child, "?", "USSR> ")
    assert "setup.rules:" in said and "ussr chooses" in said
    said = _answer(child, "? 2", "USSR> ")
    assert "map.rules:" in said and 'country bulgaria "Bulgaria"' in said
    said = _answer(child, "2", "USSR> ")
    assert "Map  Bulgaria USSR 1" in said and "Hand (USSR)" not in said  # what changed, no more
    assert len(said.strip().splitlines()) <= 8, said
    _answer(child, "hungary", "USSR> ")
    said = _answer(child, "view", "USSR> ")
    assert "Hand (USSR)" in said and "Eastern Europe" in said  # everything again
    said = _answer(child, "undo", "USSR> ")
    assert "undone: 1 decision" in said
    said = _answer(child, "99", "USSR> ")
    assert "'99' is no option" in said
    record = tmp_path / "ts.json"
    said = _answer(child, f"save {record}", "USSR> ")
    assert "saved:" in said
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = json.loads(record.read_text())
    assert saved["choices"] == ["bulgaria"] and saved["agents"] == ["human", "random"]

    again = _spawn("play", "--resume", str(record))
    again.expect("USSR> ")
    assert "decision 2" in again.before
    _answer(again, "1", "USSR> ")
    again.sendline("quit")
    again.expect(pexpect.EOF)


def test_heldenhain_at_the_terminal_to_the_end_of_a_turn_and_back(tmp_path):
    child = _spawn("play", "heldenhain", "--agents", "human,random", "--seed", "3")
    child.expect("Seite 1> ")
    assert "Hand (Seite 1)" in child.before and "Hand (Seite 2)" in child.before
    assert "1. Starthand behalten" in child.before
    said = _answer(child, "1", "Seite 1> ")
    assert "Was tust du?" in said
    # end the turn: the bot plays its own, and what it plays is news, so no undo past it
    said = _answer(child, "2", "Seite 1> ")
    assert "Zug 2 - Seite 2" in said
    said = _answer(child, "undo", "Seite 1> ")
    assert "nothing to undo" in said and "revealed" in said
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_ten_research_decisions_redraw_only_what_changed():
    """Terraforming Mars' research asks ten times in a row: after the first whole view, each
    decision draws a status line, what changed, the new log lines and its menu."""
    child = _spawn("play", "terraforming_mars", "--agents", "human,random", "--seed", "3")
    child.expect("Spieler 1> ")
    screen = child.before
    assert "Spieler 1 20  Spieler 2 20" in screen and "p1 20" not in screen  # labels, not ids
    assert "(cost " in screen  # the drawn cards with their cost
    drawn = [_answer(child, "1", "Spieler 1> ").strip().splitlines()]  # a corporation: the first card
    for _ in range(9):  # keep it, and the next eight
        drawn.append(_answer(child, "1", "Spieler 1> ").strip().splitlines())
    assert all(len(lines) <= 10 for lines in drawn[1:]), max(drawn[1:], key=len)
    assert sum(len(lines) for lines in drawn) < 100  # not 400
    assert not any("Generation" in line for lines in drawn for line in lines)  # unmoved tracks stay undrawn
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_what_changed_is_told_per_track_zone_and_space_each_copy_counted():
    from rulespec.runtime.playtest.terminal import Drawn, changes
    before = Drawn({("Score", "North"): "1", ("Round", ""): "2"}, {"Hand (North)": ("Echo", "Echo"), "Deck": 9},
                   {("Field", "North"): "2"})
    now = Drawn({("Score", "North"): "3", ("Round", ""): "2"}, {"Hand (North)": ("Echo", "Echo", "Echo"), "Deck": 8},
                {("Hill", "South"): "1"})
    assert changes(before, now) == ["[bold]Tracks[/bold]  Score North 1→3",
                                    "[bold]Hand (North)[/bold]  + Echo", "[bold]Deck[/bold]  9 hidden → 8 hidden",
                                    "[bold]Map[/bold]  Hill South 1 · Field North 2→0"]
    assert changes(now, now) == []


GUESS = """\
game guess "Guess"
players rose "Rose", ivy "Ivy"
track score "Score" per player 0..10 start 0
flag passed "Passed" per player
zone hand "Hand" per player owner
zone played "Played" public
kind character: card(value: int, guard: bool = false, text: str = "")
character priest_1 "Priest" (value 2, text "Look at a hand.")
character priest_2 "Priest" (value 2, text "Look at a hand.")
character spy "Spy" (value 0, text "Nothing happens.")
character guard_1 "Guard" (value 1, guard, text "Name a card.")
start {
    move all c in character to hand(rose)
    rose chooses n in 0..3 where n != 1 "Name a number"
    add n to score(rose)
    set passed(rose) to true
    rose chooses c in hand(rose) "Play a card"
    move c to played
    win none "done"
}
"""


def _seat_at(tmp_path_factory, typed: list[str]):
    """A terminal seat of the guess game in this process, reading `typed` line by line."""
    from io import StringIO

    from rich.console import Console

    from support import one_file_spec, program

    from rulespec.runtime.playtest.table import Table
    from rulespec.runtime.playtest.terminal import TerminalSeat

    table = Table.new(program(one_file_spec(tmp_path_factory, "guess", GUESS), "interpreted"),
                      ("human", "random"), seed=1)
    lines = iter(typed)
    out = StringIO()

    def read(prompt: str) -> str:
        out.write(prompt)
        return next(lines)

    terminal = TerminalSeat(table, Console(file=out, width=140, color_system=None), read)
    return table, terminal, out


def test_a_number_choice_is_typed_by_its_value_and_the_menu_keyed_by_letters(tmp_path_factory):
    table, terminal, out = _seat_at(tmp_path_factory, ["0", "? 3", "priest_2"])
    terminal.play()  # the game ends at its second decision
    text = out.getvalue()
    assert "a. 0" in text and "b. 2" in text and "c. 3" in text and "1. 0" not in text
    assert "a number is read as the option of that value" in text
    assert "'0' is no option" not in text and table.steps[0].option == "0"  # typed 0 chose 0, not refused
    assert "[priest_1]" in text and "[priest_2]" in text  # copies' ids printed, to be typed
    assert "3. Spy (value 0)" in text and "[spy]" not in text  # an id its label spells stays unprinted
    assert "4. Guard (value 1, guard) [guard_1]" in text  # a 0 kept, a flag by its name
    assert "Passed  Rose no  Ivy no" in text and "Passed Rose no→yes" in text  # a flag track: yes or no
    assert "Spy  Nothing happens." in text  # `? 3` shows the card's text
    assert table.steps[1].option == "priest_2"


def test_menu_keys_and_what_typed_text_stands_for():
    from rulespec.runtime.playtest.terminal import menu_keys, resolve
    numbers = {"options": [{"id": i, "label": i} for i in ("0", "2", "3")]}
    assert menu_keys(numbers["options"]) == ["a", "b", "c"]
    assert [resolve(numbers, t) for t in ("0", "1", "2", "b", "C", "d")] == ["0", None, "2", "2", "3", None]
    cards = {"options": [{"id": i, "label": "Priest"} for i in ("priest_1", "priest_2")]}
    assert menu_keys(cards["options"]) == ["1", "2"]
    assert [resolve(cards, t) for t in ("2", "priest_1", "0", "a")] == ["priest_2", "priest_1", None, None]
    many = [{"id": str(n), "label": str(n)} for n in range(30)]
    assert menu_keys(many)[25:28] == ["z", "aa", "ab"]
