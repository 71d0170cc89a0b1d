"""The simulation report: an HTML page with matplotlib plots and the JSON beside it."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from rulespec.runtime.files import make_dirs, write_atomic
from rulespec.runtime.analysis.card_uses import FALSE_DISCOVERY_RATE, MIN_CARD_GAMES


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no screen on servers and CI
    import matplotlib.pyplot as plt

    return plt


def _label(entry: dict) -> str:
    return " + ".join(entry["variants"]) or "base game"


def player_words(results: dict) -> dict[str, str]:
    """The spec's label of each player, as the card tables carry them (else the id stays)."""
    words = dict(results.get("player_labels", {}))
    for entry in results["variants"]:
        for row in entry.get("cards", []):
            words.setdefault(row["player"], row["player_label"])
    return words


def has_losses(results: dict) -> bool:
    """Did `lose` end any game with a loser? Only then does the report show losses."""
    return any(rate for s in results["variants"] for rate in s.get("loss_rate", {}).values())


def _plot_rates(results: dict, path: Path, rate: str, ci: str, xlabel: str) -> None:
    """Per rule set, each player's bar of `rate` with its `ci` interval, in percent."""
    plt = _pyplot()
    sets = results["variants"]
    players = list(sets[0][rate])
    fig, ax = plt.subplots(figsize=(7, 3 + 0.4 * len(sets)))
    height = 0.8 / len(players)
    for k, player in enumerate(players):
        ys = [i + k * height for i in range(len(sets))]
        rates = [s[rate][player] * 100 for s in sets]
        # max(0, …): at a rate of 0 or 1 Wilson's bound equals it up to rounding
        lows = [max(0.0, r - s[ci][player][0] * 100) for r, s in zip(rates, sets)]
        highs = [max(0.0, s[ci][player][1] * 100 - r) for r, s in zip(rates, sets)]
        ax.barh(ys, rates, height=height, xerr=[lows, highs], capsize=3,
                label=player_words(results).get(player, player))
    ax.set_yticks([i + height * (len(players) - 1) / 2 for i in range(len(sets))])
    ax.set_yticklabels([_label(s) for s in sets])
    ax.set_xlabel(xlabel)
    ax.legend()
    _save(plt, fig, path)


def plot_win_rates(results: dict, path: Path) -> None:
    _plot_rates(results, path, "win_rate", "win_ci95", "win rate, % (95% Wilson interval)")


def plot_loss_rates(results: dict, path: Path) -> None:
    """Games a `lose` ended with that player losing; no plot when no game had a loser."""
    if has_losses(results):
        _plot_rates(results, path, "loss_rate", "loss_ci95", "loss rate, % (95% Wilson interval)")


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
        ax.set_title(f"{results.get('track_labels', {}).get(name, name)} at the end of the game")
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


# The kernel's own trace words (runtime/state.py note_event, note_choice), as a designer says them.
TRACE_WORDS = {"event": "event carried out", "chosen": "picked in a decision"}


def _use_words(results: dict) -> dict[str, str]:
    """'use card' -> 'Card label, use label' from the card tables, which carry the spec's words."""
    words = {}
    for entry in results["variants"]:
        for row in entry.get("cards", []):
            use = TRACE_WORDS.get(row["use"], row["use_label"])
            words[f"{row['use']} {row['card']}"] = f"{row['card_label']}, {use}"
    return words


def plot_events(results: dict, path: Path, top: int = 30) -> None:
    """How often each card's uses happened a game, in the spec's words, each rule set side by side
    (the variant against its base under --against)."""
    plt = _pyplot()
    sets = results["variants"]
    first = sets[0]
    items = [k for k, _ in sorted(first["events_fired"].items(), key=lambda kv: -kv[1])[:top]]
    if not items:
        return
    words = _use_words(results)
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(items) * len(sets) + 1.2))
    height = 0.8 / len(sets)
    for k, entry in enumerate(sets):
        games = max(1, entry["games"])
        rates = [entry["events_fired"].get(key, 0) / games for key in items]
        ax.barh([i + k * height for i in range(len(items))][::-1], rates, height=height,
                label=_label(entry))
    ax.set_yticks([i + height * (len(sets) - 1) / 2 for i in range(len(items))][::-1])
    ax.set_yticklabels([words.get(key, key.split(" ", 1)[-1] + ", " + TRACE_WORDS.get(
        key.split(" ", 1)[0], key.split(" ", 1)[0])) for key in items], fontsize=7)
    ax.set_xlabel("times a game")
    if len(sets) > 1:
        ax.legend(fontsize="small")
    _save(plt, fig, path)


