"""The `rulespec worth` report: a forest plot of the cards ranked by worth, per side, in the
spec's words, the table beside it, and the JSON."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from rulespec.runtime.analysis.report import _pyplot, _save
from rulespec.runtime.files import make_dirs, write_atomic

SHOWN = 40  # rows a side's plot shows: the strongest and the weakest


def _shown_rows(rows: list[dict]) -> list[dict]:
    """Every row, or the strongest and weakest SHOWN of them (most negative at the bottom)."""
    ranked = sorted(rows, key=lambda r: -r["worth"])
    return ranked if len(ranked) <= SHOWN else ranked[:SHOWN // 2] + ranked[-(SHOWN // 2):]


def plot_forest(out: dict[str, Any], side: str, path: Path) -> bool:
    """One side's cards, strongest on top: each card's worth with its 95% interval, zero and
    the ±negligible band marked, rows clear of chance across the table in colour."""
    rows = _shown_rows([r for r in out["cards"] if r["side"] == side])
    if not rows:
        return False
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 1.4 + 0.28 * len(rows)))
    for y, row in enumerate(reversed(rows)):
        lo, hi = (v * 100 for v in row["ci95"])
        point = row["worth"] * 100
        colour = "#1a7f37" if row["clear"] and point > 0 else "#b3261e" if row["clear"] else "#888"
        ax.errorbar([point], [y], xerr=[[point - lo], [hi - point]], fmt="o", capsize=3, color=colour)
    negligible = out.get("negligible") or 0
    if negligible:
        ax.axvspan(-negligible, negligible, color="#eef1f6", zorder=0,
                   label=f"within ±{negligible:g}: negligible")
        ax.legend(fontsize="small", loc="lower right")
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_row_label(r) for r in reversed(rows)], fontsize="small")
    label = out["player_labels"].get(side, side)
    if out.get("against") is not None:
        base = " + ".join(out["against"]) or "the base game"
        ax.set_xlabel(f"change of what the card is worth to {label} against {base}, points (95% interval)")
    else:
        what = "blanked" if out["mode"] == "blank" else "removed"
        ax.set_xlabel(f"{label}'s win rate with the card minus with it {what}, points (95% interval)")
    ax.set_title(f"What each card is worth to {label}: green and red clear of chance across the table",
                 fontsize="medium")
    _save(plt, fig, path)
    return True


def _row_label(row: dict) -> str:
    group = f" ({row['group'][1]})" if row.get("group") else ""
    return f"{row['card_label']}{group}"


def write_report(out: dict[str, Any], folder: Path) -> Path:
    """results.json, worth_N.png per side (N the player's place) and index.html
    (templates/worth.html.j2) in `folder`."""
    plots = [(f"worth_{n}.png", lambda path, side=side: plot_forest(out, side, path),
              {"side": out["player_labels"].get(side, side)}) for n, side in enumerate(out["players"], 1)]
    return _write_page(out, Path(folder), plots, "worth.html.j2")


def _write_page(out: dict[str, Any], folder: Path, plots, template: str) -> Path:
    """results.json, each plot that has something to draw (landing whole or not at all), and the
    page, rendered with `out` and the plots drawn."""
    from jinja2 import Environment, PackageLoader
    make_dirs(folder)
    write_atomic(folder / "results.json", json.dumps(out, indent=2, sort_keys=True) + "\n")
    drawn = []
    for name, draw, about in plots:
        with tempfile.TemporaryDirectory() as scratch:
            if draw(Path(scratch) / name) is not False:
                write_atomic(folder / name, (Path(scratch) / name).read_bytes())
                drawn.append({"file": name, **about})
    env = Environment(loader=PackageLoader(__package__, "templates"), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    return write_atomic(folder / "index.html", env.get_template(template).render(out=out, plots=drawn))

def plot_sweep(out: dict[str, Any], path: Path) -> None:
    """`--param-of`: the card's worth at each value with its 95% interval, the target marked,
    the value nearest it ringed."""
    found = out["param_of"]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for row in found["values"]:
        point = row["worth"] * 100
        lo, hi = (v * 100 for v in row["ci95"])
        ax.errorbar([row["value"]], [point], yerr=[[point - lo], [hi - point]], fmt="o", capsize=5,
                    color="#1a7f37" if row["printed"] else "#3465a4")
    best = found["best"]
    ax.plot([best["value"]], [best["worth"] * 100], "o", markersize=14, fillstyle="none", color="#b3261e")
    ax.axhline(found["target"] * 100, color="#555", linewidth=1, linestyle="--")
    ax.set_xticks([r["value"] for r in found["values"]])
    ax.set_xlabel(f"{found['card_label']}: {found['attribute']} (green: as printed)")
    ax.set_ylabel(f"worth to {found['side_label']}, points")
    ax.set_title("95% intervals; dashed: the target; ringed: the value nearest it", fontsize="medium")
    _save(plt, fig, path)


def write_sweep_report(out: dict[str, Any], folder: Path) -> Path:
    """results.json, worth_sweep.png and index.html (templates/worth_sweep.html.j2) in `folder`."""
    return _write_page(out, Path(folder), [("worth_sweep.png", lambda path: plot_sweep(out, path), {})],
                       "worth_sweep.html.j2")
