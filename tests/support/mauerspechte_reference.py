"""A plain replay of Die Mauerspechte's `events`, one play at a time (tests only), independent of simlib.

It imports nothing from simlib: only the standard library, numpy and tests/support/catan_reference.py (the
independent Catan replay, itself free of simlib), whose published Catan rules (costs, deck, bank, pieces,
discards, steals, trade rates, development cards, longest route, largest army) and whose map topology (node
and edge numbering by first appearance over the map file's hexes, corners and sides) it reuses. Everything
the scenario adds is written out here from the rules alone: the seed text (shared/seeds/002_...txt) as
docs/games/mauerspechte.md reads it ("How simlib plays it" and "The open questions and what was decided"),
and the two data files, read here with tomllib: the map (maps/berlin.toml: `side`, `frame`, `hotel`, names,
and the wall's `[[section]]`s, each a chain of edges given as pairs of hex coordinates) and the components
(components.toml: the hotel cards' prices and the resources printed on the wall pieces).

What is derived from the map (here, not from the kernel): a section's edges are the sides its hex pairs
share, its intersections the ends of those edges; an intersection's side (West or East Berlin) is the side
of the land tiles at it (the tiles of both sides meet only under the wall, which the tests check); a ship
edge has water on both sides (a sea tile or a frame hex) and a sea tile on at least one; the water section's
neighbours are the land sections sharing an intersection with it; the robber starts on the first desert of
West Berlin in the file; the hotel fields are the hexes with `hotel = true`, named as their cards.

What is checked at every event (on top of tests/support/catan_reference.py's checks, which all still apply, with
15 / 17 points to win):
- the board: the `hex` events are the map's land, terrain and tokens as written (layout `fixed`), or with
  the terrain of the 19 producing hexes that are no hotel field permuted (layout `shuffled`: tokens, sea,
  deserts and hotel fields stay); the `harbour` rows (one per harbour place of the file, before the set-up)
  give the map's kinds (`fixed`) or an arrangement of them (`shuffled`), and the trade rates follow them;
- set-up: snake order, one settlement in West and one in East Berlin per player (either first; the second
  anywhere only if no legal intersection is left on the other side), never on a wall intersection, the
  road on a land edge not under the wall;
- builds: roads and settlements as in Catan but never on an intersection or edge of a standing section
  (a land section stands until its lower piece is bought, the water section until it is removed), and a
  road joins its owner's roads only at a free intersection that no standing section covers: a road to a
  wall intersection "leads nowhere until the wall opens" (open question 12; `roads_through_wall=True`
  lets roads pass such an intersection as Catan's rule alone would); ships only on ship edges not under a
  standing section, with no connection needed; moved ships likewise; a settlement touches its owner's road or
  ship, and in the reading `ship_sites = connected` (the text frees where a ship is built, not where a
  settlement is) a ship counts only in a line of his ships that reaches his settlement or city (joined at free
  intersections or his buildings);
- production per roll, card for card (`produce` rows per seat and resource, a `hotel_produce` row whenever
  the rolled hotel produces, 0 cards included): the settlements and cities beside hexes with the number (the hotel
  fields with their new tokens), not under the robber, and the hotel whose chip was rolled (2 cards of its
  field's resource to its owner, nothing while the robber stands on its field); for the hotel's resource the
  hotel is paid first: if the bank cannot pay the hotel's 2 and every building's claim, the owner gets
  min(2, bank) and no building any of that resource; every other resource by Catan's shortage rule;
- a 7: while the wall is closed (no lower piece bought yet) the robber must go to a land hex on the other side
  of the wall; afterwards to any other land hex; a knight likewise only in the reading `knight_robber =
  across`, else (`free`: the text names the 7 only) to any other land hex;
- thresholds 4, 5, 6, 8, 9, 10: before every step of the player on turn (the roll, a knight, each action,
  the end of the turn), every threshold the leading player (most points; on a tie the first in turn order
  from the player on turn) has reached and nobody reached before has had its `wall_chip`, lowest first,
  placed by that leader under a land section that never had a chip; a chip when none is due is illegal;
- wall pieces: by the player on turn after the roll, at most one per turn and player, only of a released
  section, the upper before the lower, paying the resources printed on it (components.toml); in the reading
  `release_buy = at_once` ("darf direkt ... erwerben") also by a player right after he put a threshold chip
  under that section on another's turn; a lower piece is followed, in this order, by a `tiergarten` chip
  (always with `vp_chip_supply = unlimited`, "8 (oder mehr)"; while the vp_chips last with `limited`), a
  `hotel_release` of an unreleased
  hotel with the section's chip now on offer, the section's `wall_open`, the water section's `wall_open` once
  both its neighbours are gone, and a `card` event when Bester Mauerspecht changes;
- hotels: by the player on turn after the roll, at most one per turn, a released hotel not yet bought with a
  chip on offer, paying the card's price for the chip's class (3 for a 4/10, 4 for a 5/9, 5 for a 6/8), the
  chip replacing the field's token (`old_token` is the one replaced);
- doubles: when the sum is on no hex any more (the 2 or 12 after its hotel), nothing is produced and a chip
  goes from the supply to the Tiergarten (none when the supply is empty); then, with a chip waiting, one Love
  Parade: bidding from the player on turn clockwise, skipping those who passed (a pass is final); the opener
  must bid at least love_parade_min_bid (if he holds that many cards), every other bid raises by at least one and
  at most to
  the bidder's hand; it ends when the highest bidder's turn to speak comes again or nobody is left; the
  winner pays exactly his bid as `pay` rows (cards he holds, to the bank), then `parade` (price, bidders);
- Bester Mauerspecht (after every wall piece) and Bester Raver (after every parade): the single player with
  the most wall pieces / chips (at least one) holds it, nobody when several share the most; a `card` event
  exactly when the holder changes (a null seat: neutralised);
- conservation after every event: bank + hands = 19 of each resource (95), chips supply + Tiergarten + held
  = the chips (8 with a limited supply); nobody plays a step of his turn with the points to win; nothing is left
  due when the events end.
The readings of the rule text come from the run's options (its `config` in the lake's runs table), each
written out here from the text: ship_sites (connected / any), release_buy (at_once / own_turn),
vp_chip_supply (unlimited / limited) with vp_chips, knight_robber (free / across), love_parade_min_bid.
`check_tables` then compares the replay's final state with the `games`, `seats`, `wall_pieces`, `hotels`,
`love_parades` and `production` rows of the play (points by source, the winner, counts, holders, received
cards, each purchase with its cost, each hotel's yield, robbed rolls and shortage, each parade, the cards
the settlements and cities got from rolls per seat and resource), and the games row's feel columns with the
features of the standing replayed here (every seat's points after each turn, all in view: victory-point cards
are shown at once, rule 10).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from support.catan_reference import (
    BANK_PER_RESOURCE,
    PRODUCES,
    RES,
    RESOURCES,
    Illegal,
    Replay,
    Topology,
    check,
    feel_of,
    topology,
)
from support.paths import SIMLIB  # the data files only

__all__ = ["Illegal", "MauerspechteReplay", "check_tables", "load_berlin", "replay_game"]

PACKAGE = SIMLIB / "games" / "mauerspechte"  # data files only
MAP_FILE = PACKAGE / "maps" / "berlin.toml"
COMPONENTS_FILE = PACKAGE / "components.toml"

# --- the scenario's rules, written out (docs/games/mauerspechte.md, parameters with their defaults) ----------
WIN_POINTS = {3: 17, 4: 15}        # seed: "bei drei Spielern 17 Siegpunkte bzw. bei vier Spielern 15"
THRESHOLDS = (4, 5, 6, 8, 9, 10)   # seed: "4, 5, 6, 8, 9 oder 10 Siegpunkte"
VP_CHIPS = 8                       # seed: "8 (oder mehr)": the supply when it is limited
WALL_PIECES_PER_TURN = HOTELS_PER_TURN = 1
WALL_PIECE_POINTS = CHIP_POINTS = MAUERSPECHT_POINTS = RAVER_POINTS = 1
HOTEL_POINTS = 0                   # assumed (issue 11)
HOTEL_YIELD = 2                    # seed: "Ein Hotel produziert wie eine Stadt"
CARD_MIN = 1                       # Bester Mauerspecht / Raver: at least one piece / chip
LOVE_PARADE_MIN_BID = 0
# The readings of the rule text where it can be read two ways (the run's options name them); the text's own first.
TEXT_READINGS = {"ship_sites": "connected", "release_buy": "at_once", "vp_chip_supply": "unlimited",
                 "knight_robber": "across", "vp_chips": VP_CHIPS, "love_parade_min_bid": LOVE_PARADE_MIN_BID}
CHIP_CLASS = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}   # hotel price in cards by the chip bought with it
TOTAL_CARDS = 5 * BANK_PER_RESOURCE                   # 95
MAX_TURNS = 1000
# A step of the player on turn: thresholds are settled and the win checked before each (free road-building
# pieces belong to the card's step).
STEPS = {"roll", "knight", "road", "ship", "settlement", "city", "buy_dev", "road_building", "year_of_plenty",
         "monopoly", "trade", "move_ship", "end_turn", "wall_piece", "hotel"}
# Rows that name another seat than the player on turn (the receiver, discarder, bidder, payer, holder, leader).
OTHERS_ACT = {"discard", "produce", "hotel_produce", "bid", "pass", "pay", "parade", "card", "wall_chip"}
# Rows that only come as the consequence of something else, in the order the replay expects them.
SCRIPTED = {"tiergarten", "hotel_release", "wall_open", "pay", "parade", "card"}


# --- the map's and the components' scenario data, derived from the files ----------------------------------------
@dataclass
class Berlin:
    board: Topology
    hex_side: list            # [H] "west", "east" or None (frame)
    hex_frame: list           # [H] bool
    hex_name: list            # [H] name or None
    hotel_field: dict         # hotel card name -> hex
    sections: list            # names in file order
    water: set                # names of water sections
    section_edges: dict       # name -> set of edges
    section_nodes: dict       # name -> set of nodes
    water_neighbours: dict    # water section -> land sections sharing an intersection with it
    node_side: list           # [N] "west", "east", None (no land) or "both" (only under the wall)
    ship_edge: list           # [E] water on both sides, a sea tile on one at least
    robber_start: int         # the first desert of West Berlin in the file
    harbour_nodes: list       # [K] the two nodes each harbour serves
    harbour_kinds: list       # [K] (rate, resource or None), as the file lays them
    hotel_base: dict          # hotel -> Counter of the 3 cards with a 4/10 chip
    hotel_plus_5_9: dict      # hotel -> resource
    hotel_plus_6_8: dict      # hotel -> resource
    wall_cost: dict = field(default_factory=dict)   # (section, "upper"/"lower") -> Counter

    @property
    def land_sections(self):
        return [s for s in self.sections if s not in self.water]

    def hotel_price(self, hotel, chip) -> Counter:
        price = Counter(self.hotel_base[hotel])
        if CHIP_CLASS[chip] >= 4:
            price[self.hotel_plus_5_9[hotel]] += 1
        if CHIP_CLASS[chip] >= 5:
            price[self.hotel_plus_6_8[hotel]] += 1
        return price


def load_berlin(map_file: Path = MAP_FILE, components_file: Path = COMPONENTS_FILE) -> Berlin:
    board = topology(str(map_file))
    with open(map_file, "rb") as f:
        data = tomllib.load(f)
    with open(components_file, "rb") as f:
        parts = tomllib.load(f)
    hexes = data["hex"]
    at = {c: h for h, c in enumerate(board.hex_coords)}
    hex_side = [h.get("side") for h in hexes]
    hex_frame = [bool(h.get("frame", False)) for h in hexes]
    hex_name = [h.get("name") for h in hexes]
    for h, spec in enumerate(hexes):
        assert hex_frame[h] == (hex_side[h] is None), f"hex {h}: a tile has a side, a frame hex none"
        assert not hex_frame[h] or spec["terrain"] == "sea"
    hotel_field = {hex_name[h]: h for h, spec in enumerate(hexes) if spec.get("hotel")}

    sections, water, section_edges, section_nodes = [], set(), {}, {}
    for s in data["section"]:
        name = s["name"]
        sections.append(name)
        if s.get("water"):
            water.add(name)
        edges = set()
        for a, b in s["edges"]:
            pair = {at[tuple(a)], at[tuple(b)]}
            found = [e for e, hs in enumerate(board.edge_hexes) if set(hs) == pair]
            assert len(found) == 1, f"section {name}: hexes {a} and {b} share no side"
            edges.add(found[0])
        section_edges[name] = edges
        section_nodes[name] = {n for e in edges for n in board.edge_nodes[e]}
    water_neighbours = {w: {s for s in sections if s not in water and section_nodes[s] & section_nodes[w]}
                        for w in water}

    def is_sea(h):
        return h >= 0 and board.hex_terrain[h] == "sea"

    node_side = []
    for hs in board.node_hexes:
        sides = {hex_side[h] for h in hs if h >= 0 and board.hex_terrain[h] != "sea"}
        node_side.append(None if not sides else sides.pop() if len(sides) == 1 else "both")
    ship_edge = [all(is_sea(h) for h in hs) and any(is_sea(h) and not hex_frame[h] for h in hs)
                 for hs in board.edge_hexes]
    robber_start = next(h for h, spec in enumerate(hexes) if spec["terrain"] == "desert" and hex_side[h] == "west")

    harbour_nodes, harbour_kinds = [], []
    for hb in data.get("harbour", []):
        h, k = at[(int(hb["q"]), int(hb["r"]))], int(hb["side"])
        harbour_nodes.append((board.hex_nodes[h][k - 1], board.hex_nodes[h][k]))
        harbour_kinds.append((int(hb["rate"]), hb.get("resource") if int(hb["rate"]) == 2 else None))

    hotel_base, plus_5_9, plus_6_8 = {}, {}, {}
    for card in parts["hotel"]:
        name = card["name"]
        assert name in hotel_field, f"hotel card {name} names no hotel field of the map"
        assert len(card["base"]) == 3 and all(r in RES for r in card["base"])
        hotel_base[name] = Counter(card["base"])
        plus_5_9[name], plus_6_8[name] = card["plus_5_9"], card["plus_6_8"]
    assert set(hotel_base) == set(hotel_field)
    berlin = Berlin(board, hex_side, hex_frame, hex_name, hotel_field, sections, water, section_edges,
                    section_nodes, water_neighbours, node_side, ship_edge, robber_start, harbour_nodes,
                    harbour_kinds, hotel_base, plus_5_9, plus_6_8)
    for wall in parts["wall"]:
        s = wall["section"]
        assert s in sections and s not in water, f"wall pieces for {s}, not a land section"
        assert len(wall["upper"]) == 2 and len(wall["lower"]) == 3  # seed: two and three resources
        berlin.wall_cost[(s, "upper")] = Counter(wall["upper"])
        berlin.wall_cost[(s, "lower")] = Counter(wall["lower"])
    assert {s for s, _ in berlin.wall_cost} == set(berlin.land_sections)
    return berlin


BERLIN = load_berlin()


# --- the replay ---------------------------------------------------------------------------------------------
class Auction:
    """One Love Parade's bidding: clockwise from the player on turn, passes final."""

    def __init__(self, players, opener):
        self.order = [(opener + i) % players for i in range(players)]
        self.passed: set = set()
        self.high = None          # the highest bid
        self.bidder = None        # who holds it
        self.bid_once: set = set()
        self.at = 0               # index in order of who speaks next

    def speaker(self):
        return self.order[self.at]

    def advance(self):
        """The next one to speak, skipping those who passed; None when the bidding is over."""
        for _ in range(len(self.order)):
            self.at = (self.at + 1) % len(self.order)
            q = self.order[self.at]
            if q == self.bidder:
                return None       # everyone else passed since his bid
            if q not in self.passed:
                return q
        return None               # nobody left


