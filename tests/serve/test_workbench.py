"""The workbench (issue 39), first part: `simlib serve` serves the page and its catalogue on this machine, and the
page shows, per game, its players, policies and rule parameters with their provenance, as `simlib params` lists
them."""

from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn
from selenium.webdriver.support.ui import Select, WebDriverWait
from starlette.testclient import TestClient

from simlib.cli import main
from simlib.core.registry import games
from simlib.serve.app import create_app

from support.browser import chromium

PROVENANCES = {"seed", "published", "assumed", "derived"}


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def test_the_catalogue_has_every_game_with_its_policies_and_parameters(client):
    catalogue = client.get("/api/catalogue").json()
    shown = {g["name"]: g for g in catalogue["games"]}
    assert set(shown) == set(games())
    for name, game in games().items():
        entry = shown[name]
        assert entry["players"] == [game.min_players, game.max_players]
        assert [p["name"] for p in entry["policies"]] == list(game.policies())
        assert [p["name"] for p in entry["parameters"]] == list(game.parameters())
        for p in entry["parameters"]:
            assert p["provenance"] in PROVENANCES, p
            assert p["settable"] == (p["provenance"] != "derived")


def test_the_games_come_in_the_reports_order(client):
    """Die Mauer first, as on the report's index (the rule texts' order, ../shared/GAMES.md)."""
    names = [g["name"] for g in client.get("/api/catalogue").json()["games"]]
    assert names[0] == "mauer" and sorted(names) == sorted(games())


def test_the_written_report_is_linked_only_where_there_is_one(tmp_path):
    empty = TestClient(create_app(tmp_path))
    assert empty.get("/api/catalogue").json()["report"] is False
    assert empty.get("/report/index.html").status_code == 404
    (tmp_path / "index.html").write_text("<p>the report</p>")
    written = TestClient(create_app(tmp_path))
    assert written.get("/api/catalogue").json()["report"] is True
    assert "the report" in written.get("/report/index.html").text


def test_a_reading_of_the_rule_text_carries_its_words(client):
    """Where the rule text reads two ways, the option's entry quotes the words read (docs: 'Readings')."""
    shown = {(g["name"], p["name"]): p["reading"] for g in client.get("/api/catalogue").json()["games"]
             for p in g["parameters"]}
    readings = {(g.name, p.name): p.reading for g in games().values() for p in g.parameters().values() if p.reading}
    assert readings, "no game declares a reading of its rule text"
    assert {key: shown[key] for key in readings} == readings


def test_the_page_and_its_scripts_ship_with_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/workbench.js" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # no script or style from the internet
    assert client.get("/static/workbench.js").status_code == 200
    assert client.get("/static/workbench.css").status_code == 200
    assert client.get("/api/nothing").status_code == 404


