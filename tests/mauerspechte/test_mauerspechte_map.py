"""Berlin's map and components files against every count in the rule text (shared/seeds/002_...txt), read
with tomllib alone (no simlib code), and the loader's one-line errors for broken files."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from simlib.core.errors import SimlibError

from support.paths import SIMLIB

PACKAGE = SIMLIB / "games" / "mauerspechte"
MAP = tomllib.loads((PACKAGE / "maps" / "berlin.toml").read_text())
PARTS = tomllib.loads((PACKAGE / "components.toml").read_text())
TILES = [h for h in MAP["hex"] if not h.get("frame")]
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _at(q, r):
    return next((h for h in MAP["hex"] if (h["q"], h["r"]) == (q, r)), None)


def _adjacent(a, b):
    return (b["q"] - a["q"], b["r"] - a["r"]) in NEIGHBOURS


def test_hexes_as_the_text_counts_them():
    # "Meer Wüste Wald Hügell. Weidel. Ackerl. Gebirge Gesamt 9 2 5 5 5 5 5 36"
    assert len(TILES) == 36
    assert Counter(h["terrain"] for h in TILES) == {"sea": 9, "desert": 2, "forest": 5, "hills": 5, "pasture": 5,
                                                    "fields": 5, "mountains": 5}


def test_number_tokens_as_the_text_counts_them_and_no_6_beside_an_8():
    # "2 3 4 5 6 8 9 10 11 12 Gesamt 1 3 3 3 3 2 3 3 3 1 25", one on each producing hex
    producing = [h for h in TILES if h["terrain"] not in ("sea", "desert")]
    assert all(h.get("token") for h in producing) and not any(h.get("token") for h in TILES if h not in producing)
    assert Counter(h["token"] for h in producing) == {2: 1, 3: 3, 4: 3, 5: 3, 6: 3, 8: 2, 9: 3, 10: 3, 11: 3, 12: 1}
    red = [h for h in producing if h["token"] in (6, 8)]
    assert not any(_adjacent(a, b) for a in red for b in red if a is not b)


def test_harbours_three_generic_and_one_per_resource():
    # "3:1 Holz Lehm Wolle Getr. Erz Gesamt 3 1 1 1 1 1 8"
    kinds = Counter("3:1" if h["rate"] == 3 else h["resource"] for h in MAP["harbour"])
    assert kinds == {"3:1": 3, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1}


def test_every_tile_is_west_or_east_and_the_frame_is_sea():
    assert {h["side"] for h in TILES} == {"west", "east"}
    assert all(h["terrain"] == "sea" for h in MAP["hex"] if h.get("frame"))
    coords = {(h["q"], h["r"]) for h in MAP["hex"]}
    for h in TILES:  # the tiles are framed: every neighbour of a tile is on the map
        assert all((h["q"] + a, h["r"] + b) in coords for a, b in NEIGHBOURS)


def test_six_hotel_fields_in_the_east_carry_the_2_the_12_and_four_3s_and_11s():
    hotels = [h for h in TILES if h.get("hotel")]
    assert len(hotels) == 6 and all(h["side"] == "east" for h in hotels)
    tokens = Counter(h["token"] for h in hotels)
    assert tokens[2] == 1 and tokens[12] == 1 and tokens[3] + tokens[11] == 4 and sum(tokens.values()) == 6


def test_friedrichstrasse_is_the_northern_ore_field_and_stadtmitte_in_the_south_of_east_berlin():
    # "Friedrichstraße ist das Erzfeld im Norden, Stadtmitte im Süden Ostberlins"
    east_land = [h for h in TILES if h["side"] == "east" and h["terrain"] != "sea"]
    named = {h.get("name"): h for h in TILES}
    fried, mitte = named["Friedrichstraße"], named["Stadtmitte"]
    assert fried["terrain"] == "mountains" and fried.get("hotel") and mitte.get("hotel")
    north_ore = [h for h in east_land if h["terrain"] == "mountains"]
    assert fried["r"] == min(h["r"] for h in north_ore)  # row r grows southwards
    assert mitte["r"] > sum(h["r"] for h in east_land) / len(east_land)


def test_the_robber_has_a_desert_in_west_berlin():
    assert any(h["terrain"] == "desert" and h["side"] == "west" for h in TILES)


def test_wall_six_land_sections_and_one_over_the_water_between_west_and_east():
    sections = MAP["section"]
    water = [s for s in sections if s.get("water")]
    assert len(sections) == 7 and len(water) == 1
    for s in sections:
        for a, b in s["edges"]:
            ha, hb = _at(*a), _at(*b)
            assert _adjacent(ha, hb) and {ha["side"], hb["side"]} == {"west", "east"}
    (spree,) = water
    assert any(_at(*x)["terrain"] == "sea" for edge in spree["edges"] for x in edge)
    # every edge between a West and an East tile lies under the wall
    walled = {frozenset(map(tuple, e)) for s in sections for e in s["edges"]}
    for a in TILES:
        for b in TILES:
            if a["side"] == "west" and b["side"] == "east" and _adjacent(a, b):
                assert frozenset({(a["q"], a["r"]), (b["q"], b["r"])}) in walled


def test_components_hotel_cards_and_wall_costs():
    # Alexanderplatz "kostet mit einer '4' oder '10' zwei Getreide und einmal Holz, mit einer '5' oder '9' zwei
    # Getreide und zwei Holz und mit einer '6' oder '8' zwei Getreide, zwei Holz und eine Wolle"
    cards = {c["name"]: c for c in PARTS["hotel"]}
    alex = cards["Alexanderplatz"]
    assert sorted(alex["base"]) == ["grain", "grain", "lumber"]
    assert alex["plus_5_9"] == "lumber" and alex["plus_6_8"] == "wool"
    assert len(cards) == 6 and all(len(c["base"]) == 3 for c in cards.values())
    assert set(cards) == {h["name"] for h in TILES if h.get("hotel")}
    # "Ein Mauerstück oben kostet immer zwei Rohstoffe, ein unteres immer drei"
    land = {s["name"] for s in MAP["section"] if not s.get("water")}
    assert {w["section"] for w in PARTS["wall"]} == land
    assert all(len(w["upper"]) == 2 and len(w["lower"]) == 3 for w in PARTS["wall"])


def _broken(tmp_path, text, name="map.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('side = "west"', 'side = "middle"', 1), "side must be one of west, east"),
    (lambda t: t.replace("water = true\n", "", 1), "6 land sections and one water section"),
    (lambda t: t.replace("edges = [[[1, -3], [2, -3]]", "edges = [[[1, -3], [3, -3]]", 1),
     "is not two neighbouring hexes"),
    (lambda t: t.replace('name = "Stadtmitte"\nhotel = true', 'name = "Stadtmitte"', 1), "no hotel field"),
])
def test_a_broken_map_is_one_clear_error(tmp_path, edit, message):
    from simlib.games.mauerspechte.berlin import load_berlin

    text = (PACKAGE / "maps" / "berlin.toml").read_text()
    changed = edit(text)
    assert changed != text
    with pytest.raises(SimlibError, match=message):
        load_berlin(_broken(tmp_path, changed), "berlin")


def test_a_broken_components_file_is_one_clear_error(tmp_path):
    from simlib.games.mauerspechte.berlin import load_berlin

    text = (PACKAGE / "components.toml").read_text().replace('upper = ["brick", "lumber"]', 'upper = ["brick"]')
    with pytest.raises(SimlibError, match="Bernauer Straße' upper: needs 2 resources"):
        load_berlin("berlin", _broken(tmp_path, text, "parts.toml"))