class MauerspechteReplay(Replay):
    def __init__(self, players: int, layout: str = "fixed", roads_through_wall: bool = False, berlin: Berlin = BERLIN,
                 options: dict | None = None):
        super().__init__(players, berlin.board)
        check(layout in ("fixed", "shuffled"), f"layout {layout}")
        reading = {k: (options or {}).get(k, v) for k, v in TEXT_READINGS.items()}
        check(reading["ship_sites"] in ("connected", "any") and reading["release_buy"] in ("at_once", "own_turn")
              and reading["vp_chip_supply"] in ("unlimited", "limited")
              and reading["knight_robber"] in ("free", "across"), f"readings {reading}")
        self.connected_ships = reading["ship_sites"] == "connected"
        self.release_at_once = reading["release_buy"] == "at_once"
        self.knight_across = reading["knight_robber"] == "across"
        self.min_bid = reading["love_parade_min_bid"]
        self.chip_total = reading["vp_chips"] if reading["vp_chip_supply"] == "limited" else float("inf")
        self.robber_by_knight = False        # the robber's move due comes from a knight (not a 7)
        self.chip_placed = None              # (seat, section) of the last event, a wall_chip
        self.berlin, self.layout, self.roads_through_wall = berlin, layout, roads_through_wall
        self.win_points = WIN_POINTS[players]
        self.hotel_due = {}                  # (seat, resource, hotel) -> cards the last roll owes a hotel
        self.queue = []                      # rows due next, in order: (action, {column: value}) or a callable
        self.auction = None
        # the wall
        self.standing = {s: True for s in berlin.sections}
        self.section_chip = {}               # section -> threshold chip put under it
        self.bought = {s: [] for s in berlin.land_sections}   # pieces bought, "upper" then "lower"
        self.passed_thresholds: list = []
        self.wall_closed = True
        self.wall_opened_turn = None
        self.wall_pieces = [0] * players
        self.wall_this_turn = Counter()     # seat -> wall pieces bought this turn
        self.hotel_this_turn = 0
        # hotels and chips
        self.released: list = []             # hotel cards released, in order
        self.offer: list = []                # chips on offer
        self.hotel_owner = {}                # hotel -> seat
        self.hotel_chip = {}                 # hotel -> chip
        self.supply, self.tiergarten = self.chip_total, 0
        self.chips = [0] * players
        self.mauerspecht = self.raver = None
        # what the tables report
        self.received = np.zeros((players, len(RESOURCES)), np.int64)
        self.produced = np.zeros((players, len(RESOURCES)), np.int64)  # by settlements and cities, from rolls
        self.dev_bought = [0] * players
        self.wall_log, self.hotel_log, self.parade_log = [], [], []
        self.hotel_stats = {}                # hotel -> {"yield", "robbed", "short"}
        self.missing_roll = False
        self.setup_side = {}                 # seat -> side of his first settlement
        self.harbours_seen = {}              # harbour place -> (rate, resource) from the `harbour` rows
        self.harbour_kind = None             # once all are seen: [(rate, resource or None)] per place

    # --- rules ---------------------------------------------------------------------------------------------
    def points(self, p):
        return (super().points(p) + WALL_PIECE_POINTS * self.wall_pieces[p] + CHIP_POINTS * self.chips[p]
                + MAUERSPECHT_POINTS * (self.mauerspecht == p) + RAVER_POINTS * (self.raver == p)
                + HOTEL_POINTS * sum(1 for q in self.hotel_owner.values() if q == p))

    def in_view(self, p):
        """All of a seat's points are in view: victory-point cards are shown at once ("sind sofort aufzudecken")."""
        return self.points(p)

    def leader(self):
        """Most points; on a tie the first in turn order from the player on turn."""
        pts = [self.points(q) for q in range(self.players)]
        start = self.turn % self.players if self.turn >= 0 else 0
        best = max(pts)
        return next((start + i) % self.players for i in range(self.players)
                    if pts[(start + i) % self.players] == best), best

    def pending_thresholds(self):
        _, best = self.leader()
        return [t for t in THRESHOLDS if t <= best and t not in self.passed_thresholds]

    def node_blocked(self, n):
        return any(self.standing[s] and n in self.berlin.section_nodes[s] for s in self.berlin.sections)

    def edge_blocked(self, e):
        return any(self.standing[s] and e in self.berlin.section_edges[s] for s in self.berlin.sections)

    def settle_ok(self, n, p, setup):
        if self.node_blocked(n) or not super().settle_ok(n, p, setup):
            return False
        if setup or not self.connected_ships:
            return True
        linked = self.linked_ships(p)
        return any(f >= 0 and self.edge_owner[f] == p and (self.edge_kind[f] == "road" or f in linked)
                   for f in self.board.node_edges[n])

    def linked_ships(self, p):
        """p's ships in a shipping line that reaches his settlement or city: from a ship at his building, on over
        intersections no other player's building stands on, to his next ship (Seafarers' line of ships)."""
        B = self.board
        ships = {e for e in range(len(self.edge_owner)) if self.edge_owner[e] == p and self.edge_kind[e] == "ship"}
        linked = {e for e in ships if any(self.node_owner[n] == p for n in B.edge_nodes[e])}
        todo = list(linked)
        while todo:
            e = todo.pop()
            for n in B.edge_nodes[e]:
                if self.node_owner[n] >= 0:
                    continue  # his own building starts lines itself; another's cuts the line
                for f in B.node_edges[n]:
                    if f in ships and f not in linked:
                        linked.add(f)
                        todo.append(f)
        return linked

    def route_ok(self, e, p, kind):
        """Free and not under a standing section; a ship on a ship edge with no connection needed; a road on a
        land edge joined to the player's building or to his road at a free intersection, which must not lie
        under a standing section unless `roads_through_wall` (a road to a wall intersection "leads nowhere
        until the wall opens", docs/games/mauerspechte.md, open question 12)."""
        B = self.board
        if self.edge_blocked(e) or self.edge_owner[e] >= 0:
            return False
        if kind == "ship":
            return self.berlin.ship_edge[e]
        if not B.edge_land[e]:
            return False
        for n in B.edge_nodes[e]:
            if self.node_owner[n] == p:
                return True
            if (self.node_owner[n] < 0 and (self.roads_through_wall or not self.node_blocked(n))
                    and any(f != e and self.edge_owner[f] == p and self.edge_kind[f] == kind for f in B.node_edges[n])):
                return True
        return False

    @staticmethod
    def holder(counts):
        """The single player with the most (at least CARD_MIN); None when nobody or several share it."""
        best = max(counts)
        leaders = [q for q, c in enumerate(counts) if c == best]
        return leaders[0] if best >= CARD_MIN and len(leaders) == 1 else None

    def card_due(self, card, new):
        old = self.mauerspecht if card == "bester_mauerspecht" else self.raver
        return [("card", {"special_card": card, "seat": new})] if new != old else []

    def pay_cards(self, p, price: Counter, what):
        price = np.array([price.get(r, 0) for r in RESOURCES], np.int64)
        check((self.hands[p] >= price).all(), f"seat {p} cannot pay {what} ({price.tolist()}) with "
                                              f"{self.hands[p].tolist()}")
        self.hands[p] -= price
        self.bank += price

    def rate(self, p, resource):
        """4:1, 3:1 at a generic harbour, 2:1 at the resource's harbour where he has a settlement or city, by the
        kinds the `harbour` rows laid."""
        best = 4
        for (a, b), (rate, what) in zip(self.berlin.harbour_nodes, self.harbour_kind):
            if (self.node_owner[a] == p or self.node_owner[b] == p) and what in (None, resource):
                best = min(best, rate)
        return best

    # --- the board ---------------------------------------------------------------------------------------------
    def check_board(self):
        B, berlin = self.board, self.berlin
        land = B.land_hexes
        check(sorted(self.terrain) == land, f"hex events for {sorted(self.terrain)}, the map's land is {land}")
        moving = [h for h in land if B.hex_terrain[h] in PRODUCES and berlin.hex_name[h] not in berlin.hotel_field]
        for h in land:
            token = B.hex_token[h] or None
            check(self.token.get(h) == token, f"hex {h} has token {self.token.get(h)}, the map says {token}")
            if self.layout == "fixed" or h not in moving:
                check(self.terrain[h] == B.hex_terrain[h], f"hex {h} is {self.terrain[h]}, the map says "
                                                           f"{B.hex_terrain[h]}")
        got = Counter(self.terrain[h] for h in moving)
        check(got == Counter(B.hex_terrain[h] for h in moving), f"the shuffled terrain {dict(got)} is not the map's")
        self.robber = berlin.robber_start
        self.board_checked = True

    # --- events ------------------------------------------------------------------------------------------------
    def apply(self, e: dict):
        action, p = e["action"], e["seat"]
        if action != "hex" and not self.board_checked:
            self.check_board()
        if action not in ("produce", "hotel_produce"):
            check(not self.production_due and not self.hotel_due,
                  f"production missing: {self.production_due} {self.hotel_due}")
            while self.queue and callable(self.queue[0]):
                self.queue.pop(0)()
        if e["turn"] is not None and e["turn"] != self.turn:
            check(e["turn"] == self.turn + 1 and not self.rolled, f"turn {e['turn']} began early")
            check(self.turn >= 0 or (self.setup_done == len(self.setup_order) and self.road_due is None),
                  "the first turn began before the set-up was over")
            self.close_turn()
            self.turn = e["turn"]
            self.card_played = self.ship_moved = False
            self.wall_this_turn = Counter()
            self.hotel_this_turn = 0
            self.new_cards = {q: Counter() for q in range(self.players)}
        mover = self.turn % self.players if self.turn >= 0 else None
        if action in ("produce", "hotel_produce"):
            pass  # right after a roll (checked by the production due)
        elif self.queue:
            want, columns = self.queue.pop(0)
            check(action == want and all(e.get(k) == v for k, v in columns.items()),
                  f"expected {want} {columns}, not {action} " + str({k: e.get(k) for k in columns}))
        elif self.auction is not None:
            check(action in ("bid", "pass"), f"{action} while the Love Parade's bidding runs")
        else:
            check(action not in SCRIPTED | {"bid", "pass"}, f"{action} out of place")
        # reading release_buy = at_once: the upper piece of the section a player has just put a threshold chip
        # under, bought at once on another's turn (not a step of the player on turn)
        chip_placed, self.chip_placed = self.chip_placed, None
        direct = action == "wall_piece" and mover is not None and p != mover
        if direct:
            check(self.release_at_once, f"seat {p} bought a wall piece on seat {mover}'s turn (release_buy own_turn)")
            check(chip_placed == (p, e["section"]), f"seat {p} bought a wall piece of {e['section']} on seat "
                                                    f"{mover}'s turn, not right after putting its chip there")
        step = action in STEPS and not e["free"] and not direct
        if mover is not None and step:
            check(self.points(mover) < self.win_points,
                  f"seat {mover} had {self.points(mover)} points on his turn: he had won")
            pending = self.pending_thresholds()
            check(not pending, f"threshold {pending} reached, its chip not placed before the next step")
        if action not in OTHERS_ACT and mover is not None and not direct:
            check(p == mover, f"seat {p} acted ({action}) on seat {mover}'s turn")
        if action not in ("road", "ship", "wall_chip") or not e["free"]:
            self.free_pieces = 0  # road building's pieces are placed at once (thresholds may be settled between)
        if self.discards_due and action != "discard":
            check(all(v == 0 for v in self.discards_due.values()), f"discards missing: {self.discards_due}")
            self.discards_due = {}
        if self.robber_due and action != "discard":
            check(action == "robber", f"the robber must move, not {action}")
            self.robber_due = False
        steal_due, self.steal_due = self.steal_due, False
        check((action == "steal") == steal_due, "a steal is due exactly after the robber moved beside an "
                                                "opponent holding cards")
        if action != "roll":
            check(e.get("die_1") is None and e.get("die_2") is None, f"die_1 / die_2 on {action}, not a roll")
        getattr(self, "on_" + action)(e, p)
        check((self.hands >= 0).all() and (self.bank >= 0).all(), "a negative hand or bank")
        check((self.hands.sum(axis=0) + self.bank == BANK_PER_RESOURCE).all()
              and self.hands.sum() + self.bank.sum() == TOTAL_CARDS, "resources not conserved")
        check(self.supply + self.tiergarten + sum(self.chips) == self.chip_total
              and min(self.supply, self.tiergarten) >= 0, "victory-point chips not conserved")

    def on_harbour(self, e, p):
        """The kind at each harbour place, before the set-up: as the map lays it (layout `fixed`), else an
        arrangement of the map's kinds over the same places."""
        k, rate, resource = e["harbour"], e["rate"], e["resource"]
        check(self.setup_done == 0 and 0 <= k < len(self.berlin.harbour_nodes) and k not in self.harbours_seen,
              f"harbour row {k} out of place")
        check((rate, resource) in set(self.berlin.harbour_kinds), f"harbour {k}: {rate}:1 {resource}, no kind of "
                                                                  "the map")
        if self.layout == "fixed":
            check((rate, resource) == self.berlin.harbour_kinds[k], f"harbour {k} is {rate}:1 {resource}, the map "
                                                                    f"says {self.berlin.harbour_kinds[k]}")
        self.harbours_seen[k] = (rate, resource)
        if len(self.harbours_seen) == len(self.berlin.harbour_nodes):
            kinds = [self.harbours_seen[i] for i in range(len(self.harbours_seen))]
            check(Counter(kinds) == Counter(self.berlin.harbour_kinds), f"harbour kinds {kinds}, not the map's")
            self.harbour_kind = kinds

    # set-up
    def on_setup_settlement(self, e, p):
        check(self.harbour_kind is not None, "harbour rows missing before the set-up")
        n, berlin = e["node"], self.berlin
        check(not self.node_blocked(n), f"set-up settlement on {n}, under the wall")
        side = berlin.node_side[n]
        check(side in ("west", "east"), f"set-up settlement on {n}, in neither West nor East Berlin")
        if p in self.setup_side:
            other = "east" if self.setup_side[p] == "west" else "west"
            if side != other:
                left = [m for m in range(len(berlin.node_side)) if berlin.node_side[m] == other
                        and self.settle_ok(m, p, setup=True)]
                check(not left, f"seat {p}'s second settlement on the {side} side like his first, while {other} "
                                f"has room ({left[:3]}...)")
        else:
            self.setup_side[p] = side
        before = self.hands[p].copy()
        super().on_setup_settlement(e, p)
        self.received[p] += self.hands[p] - before

    def on_setup_road(self, e, p):
        check(not self.edge_blocked(e["edge"]), f"set-up road on {e['edge']}, under the wall")
        super().on_setup_road(e, p)

    # the roll and production
    def on_roll(self, e, p):
        check(not self.rolled, "a second roll")
        dice = (e["die_1"], e["die_2"])
        check(all(d is not None and 1 <= d <= 6 for d in dice), f"a die showing {dice}")
        check(sum(dice) == e["dice"], f"dice {dice} do not make {e['dice']}")
        self.rolled = True
        self.robber_by_knight = False
        total = e["dice"]
        self.missing_roll = dice[0] == dice[1] and total not in self.token.values()
        if total == 7:
            self.robber_due = True
            self.discards_due = {q: int(self.hands[q].sum()) // 2 for q in range(self.players)
                                 if self.hands[q].sum() > 7}
        else:
            self.produce(total)
        if dice[0] == dice[1]:
            self.queue.append(self.after_doubles)

    def produce(self, dice):
        demand = self.demand(dice)  # the settlements and cities beside hexes with the number, not robbed
        hotel = next((h for h, chip in self.hotel_chip.items() if chip == dice), None)
        hotel_r = None
        if hotel is not None:
            field_hex = self.berlin.hotel_field[hotel]
            stats = self.hotel_stats[hotel]
            if self.robber == field_hex:
                stats["robbed"] += 1
                hotel = None
            else:
                hotel_r = RES[PRODUCES[self.terrain[field_hex]]]
        before = self.hands.copy()
        self.hotel_due = {}
        for r in range(len(RESOURCES)):
            entitled = np.nonzero(demand[:, r])[0]
            if r == hotel_r:
                owner = self.hotel_owner[hotel]
                if self.bank[r] >= HOTEL_YIELD + demand[:, r].sum():
                    for q in entitled:
                        self.take(q, r, demand[q, r])
                    paid = HOTEL_YIELD
                else:  # the scenario's shortage: the hotel first, no building gets any of it
                    paid = int(min(HOTEL_YIELD, self.bank[r]))
                self.take(owner, r, paid)
                self.hotel_stats[hotel]["short"] += HOTEL_YIELD - paid
                self.hotel_stats[hotel]["yield"] += paid
                self.hotel_due[(owner, RESOURCES[r], hotel)] = paid  # a row even for 0 cards (empty bank)
                continue
            if demand[:, r].sum() <= self.bank[r]:
                for q in entitled:
                    self.take(q, r, demand[q, r])
            elif len(entitled) == 1:  # Catan's shortage rule: a lone player gets what is left
                self.take(entitled[0], r, self.bank[r])
        got = self.hands - before
        for (q, res, _), amount in self.hotel_due.items():
            got[q, RES[res]] -= amount
        self.production_due = {(q, r): int(got[q, r]) for q in range(self.players) for r in range(len(RESOURCES))
                               if got[q, r]}
        self.produced += got
        self.received += self.hands - before

    def on_hotel_produce(self, e, p):
        key = (p, e["resource"], e["hotel"])
        check(self.hotel_due.pop(key, None) == e["amount"], f"hotel {e['hotel']} produced {e['amount']} "
                                                            f"{e['resource']} for seat {p}")

    def after_doubles(self):
        """After a roll of doubles and its production: a chip for a missing number, then a Love Parade."""
        mover = self.turn % self.players
        if self.missing_roll and self.supply > 0:
            self.queue[:0] = [("tiergarten", {"reason": "missing_number", "seat": mover,
                                              "waiting": self.tiergarten + 1}), self.start_parade]
        else:
            self.start_parade()

    def start_parade(self):
        if self.tiergarten > 0:
            self.auction = Auction(self.players, self.turn % self.players)
            self.parade_missing = self.missing_roll

    def on_tiergarten(self, e, p):
        check(self.supply > 0, "a chip to the Tiergarten from an empty supply")
        self.supply -= 1
        self.tiergarten += 1

    # the Love Parade
    def on_bid(self, e, p):
        a = self.auction
        check(p == a.speaker(), f"seat {p} bid out of turn (seat {a.speaker()} speaks)")
        bid, hand = e["bid"], int(self.hands[p].sum())
        least = self.min_bid if a.high is None else a.high + 1
        check(bid is not None and least <= bid <= hand, f"seat {p} bid {bid} (at least {least}, holds {hand})")
        a.high, a.bidder = bid, p
        a.bid_once.add(p)
        self.next_speaker()

    def on_pass(self, e, p):
        a = self.auction
        check(p == a.speaker(), f"seat {p} passed out of turn (seat {a.speaker()} speaks)")
        hand = int(self.hands[p].sum())
        if a.high is None and p == a.order[0]:
            check(hand < self.min_bid, f"the opener, seat {p}, passed holding {hand} cards: he must bid")
        a.passed.add(p)
        self.next_speaker()

    def next_speaker(self):
        a = self.auction
        if a.advance() is not None:
            return
        self.auction = None
        if a.bidder is None:  # nobody bid: the chip stays
            return
        self.queue[:0] = ([("pay", {"seat": a.bidder})] * a.high
                          + [("parade", {"seat": a.bidder, "bid": a.high, "bidders": len(a.bid_once)})])

    def on_pay(self, e, p):
        self.pay_cards(p, Counter([e["resource"]]), "a Love Parade card")

    def on_parade(self, e, p):
        check(self.tiergarten > 0, "a parade with no chip in the Tiergarten")
        self.tiergarten -= 1
        self.chips[p] += 1
        self.parade_log.append({"turn": self.turn, "seat": p, "price": e["bid"], "bidders": e["bidders"],
                                "missing_number": self.parade_missing, "seat_on_turn": self.turn % self.players})
        self.queue[:0] = self.card_due("bester_raver", self.holder(self.chips))

    def on_card(self, e, p):
        if e["special_card"] == "bester_mauerspecht":
            self.mauerspecht = p
        else:
            check(e["special_card"] == "bester_raver", f"card {e['special_card']}")
            self.raver = p

    # the robber
    def on_knight(self, e, p):
        super().on_knight(e, p)
        self.robber_by_knight = True

    def on_robber(self, e, p):
        h = e["hex"]
        if self.wall_closed and (self.knight_across or not self.robber_by_knight):
            check(h in self.terrain and self.berlin.hex_side[h] != self.berlin.hex_side[self.robber],
                  f"the robber stayed on the {self.berlin.hex_side[self.robber]} side (hex {self.robber} -> {h}) "
                  "while the wall is closed")
        super().on_robber(e, p)

    # building
    def on_road(self, e, p):
        edge = e["edge"]
        check(not self.edge_blocked(edge), f"road on {edge}, under the wall")
        if not self.roads_through_wall and not self.route_ok(edge, p, "road"):
            self.roads_through_wall = True
            through = self.route_ok(edge, p, "road")
            self.roads_through_wall = False
            walls = [n for n in self.board.edge_nodes[edge] if self.node_blocked(n)]
            check(not through, f"road on {edge} joins seat {p}'s roads only through the standing wall's "
                               f"intersection {walls}")
        super().on_road(e, p)

    def on_ship(self, e, p):
        check(not self.edge_blocked(e["edge"]), f"ship on {e['edge']}, under the wall")
        super().on_ship(e, p)

    def on_settlement(self, e, p):
        check(not self.node_blocked(e["node"]), f"settlement on {e['node']}, under the wall")
        super().on_settlement(e, p)

    def on_buy_dev(self, e, p):
        super().on_buy_dev(e, p)
        self.dev_bought[p] += 1

    def on_trade(self, e, p):
        check(self.rolled, "traded before the roll")
        give, get = e["resource"], e["resource_2"]
        check(give in RES and get in RES and give != get, f"traded {give} for {get}")
        check(e["amount"] == self.rate(p, give), f"trade at {e['amount']}:1, due {self.rate(p, give)}")
        self.pay(p, np.array([e["amount"] if r == give else 0 for r in RESOURCES], np.int64))
        self.take(p, RES[get])

    # the wall
    def on_wall_chip(self, e, p):
        pending = self.pending_thresholds()
        check(pending, f"threshold chip {e['chip']} placed, none is due")
        check(e["chip"] == pending[0], f"threshold chip {e['chip']} placed, {pending[0]} is due first")
        who, best = self.leader()
        check(p == who, f"seat {p} placed threshold chip {e['chip']}, the leader is seat {who} ({best} points)")
        s = e["section"]
        check(s in self.bought and s not in self.section_chip, f"threshold chip under {s}: not a land section "
                                                               "without a chip")
        self.section_chip[s] = e["chip"]
        self.passed_thresholds.append(e["chip"])
        self.chip_placed = (p, s)

    def on_wall_piece(self, e, p):
        s, piece = e["section"], e["piece"]
        check(self.rolled, "a wall piece before the roll")
        check(self.wall_this_turn[p] < WALL_PIECES_PER_TURN, f"seat {p}: a second wall piece in one turn")
        check(s in self.section_chip, f"wall piece of {s}, not released")
        check(self.bought[s] + [piece] in (["upper"], ["upper", "lower"]), f"{piece} piece of {s}, after "
                                                                           f"{self.bought[s]}")
        self.pay_cards(p, self.berlin.wall_cost[(s, piece)], f"the {piece} piece of {s}")
        self.wall_this_turn[p] += 1
        self.bought[s].append(piece)
        self.wall_pieces[p] += 1
        self.wall_log.append({"section": s, "piece": piece, "seat": p, "turn": self.turn,
                              "cost": sum(self.berlin.wall_cost[(s, piece)].values())})
        due = []
        if piece == "lower":
            if self.supply > 0:
                due.append(("tiergarten", {"reason": "lower_piece", "seat": p, "waiting": self.tiergarten + 1}))
            due.append(("hotel_release", {"seat": p, "chip": self.section_chip[s]}))
            due.append(("wall_open", {"seat": p, "section": s}))
            for w, near in self.berlin.water_neighbours.items():
                if self.standing[w] and all(len(self.bought[x]) == 2 for x in near):
                    due.append(("wall_open", {"seat": p, "section": w}))
            if self.wall_closed:
                self.wall_closed = False
                self.wall_opened_turn = self.turn
        self.queue[:0] = due + self.card_due("bester_mauerspecht", self.holder(self.wall_pieces))

    def on_hotel_release(self, e, p):
        h = e["hotel"]
        check(h in self.berlin.hotel_field and h not in self.released, f"hotel {h} released twice or unknown")
        self.released.append(h)
        self.offer.append(e["chip"])

    def on_wall_open(self, e, p):
        s = e["section"]
        check(self.standing.get(s), f"section {s} opened twice or unknown")
        self.standing[s] = False

    # hotels
    def on_hotel(self, e, p):
        h, chip = e["hotel"], e["chip"]
        check(self.rolled, "a hotel before the roll")
        check(self.hotel_this_turn < HOTELS_PER_TURN, f"seat {p}: a second hotel in one turn")
        check(h in self.released and h not in self.hotel_owner, f"hotel {h} is not released or already bought")
        check(chip in self.offer, f"chip {chip} is not on offer ({self.offer})")
        field_hex = self.berlin.hotel_field[h]
        check(e["old_token"] == self.token.get(field_hex), f"hotel {h}: old token {e['old_token']}, the field "
                                                            f"carries {self.token.get(field_hex)}")
        price = self.berlin.hotel_price(h, chip)
        self.pay_cards(p, price, f"hotel {h} with a {chip}")
        self.hotel_this_turn += 1
        self.offer.remove(chip)
        self.hotel_owner[h], self.hotel_chip[h] = p, chip
        self.token[field_hex] = chip
        self.hotel_stats[h] = {"yield": 0, "robbed": 0, "short": 0}
        self.hotel_log.append({"hotel": h, "field": field_hex, "resource": PRODUCES[self.terrain[field_hex]],
                               "chip": chip, "old_token": e["old_token"], "seat": p, "turn": self.turn,
                               "cost": sum(price.values())})

    def finish(self):
        while self.queue and callable(self.queue[0]):
            self.queue.pop(0)()
        check(not self.queue, f"rows still due at the end: {self.queue[:3]}")
        check(self.auction is None, "the game ended inside a Love Parade")
        check(not self.hotel_due, f"hotel production missing at the end: {self.hotel_due}")
        super().finish()
        check(len(self.released) == len(self.offer) + len(self.hotel_owner), "released hotels and chips on offer "
                                                                             "differ in number")


