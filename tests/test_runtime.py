"""The runtime: player views, state copies, records (save, load, replay), spec-hash refusal."""

from __future__ import annotations

import json
import shutil

import pytest

from rulespec.compiler.backends.interpret import Interpreter
from rulespec.compiler.frontend.loader import load_spec
from rulespec.runtime import record
from rulespec.runtime.bots.agents import play_out, seat_agents
from rulespec.runtime.game import Game
from rulespec.runtime.record import RecordError
from support import BACKENDS, MINI, TS, need_ts, program, write_peek

EVENT_PROMPTS = ("Mark a field", "Pay or lose")  # mini's decisions inside card events


def _agents(prog, seed=0):
    return seat_agents(("random",) * len(prog.meta.players), prog.meta.players, seed)


def _play_until(prog, seed, stop):
    """A game on `seed` played by random bots until `stop(game)` or its end."""
    game = Game(prog, seed=seed, agents=("random", "random"))
    bots = _agents(prog, seed)
    while not game.over and not stop(game):
        decision = game.decision
        game.choose(bots[decision.player].choose(game, decision))
    return game, bots


def _normal(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _mid_event(prog):
    """A game stopped at a decision inside a card's event."""
    for seed in range(500):
        game, bots = _play_until(prog, seed, lambda g: g.decision.prompt in EVENT_PROMPTS)
        if not game.over:
            return game, bots
    pytest.fail("no seed reaches a decision inside an event")


# ------------------------------------------------------------------ views


def _hidden(view, zone):
    return isinstance(view["zones"][zone], dict) and set(view["zones"][zone]) == {"count"}


def _only_known(game, view, zone):
    """Only a count, or beside it the cards the seat knows lie there (the discard pile it saw
    shuffled in; the deck's last card, drawn), in card order: never in the pile's."""
    seen, ids = view["zones"][zone], game.meta.entity_ids
    if not isinstance(seen, dict) or not set(seen) <= {"count", "shown"}:
        return False
    shown = seen.get("shown", [])
    slot = next(s for s in range(game.meta.zone_slots) if game.meta.zone_slot_name(s) == zone)
    return shown == sorted(shown, key=ids.index) and {ids.index(c) for c in shown} <= set(game.state.zones[slot])


@pytest.mark.parametrize("backend", BACKENDS)
def test_view_hides_the_opponents_hand_and_the_deck_order(backend):
    prog = program(MINI, backend)
    for seed in range(20):
        game, bots = _play_until(prog, seed, lambda g: False)
        # replay it, looking at every decision
        replayed = Game(prog, seed=seed)
        for choice in game.choices:
            for me, other in (("red", "blue"), ("blue", "red")):
                view = replayed.view(me)
                assert _only_known(replayed, view, f"hand({other})")
                assert isinstance(view["zones"][f"hand({me})"], list)
                assert _hidden(view, "box") and _only_known(replayed, view, "deck")
                assert view["zones"]["deck"]["count"] == len(replayed.state.zones[1])
                if replayed.decision.player != me:
                    assert view["decision"] is None
            replayed.choose(choice)


def _assert_view_follows_visibility(game):
    meta, state = game.meta, game.state
    for me, player in enumerate(meta.players):
        view = game.view(player)
        for slot, cards in enumerate(state.zones):
            zone, owner = meta.zone_of_slot(slot)
            seen = view["zones"][meta.zone_slot_name(slot)]
            if state.revealed[slot] or zone.visibility == "public" or (
                    zone.visibility == "owner" and owner == me):
                assert seen == [meta.entity_ids[c] for c in cards]
            else:  # a count, and the cards the seat knows lie there (e.g. a hand it saw revealed)
                assert seen["count"] == len(cards) and _only_known(game, view, meta.zone_slot_name(slot))
        if game.decision is not None and game.decision.player != player:
            assert view["decision"] is None


def test_twilight_struggle_views_hide_hands_headlines_and_the_deck():
    need_ts()
    prog = program(TS, "interpreted")
    game = Game(prog, seed=11)
    bots = _agents(prog, 11)
    hidden_headlines = 0
    while not game.over and len(game.choices) < 60:
        _assert_view_follows_visibility(game)
        decision = game.decision
        if "headline" in decision.prompt.lower():
            other = "usa" if decision.player == "ussr" else "ussr"
            headline = game.view(decision.player)["zones"][f"headline({other})"]
            assert isinstance(headline, dict), "a headline is seen before both are set"
            hidden_headlines += headline["count"]
        game.choose(bots[decision.player].choose(game, decision))
    assert hidden_headlines >= 1  # the second chooser faced a set, unseen headline


@pytest.mark.parametrize("backend", ["interpreted"])
def test_view_hides_a_secret_zone_until_it_is_revealed(tmp_path, backend):
    prog = Interpreter(load_spec(write_peek(tmp_path / "peek")).model)
    game = Game(prog, seed=5)
    north_pick = game.decision.option_ids[0]
    game.choose(north_pick)  # north's secret card is set
    south = game.view("south")
    assert _hidden(south, "secret(north)") and south["zones"]["secret(north)"]["count"] == 1
    assert north_pick not in json.dumps(south)
    assert game.view("north")["zones"]["secret(north)"] == [north_pick]
    game.choose(game.decision.option_ids[0])  # south sets its secret; both are revealed
    assert game.view("south")["zones"]["secret(north)"] == [north_pick]
    assert isinstance(game.view("north")["zones"]["secret(south)"], list)


# ------------------------------------------------------------------ copies


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_copy_is_independent_of_its_original(backend):
    prog = program(MINI, backend)
    game, bots = _mid_event(prog)
    before = _normal(game.state)
    twin = game.copy()
    play_out(twin, bots)
    twin.state.tracks[0] += 7
    twin.state.zones[0].append(999)
    twin.state.counters[0][0] += 3
    assert twin.over and not game.over
    assert _normal(game.state) == before
    assert len(game.choices) < len(twin.choices)


# ------------------------------------------------------------------ records


@pytest.mark.parametrize("backend", BACKENDS)
def test_save_in_an_event_and_load_gives_the_same_state_and_continuation(tmp_path, backend):
    prog = program(MINI, backend)
    game, bots = _mid_event(prog)
    path = tmp_path / "mid.json"
    record.save(game, path)
    by_snapshot = record.load(path, prog, method="snapshot")
    by_replay = record.load(path, prog, method="replay")
    assert _normal(by_snapshot.state) == _normal(game.state) == _normal(by_replay.state)
    assert by_snapshot.decision == by_replay.decision == game.decision
    assert by_snapshot.decision.prompt in EVENT_PROMPTS
    finals = []
    for g in (game, by_snapshot, by_replay):
        continuation = seat_agents(("first", "last"), prog.meta.players, 0)
        play_out(g, continuation)
        finals.append((_normal(g.state), g.choices))
    assert finals[0] == finals[1] == finals[2]


@pytest.mark.parametrize("backend", BACKENDS)
def test_replay_reproduces_a_finished_game(backend):
    prog = program(MINI, backend)
    for seed in range(10):
        game, _ = _play_until(prog, seed, lambda g: False)
        again = record.replay(record.to_record(game), prog)
        assert again.over and again.winner == game.winner and again.reason == game.reason
        assert record.same_state(again.state, game.state)
        assert again.choices == game.choices


def test_save_and_load_midway_through_twilight_struggle(tmp_path):
    need_ts()
    prog = program(TS, "interpreted")
    game, bots = _play_until(prog, 3, lambda g: len(g.choices) >= 40)
    path = tmp_path / "ts.json"
    record.save(game, path)
    restored = record.load(path, prog)
    assert _normal(restored.state) == _normal(game.state)
    assert record.same_state(record.load(path, prog, method="replay").state, game.state)


def test_a_record_from_another_spec_version_is_refused(tmp_path):
    game, _ = _play_until(program(MINI, "interpreted"), 1, lambda g: False)
    path = tmp_path / "game.json"
    record.save(game, path)
    changed = tmp_path / "mini"
    shutil.copytree(MINI, changed)
    text = (changed / "mini.rules").read_text()
    (changed / "mini.rules").write_text(text.replace("param goal: int = 5", "param goal: int = 6"))
    other = Interpreter(load_spec(changed).model)
    with pytest.raises(RecordError) as err:
        record.load(path, other)
    message = str(err.value)
    assert message == (f"record was made with spec hash {game.meta.spec_hash}; this spec is"
                       f" {other.meta.spec_hash} — replay it with the spec version that made it")


def test_an_illegal_option_id_names_the_decision_the_id_and_the_legal_ids():
    prog = program(MINI, "interpreted")
    game, _ = _play_until(prog, 2, lambda g: False)
    data = record.to_record(game)
    data["choices"][1] = "nonsense"
    with pytest.raises(RecordError, match=r"^decision 2: 'nonsense' is not a legal option for"
                                          r" '[^']+' \(legal: [a-z_, ]+\)$"):
        record.replay(data, prog)
    data["choices"] = game.choices + ["one"]
    with pytest.raises(RecordError, match=r"the game is already over .* 1 more choice$"):
        record.replay(data, prog)


@pytest.mark.parametrize("content, message", [
    ("{not json", "not JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"format": "rulespec-record/1", "game": "mini"}', "'variants' is missing"),
    ('{"format": "rulespec-record/1", "game": "mini", "variants": [], "params": {},'
     ' "spec_hash": "x", "seed": "one", "choices": []}', "'seed' should be an integer"),
    ('{"game": "mini", "variants": [], "params": {}, "spec_hash": "x", "seed": 1, "choices": []}',
     "corrupt record: no 'format'"),
    ('{"format": "other/1", "game": "mini", "variants": [], "params": {}, "spec_hash": "x",'
     ' "seed": 1, "choices": []}', "not a rulespec record"),
])
def test_corrupt_records_are_rejected_with_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError) as err:
        record.read(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_snapshot_with_missing_parts_is_corrupt(tmp_path):
    prog = program(MINI, "interpreted")
    game, _ = _mid_event(prog)
    data = record.to_record(game)
    del data["snapshot"]["state"]["zones"]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="the snapshot has no 'zones'"):
        record.load(path, prog, method="snapshot")
    assert record.same_state(record.load(path, prog, method="replay").state, game.state)


def test_a_saved_record_has_the_documented_keys(tmp_path):
    game, _ = _play_until(program(MINI, "interpreted"), 1, lambda g: False)
    path = tmp_path / "game.json"
    record.save(game, path)
    data = json.loads(path.read_text())
    assert {"format", "game", "variants", "params", "spec_hash", "seed", "agents", "choices",
            "snapshot"} <= set(data)
    assert data["format"] == record.FORMAT and data["choices"] == game.choices
