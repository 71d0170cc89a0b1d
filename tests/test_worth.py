"""`rulespec worth`: each card against the same game with that card blanked or removed, on the
same seeds. tests/specs/worth has cards of known worth: banner gives red 3 points (decisive),
charm has no event but an ability (red scores 2 more a turn while it lies in the discard),
dud moves a marker nobody counts (worth exactly nothing), curse takes 2 from blue, its own side;
the variant weak_banner changes banner alone, plain_charm prints charm without its ability."""

from __future__ import annotations

import dataclasses
import gc
import json
import tracemalloc

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from rulespec.compiler.backends import engine
from rulespec.compiler.cli import main
from rulespec.compiler.frontend.cache import Store
from rulespec.compiler.frontend.card_overlays import OverlayError, card_facts, choose_cards
from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend import ast
from rulespec.compiler.frontend.model import build_model
from rulespec.runtime.analysis import worth as weigh
from rulespec.runtime.analysis.fuzz import FuzzReport, coverage_table
from rulespec.runtime.analysis.simulate import LocalExecutor, drawn_cards, readable_trace
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game, new_state
from rulespec.runtime.state import OUT, move_card
from support import REPO, TESTS, loaded, program

WORTH = TESTS / "specs" / "worth"
HELDENHAIN = REPO / "spec" / "heldenhain"
MINI = TESTS / "specs" / "mini"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def _worth_json(*args: str) -> dict:
    result = run("worth", str(WORTH), "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _played(backend: str, folder, seed: int, variants: tuple[str, ...] = (), **overlay):
    return _play_out(weigh.OverlayRef(_Fixed(program(folder, backend, variants)), **overlay).load(), seed)


def _play_out(prog, seed: int) -> Game:
    """A traced game of random bots seeded with `seed`."""
    game = Game(prog, seed=seed, traced=True)
    play_out(game, seat_agents(("random", "random"), game.players, seed), 10_000)
    return game


class _Fixed:
    """A recipe that hands out a program already loaded (the tests' own)."""

    variants = ()

    def __init__(self, prog):
        self.prog = prog

    def load(self):
        return self.prog

    def __repr__(self) -> str:
        return f"_Fixed({id(self.prog)})"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_blanked_card_is_played_but_its_event_never_runs_alike_on_both_back_ends(seed):
    banner = loaded(WORTH).model.entity_index["banner"]
    games = [_played(b, WORTH, seed, blanked=(banner,)) for b in engine.BACKENDS]
    assert games[0].choices == games[1].choices
    assert games[0].state.public_part() == games[1].state.public_part()
    assert all("event banner" not in str(g.state.trace) for g in games)
    plain = _played("generated", WORTH, seed)
    drawn = "chosen 0" in plain.state.trace
    assert ("event 0" in plain.state.trace) == drawn  # as printed it runs whenever played
    assert ("chosen 0" in games[0].state.trace) == drawn  # blanked it is played all the same


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_removed_card_stays_out_even_of_a_move_of_every_card(seed):
    """mini's start moves `all c in card` to the deck, by kind and not by zone."""
    three = loaded(MINI).model.entity_index["three"]
    games = [_played(b, MINI, seed, removed=(three,)) for b in engine.BACKENDS]
    assert games[0].choices == games[1].choices and games[0].over
    for game in games:
        assert game.state.location[three] == OUT
        assert all(three not in cards for cards in game.state.zones)


def test_worth_ranks_the_strong_the_empty_and_the_harmful_card():
    out = _worth_json("--games", "600")
    rows = {(r["card"], r["side"]): r for r in out["cards"]}
    banner, dud, curse = rows["banner", "red"], rows["dud", "blue"], rows["curse", "blue"]
    assert banner["worth"] > dud["worth"] > curse["worth"]
    assert banner["ci95"][0] > 0.2 and banner["clear"]
    assert dud["ci95"][0] <= 0 <= dud["ci95"][1] and dud["stopped_by"] == "negligible"
    assert curse["ci95"][1] < 0 and curse["clear"]
    assert ("crown", "red") in rows and ("crown", "blue") in rows  # neutral: weighed for each side
    assert banner["used"] >= banner["event"] > 0.8 * banner["games"]
    assert banner["drawn"] == banner["used"]  # every card drawn is played at once, and only then
    assert banner["sentence"].startswith("Banner is worth +") and "to Red [" in banner["sentence"]
    assert len(out["left_out"]) == 6  # the plain cards: nothing to blank


def test_against_finds_the_one_card_the_variant_changed():
    """(Charm is left out: its points weigh more when a weaker banner leaves red further behind,
    so its worth truly changes under weak_banner too.)"""
    out = _worth_json("--variant", "weak_banner", "--against", "base", "--games", "600",
                      "--precision", "5", "--cards", "banner,dud,curse,crown")
    clear = [(r["card"], r["side"]) for r in out["cards"] if r["clear"]]
    assert clear == [("banner", "red")]
    banner = next(r for r in out["cards"] if r["card"] == "banner")
    assert banner["ci95"][1] < 0 and len(banner["worlds"]) == 2
    assert banner["worlds"][0]["worth"] < banner["worlds"][1]["worth"]
    assert out["against"] == []


def test_removed_takes_the_plain_cards_too_but_not_one_a_rule_names():
    facts = card_facts(loaded(WORTH).model)
    assert facts["banner"].side == "red" and facts["crown"].side is None
    assert facts["banner"].group == ("era", "early")
    chosen, left = choose_cards(loaded(WORTH).model, "all", "removed")
    assert "plain_a" in [f.card for f in chosen] and "crown" not in [f.card for f in chosen]
    assert len(left) == 1 and left[0].startswith("card 'crown' cannot be removed: a rule names it (")
    assert "worth.rules:" in left[0] and left[0].endswith("--as blank plays it without its event instead")
    with pytest.raises(OverlayError, match="no card 'banerr' in worth; did you mean 'banner'"):
        choose_cards(loaded(WORTH).model, "banerr", "blank")


@pytest.mark.parametrize("args, message", [
    (("--cards", "nope"), "rulespec: error: no card 'nope' in worth"),
    (("--as", "hidden"), "rulespec: error: --as takes blank or removed, not 'hidden'"),
    (("--cards", "crown", "--as", "removed"), "rulespec: error: card 'crown' cannot be removed: a rule names it"),
    (("--cards", "plain_a"), "rulespec: error: card 'plain_a' has no event, action or ability to blank"),
    (("--games", "0"), "rulespec: error: --games takes a whole number from 1 to 1,000,000, not 0"),
])
def test_bad_input_is_one_line_and_exit_1(args, message):
    result = run("worth", str(WORTH), *args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


class _Counting(LocalExecutor):
    def __init__(self):
        super().__init__(1)
        self.seeds: list[int] = []

    def map(self, jobs, on_done, work):
        self.seeds += [s for job in jobs for s in job[1]]
        return super().map(jobs, on_done, work)


class _Store(dict):
    def get(self, key, default=None):
        return super().get(key, default)

    def put(self, key, value):
        self[key] = value

    def flush(self):
        pass


def test_a_second_run_plays_only_what_is_new():
    spec = loaded(WORTH)
    facts = card_facts(spec.model)
    cards = [weigh.Card(f.card, f.label, f.side, f.group, (f.indexes,)) for f in
             (facts["banner"], facts["curse"])]
    store, ref = _Store(), engine.ProgramRef.of(spec, "generated")

    def weigh_once(games: int, chosen):
        executor = _Counting()
        found = weigh.weigh(chosen, [weigh.World(ref, "")], "blank", ["red", "blue"], ("random", "random"), {},
                            executor, seed=1, games=games, precision=None, negligible=None,
                            store=store, keys=("k",))
        return executor.seeds, found

    first, _ = weigh_once(100, cards[:1])
    assert len(first) == 200  # the game as it is and banner blanked, 100 seeds each
    again, found = weigh_once(200, cards)
    assert sorted(again) == sorted(list(range(101, 201)) * 2 + list(range(1, 201)))  # curse anew
    assert len(found.seeds["banner"]) == 200
    changed = weigh.card_change(found, cards[0], "red", 0)
    assert changed.difference > 0.2


def _weigh_traced(games: int, cards, ref, store) -> tuple[weigh.Weighing, int, int]:
    """A weighing in this process, what Python's memory holds after it (the weighing kept) and
    its peak while it ran."""
    gc.collect()
    tracemalloc.start()
    try:
        found = weigh.weigh(cards, [weigh.World(ref, "")], "blank", ["red", "blue"], ("random", "random"),
                            {}, LocalExecutor(1), seed=1, games=games, precision=None, negligible=None,
                            store=store, keys=(f"k{games}",))
        gc.collect()
        return (found, *tracemalloc.get_traced_memory())
    finally:
        tracemalloc.stop()


def test_the_main_process_keeps_no_game_so_its_memory_does_not_grow_with_the_games(tmp_path, monkeypatch):
    """Issue 42: a long run kept every game it played (and every game's store entry until the
    end) and grew to gigabytes. A card keeps a byte a seed now: a run of six times the seeds
    keeps a few bytes a game more than the short one, and peaks some hundred bytes a game higher
    (the interval's lists); a game kept cost two kilobytes or more."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    spec = loaded(WORTH)
    facts = card_facts(spec.model)
    cards = [weigh.Card(f.card, f.label, f.side, f.group, (f.indexes,)) for f in (facts["banner"], facts["curse"])]
    ref = engine.ProgramRef.of(spec, "generated")
    _weigh_traced(100, cards, ref, None)  # the program is loaded once in a process: not in the peaks
    _, kept, peak = _weigh_traced(100, cards, ref, Store("worth"))
    found, kept_long, peak_long = _weigh_traced(600, cards, ref, Store("worth"))
    more = 3 * 500  # games: 3 sets (as it is, each card blanked), 500 seeds more
    assert kept_long - kept < 4 * more, (kept, kept_long)  # a byte a game and a bytearray's slack
    assert peak_long - peak < 256 * more, (peak, peak_long)  # a round's games and the interval's lists
    assert len(found.worlds[0].plain) == 600 and len(found.seeds["banner"]) == 600
    assert all(len(outcomes) == 600 for outcomes in found.worlds[0].overlaid.values())


def test_the_report_has_a_forest_plot_per_side_in_the_spec_words(tmp_path):
    out = _worth_json("--games", "200", "--report", str(tmp_path / "r"))
    page = (tmp_path / "r" / "index.html").read_text()
    assert (tmp_path / "r" / "worth_1.png").is_file() and (tmp_path / "r" / "worth_2.png").is_file()
    assert "Banner" in page and "Red" in page and "era early" in page and "<th>drawn in</th>" in page
    assert json.loads((tmp_path / "r" / "results.json").read_text())["cards"] == out["cards"]


def test_ray_and_a_process_pool_weigh_alike_with_the_overlays_pickled():
    import pickle

    from rulespec.runtime.analysis.simulate import RayExecutor
    from test_scaling import FakeRay
    spec = loaded(WORTH)
    banner = card_facts(spec.model)["banner"]
    card = weigh.Card(banner.card, banner.label, banner.side, banner.group, (banner.indexes,))
    ref = engine.ProgramRef.of(spec, "generated")
    assert repr(pickle.loads(pickle.dumps(weigh.OverlayRef(ref, (0,))))) == repr(weigh.OverlayRef(ref, (0,)))
    found = []
    for executor in (LocalExecutor(1), RayExecutor(2, ray_module=FakeRay()), LocalExecutor(2)):
        result = weigh.weigh([card], [weigh.World(ref, "")], "blank", ["red", "blue"], ("random", "random"),
                             {}, executor, seed=1, games=60, precision=None, negligible=None)
        executor.close()
        found.append(weigh.card_change(result, card, "red", 0))
    assert found[0] == found[1] == found[2] and found[0].difference > 0.2


def test_param_of_finds_the_printed_number_at_which_the_card_is_worth_the_target(tmp_path):
    """banner adds its power to red's score: at power 0 it is worth exactly nothing."""
    result = run("worth", str(WORTH), "--param-of", "banner.power=0..4", "--games", "300", "--json",
                 "--report", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)["param_of"]
    rows = {r["value"]: r for r in found["values"]}
    assert found["best"]["value"] == 0 and rows[0]["worth"] == 0 and found["printed"] == 3
    assert rows[3]["printed"] and rows[3]["ci95"][0] > 0.15
    assert rows[1]["worth"] <= rows[3]["worth"] <= rows[4]["worth"]
    assert found["sentence"].startswith("Banner with power 0 comes nearest a worth of +0.0 points to Red")
    assert (tmp_path / "r" / "worth_sweep.png").is_file()
    aimed = json.loads(run("worth", str(WORTH), "--param-of", "banner.power=0..4", "--games", "300",
                           "--target", "39", "--json").stdout)["param_of"]
    assert aimed["best"]["value"] in (3, 4)


@pytest.mark.parametrize("spec, message", [
    ("banner.era=0..2", "rulespec: error: attribute 'era' of card 'banner' is not a whole number"),
    ("nope.power=0..2", "rulespec: error: no card 'nope' in worth"),
    ("banner.zzz=0..2", "rulespec: error: card 'banner' has no attribute 'zzz'"),
    ("banner.power=3..1", "rulespec: error: --param-of banner.power=3..1 is empty"),
    ("banner.power=0..500", "rulespec: error: --param-of banner.power=0..500 holds 501 values"),
    ("banner.power", "rulespec: error: --param-of takes CARD.ATTRIBUTE=LOW..HIGH"),
    ("plain_a.power=0..2", "rulespec: error: card 'plain_a' has no event, action or ability to blank"),
])
def test_param_of_bad_input_is_one_line(spec, message):
    result = run("worth", str(WORTH), "--param-of", spec)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), blanked=st.sets(st.sampled_from(["one", "two", "four"])),
       removed=st.sets(st.sampled_from(["one", "two", "three", "four"]), max_size=2))