@pytest.mark.parametrize("argv, said", [
    (["serve", "--port", "0"], "--port must be a TCP port, an integer in 1..65535"),
    (["serve", "--port", "http"], "--port"),
])
def test_a_bad_address_is_one_line(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1, err


def test_a_port_in_use_is_one_line(capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip()
    assert f"port {port} on 127.0.0.1 is in use" in err and len(err.splitlines()) == 1, err


@pytest.fixture(scope="module")
def served_lake(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("served") / "lake")


@pytest.fixture(scope="module")
def served(served_lake):
    """The app on a free port of 127.0.0.1, in a thread, as `simlib serve` runs it, its jobs writing to a lake of
    its own."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    lake = served_lake
    server = uvicorn.Server(uvicorn.Config(create_app(lake=lake, workers=1), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_the_page_shows_a_games_parameters_with_provenance(served, tmp_path):
    with chromium(1200, 900) as browser:
        browser.get(served + "/")
        WebDriverWait(browser, 20).until(lambda b: b.find_element("tag name", "body").get_attribute("data-ready"))
        Select(browser.find_element("id", "game")).select_by_value("mauer")
        rows = browser.find_elements("css selector", "#parameters tbody tr")
        shown = {r.get_attribute("data-name"): r.find_element("css selector", ".prov").text for r in rows}
        expected = {p.name: "derived" if p.derived else p.provenance for p in games()["mauer"].parameters().values()}
        assert shown == expected
        players = [o.text for o in Select(browser.find_element("id", "players")).options]
        game = games()["mauer"]
        assert players == [str(n) for n in range(game.min_players, game.max_players + 1)]
        policies = [r.find_element("css selector", "td").text for r in
                    browser.find_elements("css selector", "#policies tbody tr")]
        assert policies == list(game.policies())
        Select(browser.find_element("id", "game")).select_by_value("sevensteps")
        reading = browser.find_element("css selector", '#parameters tr[data-name="first_disc"] .reading').text
        assert games()["sevensteps"].parameters()["first_disc"].reading[:40] in reading
        browser.save_screenshot(str(tmp_path / "workbench.png"))


def _bar_lengths(browser) -> list[float]:
    """The narrowing panel's interval bars (the first panel: the headline's paired difference), first chunk first;
    read in one script, as the page redraws the panels when a chunk comes in."""
    return browser.execute_script(
        "const panel = document.querySelector('#narrowing svg');"
        "return panel ? [...panel.querySelectorAll('line.bar')].map("
        "(b) => Math.abs(b.y2.baseVal.value - b.y1.baseVal.value)) : [];")


def test_a_designer_changes_a_rule_watches_the_interval_narrow_and_stops(served, tmp_path):
    """End to end in the browser: a bad value is refused beside its field and nothing runs; a good one runs, the
    paired interval narrows chunk by chunk, Stop stops it and Resume is offered."""
    with chromium(1200, 1800) as browser:
        browser.get(served + "/")
        WebDriverWait(browser, 20).until(lambda b: b.find_element("tag name", "body").get_attribute("data-ready"))
        Select(browser.find_element("id", "game")).select_by_value("mauer")
        tower = browser.find_element("css selector", 'input.try[data-name="penalty_tower"]')
        tower.send_keys("twelve")
        browser.find_element("id", "run").click()
        beside = browser.find_element("css selector", '.error[data-for="vary:penalty_tower"]')
        WebDriverWait(browser, 10).until(lambda b: beside.text)
        assert "not an integer" in beside.text and "bad" in tower.get_attribute("class")
        assert browser.find_element("id", "results").get_attribute("hidden")  # nothing ran
        tower.clear()
        tower.send_keys("12")
        width = browser.find_element("id", "width")
        width.clear()
        width.send_keys("0.000001")  # out of reach: the job runs until it is stopped
        browser.find_element("id", "run").click()
        WebDriverWait(browser, 60).until(lambda b: len(_bar_lengths(b)) >= 3)
        assert not beside.text
        verdict = browser.find_element("css selector", "#verdicts li.variant").text
        assert verdict.startswith("tower 12 penalty points (against tower 15 penalty points): penalty points per seat")
        bars = _bar_lengths(browser)
        assert bars[-1] < bars[0], bars
        browser.find_element("id", "stop").click()
        status = browser.find_element("id", "status")
        WebDriverWait(browser, 60).until(lambda b: status.text.startswith("Stopped"))
        assert "Every finished chunk is in the lake" in status.text
        assert browser.find_element("id", "resume").is_enabled()
        commands = browser.find_elements("css selector", "#chunks code")
        assert commands and all(c.get_attribute("textContent").startswith("simlib sweep mauer --vary penalty_tower=12")
                                for c in commands)
        browser.save_screenshot(str(tmp_path / "workbench-run.png"))
        # Open a play of the first chunk's variant: the replay's account and the standing drawn seat by seat.
        browser.find_element("css selector", "#chunks summary").click()
        browser.find_elements("css selector", "#chunks .plays a")[1].click()
        # the page that was open is ready too: wait for the play's own text. The first replay after an edit to the
        # core compiles the kernel with events (simlib compile does not): minutes on a busy machine.
        WebDriverWait(browser, 600).until(lambda b: "/play?" in b.current_url
                                          and b.find_element("tag name", "body").get_attribute("data-ready"))
        assert browser.find_element("id", "told").text, browser.find_element("id", "status").text  # or what failed
        assert browser.find_element("id", "told").text.startswith("Die Mauer, play 0 (match 0, round 0), 4 players")
        assert "matches the lake" in browser.find_element("id", "status").text
        assert len(browser.find_elements("css selector", "svg.standing polyline")) == 4
        browser.save_screenshot(str(tmp_path / "play.png"))


def test_seat_by_seat_a_mixed_table_runs_and_shows_each_policys_share(served):
    """Who plays, seat by seat: the seats' rungs make the line-up (--policies a,b,c), and each run's row shows each
    policy's win share against its fair share, as the report's policy strength says it."""
    with chromium(1200, 1400) as browser:
        browser.get(served + "/")
        WebDriverWait(browser, 20).until(lambda b: b.find_element("tag name", "body").get_attribute("data-ready"))
        Select(browser.find_element("id", "game")).select_by_value("mauer")
        Select(browser.find_element("id", "players")).select_by_value("3")
        assert not browser.find_element("id", "seats").is_displayed()
        browser.find_element("id", "by-seat").click()
        assert browser.find_element("id", "seats").is_displayed()
        assert not browser.find_element("id", "lineup").is_enabled()  # the seats' choices rule
        seats = [Select(browser.find_element("id", f"seat-{i}")) for i in range(3)]
        assert [s.first_selected_option.get_attribute("value") for s in seats] == ["random"] * 3
        seats[0].select_by_index(1)  # the ladder's second rung
        heavy = seats[0].first_selected_option.get_attribute("value")
        assert heavy.startswith("heavy") and "heavy" in browser.find_element("id", "lineup-doc").text
        browser.find_element("css selector", 'input.try[data-name="penalty_tower"]').send_keys("12")
        budget = browser.find_element("id", "budget")
        budget.clear()
        budget.send_keys("1000")
        browser.find_element("id", "run").click()
        status = browser.find_element("id", "status")
        WebDriverWait(browser, 120).until(lambda b: status.text.startswith("Done"))
        command = browser.find_element("css selector", "#chunks code").get_attribute("textContent")
        assert f"--policies {heavy},random,random" in command
        heads = [th.text for th in browser.find_elements("css selector", "#runs thead th")]
        assert heads[1:3] == [f"{policy}'s win share per seat (fair: 33.3%)" for policy in ("heavy", "random")], heads
        assert "seat 0's win share" not in heads  # a mixed table's seats measure the policies


def test_a_board_is_drawn_with_a_slider_and_a_key_to_the_seats_colours(served, served_lake):
    """A game with a board (Burgenland): the board's shapes, the slider over its turns, and one swatch per seat in
    the colour its pieces and its standing line are drawn in."""
    from simlib.core.config import RunConfig
    from simlib.core.lake import Lake
    from simlib.core.runner import run

    game = games()["burgenland"]
    config = RunConfig.build(game, players=3, policies=["random"], plays=4, seed=1)
    run_id = run(config, Lake.at(served_lake), progress=False).run_id
    with chromium(1000, 1100) as browser:
        browser.get(f"{served}/play?game=burgenland&run={run_id}&play=1")
        WebDriverWait(browser, 120).until(lambda b: b.find_element("tag name", "body").get_attribute("data-ready"))
        assert browser.find_element("id", "told").text, browser.find_element("id", "status").text
        assert browser.find_elements("css selector", "svg.board .shape")
        drawing = game.drawing(config, 1)
        assert browser.find_element("id", "turn").get_attribute("max") == str(drawing["turns"] - 1)
        swatches = browser.execute_script(
            "return [...document.querySelectorAll('#seat-key .swatch')]"
            ".map((s) => getComputedStyle(s).backgroundColor);")
        lines = browser.execute_script(
            "return [...document.querySelectorAll('svg.standing polyline')].map((p) => p.getAttribute('stroke'));")
        as_rgb = [f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})" for c in lines]
        assert len(set(swatches)) == 3 and swatches == as_rgb  # seat k's swatch is seat k's standing line
