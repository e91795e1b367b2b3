"""Die Mauerspechte's games, replayed event by event by the independent reference
(tests/support/mauerspechte_reference.py, which derives the rules from docs/games/mauerspechte.md, the seed text and
the data files alone and imports nothing from simlib; nor does this driver: the runs come from the command line,
tests/support/cli_runs.py): every play of every policy alone and of mixed tables, at 3 and 4 players, once with the
shuffled layout, and with the other reading of the rule text wherever it can be read two ways (the reference takes
the readings from the options the lake records with the run), must be legal at every event and end on the rows of
the games, seats, wall_pieces, hotels, love_parades and production tables. Each check of the reference is shown to
catch a stream changed in one place."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from support.cli_runs import simulated_plays
from support.feel_reference import kept_standing
from support.mauerspechte_reference import (
    BERLIN,
    CHIP_CLASS,
    PRODUCES,
    RES,
    STEPS,
    THRESHOLDS,
    Illegal,
    MauerspechteReplay,
    check_tables,
    replay_game,
)

POLICIES = ("random", "weighted", "builder", "specht", "hotelier")
MIXED = {3: ["hotelier", "random", "specht"], 4: ["specht", "hotelier", "builder", "weighted"]}
TABLES = (*POLICIES, "mixed")
PLAYS, SEED = 10, 5
# The readings of the rule text (parameters.toml `reading`): the defaults and the other one each.
OTHER_READINGS = {"ship_sites": "any", "release_buy": "own_turn", "vp_chip_supply": "limited",
                  "knight_robber": "free", "love_parade_min_bid": 1}
READINGS = {"text": {}, "other": OTHER_READINGS}
CASES = ([(players, table, "fixed", "text") for players in (3, 4) for table in TABLES]
         + [(4, "random", "shuffled", "text"), (3, "random", "fixed", "other"), (4, "mixed", "fixed", "other"),
            (4, "random", "fixed", "other")])
# The rules as documented: a road does not join its owner's roads through an intersection of a standing wall
# section (the reference can also replay the other reading, roads_through_wall=True).
KERNEL_READING = {"roads_through_wall": False}
ACTIONS = {"hex", "harbour", "setup_settlement", "setup_road", "roll", "produce", "discard", "robber", "steal",
           "knight", "road", "ship", "settlement", "city", "buy_dev", "road_building", "year_of_plenty", "monopoly",
           "trade", "move_ship", "end_turn", "wall_chip", "wall_piece", "wall_open", "hotel_release", "hotel",
           "hotel_produce", "tiergarten", "bid", "pass", "pay", "parade", "card"}


@functools.cache
def every_case() -> dict[tuple[int, str, str, str], tuple[dict, ...]]:
    """PLAYS plays of every case of CASES, simulated through the command line (one batch), play by play, each
    with its run's options."""
    runs = {(players, table, layout, reading): (players, MIXED[players] if table == "mixed" else [table], PLAYS,
                                                SEED, {"layout": layout, **READINGS[reading]})
            for players, table, layout, reading in CASES}
    cases = simulated_plays("mauerspechte", runs, options=True)
    for plays in cases.values():
        for play in plays:
            play["events"].sort(key=lambda e: e["seq"])
    return cases


def played(players: int, table: str, layout: str = "fixed", reading: str = "text") -> tuple[dict, ...]:
    """The case's plays, each as its rows of every table and its run's options."""
    return every_case()[(players, table, layout, reading)]


def check_play(play: dict, players: int, layout: str, received: bool = True, **reading):
    game = replay_game(play["events"], players, layout, options=play["options"], **(reading or KERNEL_READING))
    (games_row,) = play["games"]
    check_tables(game, games_row, play["seats"], play.get("wall_pieces", []), play.get("hotels", []),
                 play.get("love_parades", []), play.get("production", []), received=received)
    replayed = game.replayed_standing(games_row["turns"])
    assert kept_standing(play["standings"]) == replayed, "the standings table is not the replayed points"
    return game