def test_under_any_overlay_both_back_ends_agree_and_removed_cards_stay_out(seed, blanked, removed):
    """(Two cards must stay: with none left to play, mini's turn is a dead end, on both back ends.)"""
    index = loaded(MINI).model.entity_index
    overlay = {"blanked": tuple(index[c] for c in sorted(blanked)),
               "removed": tuple(index[c] for c in sorted(removed))}
    games = [_played(b, MINI, seed, **overlay) for b in engine.BACKENDS]
    assert games[0].choices == games[1].choices
    assert games[0].state.public_part() == games[1].state.public_part()
    for card in overlay["removed"]:
        assert games[0].state.location[card] == OUT
    ran = {key.split(" ")[1] for key in games[0].state.trace if key.startswith("event ")}
    assert not ran & {str(c) for c in overlay["blanked"]}


def test_a_card_with_only_an_ability_is_blanked_and_worth_its_ability():
    """charm has no event or action: blanked, its `while in` modifier must do nothing, so the
    whole of its (decisive) worth shows; before abilities were blanked it could not be weighed."""
    assert card_facts(loaded(WORTH).model)["charm"].has_effect
    out = _worth_json("--cards", "charm", "--games", "300")
    (charm,) = out["cards"]
    assert charm["side"] == "red" and charm["ci95"][0] > 0.1 and charm["clear"]
    assert charm["event"] == 0 and 0 < charm["drawn"] <= charm["games"]


