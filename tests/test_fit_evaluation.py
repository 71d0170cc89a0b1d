"""docs/fit_evaluation.py: a bot evaluation's weights fitted to who wins, on held-out games."""

from __future__ import annotations

import importlib.util
import json

from support import MINI, REPO

spec = importlib.util.spec_from_file_location("fit_evaluation", REPO / "docs" / "fit_evaluation.py")
fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fit)


def test_the_measure_that_decides_gets_the_weight_and_one_that_does_not_none(tmp_path, capsys):
    features = tmp_path / "mini.features"
    features.write_text("# mini's lead, and a measure that does not change who wins\n"
                        "lead = score(you) - score(opponent(you))\n"
                        "fields = count(f in field where f.value > 0)\n", encoding="utf-8")
    assert fit.main([str(MINI), str(features), "--games", "200", "--workers", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    lead, fields = found["measures"]
    assert (lead["name"], fields["name"]) == ("lead", "fields")
    assert lead["weight"] > 0.2 and lead["x100"] == round(lead["weight"] * 100)
    assert abs(fields["weight"]) < 1e-6  # the same in every position: it tells nothing
    assert found["held_out"] and found["positions"] > found["held_out"]
    assert 0.6 < found["accuracy"] <= 1 and 0 < found["log_loss"] < 0.693  # better than a coin


def test_bad_input_is_one_line_and_exit_1(tmp_path, capsys):
    good, bad, empty = tmp_path / "good", tmp_path / "bad", tmp_path / "empty"
    good.write_text("lead = score(you)\n", encoding="utf-8")
    bad.write_text("# one measure\n\nlead = score(you) - nope(you)\n", encoding="utf-8")
    empty.write_text("# nothing\n", encoding="utf-8")
    for args, words in (([str(MINI), str(bad)], f"{bad}:3: unknown function 'nope'"),
                        ([str(MINI), str(empty)], "no measures"),
                        ([str(MINI), str(good), "--compare", "nope"],
                         "unknown bot evaluation 'nope' (the spec declares: none)"),
                        ([str(MINI), str(good), "--games", "5"], "--games takes 10 to 100,000"),
                        ([str(MINI), str(good), "--workers", "0"], "--workers takes 1 to 64 processes, not 0"),
                        (["nope", str(good)], "no spec found for 'nope'"),
                        ([str(MINI), str(tmp_path / "missing")], "missing")):
        assert fit.main(args if "--workers" in args else args + ["--workers", "1"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("fit_evaluation: error: ") and words in err, err
