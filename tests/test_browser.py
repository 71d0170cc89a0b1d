"""The web table in a real browser: Debian's Chromium driven by Playwright, as a person
would use it - clicks on the board, on cards and on buttons, waiting for what the page
shows, never for a time. For every seed game: 30 decisions clicked against a bot (with an
undo), and a whole game between bots watched to its end (in the slow suite; the default
one watches a short Heldenhain game). The page `simulate --report` writes is opened from disk
too. A failure saves a screenshot.

Skips only when Chromium is genuinely absent outside CI; under CI=1 it must run.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

from rulespec.compiler.tools.cards.table import card_faces
from rulespec.runtime.playtest import web
from rulespec.runtime.playtest.table import Table
from support import REPO, TS, loaded, program

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HELDENHAIN = REPO / "spec" / "heldenhain"
RISK = REPO / "spec" / "risk_balance_of_power"
MARS = REPO / "spec" / "terraforming_mars"
GAMES = [pytest.param(TS, 4, id="twilight_struggle"), pytest.param(HELDENHAIN, 3, id="heldenhain")]
GAMES += [pytest.param(f, 2, id=f.name) for f in (RISK, MARS) if f.is_dir()]
CLICKED = 30
STEP_WAIT_MS = 60_000  # how long one page condition may take to come true before the test fails
GAME_WAIT_MS = 900_000


def _need_chromium() -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI=1 but {CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    _need_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is not installed (pip install playwright)")
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM),
            headless=True, args=ARGS, viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(STEP_WAIT_MS)
        yield context
        context.close()


@pytest.fixture()
def page(browser):
    page = browser.new_page()
    page.problems = []  # what went wrong in the page while a table was served
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("requestfailed", lambda r: None if "ERR_ABORTED" in (r.failure or "")  # left on purpose
            else page.problems.append(f"request failed: {r.url}: {r.failure}"))
    page.base = "about:"  # the table served; nothing may load from anywhere else
    page.on("request", lambda r: None if r.url.startswith((page.base, "about:", "data:"))
            else page.problems.append(f"a request away from the table: {r.url}"))
    yield page
    page.close()


@contextmanager
def screenshot_on_failure(page, name: str, tmp_path: Path):
    folder = Path(os.environ.get("RULESPEC_SCREENSHOTS", tmp_path))
    try:
        yield
    except BaseException:
        folder.mkdir(parents=True, exist_ok=True)
        shot = folder / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"screenshot of the failure: {shot}")
        raise


@contextmanager
def served(page, folder: Path, seats: tuple[str, ...], seed: int, tmp_path: Path, params=None):
    """A table served while the test runs; the page leaves it before it stops."""
    prog = program(folder, "generated")
    if getattr(prog, "card_faces", None) is None:  # as `rulespec serve` hangs them (playtest.py)
        prog.card_faces = card_faces(loaded(folder).model)
    table = Table.new(prog, seats, seed=seed, params=params, spec_roots=(REPO,))
    running = web.start(table, records_dir=tmp_path / "records")
    page.base = running.base + "/"
    try:
        yield running
        page.goto("about:blank")
        assert not page.problems, page.problems
    finally:
        running.stop()


def _settled(page) -> str:
    """Wait until the page is idle and shows a decision or the end; the state it shows."""
    page.wait_for_function(
        "() => { const a = document.getElementById('app');"
        " return a !== null && a.dataset.ready === '1' && !a.dataset.busy"
        " && ['deciding', 'over', 'stopped'].includes(a.dataset.state); }")
    return page.get_attribute("#app", "data-state")


def _version(page) -> str:
    return page.get_attribute("#app", "data-version")


def _moved_on(page, version: str) -> None:
    page.wait_for_function(
        "(v) => { const a = document.getElementById('app');"
        " return a !== null && a.dataset.version !== v && !a.dataset.busy; }",
        arg=version)


def _click_an_option(page, turn: int) -> str:
    """Click an option as a person would, on the board, on a card or on a button in turn."""
    kinds = ("#board .space.option", "#zones .card.option, #placed-zones .card.option", "button.option")
    for selector in kinds[turn % 3:] + kinds[:turn % 3]:
        targets = page.locator(selector)
        count = targets.count()
        if count:
            targets.nth((turn * 7) % count).click()
            return selector
    raise AssertionError("the page shows a decision but no option to click")


@pytest.mark.parametrize("folder, seed", GAMES)
def test_a_person_clicks_through_thirty_decisions_against_a_bot(folder, seed, page, tmp_path):
    with served(page, folder, _against_bots(folder), seed, tmp_path) as running, \
            screenshot_on_failure(page, f"clicks-{folder.name}", tmp_path):
        page.goto(running.urls[running.server.table.meta.players[0]])
        clicked: set[str] = set()
        undone = False
        for turn in range(CLICKED):
            assert _settled(page) == "deciding", f"the game ended after {turn} clicked decisions"
            version = _version(page)
            if turn >= 2 and not undone and page.is_enabled("#undo"):
                before = int(page.get_attribute("#app", "data-decisions"))
                page.click("#undo")
                _moved_on(page, version)
                assert int(page.get_attribute("#app", "data-decisions")) < before
                undone = True
                _settled(page)
                version = _version(page)
            clicked.add(_click_an_option(page, turn))
            _moved_on(page, version)
        table = running.server.table
        assert len([s for s in table.steps if s.player == table.meta.players[0]]) >= CLICKED - 1
        assert len(clicked) >= 2, clicked  # board spaces or cards, and buttons
        # what a person reads: whose decision, the log with the spec line behind a line
        assert "decision" in page.inner_text("#status")
        page.locator("#log a.at").first.click()
        page.wait_for_selector("#spec-line pre")
        assert page.inner_text("#spec-line pre").strip()
        assert undone, "undo was never offered"
        # the bot's moves are in the log by name, each card in the seat's hand shows its text
        bot = table.label_of(table.players[1])
        moves = page.locator("#log li.move span").all_inner_texts()
        assert any(m.startswith(bot + ": ") and " → " in m for m in moves), moves[-10:]
        own = page.locator(".zone.own .card:not(.back)")
        seat = table.players[0]
        held = sum(len(z.get("cards", [])) for z in table.seat_view(seat)["zones"] if z["owner"] == seat)
        assert own.count() > 0 or held == 0
        for i in range(own.count()):
            assert own.nth(i).locator(".card-text").inner_text().strip(), own.nth(i).inner_text()
        if folder == MARS:
            assert page.locator("#board .space.shape-hex").count() == 61


def _against_bots(folder: Path) -> tuple[str, ...]:
    """A person in the first seat, the spec's policy bot (else greedy where it has evaluations)
    in the rest."""
    meta = program(folder, "generated").meta
    bot = "policy" if meta.policies else "greedy" if meta.bots else "random"
    return ("human",) + (bot,) * (meta.seat_count() - 1)


def test_terraforming_mars_draws_its_hexes_and_a_tile_where_a_person_places_one(page, tmp_path):
    with served(page, MARS, ("human", "policy"), 2, tmp_path) as running, \
            screenshot_on_failure(page, "tile", tmp_path):
        table = running.server.table
        rng = __import__("random").Random(2)
        for _ in range(2000):  # answer at random until a person is asked where to place a tile
            table.run_bots()
            decision = table.seat_view("p1")["decision"]
            spaces = [o["id"] for o in decision["options"] if o["kind"] == "space"]
            if spaces:
                break
            table.choose("p1", rng.choice(decision["options"])["id"])
        assert spaces, "no placement in 2,000 decisions"
        page.goto(running.urls["p1"])
        _settled(page)
        assert page.locator("#board .space.shape-hex").count() == 61
        space = spaces[0]
        assert page.locator(f"#space-{space} .mark.tile").count() == 0
        version = _version(page)
        page.click(f"#space-{space}")
        _moved_on(page, version)
        page.wait_for_selector(f"#space-{space} .mark.tile")
        assert page.locator(f"#space-{space} .mark.tile").first.get_attribute("data-player") in ("p1", "")


def _watch(folder: Path, seed: int, page, tmp_path: Path, agents: tuple[str, ...], params=None) -> None:
    players = program(folder, "generated").meta.seat_count(params)
    agents = (agents * players)[:players]
    with served(page, folder, agents, seed, tmp_path, params) as running, \
            screenshot_on_failure(page, f"watch-{folder.name}", tmp_path):
        page.goto(running.urls[running.server.table.meta.players[0]] + "?pause=0")
        page.wait_for_selector('#app[data-ready="1"]')
        page.wait_for_selector("#play:not([disabled])")
        page.click("#play")
        page.wait_for_function(
            "() => ['over', 'stopped'].includes(document.getElementById('app').dataset.state)",
            timeout=GAME_WAIT_MS)
        assert page.get_attribute("#app", "data-state") == "over"
        assert page.inner_text("#status").startswith("Game over")
        assert running.server.table.over and running.server.table.error is None


def test_a_whole_game_of_heldenhain_between_bots_watched_move_by_move(page, tmp_path):
    # a short one: the spec's own turn limit ends it after 16 turns (the slow suite plays long ones)
    _watch(HELDENHAIN, 5, page, tmp_path, ("random", "random"), {"turn_limit": 16})


@pytest.mark.slow
@pytest.mark.parametrize("folder, seed", GAMES)
def test_a_whole_game_between_bots_watched_to_its_end(folder, seed, page, tmp_path):
    _watch(folder, seed, page, tmp_path, _against_bots(folder)[1:] * 2)


def test_hot_seat_passes_the_device_between_two_people(page, tmp_path):
    with served(page, HELDENHAIN, ("human", "human"), 3, tmp_path) as running, \
            screenshot_on_failure(page, "hot-seat", tmp_path):
        page.goto(running.urls["host"])
        with page.expect_navigation():
            page.click("#hot-seat")
        assert _settled(page) == "deciding"
        first = page.inner_text("#status")
        while page.is_hidden("#cover"):
            version = _version(page)
            page.locator("button.option").last.click()
            _moved_on(page, version)
        assert "Pass the device to Seite 2" in page.inner_text("#cover-text")
        with page.expect_navigation():
            page.click("#cover-link")
        assert _settled(page) == "deciding"
        assert "Seite 2" in page.inner_text("#status") and page.inner_text("#status") != first


def test_the_replay_viewer_steps_through_a_saved_record(page, tmp_path):
    with served(page, TS, ("human", "random"), 4, tmp_path) as running, \
            screenshot_on_failure(page, "replay", tmp_path):
        seat = running.urls["ussr"]
        page.goto(seat)
        for turn in range(3):
            _settled(page)
            version = _version(page)
            page.locator("button.option").first.click()
            _moved_on(page, version)
        page.fill("#save-name", "three")
        page.click("#save")
        page.wait_for_function("() => document.getElementById('message').textContent.includes('Saved as three')")
        page.click("#replay-link")
        page.wait_for_selector("#saved option[value='three']", state="attached")
        page.click("#open-saved")
        page.wait_for_function("() => document.getElementById('app').dataset.step === '0'")
        page.click("#forward")
        page.wait_for_function("() => document.getElementById('app').dataset.step === '1'")
        assert "Step 1 of 3" in page.inner_text("#status")
        page.click("#last")
        page.wait_for_function("() => document.getElementById('app').dataset.step === '3'")
        assert page.locator("#as-seat option").count() == 1  # an unfinished game: only your view


def test_the_simulation_report_shows_its_plots_and_the_losses(page, tmp_path):
    """`simulate --report`'s page opened from disk: every plot loads, the losses are shown."""
    from test_report import games, report
    report(tmp_path, games("lost:red", "blue", "lost:red", "red"), games("red", "lost:blue", "blue", ""))
    page.base = (tmp_path / "index.html").parent.as_uri() + "/"
    with screenshot_on_failure(page, "report", tmp_path):
        page.goto((tmp_path / "index.html").as_uri())
        sources = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.getAttribute('src'))")
        assert {"loss_rates.png", "win_rates.png", "difference.png"} <= set(sources)
        page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert page.get_by_role("columnheader", name="red losses").is_visible()
        assert "red 0.0% → 50.0% (+50.0 points" in page.inner_text("body")
    assert not page.problems, page.problems