def test_drawn_is_coming_into_a_hand_from_where_its_player_did_not_see_it_alone():
    """A hand is a zone `per player owner`: deck -> red's hand is red's draw; red's hand ->
    the discard or red's hand again is none; the discard -> blue's hand is blue's."""
    meta = program(WORTH, "generated").meta
    index = loaded(WORTH).model.entity_index
    zones = {z.name: z.slot for z in meta.zones}
    state = new_state(meta, 1, {})
    state.trace = {}
    banner = index["banner"]
    for slot in (zones["deck"], zones["hand"], zones["hand"], zones["discard"], zones["hand"] + 1):
        move_card(state, banner, slot)
    assert state.trace == {f"drawn {banner}": 2, f"drawn {banner} by 0": 1, f"drawn {banner} by 1": 1}
    events, uses = readable_trace(meta, state.trace)
    assert events == {} and uses == {}  # a draw is no use of the card (simulate's card tables)
    assert drawn_cards(meta, state.trace) == {"banner"}
    report = FuzzReport()
    report.coverage.update(state.trace)
    assert coverage_table(meta, report)["banner"] == {"event": 0}  # drawn is not seen in play


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), blanked=st.sets(st.sampled_from(["banner", "charm", "curse", "dud"])))
def test_a_blanked_card_with_an_ability_plays_as_if_printed_without_it_on_both_back_ends(seed, blanked):
    """tests/specs/worth's charm holds a `while in discard` modifier: with charm blanked, both
    back ends play move for move what the variant plain_charm (charm printed without it) plays."""
    index = loaded(WORTH).model.entity_index
    overlay = tuple(index[c] for c in sorted(blanked))
    games = [_played(b, WORTH, seed, blanked=overlay) for b in engine.BACKENDS]
    assert games[0].choices == games[1].choices
    assert games[0].state.public_part() == games[1].state.public_part()
    assert games[0].state.trace == games[1].state.trace
    out_of_deck = {c for zone in games[0].state.zones[2:] for c in zone}  # the hands, the discard
    assert {k.split(" ")[1] for k in games[0].state.trace if k.startswith("drawn ")} == \
        {str(c) for c in out_of_deck}  # every card that left the deck was drawn, no other
    if "charm" in blanked:
        plain = _played("interpreted", WORTH, seed, variants=("plain_charm",),
                        blanked=tuple(i for i in overlay if i != index["charm"]))
        assert plain.choices == games[0].choices
        assert plain.state.public_part() == games[0].state.public_part()


