"""docs/ladder_rung.py: one rung of a bot ladder over seat-swapped seeds, its log and summary."""

from __future__ import annotations

import importlib.util
import json

from rulespec.runtime.analysis.simulate import play_game
from support import MINI, REPO, program

spec = importlib.util.spec_from_file_location("ladder_rung", REPO / "docs" / "ladder_rung.py")
rung = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rung)


def test_each_seed_is_played_with_both_seat_orders_and_the_log_gives_the_same_summary(tmp_path, capsys):
    log = tmp_path / "rung.jsonl"
    assert rung.main([str(MINI), "random", "first", "4", "--seed", "3", "--log", str(log), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert found["games"] == len(rows) == 8 and found["seeds"] == [3, 6]
    assert sorted((r["seed"], r["upper_seat"]) for r in rows) == [
        (s, seat) for s in range(3, 7) for seat in ("blue", "red")]
    # the upper rung's wins are the games `rulespec simulate` plays with the same seeds
    prog = program(MINI, "generated")
    for r in rows:
        agents = ("random", "first") if r["upper_seat"] == "red" else ("first", "random")
        winner = play_game(prog, r["seed"], agents, {}).winner
        assert r["winner"] == (None if winner is None else "upper" if winner == r["upper_seat"] else "lower")
    assert found["upper_won"] + found["lower_won"] + found["drawn"] == 8
    assert sum(sum(c.values()) for c in found["reasons"].values()) == 8
    assert rung.main(["--summary", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == found


def test_bad_rungs_are_one_line_and_exit_1(capsys):
    for args, words in ((["nope", "random", "first", "2"], "no spec found for 'nope'"),
                        ([str(MINI), "random", "rollout@0", "2"], "'rollout@0': the search budget is"),
                        ([str(MINI), "random", "first", "0"], "N seeds, 1 or more")):
        assert rung.main(args) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("ladder_rung: error: ") and words in err
