"""Numbers on the command line (issue 44, item 6): NaN, the infinities, negative and past-the-cap
values are refused by one shared parser (compiler/cli/base.py, Bounded and BoundedReal), one
line and exit 1 before any work starts, for every numeric option of every command."""

from __future__ import annotations

import click
import pytest

from rulespec.compiler.cli.base import COMMAND_MODULES, Bounded, BoundedReal, UserError, import_commands, main
from support import REPO
from test_cli import M, one_error, run

COIN = str(REPO / "tests" / "specs" / "coin")
SOW = str(REPO / "tests" / "specs" / "sow")

# Every numeric option of every command, with a command line that reaches it and its range's words.
NUMERIC = [
    (("simulate", M, "--against", "base", "--precision"), "--precision takes points from 0.01 to 50"),
    (("simulate", M, "--workers"), "--workers takes a whole number from 1 to 10,000"),
    (("simulate", M, "--games"), "--games takes a whole number from 1 to 1,000,000"),
    (("balance", COIN, "--param", "bonus=0..2", "--precision"), "--precision takes points from 0.01 to 50"),
    (("balance", COIN, "--param", "bonus=0..2", "--workers"), "--workers takes a whole number from 1"),
    (("balance", COIN, "--param", "bonus=0..2", "--games"), "--games takes a whole number from 1"),
    (("tune", SOW, "--budget"), "--budget takes CPU seconds from 0.1 to 86,400"),
    (("tune", SOW, "--games"), "--games takes a whole number from 1 to 10,000"),
    (("tune", SOW, "--final-games"), "--final-games takes a whole number from 2 to 10,000"),
    (("tune", SOW, "--generations"), "--generations takes a whole number from 1 to 1,000"),
    (("tune", SOW, "--popsize"), "--popsize takes a whole number from 2 to 1,000"),
    (("tune", SOW, "--workers"), "--workers takes a whole number from 1"),
    (("worth", M, "--precision"), "--precision takes points from 0.01 to 50"),
    (("worth", M, "--negligible"), "--negligible takes points from 0 to 50"),
    (("worth", M, "--workers"), "--workers takes a whole number from 1"),
    (("serve", M, "--port"), "--port takes a whole number from 0 to 65,535"),
    (("bench", M, "--games"), "--games takes a whole number from 1 to 1,000,000"),
    (("fuzz", M, "--max-decisions"), "--max-decisions takes a whole number from 1 to 10,000,000"),
    (("play", M, "--seed"), "--seed takes a whole number from"),
]
REAL = {args for args, words in NUMERIC if "points" in words or "seconds" in words}


@pytest.mark.parametrize("args, words", NUMERIC, ids=[" ".join(a[:1] + a[-1:]) for a, _ in NUMERIC])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-5", "1e400", "99999999999999999999999"])
def test_every_numeric_option_refuses_nan_infinities_negatives_and_huge_values(args, words, value):
    if args not in REAL and value in ("nan", "inf", "-inf", "1e400"):
        result = run(*args, value)  # a whole-number option: no number at all, a usage error
        assert result.exit_code == 2 and "is not a whole number" in result.stderr
        return
    if args[0] == "play" and value == "-5":
        return  # a seed may be negative
    line = one_error(run(*args, value))
    assert words in line and line.endswith(f", not {value}")


def test_the_issue_repro_balance_and_tune_refuse_nan_in_one_line():
    assert one_error(run("balance", COIN, "--param", "bonus=0..6", "--precision", "nan")) == \
        "rulespec: error: --precision takes points from 0.01 to 50, not nan"
    assert one_error(run("tune", SOW, "--budget", "nan")) == \
        "rulespec: error: --budget takes CPU seconds from 0.1 to 86,400, not nan"


def test_text_that_is_no_number_stays_a_usage_error():
    result = run("simulate", M, "--against", "base", "--precision", "abc")
    assert result.exit_code == 2 and "'abc' is not a number" in result.stderr


@pytest.mark.parametrize("text, number", [("0.5", 0.5), ("50", 50.0), (" 3 ", 3.0), ("1e1", 10.0), (7, 7.0)])
def test_a_number_within_the_range_is_read(text, number):
    assert BoundedReal(0.01, 50, "points").convert(text, None, None) == number


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.5, 51])
def test_a_number_given_as_a_float_is_held_to_the_range_too(value):
    with pytest.raises(UserError, match="the value takes points from 0.01 to 50"):
        BoundedReal(0.01, 50, "points").convert(value, None, None)


def _options():
    for module in sorted(set(COMMAND_MODULES.values())):
        import_commands(module)
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            yield name, param


def test_every_numeric_option_of_every_command_reads_through_the_shared_parser():
    numeric = [(name, p.opts[0], p.type) for name, p in _options()
               if isinstance(p.type, (click.types._NumberParamTypeBase, Bounded))]
    assert numeric, "no numeric option found"
    others = [(name, opt, type(kind).__name__) for name, opt, kind in numeric if not isinstance(kind, Bounded)]
    assert others == []
    assert {(name, opt) for name, opt, _ in numeric} >= {(args[0], args[-1]) for args, _ in NUMERIC}