def _ability_only_cards(model) -> list[str]:
    """The card declarations with `while in` abilities and no event or action."""
    return [d.name.name for d in model.spec.decls()
            if isinstance(d, ast.EntityDecl) and d.abilities and not d.events and not d.actions]


def _without_abilities(model, names: set[str]):
    """The model of the spec with these cards printed without their abilities."""
    files = tuple(dataclasses.replace(f, decls=tuple(
        dataclasses.replace(d, abilities=()) if isinstance(d, ast.EntityDecl) and d.name.name in names else d
        for d in f.decls)) for f in model.spec.files)
    return build_model(ast.Spec(model.spec.span, files), [], [("stripped", repr(sorted(names)))])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_blanked_triggers_forbids_and_allows_do_nothing_on_both_back_ends(seed, data):
    """Heldenhain's figures carry triggers (`on gesammelt ...`), modifiers and `allow ... despite`
    while in play: blanked, both back ends play move for move what the interpreter plays with
    those cards printed without their abilities."""
    model = loaded(HELDENHAIN).model
    names = data.draw(st.sets(st.sampled_from(_ability_only_cards(model)), min_size=1))
    blanked = tuple(sorted(i for n in names
                           for i in (model.instances[n] if n in model.instances else (model.entity_index[n],))))
    games = [_played(b, HELDENHAIN, seed, blanked=blanked) for b in engine.BACKENDS]
    stripped = _play_out(Interpreter(_without_abilities(model, names)), seed)
    for game in games:
        assert game.choices == stripped.choices
        assert game.state.public_part() == stripped.state.public_part()
