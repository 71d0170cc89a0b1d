"""The web table's security, over HTTP: a seat's token reads only that seat's view and
acts only for it; no response to a seat, over whole games, names a card the seat has never
been able to see; refusals are one clear line with a 4xx status and change nothing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rulespec.runtime.game import seen_slots
from rulespec.runtime.state import known_cards
from rulespec.runtime.playtest.table import Table
from rulespec.runtime.playtest.web.server import HERE, TableServer, create_app
from support import REPO, TS, program

HELDENHAIN = REPO / "spec" / "heldenhain"
RISK = REPO / "spec" / "risk_balance_of_power"
MARS = REPO / "spec" / "terraforming_mars"
BASE = "http://127.0.0.1:8000"  # a TableServer's own address unless it is told another


def _served(folder: Path, seats: tuple[str, ...], seed: int, tmp_path: Path):
    prog = program(folder, "generated")
    seats = (seats * prog.meta.seat_count())[:prog.meta.seat_count()]  # every seated player, if one is named
    table = Table.new(prog, seats, seed=seed, spec_roots=(REPO,))
    table.run_bots()
    server = TableServer(table, tmp_path / "records")
    return server, TestClient(create_app(server), base_url=BASE)


def _tokens(server: TableServer) -> dict[str, str]:
    return {seat.player: token for token, seat in server.seats.items()}


class Scanner:
    """Checks every response a seat gets against what the seat could ever have seen."""

    def __init__(self, server: TableServer, public_text: str):
        self.server = server
        meta = server.table.meta
        self.meta = meta
        self.ever = {p: set() for p in meta.players}
        self.public = public_text
        self.scanned = 0
        self._cache: dict = {}

    def update(self) -> None:
        state, meta = self.server.table.game.state, self.meta
        for seat, player in enumerate(meta.players):
            seen = seen_slots(meta, state, seat)
            self.ever[player] |= {c for slot, cards in enumerate(state.zones) if seen[slot] for c in cards}
            # what it knows it saw (a deck dealt from a public box); tests/test_knowledge.py
            # checks apart that a seat knows only cards it saw
            self.ever[player] |= known_cards(state, seat)
            pending = state.pending
            if pending and pending["player"] == seat:  # what its decision offers, it knows
                self.ever[player] |= {meta.entity_ids.index(i) for i in pending["ids"] if i in meta.entity_ids}

    def check(self, player: str, text: str) -> None:
        """No id or label of a card `player` has never seen appears in `text`; every card
        the payload describes is one it sees now."""
        meta, state = self.meta, self.server.table.game.state
        self.update()
        text = self._without_spec_text(text)
        ids, labels = self._forbidden(player)
        leaked = ids & set(re.findall(r"\w+", text))
        assert not leaked, f"{player} was sent the id of {sorted(leaked)[0]!r}, a card it has never seen"
        for label in labels:
            if label in text:
                assert not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text), \
                    f"{player} was sent the label {label!r} of a card it has never seen"
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        if isinstance(payload, dict) and "cards" in payload and "replay" not in payload:
            seat = meta.players.index(player)
            seen = seen_slots(meta, state, seat)
            visible = {meta.entity_ids[c] for slot, cards in enumerate(state.zones) if seen[slot] for c in cards}
            visible |= {meta.entity_ids[c] for c in known_cards(state, seat)}  # seen and followed
            offered = {o["id"] for o in (payload.get("decision") or {}).get("options", [])}
            assert set(payload["cards"]) <= visible | offered, "a card described that the seat cannot see"
        self.scanned += 1

    def _without_spec_text(self, text: str) -> str:
        """A payload with its spec lines blanked: each is exactly the public spec text at the
        location beside it (checked here), which may name any card ('spiegel x_2 (von x)')."""
        try:
            payload = json.loads(text)
        except ValueError:
            return text

        def blank(value):
            if isinstance(value, dict):
                if "spec" in value and "at" in value:
                    assert value["spec"] == self.server.table.spec_line(value["at"]), value
                    value = dict(value, spec="")
                if "text" in value and "id" in value and "attrs" in value:  # a card's face
                    assert value["text"] == self._face(value["id"]), value  # the same in every state
                    value = dict(value, text="")
                return {k: blank(v) for k, v in value.items()}
            if isinstance(value, list):
                return [blank(v) for v in value]
            return value
        return json.dumps(blank(payload))

    def _face(self, card: str) -> str:
        """A card's text as printed or put into words from the spec: public, like the spec
        (an event's words may name another card: 'unless NATO is in play')."""
        return self.server.table.card_info({"zones": {"x": [card]}}, None)[card]["text"]

    def _forbidden(self, player: str) -> tuple[set[str], list[str]]:
        """The ids and the labels of the cards `player` has never seen (cached)."""
        meta = self.meta
        key = (player, frozenset(self.ever[player]))
        if key not in self._cache:
            never = [c for c in meta.card_entities if c not in self.ever[player]]
            seen_labels = {meta.entity_labels[c] for c in self.ever[player]}
            labels = sorted({meta.entity_labels[c] for c in never} - seen_labels)
            # a label inside one the seat may read ('Shuttles' in 'Immigration Shuttles') tells
            # nothing apart: the ids are checked all the same
            seen_text = "\n".join(seen_labels)
            labels = [label for label in labels if label not in self.public
                      and not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", seen_text)]
            self._cache[key] = ({meta.entity_ids[c] for c in never}, labels)
        return self._cache[key]


def _public_text(client: TestClient, tokens: dict[str, str]) -> str:
    token = next(iter(tokens.values()))
    parts = [client.get(f"/api/{token}/board").text]
    parts += [p.read_text(encoding="utf-8") for p in (HERE / "static").iterdir()]
    parts += [p.read_text(encoding="utf-8") for p in (HERE / "templates").iterdir()]
    return "\n".join(parts)


def _play_whole_game(folder: Path, seed: int, tmp_path: Path, limit: int | None = None) -> Scanner:
    server, client = _served(folder, ("human", "human"), seed, tmp_path)
    tokens = _tokens(server)
    scanner = Scanner(server, _public_text(client, tokens))
    for player, token in tokens.items():
        for path in (f"/seat/{token}", f"/replay/{token}", f"/api/{token}/board", f"/api/{token}/records",
                     "/static/table.js", "/static/table.css"):
            response = client.get(path)
            assert response.status_code == 200, path
            scanner.check(player, response.text)
    rng = random.Random(seed)
    made = 0
    while limit is None or made < limit:
        views = {}
        for player, token in tokens.items():
            response = client.get(f"/api/{token}/view")
            assert response.status_code == 200
            scanner.check(player, response.text)
            views[player] = response.json()
        deciding = [p for p, v in views.items() if v["decision"]]
        if not deciding:
            assert any(v["result"] or v["error"] for v in views.values())
            break
        player = deciding[0]
        view = views[player]
        option = rng.choice(view["decision"]["options"])["id"]
        response = client.post(f"/api/{tokens[player]}/choose", json={"option": option, "version": view["version"]})
        assert response.status_code == 200, response.text
        scanner.check(player, response.text)
        made += 1
    assert server.table.error is None, server.table.error
    return scanner


@pytest.mark.parametrize("folder, seed", [(TS, 5), (HELDENHAIN, 4)], ids=["twilight_struggle", "heldenhain"])
def test_no_response_over_a_whole_game_names_a_card_the_seat_cannot_see(folder, seed, tmp_path):
    scanner = _play_whole_game(folder, seed, tmp_path)
    assert scanner.server.table.over and scanner.scanned > 100


LONG_GAMES = [pytest.param(f, id=f.name) for f in (RISK, MARS) if f.is_dir()]


@pytest.mark.parametrize("folder", LONG_GAMES)
def test_the_first_250_decisions_of_a_long_game_name_no_card_the_seat_cannot_see(folder, tmp_path):
    _play_whole_game(folder, 3, tmp_path, limit=250)


@pytest.mark.slow
@pytest.mark.parametrize("folder", LONG_GAMES)
def test_a_whole_long_game_names_no_card_the_seat_cannot_see(folder, tmp_path):
    scanner = _play_whole_game(folder, 3, tmp_path)
    assert scanner.server.table.over


# ------------------------------------------------------------------ tokens and refusals


@pytest.fixture()
def hot_seat(tmp_path):
    server, client = _served(TS, ("human", "human"), 2, tmp_path)
    return server, client, _tokens(server)


def _state(server: TableServer):
    table = server.table
    return table.version, list(table.game.choices), json.dumps(table.game.state.public_part())


def _refused(response, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"] and "\n" not in body["error"] and words in body["error"], body


def test_a_token_reads_only_its_own_seat(hot_seat):
    server, client, tokens = hot_seat
    for player, token in tokens.items():
        view = client.get(f"/api/{token}/view", params={"seat": "usa" if player == "ussr" else "ussr"}).json()
        assert view["seat"] == player and view["view"]["player"] == player
        other = "usa" if player == "ussr" else "ussr"
        assert view["view"]["zones"][f"hand({other})"] == {"count": 8}
    _refused(client.get("/api/not-a-token/view"), 404, "unknown seat token")
    _refused(client.get(f"/api/{tokens['ussr'][:-1]}/view"), 404, "unknown seat token")
    _refused(client.get("/seat/not-a-token"), 404, "unknown seat token")
    _refused(client.get(f"/host/{tokens['ussr']}"), 404, "unknown host token")
    assert client.get(f"/host/{server.host_token}").status_code == 200


def test_a_token_cannot_act_for_another_seat(hot_seat):
    server, client, tokens = hot_seat
    pending = server.table.pending_player
    other = next(p for p in tokens if p != pending)
    view = client.get(f"/api/{tokens[pending]}/view").json()
    before = _state(server)
    option = view["decision"]["options"][0]["id"]
    _refused(client.post(f"/api/{tokens[other]}/choose", json={"option": option, "version": view["version"]}),
             403, "not your decision")
    _refused(client.post(f"/api/{tokens[other]}/undo", json={"version": view["version"]}), 409, "nothing to undo")
    assert _state(server) == before


def test_illegal_stale_and_repeated_moves_are_refused_and_change_nothing(hot_seat):
    server, client, tokens = hot_seat
    token = tokens[server.table.pending_player]
    view = client.get(f"/api/{token}/view").json()
    before = _state(server)
    _refused(client.post(f"/api/{token}/choose", json={"option": "no_such_option", "version": view["version"]}),
             400, "is not an option of")
    _refused(client.post(f"/api/{token}/choose", json={"option": view["decision"]["options"][0]["id"],
                                                       "version": view["version"] - 1}), 409, "stale")
    _refused(client.post(f"/api/{token}/choose", json={"version": view["version"]}), 400, "bad request: option")
    _refused(client.post(f"/api/{token}/choose", content=b"{not json", headers={"Content-Type": "application/json"}),
             400, "bad request")
    _refused(client.post(f"/api/{token}/step", json={"version": view["version"]}), 409, "waits for a person")
    assert _state(server) == before
    move = {"option": view["decision"]["options"][0]["id"], "version": view["version"]}
    assert client.post(f"/api/{token}/choose", json=move).status_code == 200
    after = _state(server)
    _refused(client.post(f"/api/{token}/choose", json=move), 409, "stale")  # the same decision twice
    assert _state(server) == after


def test_a_bot_seat_cannot_be_played_by_its_token(tmp_path):
    server, client = _served(TS, ("random", "human"), 3, tmp_path)
    tokens = _tokens(server)
    server.table.game  # the USSR bot has to move first: it waits
    view = client.get(f"/api/{tokens['ussr']}/view").json()
    assert view["decision"] is None or server.table.pending_player == "usa"
    if server.table.pending_player == "ussr":
        _refused(client.post(f"/api/{tokens['ussr']}/choose", json={"option": "x", "version": view["version"]}),
                 403, "bot")


def test_save_keeps_the_record_on_the_server_and_replay_shows_only_your_seat(hot_seat):
    server, client, tokens = hot_seat
    token = tokens[server.table.pending_player]
    view = client.get(f"/api/{token}/view").json()
    client.post(f"/api/{token}/choose", json={"option": view["decision"]["options"][0]["id"], "version": view["version"]})
    saved = client.post(f"/api/{token}/save", json={"name": "early"})
    assert saved.json() == {"saved": "early"}
    assert (server.records_dir / "twilight_struggle" / "early.json").is_file()  # the game's own folder
    _refused(client.post(f"/api/{token}/save", json={"name": "../escape"}), 400, "record name")
    _refused(client.post(f"/api/{token}/save", json={"name": "early"}), 409, "saved already")
    assert client.get(f"/api/{token}/records").json() == {"records": ["early"]}
    opened = client.post(f"/api/{token}/replay", json={"name": "early"}).json()
    player = server.seats[token].player
    assert opened["seats"] == [player] and opened["steps"] == 1
    other = next(p for p in tokens if p != player)
    _refused(client.get(f"/api/{token}/replay/{opened['replay']}", params={"step": 1, "seat": other}),
             403, "only")
    step = client.get(f"/api/{token}/replay/{opened['replay']}", params={"step": 1}).json()
    assert step["seat"] == player and step["replay"]["step"] == 1
    host = server.host_token
    loaded = client.post(f"/api/{host}/load", json={"name": "early"})
    assert loaded.status_code == 200 and loaded.json()["decisions"] == 1
    _refused(client.post(f"/api/{host}/load", json={"record": {"game": "chess"}}), 400, "corrupt record")
