"""The simulation report: an HTML page with matplotlib plots and the JSON beside it."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no screen on servers and CI
    import matplotlib.pyplot as plt

    return plt


def _label(entry: dict) -> str:
    return " + ".join(entry["variants"]) or "base"


def plot_win_rates(results: dict, path: Path) -> None:
    plt = _pyplot()
    sets = results["variants"]
    players = list(sets[0]["win_rate"])
    fig, ax = plt.subplots(figsize=(7, 3 + 0.4 * len(sets)))
    height = 0.8 / len(players)
    for k, player in enumerate(players):
        ys = [i + k * height for i in range(len(sets))]
        rates = [s["win_rate"][player] * 100 for s in sets]
        lows = [r - s["win_ci95"][player][0] * 100 for r, s in zip(rates, sets)]
        highs = [s["win_ci95"][player][1] * 100 - r for r, s in zip(rates, sets)]
        ax.barh(ys, rates, height=height, xerr=[lows, highs], capsize=3, label=player)
    ax.set_yticks([i + height * (len(players) - 1) / 2 for i in range(len(sets))])
    ax.set_yticklabels([_label(s) for s in sets])
    ax.set_xlabel("win rate, % (95% Wilson interval)")
    ax.legend()
    _save(plt, fig, path)


def plot_tracks(results: dict, path: Path) -> None:
    plt = _pyplot()
    sets = results["variants"]
    names = sorted({n for s in sets for n in s["final_tracks"]})
    if not names:
        return
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 2.6 * len(names)), squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        for s in sets:
            hist = s["final_tracks"].get(name, {}).get("histogram", {})
            xs = [int(x) for x in hist]
            ax.plot(xs, list(hist.values()), marker="o", label=_label(s))
        ax.set_title(f"final {name}")
        ax.legend(fontsize="small")
    _save(plt, fig, path)


def plot_end_reasons(results: dict, path: Path) -> None:
    plt = _pyplot()
    sets = results["variants"]
    reasons = sorted({r for s in sets for r in s["end_reasons"]}, key=str)
    fig, ax = plt.subplots(figsize=(8, 1 + 0.5 * len(reasons) * len(sets)))
    height = 0.8 / len(sets)
    for k, s in enumerate(sets):
        counts = [s["end_reasons"].get(r, 0) for r in reasons]
        ax.barh([i + k * height for i in range(len(reasons))], counts, height=height, label=_label(s))
    ax.set_yticks(range(len(reasons)))
    ax.set_yticklabels([str(r) for r in reasons], fontsize="small")
    ax.set_xlabel("games")
    ax.legend()
    _save(plt, fig, path)


def plot_events(results: dict, path: Path, top: int = 40) -> None:
    plt = _pyplot()
    entry = results["variants"][0]
    items = sorted(entry["events_fired"].items(), key=lambda kv: -kv[1])[:top]
    if not items:
        return
    fig, ax = plt.subplots(figsize=(7, 0.25 * len(items) + 1))
    ax.barh([k for k, _ in items][::-1], [v for _, v in items][::-1])
    ax.set_xlabel(f"times, over {entry['games']} games ({_label(entry)})")
    ax.tick_params(axis="y", labelsize=7)
    _save(plt, fig, path)


def _save(plt, fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(results: dict[str, Any], folder: Path) -> Path:
    """results.json, the plots and index.html in `folder`; returns the page."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    plots = [("win_rates.png", plot_win_rates, "Win rates"),
             ("final_tracks.png", plot_tracks, "Final values of the tracks"),
             ("end_reasons.png", plot_end_reasons, "How games ended"),
             ("events.png", plot_events, "Cards: events and signals")]
    sections = []
    for name, plot, title in plots:
        plot(results, folder / name)
        if (folder / name).exists():
            sections.append(f"<h2>{title}</h2><img src='{name}' alt='{title}'>")
    sentence = results.get("comparison", {}).get("sentence")
    lead = f"<p class='lead'>{html.escape(sentence)}</p>" if sentence else ""
    page = (f"<!doctype html><meta charset='utf-8'><title>{html.escape(results['game'])} simulation</title>"
            f"<style>body{{font-family:sans-serif;max-width:900px;margin:auto}} .lead{{font-size:1.2em}}</style>"
            f"<h1>{html.escape(results['game'])}: {results['games']} games per set, agents "
            f"{html.escape(', '.join(results['agents']))}</h1>{lead}{''.join(sections)}"
            f"<p>All numbers: <a href='results.json'>results.json</a></p>\n")
    index = folder / "index.html"
    index.write_text(page)
    return index
