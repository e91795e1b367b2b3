"""The report, built from a small simulated lake: every figure and table is there, nothing is fetched."""

from __future__ import annotations

import re
import sys

import pytest

from simlib.analysis import report as report_module
from simlib.analysis.pipeline import build
from simlib.analysis.report import build_report, game_sections
from simlib.core.errors import SimlibError
from simlib.core.runner import run
from simlib.design.batch import load_batch
from simlib.games.mauer import GAME
from simlib.games.mauerbruch import GAME as MAUERBRUCH

from support.paths import REPO
from support.report_pages import figure_png

BATCH = """
[[run]]
players = [3, 4, 5]
policies = ["random"]
plays = 200

[[run]]
players = [4]
policies = ["heavy"]
plays = 100

[[run]]
players = [4]
policies = ["random"]
plays = 20
events = true
standings = true
options = { rounds = 1 }

[[tournament]]
players = 4
policies = ["random", "reader"]
plays = 20
options = { rounds = 1 }
"""

BATCH_MAUERBRUCH = """
[[run]]
players = [3]
policies = ["random", "greedy"]
plays = 150

[[run]]
players = [3]
policies = ["random"]
plays = 30
events = true

[[tournament]]
players = 3
policies = ["random", "cautious"]
plays = 20
"""
FIGURES_MAUERBRUCH = ["seat_advantage", "game_length", "feel", "policy_table_3p", "endings", "pair_deciders"]

# the tournament's single rounds (rounds = 1) are part of its set-ups: a policy table of its own
# the skill ladder from the tournament's pairings of rungs (heavy against random, reader against heavy)
FIGURES = ["seat_advantage", "game_length", "feel", "policy_table_4p_rounds_1", "skill_ladder", "penalty_by_seat",
           "match_totals", "baurunde_cases"]
