"""Spec coverage of many games: which statement lines and branch arms each file's games
reached, in how many games, and which never; as JSON, text and HTML.

The plan (compiler/backends/coverage.py, plain data) lists the spec's statement lines and
the arms of its `if`s and menus; a back end's counter gives the keys one game reached and
which arms it tells apart: the interpreter every one, the generated engine those its lines
show (not an `if`'s "none taken" in plain code, nor a menu option on its menu's line).
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from rulespec.runtime.files import make_dirs


@dataclass
class SpecCoverage:
    """Games counted against a plan: key ("file:line", or an arm's key) -> games reaching it."""

    plan: dict[str, Any]
    backend: str
    told: frozenset[str]  # the arms the counting back end tells apart
    games: int = 0
    reached: Counter = field(default_factory=Counter)

    def add_game(self, keys: Iterable[str]) -> None:
        self.games += 1
        self.reached.update(keys)

    def arm_games(self, arm: dict[str, Any]) -> int | None:
        """Games that took the arm; None where this back end cannot tell."""
        return self.reached[arm["key"]] if arm["key"] in self.told else None

    def files(self) -> list[dict[str, Any]]:
        """Per spec file: its lines with the games that reached each, and its arms."""
        arms_of: dict[str, list] = {}
        for arm in self.plan["arms"]:
            file, line, column = arm["at"].rsplit(":", 2)
            arms_of.setdefault(file, []).append(
                {"line": int(line), "column": int(column), "arm": arm["label"],
                 "games": self.arm_games(arm)})
        out = []
        for file, lines in self.plan["lines"].items():
            games = {line: self.reached[f"{file}:{line}"] for line in lines}
            arms = arms_of.get(file, [])
            out.append({"file": file, "lines": {"total": len(lines),
                                                "reached": sum(1 for g in games.values() if g)},
                        "branches": _branch_counts(arms),
                        "never": [line for line, g in games.items() if not g],
                        "games_by_line": {str(line): g for line, g in games.items()},
                        "arms": arms})
        return out

    def to_json(self) -> dict[str, Any]:
        """The `spec_coverage` key of `fuzz --json` and `simulate --json`."""
        files = self.files()
        return {"backend": self.backend, "games": self.games,
                "lines": {k: sum(f["lines"][k] for f in files) for k in ("total", "reached")},
                "branches": {k: sum(f["branches"][k] for f in files)
                             for k in ("total", "reached", "unknown")},
                "files": files}


def _branch_counts(arms: list[dict[str, Any]]) -> dict[str, int]:
    return {"total": len(arms), "reached": sum(1 for a in arms if a["games"]),
            "unknown": sum(1 for a in arms if a["games"] is None)}


def _arm_text(arm: dict[str, Any]) -> str:
    return f"line {arm['line']}:{arm['column']} {arm['arm']}"


def summary_lines(data: dict[str, Any], limit: int = 12) -> list[str]:
    """The text a command prints: totals, then per file what its games never reached."""
    lines, branches = data["lines"], data["branches"]
    unknown = f", {branches['unknown']} not told apart on this back end" if branches["unknown"] else ""
    out = [f"spec coverage ({data['backend']}, {data['games']} games): {lines['reached']} of"
           f" {lines['total']} statement lines, {branches['reached']} of {branches['total']}"
           f" branches reached{unknown}"]
    for entry in data["files"]:
        never_arms = [_arm_text(a) for a in entry["arms"] if a["games"] == 0]
        out.append(f"  {entry['file']}: lines {entry['lines']['reached']}/{entry['lines']['total']},"
                   f" branches {entry['branches']['reached']}/{entry['branches']['total']}")
        if entry["never"]:
            shown = ", ".join(str(n) for n in entry["never"][:limit])
            more = f" and {len(entry['never']) - limit} more" if len(entry["never"]) > limit else ""
            out.append(f"    never reached: line {shown}{more}")
        if never_arms:
            more = f" and {len(never_arms) - limit} more" if len(never_arms) > limit else ""
            out.append(f"    never taken: {'; '.join(never_arms[:limit])}{more}")
    return out


def annotated(data: dict[str, Any], sources: dict[str, str]) -> str:
    """Each spec file line by line, gcov's way: games that reached a statement line, `#####`
    for one never reached, `-` for a line with no statement; the arms under their line."""
    out = []
    for entry in data["files"]:
        out.append(f"==> {entry['file']}")
        counts = entry["games_by_line"]
        arms: dict[int, list] = {}
        for arm in entry["arms"]:
            arms.setdefault(arm["line"], []).append(arm)
        for number, text in enumerate(_source(sources, entry["file"]), 1):
            games = counts.get(str(number))
            mark = "-" if games is None else ("#####" if games == 0 else str(games))
            out.append(f"{mark:>8} |{number:5}| {text}")
            for arm in arms.get(number, []):
                taken = "?" if arm["games"] is None else ("never" if arm["games"] == 0 else arm["games"])
                out.append(f"{'':>8} |     |   arm {arm['arm']}: {taken}")
    return "\n".join(out) + "\n"


def _source(sources: dict[str, str], file: str) -> list[str]:
    try:
        return Path(sources[file]).read_text(encoding="utf-8").splitlines()
    except (KeyError, OSError, UnicodeDecodeError):
        return []


def write_reports(data: dict[str, Any], sources: dict[str, str], folder: str | Path) -> Path:
    """coverage.txt (annotated sources), one HTML page per spec file and index.html; returns
    the index."""
    folder = Path(folder)
    make_dirs(folder)
    (folder / "coverage.txt").write_text(annotated(data, sources), encoding="utf-8")
    rows = []
    for entry in data["files"]:
        page = entry["file"].replace("/", "_") + ".html"
        (folder / page).write_text(_file_page(entry, sources), encoding="utf-8")
        rows.append(f"<tr><td><a href='{html.escape(page)}'>{html.escape(entry['file'])}</a></td>"
                    f"<td>{entry['lines']['reached']} / {entry['lines']['total']}</td>"
                    f"<td>{entry['branches']['reached']} / {entry['branches']['total']}</td>"
                    f"<td>{len(entry['never'])}</td></tr>")
    head = (f"Spec coverage: {data['games']} games on the {data['backend']} back end;"
            f" {data['lines']['reached']} of {data['lines']['total']} statement lines,"
            f" {data['branches']['reached']} of {data['branches']['total']} branches reached")
    index = folder / "index.html"
    index.write_text(_page(head, "<table><tr><th>file</th><th>lines reached</th><th>branches"
                           "</th><th>never reached</th></tr>" + "".join(rows) + "</table>"),
                     encoding="utf-8")
    return index


STYLE = ("body{font-family:sans-serif}pre{margin:0}td{padding:0 .6em}.never{background:#fcc}"
         ".reached{background:#dfd}.arm{color:#555;font-style:italic}.count{text-align:right;"
         "color:#555}")


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>{body}"
            f"</body></html>\n")


