"""The host's page in Chromium: it alone loads a saved or an uploaded record into the
table, and the seat's page follows; the seat's page offers no Load and no upload."""

from __future__ import annotations

import json

from test_browser import (TS, _moved_on, _settled, _version, browser, page,  # noqa: F401 (fixtures)
                          screenshot_on_failure, served)


def _decide(page, times: int) -> None:
    """Click the first option `times` times, each time waiting for the table to move on."""
    for _ in range(times):
        _settled(page)
        version = _version(page)
        page.locator("button.option").first.click()
        _moved_on(page, version)


def test_the_host_loads_a_saved_and_an_uploaded_record_and_the_seat_follows(page, tmp_path):
    with served(page, TS, ("human", "policy"), 4, tmp_path) as running, \
            screenshot_on_failure(page, "host", tmp_path):
        page.goto(running.urls["ussr"])
        assert page.locator("#load").count() == 0 and page.locator("#upload").count() == 0
        _decide(page, 2)
        page.fill("#save-name", "two")
        page.click("#save")
        page.wait_for_function("() => document.getElementById('message').textContent.includes('Saved as two')")
        record = running.server.table.record()
        _decide(page, 2)
        assert page.get_attribute("#app", "data-decisions") == "4"

        host = page.context.new_page()
        host.goto(running.urls["host"])
        host.wait_for_selector("#saved option[value='two']", state="attached")
        host.click("#load")
        host.wait_for_function("() => document.getElementById('message').textContent.includes('Loaded: 2 decisions')")
        page.wait_for_function("() => document.getElementById('app').dataset.decisions === '2'")
        upload = tmp_path / "upload.json"
        upload.write_text(json.dumps(record), encoding="utf-8")
        # The message still reads 'Loaded' from the load above: clear it, so the wait is for this upload's answer
        # (else it can land after the bad upload's refusal and overwrite it).
        host.evaluate("() => { document.getElementById('message').textContent = ''; }")
        host.set_input_files("#upload", str(upload))
        host.wait_for_function("() => document.getElementById('message').textContent.includes('Loaded: 2 decisions')")
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(dict(record, variants=["../../x"])), encoding="utf-8")
        host.set_input_files("#upload", str(bad))
        host.wait_for_function("() => document.getElementById('message').textContent.includes(\"'../../x'\")")
        assert "error" in host.get_attribute("#message", "class")
        # the host's replay viewer: an uploaded record, every seat's view
        host.goto(running.urls["host"].replace("/host/", "/replay/"))
        # the viewer listens for a file only once the board has come (data-ready), as a person sees it
        host.wait_for_function("() => document.getElementById('app').dataset.ready === '1'")
        host.set_input_files("#upload", str(upload))
        host.wait_for_function("() => document.getElementById('app').dataset.step === '0'")
        assert host.locator("#as-seat option").count() == 2
        host.close()


def test_a_seat_lists_another_tables_record_only_once_the_host_shares_it(page, tmp_path):
    from rulespec.runtime.playtest.table import Table
    from rulespec.runtime.playtest.web.server import TableServer
    from support import program

    with served(page, TS, ("human", "policy"), 4, tmp_path) as running, \
            screenshot_on_failure(page, "share", tmp_path):
        other = Table.new(program(TS, "generated"), ("human", "human"), seed=9)
        TableServer(other, running.server.records_dir).save("theirs")  # a table over the same folder
        seat_replay = running.urls["ussr"].replace("/seat/", "/replay/")
        page.goto(seat_replay)
        page.wait_for_function("() => document.getElementById('app').dataset.ready === '1'")
        page.wait_for_selector("#saved option[value='']", state="attached")  # "(no saved records)"
        assert page.locator("#saved option[value='theirs']").count() == 0

        host = page.context.new_page()
        host.goto(running.urls["host"])
        host.wait_for_selector("#saved option[value='theirs']", state="attached")
        host.select_option("#saved", "theirs")
        host.click("#share")
        host.wait_for_function("() => document.getElementById('message').textContent.includes('Shared theirs')")
        host.close()
        page.goto(seat_replay)
        page.wait_for_selector("#saved option[value='theirs']", state="attached")
