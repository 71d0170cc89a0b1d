"""A person's seat in the terminal, driven through a pseudo-terminal as a person types:
the seat's own view and map, a numbered menu, `?` for the spec line, undo, save and
`rulespec play --resume`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

REPO = Path(__file__).resolve().parent.parent
RULESPEC = [sys.executable, "-m", "compiler.cli"]
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
    child.expect("ussr> ")
    screen = child.before
    assert "Hand (USSR)" in screen and "Hand (USA)" in screen and "8 hidden" in screen
    assert "Eastern Europe" in screen and "East Germany" in screen  # the map, by region
    assert "Place 1 setup influence in Eastern Europe" in screen and "1. Austria" in screen
    said = _answer(child, "?", "ussr> ")
    assert "setup.rules:" in said and "ussr chooses" in said
    said = _answer(child, "? 2", "ussr> ")
    assert "map.rules:" in said and 'country bulgaria "Bulgaria"' in said
    _answer(child, "2", "ussr> ")
    _answer(child, "hungary", "ussr> ")
    said = _answer(child, "undo", "ussr> ")
    assert "undone: 1 decision" in said
    said = _answer(child, "99", "ussr> ")
    assert "'99' is no option" in said
    record = tmp_path / "ts.json"
    said = _answer(child, f"save {record}", "ussr> ")
    assert "saved:" in said
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = json.loads(record.read_text())
    assert saved["choices"] == ["bulgaria"] and saved["agents"] == ["human", "random"]

    again = _spawn("play", "--resume", str(record))
    again.expect("ussr> ")
    assert "decision 2" in again.before
    _answer(again, "1", "ussr> ")
    again.sendline("quit")
    again.expect(pexpect.EOF)


def test_heldenhain_at_the_terminal_to_the_end_of_a_turn_and_back(tmp_path):
    child = _spawn("play", "heldenhain", "--agents", "human,random", "--seed", "3")
    child.expect("p1> ")
    assert "Hand (Seite 1)" in child.before and "Hand (Seite 2)" in child.before
    assert "1. Starthand behalten" in child.before
    said = _answer(child, "1", "p1> ")
    assert "Was tust du?" in said
    # end the turn: the bot plays its own, and what it plays is news, so no undo past it
    said = _answer(child, "2", "p1> ")
    assert "Zug 2 - Seite 2" in said
    said = _answer(child, "undo", "p1> ")
    assert "nothing to undo" in said and "revealed" in said
    child.sendline("quit")
    child.expect(pexpect.EOF)