@pytest.mark.parametrize("players,table,layout,reading", CASES)
def test_events_replay_legally_to_the_tables(players, table, layout, reading):
    """Every event legal and affordable when it happens, production card for card, the wall, hotels, parades
    and special cards as the rules give them (in the run's readings of the text), and the end on the points (by
    source) and rows of the tables."""
    for play in played(players, table, layout, reading):
        assert play["options"]["layout"] == layout and READINGS[reading].items() <= play["options"].items()
        assert [e["seq"] for e in play["events"]] == list(range(len(play["events"])))
        check_play(play, players, layout)


def test_the_replayed_games_exercise_every_rule():
    """The games above hold every kind of event and the situations the rules single out, so that each check
    of the reference has been met by the kernel's games, not only by the tampered streams below."""
    seen = Counter()

    class Watched(MauerspechteReplay):
        def apply(self, e):
            seen[e["action"]] += 1
            super().apply(e)

        def on_robber(self, e, p):
            seen["robber across the closed wall" if self.wall_closed else "robber, wall open"] += 1
            if self.wall_closed and self.robber_by_knight:
                side = self.berlin.hex_side
                seen["a knight's robber staying on its side of the closed wall" if side[e["hex"]] == side[self.robber]
                     else "a knight's robber across the closed wall"] += 1
            super().on_robber(e, p)

        def on_wall_piece(self, e, p):
            seen["a lower piece with the supply empty"] += e["piece"] == "lower" and self.supply == 0
            seen["a wall piece bought at once on another's turn"] += p != self.turn % self.players
            super().on_wall_piece(e, p)

        def on_settlement(self, e, p):
            n, linked = e["node"], self.linked_ships(p)
            by = {self.edge_kind[f] if self.edge_kind[f] == "road" or f in linked else "unlinked ship"
                  for f in self.board.node_edges[n] if f >= 0 and self.edge_owner[f] == p}
            seen["a settlement reached only by an unlinked ship"] += by == {"unlinked ship"}
            seen["a settlement reached only by a linked ship"] += by == {"ship"}
            super().on_settlement(e, p)

        def on_wall_chip(self, e, p):
            seen["several thresholds at once"] += len(self.pending_thresholds()) > 1
            seen["a threshold placed on another's turn"] += p != self.turn % self.players
            super().on_wall_chip(e, p)

        def produce(self, dice):
            hotel = next((h for h, chip in self.hotel_chip.items() if chip == dice), None)
            if hotel is not None:
                field = self.berlin.hotel_field[hotel]
                r = RES[PRODUCES[self.terrain[field]]]
                claims = self.demand(dice)[:, r].sum()
                if self.robber == field:
                    seen["a hotel under the robber"] += 1
                elif self.bank[r] < 2 + claims and claims:
                    seen["a hotel shortage denying buildings"] += 1
            super().produce(dice)

        def on_parade(self, e, p):
            seen["a parade for a missing number"] += self.parade_missing
            super().on_parade(e, p)

        def on_card(self, e, p):
            seen["a special card neutralised"] += p is None
            super().on_card(e, p)

        def on_wall_open(self, e, p):
            seen["the water wall removed"] += e["section"] in self.berlin.water
            super().on_wall_open(e, p)

    for players, table, layout, reading in CASES:
        for play in played(players, table, layout, reading):
            game = Watched(players, layout, options=play["options"], **KERNEL_READING)
            for e in play["events"]:
                game.apply(e)
            game.finish()
            seen["won"] += play["games"][0]["completed"]
    assert set(seen) >= ACTIONS, ACTIONS - set(seen)
    situations = ["robber across the closed wall", "robber, wall open", "several thresholds at once",
                  "a threshold placed on another's turn", "a lower piece with the supply empty",
                  "a hotel under the robber", "a hotel shortage denying buildings", "a parade for a missing number",
                  "a special card neutralised", "the water wall removed", "won",
                  # the readings of the rule text, each met in its own runs
                  "a wall piece bought at once on another's turn", "a knight's robber across the closed wall",
                  "a knight's robber staying on its side of the closed wall",
                  "a settlement reached only by an unlinked ship"]
    assert all(seen[s] > 0 for s in situations), {s: seen[s] for s in situations}