def _file_page(entry: dict[str, Any], sources: dict[str, str]) -> str:
    counts = entry["games_by_line"]
    arms: dict[int, list] = {}
    for arm in entry["arms"]:
        arms.setdefault(arm["line"], []).append(arm)
    rows = []
    for number, text in enumerate(_source(sources, entry["file"]), 1):
        games = counts.get(str(number))
        kind = "" if games is None else (" class='never'" if games == 0 else " class='reached'")
        shown = "" if games is None else ("never" if games == 0 else str(games))
        rows.append(f"<tr{kind}><td class='count'>{shown}</td><td class='count'>{number}</td>"
                    f"<td><pre>{html.escape(text)}</pre></td></tr>")
        for arm in arms.get(number, []):
            taken = "not told apart on this back end" if arm["games"] is None else (
                "never taken" if arm["games"] == 0 else f"taken in {arm['games']} games")
            style = "never" if arm["games"] == 0 else "arm"
            rows.append(f"<tr class='{style}'><td></td><td></td><td class='arm'>arm"
                        f" {html.escape(arm['arm'])}: {taken}</td></tr>")
    title = (f"{entry['file']}: {entry['lines']['reached']} of {entry['lines']['total']} lines,"
             f" {entry['branches']['reached']} of {entry['branches']['total']} branches")
    return _page(title, "<p><a href='index.html'>all files</a></p><table>" + "".join(rows)
                 + "</table>")