TABLES = ["Balance and the seat test per set-up", "Win share and advantage by seat, per set-up",
          "Game length per set-up", "Policy strength",
          "The skill ladder: balance at each rung", "The skill ladder: each rung against the rung below",
          "The skill ladder: skill depth", "Penalty points by seat", "Penalty points by policy",
          "Match totals by table position", "How build rounds resolve", "Assumed rule parameters", "Runs"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    batch = root / "batch.toml"
    batch.write_text(BATCH)
    for config in load_batch(GAME, batch):
        run(config, root / "lake", workers=1, progress=False)
    batch.write_text(BATCH_MAUERBRUCH)
    for config in load_batch(MAUERBRUCH, batch):
        run(config, root / "lake", workers=1, progress=False)
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == []
    build_report(root / "lake", root / "marts", root / "reports")
    return root / "reports"


def test_every_figure_is_written_and_shown_with_a_sentence(report):
    page = (report / "mauer.html").read_text()
    for name in FIGURES:
        assert len(figure_png(page, f"mauer_{name}")) > 10_000, name
        assert f"id='mauer_{name}'" in page, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert len(captions) == len(FIGURES) and all(len(c) > 60 for c in captions)


def test_no_page_prints_an_interval_whose_ends_are_equal(report):
    """Issue 35: "(3.6 to 3.6)" told a designer nothing; every interval on every page shows its width."""
    equal_ends = re.compile(r"(?<![\d.+-])([+-]?\d[\d,]*(?:\.\d+)?(?:%| pp)?) to \1(?![\d.])")
    pages = sorted(report.glob("*.html"))
    assert len(pages) >= 3
    for page in pages:
        text = re.sub(r"<[^>]+>", " ", page.read_text())
        assert equal_ends.findall(text) == [], page.name


def test_the_mauerbruch_page_has_its_figures(report):
    page = (report / "mauerbruch.html").read_text()
    for name in FIGURES_MAUERBRUCH:
        assert figure_png(page, f"mauerbruch_{name}"), name
        assert f"id='mauerbruch_{name}'" in page, name
    for title in ("How games end", "What decides pairs", "Balance and the seat test per set-up"):
        assert f"<h3>{title}" in page or f"<summary>{title}" in page, title  # long tables start folded
    assert "deck" in page and "deck_cards" not in page  # derived parameters stay out of labels and inputs


def test_figures_come_before_tables_and_every_table_is_there(report):
    page = (report / "mauer.html").read_text()
    assert page.index("<h2>Figures</h2>") < page.index("<h2>Tables</h2>") < page.index("<h2>Inputs</h2>")
    for title in TABLES:
        assert f"<h3>{title}" in page or f"<summary>{title}" in page, title  # long tables start folded


def test_the_report_names_its_inputs_and_needs_no_network(report):
    page = (report / "mauer.html").read_text()
    assert "max_baurunden" in page and "start" in page and "rules version" in page
    assert "http://" not in page and "https://" not in page
    index = (report / "index.html").read_text()
    assert "mauer.html" in index


def test_the_index_says_how_a_play_feels(report):
    """Issue 38: both questions answered on the index, in the game's unit, for Die Mauer and Mauerbruch."""
    index = re.sub(r"<[^>]+>", " ", (report / "index.html").read_text())
    assert index.count("Is the game decided early?") == 2 and index.count("Can a player who falls behind") == 2
    assert "penalty points behind the leader" in index and "cards won behind the leader" in index


def test_batch_expands_a_tournament_into_every_seating(tmp_path):
    batch = tmp_path / "b.toml"
    batch.write_text(BATCH)
    configs = load_batch(GAME, batch)
    tournament = [c for c in configs if c.options["rounds"] == 1 and not c.events]
    # 2 one-policy tables + 2 ordered pairs x 4 seats
    assert len(tournament) == 2 + 2 * 4
    assert sum(1 for c in tournament if [p.name for p in c.policies] == ["random", "reader", "random", "random"]) == 1


def test_the_readme_queries_run(report):

    from simlib.analysis.sql import run_query

    readme = (REPO / "README.md").read_text()
    queries = re.findall(r"```sql\n(.*?)```", readme, re.S)
    assert len(queries) >= 3
    root = report.parent
    for i, query in enumerate(queries):
        out = root / f"readme_{i}.csv"
        run_query(query.replace("data/lake", str(root / "lake")), root / "lake", root / "marts", "csv", str(out))
        assert len(out.read_text().splitlines()) > 1, query


def test_a_section_that_raises_fails_the_report_naming_game_and_section(report, monkeypatch, tmp_path):
    def broken_section(page):
        raise KeyError("no_such_column")

    original = report_module.game_sections
    monkeypatch.setattr(report_module, "game_sections",
                        lambda game: [broken_section] if game is MAUERBRUCH else original(game))
    root = report.parent
    with pytest.raises(SimlibError, match="broken_section of mauerbruch failed: KeyError"):
        build_report(root / "lake", root / "marts", tmp_path / "out", workers=1)  # the patch lives in this process


def test_a_report_module_that_cannot_be_imported_fails_the_report(report, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "simlib.games.mauerbruch.report", None)  # its import fails
    root = report.parent
    with pytest.raises(SimlibError, match="report sections of mauerbruch could not be loaded: ModuleNotFoundError"):
        build_report(root / "lake", root / "marts", tmp_path / "out", workers=1)


def test_pages_drawn_side_by_side_equal_pages_drawn_one_by_one(report, tmp_path):
    root = report.parent
    apart = build_report(root / "lake", root / "marts", tmp_path / "apart", workers=2)
    alone = build_report(root / "lake", root / "marts", tmp_path / "alone", workers=1)
    assert [p.name for p in apart] == [p.name for p in alone] and len(apart) > 1
    stamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")  # when each was written: a minute apart, maybe
    for a, b in zip(apart, alone):
        assert stamp.sub("", a.read_text()) == stamp.sub("", b.read_text()), a.name


def test_each_game_hands_over_its_sections():
    assert [s.__name__ for s in game_sections(GAME)] == ["penalties_by_seat", "match_totals", "baurunde_cases"]
    assert [s.__name__ for s in game_sections(MAUERBRUCH)] == ["endings", "pair_deciders"]


def test_no_label_shows_a_hash(report):
    """Runs are named by their set-up in words; run ids stay in their own column for SQL users."""
    hashed = re.compile(r"#[0-9a-f]{6}\b|\b[0-9a-f]{16}\b")
    for page in report.glob("*.html"):
        text = page.read_text()
        for caption in re.findall(r"<figcaption>(.*?)</figcaption>", text, re.S):
            assert not hashed.search(caption), (page.name, caption)
        for first_cell in re.findall(r"<tr><td>(.*?)</td>", text):
            assert not hashed.search(first_cell), (page.name, first_cell)


def test_a_game_section_can_lead_the_page_or_replace_a_generic_one():
    from simlib.analysis.page import lead, page_order, replaces

    def seat_advantage(page): ...
    def game_length(page): ...
    def policy_strength(page): ...

    @lead
    def headline(page): ...

    @replaces("game_length")
    def rounds(page): ...

    @lead
    @replaces("seat_advantage")
    def seats_by_side(page): ...

    def extra(page): ...

    generic = [seat_advantage, game_length, policy_strength]
    assert page_order(generic, [extra, rounds, headline]) == [headline, seat_advantage, rounds, policy_strength, extra]
    assert page_order(generic, [seats_by_side, extra]) == [seats_by_side, game_length, policy_strength, extra]
    assert page_order(generic, []) == generic