def replay_game(events: list[dict], players: int, layout: str = "fixed", roads_through_wall: bool = False,
                options: dict | None = None) -> MauerspechteReplay:
    """Replays one play's events in `seq` order, then checks nothing is left due; `options`: the run's (its
    readings of the rule text; the text's own where one is missing)."""
    game = MauerspechteReplay(players, layout, roads_through_wall, options=options)
    for e in events:
        game.apply(e)
    game.finish()
    return game


def check_tables(game: MauerspechteReplay, games_row: dict, seat_rows: list[dict], wall_rows: list[dict],
                 hotel_rows: list[dict], parade_rows: list[dict], production_rows: list[dict] | None = None,
                 received: bool = True):
    """The replay's end against the play's rows of the other tables; `received`: compare the seats'
    received_<resource> too (docs/lake.md: set-up and production, hotels included)."""
    P = game.players
    points = [int(game.points(q)) for q in range(P)]
    check(games_row["final_points"] == points, f"final points {games_row['final_points']}, replayed {points}")
    if games_row["completed"]:
        winner = (games_row["turns"] - 1) % P
        check(games_row["winners"] == [winner] and points[winner] >= game.win_points
              and games_row["winner_points"] == points[winner] and games_row["end_reason"] == "won",
              f"winner {games_row['winners']} with {games_row['winner_points']}, replayed {points}")
        # the winner's last turn may have begun without a row (he had won before his first step)
        check(game.turn in (games_row["turns"] - 1, games_row["turns"] - 2),
              f"{games_row['turns']} turns, the events reach turn {game.turn}")
    else:
        check(games_row["winners"] == [] and games_row["end_reason"] == "turn_limit"
              and games_row["turns"] == MAX_TURNS == game.turn + 1, "a game neither won nor at the turn limit")
    if "worst_rank" in games_row:  # not in a table written before the feel columns existed
        why = feel_of(game, games_row)
        check(why is None, f"games feel: {why}")
    summary = {"wall_opened_turn": game.wall_opened_turn, "wall_pieces": sum(game.wall_pieces),
               "hotels": len(game.hotel_owner), "love_parades": len(game.parade_log),
               "tiergarten_left": game.tiergarten}
    for k, v in summary.items():
        check(games_row[k] == v, f"games.{k} = {games_row[k]}, replayed {v}")
    for q, row in enumerate(sorted(seat_rows, key=lambda s: s["seat"])):
        settlements = int(((game.node_owner == q) & (game.node_level == 1)).sum())
        cities = int(((game.node_owner == q) & (game.node_level == 2)).sum())
        hotels = sum(1 for o in game.hotel_owner.values() if o == q)
        mine = {
            "points": points[q], "points_settlements": settlements, "points_cities": 2 * cities,
            "points_longest_route": 2 * (game.longest == q), "points_army": 2 * (game.army == q),
            "points_dev_cards": game.cards[q]["victory_point"],
            "points_wall": WALL_PIECE_POINTS * game.wall_pieces[q], "points_chips": CHIP_POINTS * game.chips[q],
            "points_mauerspecht": MAUERSPECHT_POINTS * (game.mauerspecht == q),
            "points_raver": RAVER_POINTS * (game.raver == q), "points_hotels": HOTEL_POINTS * hotels, "hotels": hotels,
            "settlements": settlements, "cities": cities, "roads": game.pieces(q, "road"),
            "ships": game.pieces(q, "ship"), "dev_bought": game.dev_bought[q], "knights": game.knights[q],
            "longest_route": game.routes[q], "winner": games_row["winners"] == [q]}
        if received:
            mine.update({f"received_{r}": int(game.received[q, i]) for i, r in enumerate(RESOURCES)})
        for k, v in mine.items():
            check(row[k] == v, f"seats.{k} of seat {q} = {row[k]}, replayed {v}")
        check(sum(row[k] for k in row if k.startswith("points_")) == row["points"], f"seat {q}: points_* do not add up")
    wall = [{k: r[k] for k in ("section", "piece", "seat", "turn", "cost")} for r in wall_rows]
    check(wall == game.wall_log, f"wall_pieces rows {wall}, replayed {game.wall_log}")
    hotels = sorted(({k: r[k] for k in ("hotel", "field", "resource", "chip", "old_token", "seat", "turn", "cost")}
                     for r in hotel_rows), key=lambda r: r["turn"])
    check(hotels == game.hotel_log, f"hotels rows {hotels}, replayed {game.hotel_log}")
    for r in hotel_rows:
        stats = game.hotel_stats[r["hotel"]]
        check(all(r[k] == v for k, v in stats.items()), f"hotel {r['hotel']}: {[r[k] for k in stats]}, replayed "
                                                         f"{stats}")
    if production_rows is not None:  # settlements' and cities' cards from rolls, per seat and resource
        table = np.zeros_like(game.produced)
        for r in production_rows:
            table[r["seat"], RES[r["resource"]]] += r["amount"]
        check((table == game.produced).all(), f"production amounts {table.tolist()}, replayed "
                                              f"{game.produced.tolist()}")
    parades = [{k: r[k] for k in ("turn", "seat", "price", "bidders", "missing_number", "seat_on_turn")}
               for r in parade_rows]
    check(parades == game.parade_log, f"love_parades rows {parades}, replayed {game.parade_log}")
