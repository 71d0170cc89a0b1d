"""docs/FIRST_GAME.md runs as written: every ```sh block, in order, in an empty folder.

Each block runs in bash with `set -euo pipefail`, so every command of it must exit 0. A block
that is one `rulespec serve` line is started as a server on a free port instead; the test
fetches a seat page from it and stops it. `rulespec` is a shim running this checkout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from support import REPO

PAGE = REPO / "docs" / "FIRST_GAME.md"
SEAT = re.compile(r"(http://127\.0\.0\.1:\d+/seat/\S+)")
SERVE_WAIT = 300  # seconds for the table to open on a loaded machine; no timing is asserted


def blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.M | re.S)


def shim(folder: Path) -> dict[str, str]:
    """An environment whose `rulespec` is this checkout's command line."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "rulespec"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rulespec.compiler.cli "$@"\n')
    script.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1")
    env.pop("RULESPEC_DEBUG", None)
    return env


def test_the_page_covers_the_path_from_starter_to_game() -> None:
    text = "\n".join(blocks())
    for command in ("rulespec new my_game", "rulespec check", "rulespec test", "rulespec play",
                    "rulespec fuzz", "rulespec serve", "--variant spring --against base",
                    "--agents policy:climber", "cat >> my_game/cards.rules", "constraint ",
                    "cat > my_game/tests/", "cat > my_game/variants/"):
        assert command in text, f"docs/FIRST_GAME.md no longer shows {command!r}"


def test_every_command_of_the_page_succeeds(tmp_path: Path) -> None:
    env = shim(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    found = blocks()
    assert len(found) >= 10, "docs/FIRST_GAME.md: its ```sh blocks are gone"
    for block in found:
        if block.strip().startswith("rulespec serve") and block.strip().count("\n") == 0:
            serve_and_fetch_a_seat(block.strip(), work, env)
            continue
        done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + block], cwd=work, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, (f"docs/FIRST_GAME.md block failed (exit {done.returncode}):\n"
                                      f"{block}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}")
        if block.startswith("rulespec new"):
            assert "rulespec check my_game" in done.stdout, done.stdout


def serve_and_fetch_a_seat(command: str, work: Path, env: dict[str, str]) -> None:
    args = command.split()[1:] + ["--port", "0"]
    server = subprocess.Popen([sys.executable, "-m", "rulespec.compiler.cli", *args], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        url = first_seat_link(server, lines)
        assert url, f"`{command}` printed no seat link:\n" + "".join(lines)
        with urllib.request.urlopen(url, timeout=60) as page:
            assert page.status == 200
            assert "My Game" in page.read().decode("utf-8")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def first_seat_link(server: subprocess.Popen, lines: list[str]) -> str | None:
    """The first seat link the server prints, read on a thread so a silent server cannot hang us."""
    found: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in server.stdout:
            lines.append(line)
            match = SEAT.search(line)
            if match and not found:
                found.append(match[1])
                ready.set()
        ready.set()  # the server stopped

    threading.Thread(target=read, daemon=True).start()
    ready.wait(SERVE_WAIT)
    return found[0] if found else None