def test_the_reference_imports_nothing_from_simlib():
    import subprocess
    import sys

    from support.paths import TESTS

    probe = ("import sys, support.mauerspechte_reference; "
             "print(' '.join(m for m in sys.modules if m.split('.')[0] == 'simlib'))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=TESTS, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []  # no simlib module was loaded


def test_the_reference_reads_the_map_as_the_text_counts_it():
    """What the reference derives from the map file honours the seed's counts and the docs' reading of the wall:
    36 tiles (9 sea, 2 deserts, 5 of each producing terrain), 25 tokens, 8 harbours, six land sections and one
    over a sea hex, 13 wall edges, six hotel fields in East Berlin on the 2, the 12 and four 3s/11s, the robber on
    the Tiergarten, West and East tiles meeting only under the wall, and ship edges nowhere under it."""
    B = BERLIN
    board = B.board
    tiles = [h for h in range(len(board.hex_coords)) if not B.hex_frame[h]]
    assert len(tiles) == 36
    assert Counter(board.hex_terrain[h] for h in tiles) == {"sea": 9, "desert": 2, "forest": 5, "hills": 5,
                                                              "pasture": 5, "fields": 5, "mountains": 5}
    tokens = Counter(board.hex_token[h] for h in tiles if board.hex_token[h])
    assert tokens == {2: 1, 3: 3, 4: 3, 5: 3, 6: 3, 8: 2, 9: 3, 10: 3, 11: 3, 12: 1}
    resources = ("lumber", "brick", "wool", "grain", "ore")
    assert Counter(B.harbour_kinds) == {(3, None): 3, **{(2, r): 1 for r in resources}}
    assert len(B.land_sections) == 6 and len(B.water) == 1
    assert sum(len(B.section_edges[s]) for s in B.sections) == 13
    for w in B.water:
        (sea,) = {h for e in B.section_edges[w] for h in board.edge_hexes[e] if board.hex_terrain[h] == "sea"}
        assert not B.hex_frame[sea] and len(B.water_neighbours[w]) == 2
    assert len(B.hotel_field) == 6 and all(B.hex_side[h] == "east" for h in B.hotel_field.values())
    assert sorted(board.hex_token[h] for h in B.hotel_field.values()) == [2, 3, 3, 11, 11, 12]
    assert B.hex_name[B.robber_start] == "Tiergarten"
    walled = set().union(*B.section_nodes.values())
    assert {n for n, side in enumerate(B.node_side) if side == "both"} <= walled
    assert not any(B.ship_edge[e] for s in B.sections for e in B.section_edges[s])
    assert all(sum(B.wall_cost[(s, piece)].values()) == (2 if piece == "upper" else 3) for s, piece in B.wall_cost)


# --- tampered streams -------------------------------------------------------------------------------------------
def find(where, cases=sorted(CASES, key=lambda case: case[1] in ("random", "weighted"))):  # short games first
    """The first (players, layout, events, index, game before that event) over the plays of `cases` where
    where(game, index, event, events) holds, the game being the reference's replay up to that event (in the
    run's readings: game.options)."""
    for players, table, layout, reading in cases:
        for play in played(players, table, layout, reading):
            events = play["events"]
            game = MauerspechteReplay(players, layout, options=play["options"], **KERNEL_READING)
            game.options = play["options"]
            for i, e in enumerate(events):
                if where(game, i, e, events):
                    return players, layout, events, i, game
                game.apply(e)
    raise LookupError("no play has the situation")


def other(cases=CASES, readings="other"):
    """The cases in the other readings of the text (or in the defaults: readings="text"), short games first."""
    return sorted((c for c in cases if c[3] == readings), key=lambda case: case[1] in ("random", "weighted"))


def next_step(events, i):
    """Index of the first step of the player on turn after event i (where a further action would go)."""
    return next(j for j in range(i + 1, len(events)) if events[j]["action"] in STEPS and not events[j]["free"])


def changed(events, i, **columns):
    return events[:i] + [dict(events[i], **columns)] + events[i + 1:]


def inserted(events, i, row):
    return events[:i] + [row] + events[i:]


def removed(events, i):
    return events[:i] + events[i + 1:]


def blank(e, **columns):
    """A row of the same play and turn with only the given columns set."""
    return {**{k: None for k in e}, "play_index": e["play_index"], "turn": e["turn"], "free": False, **columns}


def tampers():
    """What: (players, layout, the run's options, events, the message the reference must fail with)."""
    B = BERLIN
    walled_nodes = sorted(set().union(*B.section_nodes.values()))
    walled_edges = sorted(set().union(*B.section_edges.values()))
    water = next(iter(B.water))
    cases = {}

    def case(what, found, change, message):
        players, layout, events, i, game = found
        cases[what] = (players, layout, game.options, change(events, i, game), message)

    # set-up
    case("a set-up settlement under the wall", find(lambda g, i, e, ev: e["action"] == "setup_settlement"),
         lambda ev, i, g: changed(ev, i, node=walled_nodes[0]), "under the wall")
    case("a set-up road under the wall", find(lambda g, i, e, ev: e["action"] == "setup_road"),
         lambda ev, i, g: changed(ev, i, edge=walled_edges[0]), "under the wall")

    def same_side(ev, i, g):
        p = ev[i]["seat"]
        node = next(n for n in range(len(B.node_side)) if B.node_side[n] == g.setup_side[p] and g.settle_ok(n, p, True))
        return changed(ev, i, node=node)

    case("both set-up settlements on one side",
         find(lambda g, i, e, ev: e["action"] == "setup_settlement" and e["seat"] in g.setup_side),
         same_side, "like his first")

    # building under the wall, ships
    case("a road under a standing section", find(lambda g, i, e, ev: e["action"] == "road" and g.wall_closed),
         lambda ev, i, g: changed(ev, i, edge=walled_edges[0]), "under the wall")
    case("a settlement on a wall intersection", find(lambda g, i, e, ev: e["action"] == "settlement" and g.wall_closed),
         lambda ev, i, g: changed(ev, i, node=walled_nodes[0]), "under the wall")
    case("a ship on a land edge", find(lambda g, i, e, ev: e["action"] == "ship"),
         lambda ev, i, g: changed(ev, i, edge=next(x for x in range(len(B.ship_edge)) if not B.ship_edge[x]
                                                   and g.board.edge_land[x] and not g.edge_blocked(x)
                                                   and g.edge_owner[x] < 0)), "is not legal")

    # the robber
    def stays(ev, i, g):
        side = B.hex_side[g.robber]
        return changed(ev, i, hex=next(h for h in g.terrain if B.hex_side[h] == side and h != g.robber))

    case("the robber on its side of the closed wall after a 7",
         find(lambda g, i, e, ev: e["action"] == "robber" and g.wall_closed
              and ev[i - 1]["action"] in ("roll", "discard")),
         stays, "while the wall is closed")
    case("the robber on its side of the closed wall after a knight (knight_robber across, the default)",
         find(lambda g, i, e, ev: e["action"] == "robber" and g.wall_closed and ev[i - 1]["action"] == "knight",
              other(readings="text")), stays, "while the wall is closed")

    # thresholds
    first_chip = find(lambda g, i, e, ev: e["action"] == "wall_chip")
    case("a threshold chip left out", first_chip, lambda ev, i, g: removed(ev, i), "its chip not placed")
    case("a threshold chip by another than the leader", first_chip,
         lambda ev, i, g: changed(ev, i, seat=(g.leader()[0] + 1) % g.players), "the leader is")
    case("a threshold chip not due", find(lambda g, i, e, ev: e["action"] == "roll"),
         lambda ev, i, g: inserted(ev, i, blank(ev[i], action="wall_chip", seat=0, chip=THRESHOLDS[0],
                                               section=B.land_sections[0])), "none is due")
    case("threshold chips out of order",
         find(lambda g, i, e, ev: e["action"] == "wall_chip" and len(g.pending_thresholds()) > 1),
         lambda ev, i, g: changed(ev, i, chip=g.pending_thresholds()[1]), "is due first")
    case("a threshold chip under a section that has one",
         find(lambda g, i, e, ev: e["action"] == "wall_chip" and g.section_chip),
         lambda ev, i, g: changed(ev, i, section=next(iter(g.section_chip))), "without a chip")
    case("a threshold chip under the water wall", first_chip, lambda ev, i, g: changed(ev, i, section=water),
         "without a chip")

    # wall pieces
    upper = find(lambda g, i, e, ev: e["action"] == "wall_piece" and e["piece"] == "upper")
    case("two wall pieces in one turn", upper,
         lambda ev, i, g: inserted(ev, next_step(ev, i), dict(ev[i], piece="lower")), "a second wall piece in one turn")
    case("a lower piece before the upper", upper, lambda ev, i, g: changed(ev, i, piece="lower"), "lower piece of")
    case("a wall piece of a section not released", upper,
         lambda ev, i, g: changed(ev, i, section=next(s for s in B.land_sections if s not in g.section_chip)),
         "not released")

    def dearer_piece(g, i, e, ev):
        if e["action"] == "wall_piece":
            for s in g.section_chip:
                need = B.wall_cost[(s, "lower")]
                if g.bought[s] == ["upper"] and any(g.hands[e["seat"]][RES[r]] < n for r, n in need.items()):
                    g.dearer = s
                    return True
        return False

    case("a wall piece not affordable", find(dearer_piece),
         lambda ev, i, g: changed(ev, i, section=g.dearer, piece="lower"), "cannot pay the lower piece")
    lower = find(lambda g, i, e, ev: e["action"] == "wall_piece" and e["piece"] == "lower" and g.supply > 0)
    case("a lower piece without its Tiergarten chip", lower, lambda ev, i, g: removed(ev, i + 1), "expected tiergarten")
    case("a lower piece releasing another chip", lower,
         lambda ev, i, g: changed(ev, i + 2, chip=next(t for t in THRESHOLDS if t != ev[i + 2]["chip"])),
         "expected hotel_release")
    case("a lower piece releasing no hotel", lower, lambda ev, i, g: removed(ev, i + 2), "expected hotel_release")
    case("a lower piece leaving its section standing", lower, lambda ev, i, g: removed(ev, i + 3), "expected wall_open")
    case("a chip to the Tiergarten from an empty supply (vp_chip_supply limited)",
         find(lambda g, i, e, ev: e["action"] == "wall_piece" and e["piece"] == "lower" and g.supply == 0, other()),
         lambda ev, i, g: inserted(ev, i + 1, blank(ev[i], action="tiergarten", seat=ev[i]["seat"],
                                                   reason="lower_piece", waiting=g.tiergarten + 1)), "not tiergarten")
    case("the water wall left standing", find(lambda g, i, e, ev: e["action"] == "wall_open" and e["section"] == water),
         lambda ev, i, g: removed(ev, i), "expected wall_open")
    case("the water wall removed early",
         find(lambda g, i, e, ev: e["action"] == "wall_open" and e["section"] != water
              and any(g.standing[x] for x in B.water_neighbours[water] if x != e["section"])),
         lambda ev, i, g: inserted(ev, next_step(ev, i), dict(ev[i], section=water)), "out of place")

    # hotels
    hotel = find(lambda g, i, e, ev: e["action"] == "hotel")
    case("two hotels in one turn", hotel, lambda ev, i, g: inserted(ev, next_step(ev, i), ev[i]),
         "a second hotel in one turn")
    case("a hotel not released", hotel,
         lambda ev, i, g: changed(ev, i, hotel=next(h for h in B.hotel_field if h not in g.released)),
         "not released or already bought")
    case("a hotel with a chip not on offer", hotel,
         lambda ev, i, g: changed(ev, i, chip=next(t for t in THRESHOLDS if t not in g.offer)), "not on offer")
    case("a hotel on a wrong old token", hotel, lambda ev, i, g: changed(ev, i, old_token=ev[i]["old_token"] + 1),
         "old token")

    def dearer_hotel(g, i, e, ev):
        if e["action"] == "hotel":
            for h in g.released:
                for chip in g.offer:
                    if h not in g.hotel_owner and CHIP_CLASS[chip] > CHIP_CLASS[e["chip"]] and any(
                            g.hands[e["seat"]][RES[r]] < n for r, n in B.hotel_price(h, chip).items()):
                        g.dearer = (h, chip)
                        return True
        return False

    case("a hotel paid short (a dearer chip for the cards of a cheaper one)", find(dearer_hotel),
         lambda ev, i, g: changed(ev, i, hotel=g.dearer[0], chip=g.dearer[1], old_token=g.token[B.hotel_field[
             g.dearer[0]]]), "cannot pay hotel")

    # production
    def rolled_hotel(g, e):
        hotel = next((h for h, chip in g.hotel_chip.items() if e["action"] == "roll" and chip == e["dice"]), None)
        return (hotel, B.hotel_field[hotel], PRODUCES[g.terrain[B.hotel_field[hotel]]]) if hotel else (None,) * 3

    def hotel_short(g, i, e, ev):
        hotel, field, resource = rolled_hotel(g, e)
        if hotel is None or g.robber == field:
            return False
        claims = g.demand(e["dice"])[:, RES[resource]]
        g.denied = next(((q, int(claims[q]), resource) for q in range(g.players) if claims[q]), None)
        return g.bank[RES[resource]] < 2 + claims.sum() and g.denied is not None

    case("a hotel shortage paid to a settlement or city", find(hotel_short),
         lambda ev, i, g: inserted(ev, i + 1, blank(ev[i], action="produce", seat=g.denied[0], resource=g.denied[2],
                                                    amount=g.denied[1])), "produced")

    def robbed_hotel(g, i, e, ev):
        hotel, field, resource = rolled_hotel(g, e)
        g.robbed_hotel = hotel and (g.hotel_owner[hotel], hotel, resource)
        return hotel is not None and g.robber == field

    case("a hotel producing under the robber", find(robbed_hotel),
         lambda ev, i, g: inserted(ev, i + 1, blank(ev[i], action="hotel_produce", seat=g.robbed_hotel[0],
                                                    hotel=g.robbed_hotel[1], resource=g.robbed_hotel[2], amount=2)),
         "produced")
    case("a hotel's production left out", find(lambda g, i, e, ev: e["action"] == "hotel_produce"),
         lambda ev, i, g: removed(ev, i), "production missing")

    # the missing number and the Love Parade
    missing = find(lambda g, i, e, ev: e["action"] == "tiergarten" and e["reason"] == "missing_number")
    case("a missing number without its chip", missing, lambda ev, i, g: removed(ev, i), "expected tiergarten")
    parade = find(lambda g, i, e, ev: e["action"] == "bid" and ev[i - 1]["action"] not in ("bid", "pass")
                  and any(x["action"] == "bid" for x in ev[i + 1:i + 4]))  # an opening bid that is raised
    case("a Love Parade's opener passing", parade, lambda ev, i, g: changed(ev, i, action="pass", bid=None),
         "must bid")
    case("a bid out of turn", parade, lambda ev, i, g: changed(ev, i, seat=(ev[i]["seat"] + 1) % g.players),
         "out of turn")
    case("a bid above the bidder's hand", parade,
         lambda ev, i, g: changed(ev, i, bid=int(g.hands[ev[i]["seat"]].sum()) + 1), "holds")

    def not_raising(ev, i, g):
        j = next(j for j in range(i + 1, len(ev)) if ev[j]["action"] == "bid")
        return changed(ev, j, bid=ev[i]["bid"])

    case("a bid not raising", parade, not_raising, "at least")

    def no_parade(ev, i, g):
        j = next(j for j in range(i, len(ev)) if ev[j]["action"] == "parade")
        return ev[:i] + [x for x in ev[j + 1:] if x["action"] != "card" or x["turn"] != ev[i]["turn"]]

    case("no Love Parade on doubles with a chip waiting", parade, no_parade, "while the Love Parade's bidding runs")
    case("a parade price above its pay rows", find(lambda g, i, e, ev: e["action"] == "pay"),
         lambda ev, i, g: removed(ev, i), "expected pay")
    case("a parade row with another price than paid",
         find(lambda g, i, e, ev: e["action"] == "parade" and e["bid"] > 0),
         lambda ev, i, g: changed(ev, i, bid=ev[i]["bid"] - 1), "expected parade")
    case("a bid on a roll that is no doubles",
         find(lambda g, i, e, ev: e["action"] == "roll" and e["die_1"] != e["die_2"] and e["dice"] != 7),
         lambda ev, i, g: inserted(ev, next_step(ev, i), blank(ev[i], action="bid", seat=ev[i]["seat"], bid=0)),
         "out of place")

    # the special cards
    card = find(lambda g, i, e, ev: e["action"] == "card" and e["special_card"] == "bester_mauerspecht")
    case("Bester Mauerspecht not handed on", card, lambda ev, i, g: removed(ev, i), "expected card")
    case("Bester Mauerspecht to another seat", card,
         lambda ev, i, g: changed(ev, i, seat=next(q for q in range(g.players) if q != ev[i]["seat"])), "expected card")
    case("Bester Raver not handed on", find(lambda g, i, e, ev: e["action"] == "card" and e["special_card"] ==
                                            "bester_raver"), lambda ev, i, g: removed(ev, i), "expected card")

    # the harbours and the end
    harbour = find(lambda g, i, e, ev: e["action"] == "harbour")
    case("a harbour of another kind than the map's", harbour,
         lambda ev, i, g: changed(ev, i, rate=3, resource=None) if ev[i]["rate"] == 2
         else changed(ev, i, rate=2, resource="ore"), "the map says")
    case("a harbour row left out", harbour, lambda ev, i, g: removed(ev, i), "harbour rows missing")
    case("a trade at a better rate than the shuffled harbours give",
         find(lambda g, i, e, ev: e["action"] == "trade" and e["amount"] > 2,
              cases=[(4, "random", "shuffled", "text")]),
         lambda ev, i, g: changed(ev, i, amount=ev[i]["amount"] - 1), "trade at")
    players, table, layout, reading = CASES[0]
    won = next(play for play in played(players, table, layout, reading) if play["games"][0]["completed"])
    last = won["events"][-1]
    turn = won["games"][0]["turns"] - 1
    cases["a step by a player who had won"] = (players, layout, won["options"], won["events"] + [blank(
        last, action="roll", turn=turn, seat=turn % players, dice=4, die_1=2, die_2=2)], "he had won")

    # the readings of the rule text, each against the reading its run was played in
    def unlinked_site(g, i, e, ev):
        if e["action"] != "settlement" or not g.connected_ships:
            return False
        p, sites = e["seat"], []
        for n in range(len(B.node_side)):
            g.connected_ships = False
            if g.settle_ok(n, p, False):
                g.connected_ships = True
                if not g.settle_ok(n, p, False):
                    sites.append(n)
            g.connected_ships = True
        g.unlinked = sites[0] if sites else None
        return bool(sites)

    case("a settlement at the end of an unlinked ship (ship_sites connected)", find(unlinked_site),
         lambda ev, i, g: changed(ev, i, node=g.unlinked), "is not legal")
    released = find(lambda g, i, e, ev: e["action"] == "wall_chip" and e["seat"] != g.turn % g.players, other())

    def direct_piece(ev, i, g):
        return inserted(ev, i + 1, blank(ev[i], action="wall_piece", seat=ev[i]["seat"], section=ev[i]["section"],
                                         piece="upper", cards=2))

    case("a released piece bought at once on another's turn (release_buy own_turn)", released, direct_piece,
         "(release_buy own_turn)")
    case("a piece bought on another's turn but not the one just released (release_buy at_once)",
         find(lambda g, i, e, ev: e["action"] == "wall_piece" and e["seat"] != g.turn % g.players
              and any(x != e["section"] and not g.bought[x] for x in g.section_chip)),
         lambda ev, i, g: changed(ev, i, section=next(x for x in g.section_chip if x != ev[i]["section"]
                                                      and not g.bought[x])), "not right after putting its chip")
    case("a Love Parade opened at 0 (love_parade_min_bid 1)",
         find(lambda g, i, e, ev: e["action"] == "bid" and ev[i - 1]["action"] not in ("bid", "pass"), other()),
         lambda ev, i, g: changed(ev, i, bid=0), "at least 1")
    return cases


def test_the_reference_catches_tampered_events():
    """Each check of the reference fails on a stream changed in one place, with its own message (no other
    check catches the change first)."""
    missed = {}
    for what, (players, layout, options, events, message) in tampers().items():
        try:
            replay_game(events, players, layout, options=options, **KERNEL_READING)
            missed[what] = "not caught"
        except Illegal as caught:
            if message not in str(caught):
                missed[what] = f"caught by another check: {caught}"
    assert not missed


def test_the_tables_are_held_to_the_replay():
    """The end of a replay against the other tables: a row changed in one column is caught."""
    players, table, layout = 4, "specht", "fixed"
    play = next(p for p in played(players, table, layout) if p.get("hotels") and p.get("love_parades"))
    check_play(play, players, layout)

    def one_off(name, index, column):
        rows = [dict(r) for r in play[name]]
        rows[index][column] = (rows[index][column] or 0) + 1
        return {**play, name: rows}

    cases = {("seats", 0, "points"): "seats.points of seat 0", ("seats", 1, "points_wall"): "seats.points_wall",
             ("seats", 2, "points_chips"): "seats.points_chips", ("seats", 3, "hotels"): "seats.hotels",
             ("seats", 0, "longest_route"): "seats.longest_route",
             ("games", 0, "tiergarten_left"): "games.tiergarten_left",
             ("games", 0, "love_parades"): "games.love_parades", ("wall_pieces", 0, "cost"): "wall_pieces rows",
             ("hotels", 0, "chip"): "hotels rows", ("hotels", 0, "yield"): "replayed {'yield'",
             ("love_parades", 0, "price"): "love_parades rows", ("production", 0, "amount"): "production amounts",
             ("games", 0, "worst_rank"): "games feel: "}
    missed = {}
    for (name, index, column), message in cases.items():
        try:
            check_play(one_off(name, index, column), players, layout)
            missed[name, column] = "not caught"
        except Illegal as caught:
            if message not in str(caught):
                missed[name, column] = str(caught)
    assert not missed


def test_the_feel_check_sees_the_victory_point_cards_shown():
    """Here victory-point cards are shown at once: the features of a standing that kept them hidden until the end,
    as Catan does, are not the games table's in some plays."""
    from support.catan_reference import Replay

    class CardsHidden(MauerspechteReplay):
        in_view = Replay.in_view

    caught = 0
    for players in (3, 4):
        for play in played(players, "mixed"):
            game = CardsHidden(players, options=play["options"], **KERNEL_READING)
            for e in play["events"]:
                game.apply(e)
            try:
                check_tables(game, play["games"][0], play["seats"], play.get("wall_pieces", []),
                             play.get("hotels", []), play.get("love_parades", []))
            except Illegal as caught_here:
                assert "games feel: " in str(caught_here), caught_here
                caught += 1
    assert caught > 0


# Two disagreements this reference found, fixed in the kernel since and checked by every replay above:
# - a road joined its owner's roads through an intersection of a standing wall section (3 players, random,
#   seed 5, play 2, seq 401: seat 1's road on edge 122 at the frame and West Berlin's fields at (-2, 3) joined
#   his road 124 on East Berlin's coast only through intersection 89, the south end of Rudow, the wall closed);
# - seats.received_<resource> left out the hotels' production (4 players, random, seed 5, play 1: seat 3's
#   received_lumber 36 where the set-up, produce and hotel_produce rows give 44).
