"""Values per enum value: a track `on` an enum (one number per value, some values with
bounds of their own), an attribute `on` an enum (a value per value, on each entity) and an
enum as a collection, on both back ends, in `fmt`, in the
runtime's tracks and in the generated code (a value written as a name folds to its slot)."""

from __future__ import annotations

from click.testing import CliRunner

from rulespec.compiler.cli import main
from rulespec.compiler.backends.codegen import compile_game
from rulespec.compiler.frontend.fmt import format_text
from rulespec.compiler.tools.textmate import keywords
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game
from support import TESTS, loaded, program

PER_VALUE = TESTS / "specs" / "per_value"


def played(backend: str, seed: int) -> Game:
    game = Game(program(PER_VALUE, backend), seed=seed)
    play_out(game, seat_agents(("random", "random"), game.players, seed), 10_000)
    return game


def test_the_designer_tests_pass_on_both_back_ends() -> None:
    result = CliRunner().invoke(main, ["test", str(PER_VALUE)])
    assert result.exit_code == 0, result.output
    assert "14 passed, 0 failed (7 on generated, 7 on interpreted)" in result.output


def test_both_back_ends_play_every_game_alike() -> None:
    for seed in range(1, 21):
        a, b = played("interpreted", seed), played("generated", seed)
        assert (a.choices, a.state.result, a.state.tracks) == (b.choices, b.state.result, b.state.tracks)
        assert a.over and a.tracks()["ore(copper)"]["red"] >= -2
        assert all(a.tracks()[f"ore({m})"][p] >= 0 for m in ("iron", "gold") for p in ("red", "blue"))


def test_the_runtime_sees_one_track_per_value() -> None:
    game = Game(program(PER_VALUE, "generated"), seed=1)
    tracks = game.tracks()
    assert {n for n in tracks if n.startswith(("ore", "market"))} == {
        "ore(iron)", "ore(copper)", "ore(gold)", "market(iron)", "market(copper)", "market(gold)"}
    assert tracks["ore(copper)"] == {"red": 1, "blue": 1} and tracks["market(gold)"] == 3
    low = {t.name: t.low for t in game.program.meta.tracks}
    assert (low["ore(copper)"], low["ore(iron)"]) == (-2, 0)


def test_fmt_prints_the_declaration_as_written() -> None:
    text = ('game g "G"\nplayers a "A"\nenum metal { iron, copper }\n'
            'track ore "Ore" per player on metal 0..5 start 1 except copper -2..5, iron 1..4\n'
            'start { win none "x" }\n')
    assert format_text(text) == text
    assert "except" in keywords()


def test_a_value_written_as_a_name_reads_its_own_slot(tmp_path) -> None:
    compile_game(loaded(PER_VALUE).model, tmp_path / "per_value")
    rules = (tmp_path / "per_value" / "rules.py").read_text()
    start = rules.index("def d_in_debt")
    body = rules[start:start + 200]
    # ore's cells: iron for red and blue (slots 0, 1), then copper (2, 3)
    assert "NI_metal" not in body and "state.tracks[2 + v_p] < 0" in body
    assert "NI_metal" in rules  # the dynamic reads look the value's place up


def test_fmt_prints_an_attribute_on_an_enum_as_written() -> None:
    text = ('game g "G"\nplayers a "A"\nenum metal { iron, copper }\n'
            'kind mine: space(yield: int on metal = 0, deep: bool on metal)\n'
            'mine north "North" (yield (iron 2, copper -1), deep (iron true, copper false))\n'
            'define twice(s: mine) -> int = 2 * s.yield(iron)\n'
            'start { win none "x" }\n')
    assert format_text(text) == text
    assert format_text(text.replace("yield (iron 2, copper -1)", "yield ( iron 2 ,copper -1 )")) == text


def test_an_attribute_on_an_enum_is_a_table_row_read_at_the_value(tmp_path) -> None:
    compile_game(loaded(PER_VALUE).model, tmp_path / "per_value")
    tables = (tmp_path / "per_value" / "tables.py").read_text()
    rules = (tmp_path / "per_value" / "rules.py").read_text()
    assert "A_yield = ((2, 0, 1), (0, 3, 0))" in " ".join(tables.split())
    body = rules[rules.index("def d_output"):][:400]
    assert "NI_metal[c_m]" in body and "A_yield" in body  # the value's place looked up
    tests = (tmp_path / "per_value" / "tests.py").read_text()
    assert "A_yield[c_s][2]" in tests  # gold, a constant, folds to its place


def test_the_card_sheet_and_the_reference_show_the_values() -> None:
    model = loaded(PER_VALUE).model
    from rulespec.compiler.frontend.board import attribute_texts
    from rulespec.compiler.tools.reference import build_reference
    north = model.entity_index["north"]
    assert dict(attribute_texts(model, north))["yield"] == "iron 2, gold 1"
    kind = next(e for e in build_reference(model, PER_VALUE).entries() if e.name == "mine")
    assert "yield: int on metal = 0" in kind.signature