def plot_difference(results: dict, path: Path) -> None:
    """The comparison: each player's change in win rate (and in loss rate when some game had
    a loser) with its 95% interval, zero marked."""
    comparison = results.get("comparison")
    if not comparison:
        return
    plt = _pyplot()
    named = player_words(results)
    rows = [(named.get(p, p), r) for p, r in comparison["by_player"].items()]
    losses = comparison.get("losses")
    if losses:
        rows = [(f"{p} wins", r) for p, r in rows] + [(f"{named.get(p, p)} loses", r)
                                                     for p, r in losses.items()]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.6 * len(rows)))
    for y, (_, row) in enumerate(rows):
        lo, hi = (v * 100 for v in row["ci95"])
        point = row["difference"] * 100
        ax.errorbar([point], [y], xerr=[[point - lo], [hi - point]], fmt="o", capsize=5)
    precision = results.get("precision")
    if precision:
        ax.axvspan(-precision, precision, color="#dde6f3", zorder=0, label=f"±{precision:g} asked")
        ax.legend(fontsize="small")
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([p for p, _ in rows])
    what = "win and loss rates" if losses else "win rate"
    ax.set_xlabel(f"change in {what}, points (variant − base, 95% interval)")
    _save(plt, fig, path)


def plot_lengths(results: dict, path: Path) -> None:
    """How long games last, per rule set, in decisions."""
    plt = _pyplot()
    sets = [s for s in results["variants"] if s.get("lengths")]
    if not sets:
        return
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for s in sets:
        hist = s["lengths"]["histogram"]
        values = [int(k) for k, n in hist.items() for _ in range(n)]
        ax.hist(values, bins=40, histtype="step", linewidth=1.5, label=_label(s))
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    _save(plt, fig, path)


def plot_player_tracks(results: dict, path: Path) -> None:
    """Per-player tracks at the end: the median with the 10th to 90th percentile, per set."""
    plt = _pyplot()
    sets = results["variants"]
    names = sorted({n for s in sets for n in s.get("final_player_tracks", {})})
    if not names:
        return
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 1.6 + 0.9 * len(names) * len(sets)),
                             squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        labels = []
        for s in sets:
            for player, d in s.get("final_player_tracks", {}).get(name, {}).items():
                y = len(labels)
                ax.errorbar([d["median"]], [y], xerr=[[d["median"] - d["p10"]], [d["p90"] - d["median"]]],
                            fmt="o", capsize=4)
                labels.append(f"{player_words(results).get(player, player)}, {_label(s)}")
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels, fontsize="small")
        ax.set_title(f"{results.get('track_labels', {}).get(name, name)} at the end of the game"
                     f" (median, 10th-90th percentile)")
    _save(plt, fig, path)


def _save(plt, fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_ladder(results: dict, path: Path) -> None:
    """simulate --ladder: the variant's effect with each rung, and their difference, zero marked."""
    ladder = results.get("ladder")
    if not ladder:
        return
    plt = _pyplot()
    rows = [(f"with {e['agents']}", e) for e in ladder["effects"]] + [("difference", ladder)]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.6 * len(rows)))
    for y, (_, row) in enumerate(rows):
        lo, hi = (v * 100 for v in row["ci95"])
        point = row["difference"] * 100
        ax.errorbar([point], [y], xerr=[[point - lo], [hi - point]], fmt="o", capsize=5)
    ax.axvline(0, color="#555", linewidth=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in rows])
    ax.set_xlabel(f"change in {ladder['player']}'s win rate, points (95% interval)")
    _save(plt, fig, path)


PLOTS = (
    ("ladder.png", plot_ladder, "The effect with each bot, and the difference"),
    ("difference.png", plot_difference, "The change, with its interval"),
    ("win_rates.png", plot_win_rates, "Win rates"),
    ("loss_rates.png", plot_loss_rates, "Loss rates (games that ended with that player losing)"),
    ("lengths.png", plot_lengths, "How long games last"),
    ("player_tracks.png", plot_player_tracks, "Each player's tracks at the end"),
    ("final_tracks.png", plot_tracks, "Final values of the shared tracks"),
    ("end_reasons.png", plot_end_reasons, "How games ended, side by side"),
    ("events.png", plot_events, "How often each card was used, a game"),
)
TOP_CARDS = 25


def write_report(results: dict[str, Any], folder: Path) -> Path:
    """results.json, the plots and index.html (from templates/report.html.j2) in `folder`."""
    from jinja2 import Environment, PackageLoader

    make_dirs(folder)
    write_atomic(folder / "results.json", json.dumps(results, indent=2, sort_keys=True) + "\n")
    plots = []
    for name, plot, title in PLOTS:
        with tempfile.TemporaryDirectory() as scratch:  # a plot lands whole or not at all
            plot(results, Path(scratch) / name)
            if (Path(scratch) / name).exists():
                write_atomic(folder / name, (Path(scratch) / name).read_bytes())
                plots.append({"file": name, "title": title})
    env = Environment(loader=PackageLoader(__package__, "templates"), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    comparison = results.get("comparison")
    page = env.get_template("report.html.j2").render(
        game=results["game"], games=results["games"], seed=results["seed"],
        agents=results["agents"], backend=results.get("backend", "generated"),
        precision=results.get("precision"), stopped_by=results.get("stopped_by"),
        comparison=comparison, ladder=results.get("ladder"), plots=plots, sets=results["variants"],
        players=list(results["variants"][0]["win_rate"]), losses=has_losses(results),
        movers=(comparison or {}).get("cards", [])[:TOP_CARDS],
        cards=sorted(results["variants"][0].get("cards", []), key=lambda r: -r["games"])[:TOP_CARDS],
        min_games=MIN_CARD_GAMES, false_discovery=FALSE_DISCOVERY_RATE)
    return write_atomic(folder / "index.html", page)
