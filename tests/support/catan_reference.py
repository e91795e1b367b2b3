"""A plain replay of Catan's `events`, one game at a time (tests only), independent of simlib.

It imports nothing from simlib (only the standard library and numpy): everything it knows is written
out here from the published rules (Catan base game and Seafarers, docs/games/catan.md) or derived here
from the map file, and the rest comes from the events alone. Hands, bank, buildings, routes,
development cards and the robber are tracked from the events, and every event is checked:
- every action is affordable and legal when it happens, by the seat whose turn it is (a steal too: the
  thief is the mover; discards and produce name the seat discarding or receiving), and trades, builds,
  purchases and ship moves come after the roll (knights and the other development cards may come before);
- settlements keep the distance rule (no building on a neighbouring node), in the set-up too;
- production is recomputed at every roll (each building level beside a hex with the dice's token, not
  under the robber; when the bank cannot pay everybody entitled to a resource, nobody gets it unless only
  one player is entitled, who gets what is left) and matched card for card with the `produce` events;
- a 7: whoever holds more than 7 cards discards half rounded down, then the robber moves; a steal follows
  a robber move (after a 7 or a knight) exactly when an opponent beside the new hex holds cards, and only
  from such an opponent, of a card he holds;
- a trade gives 4 of a resource for 1, 3 at a generic harbour, 2 at that resource's harbour, only at
  harbours where the player has a settlement or city, always the best rate he has;
- the dice: a sum two dice can make, and when the events carry `die_1` and `die_2` (roll rows only, null
  elsewhere), each die 1..6 and their sum the `dice`;
- resources are conserved after every event, nobody plays on with 10 points, and nothing is left due
  when the events end (production, discards, the robber, a steal).
The holders of the longest-route card (>= 5, the holder keeps it on a tie, a tie without him sets it
aside) and the largest-army card (>= 3 knights, strictly more than the holder) are kept from the
events; the final points, route lengths and holders are returned for comparison with the `seats` table.
How the play felt (docs/statistics.md, "How a play feels") is checked on the standing replayed here: every
seat's points as the table sees them after each turn (a victory-point card stays hidden in the hand until the
game ends; the last turn's row is the final points), with tests/support/feel_reference.py's features
(`feel_mismatch`), against the `games` row.

What is written out (published facts): the building costs, the 25 development cards, the bank of 19
per resource, the pieces per player, the thresholds (longest route 5, largest army 3, 10 points to
win, more than 7 cards discard half), the trade rates 4:1 / 3:1 / 2:1, which terrain produces which
resource, the standard board's terrain counts and number tokens A-R, and the dice (the ways two dice
make each sum, checked against an enumeration of the 36 throws). Resources, terrains and development
cards are named by the text the events carry (`resource` = "lumber", `terrain` = "forest", `card` =
"knight", ...); the reference never needs simlib's numeric order of them: its own arrays use RESOURCES
below, and every event is translated by name.

What is derived (the map's topology, from the map file read with tomllib): hexes are pointy-top at
axial (q, r) as the file gives them, hex index = position in the file's hex list (the events' `hex`).
Each hex's centre and six corners are put on an integer lattice (x in units of sqrt(3)/2, y in units of
1/2, circumradius 1: centre (2q + r, -3r), corner k at 30 + 60k degrees). A node (intersection) is a
corner point, shared by the map hexes that have it; the three hexes around it are the lattice centres
one corner-offset away (on the map or not); an edge (path) is a side, the segment between corners k-1
and k, and the hexes it separates are those its two corner points share; side k faces the neighbour at
60k degrees (E, NE, NW, W, SW, SE for k = 0..5), which is how a harbour's `side` is read. Nodes and
edges touching a land hex are land (settlements, roads), edges touching a sea hex are sea (ships; at the
frame's outer rim too, as docs/games/catan.md reads "bordering sea"); a harbour serves the two corners
of its sea hex's side facing land. Terrain and tokens of the board are read from the `hex` events and
checked against the map file: fixed ones as written, drawn ones against the published counts, and
spiral tokens against the published A-R order counter-clockwise from a corner of the outer ring,
ring by ring inwards, skipping the desert (any of the six corners).

Numbering (the one convention shared with the kernel: the events carry bare node and edge indices,
and the map file does not define them): nodes and edges are numbered in order of first appearance,
walking the file's hexes in order, each hex's corners k = 0..5 (counter-clockwise from the one at 30
degrees, between the sides facing E and NE) and sides k = 0..5 (from the one facing E). That the
numbers and every relation derived here (hexes around a node, a node's nodes and edges, an edge's nodes
and hexes, land, sea, harbours) are exactly the kernel's is checked in one place, by geometry:
tests/catan/test_catan_board.py::test_the_reference_topology_is_the_kernels (which may import simlib).

The longest route is a plain recursive search of every trail (each piece at most once) over the
player's roads and ships: a trail does not pass through an opponent's settlement or city, and a road and
a ship follow each other only at the player's own settlement or city. The same Seafarers rule (roads
and ships join only at one's own building) decides which ship may move: the last ship of an open
shipping route, i.e. one with an end where the player has neither a building nor another ship.
Set-up is in snake order (0, 1, .., 1, 0), a road right after each settlement, before the first turn.
A 7 (after the discards) and a knight must move the robber, and a steal must follow a robber move
exactly when an opponent beside the new hex holds cards.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from support.feel_reference import feel_mismatch
from support.paths import SIMLIB  # the data files only

MAPS = SIMLIB / "games" / "catan" / "maps"  # data files only

# --- the published rules, written out -------------------------------------------------------------------
RESOURCES = ("lumber", "brick", "wool", "grain", "ore")
RES = {r: i for i, r in enumerate(RESOURCES)}
PRODUCES = {"forest": "lumber", "hills": "brick", "pasture": "wool", "fields": "grain", "mountains": "ore"}
LAND_TERRAINS = (*PRODUCES, "desert")
STANDARD_TERRAINS = {"forest": 4, "hills": 3, "pasture": 4, "fields": 4, "mountains": 3, "desert": 1}
TOKENS_A_TO_R = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)  # laid along the spiral
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}  # ways two dice make the sum
assert PIPS == Counter(a + b for a in range(1, 7) for b in range(1, 7))


def cost(**cards) -> np.ndarray:
    return np.array([cards.get(r, 0) for r in RESOURCES], np.int64)


COST = {"road": cost(brick=1, lumber=1), "settlement": cost(brick=1, lumber=1, grain=1, wool=1),
        "city": cost(grain=2, ore=3), "buy_dev": cost(wool=1, grain=1, ore=1), "ship": cost(lumber=1, wool=1)}
DEV_DECK = {"knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2}
assert sum(DEV_DECK.values()) == 25
BANK_PER_RESOURCE = 19
PIECES = {"settlement": 5, "city": 4, "road": 15, "ship": 15}
LONGEST_ROUTE_MIN, LARGEST_ARMY_MIN, POINTS_TO_WIN = 5, 3, 10
DISCARD_ABOVE = 7  # a 7: whoever holds more than 7 cards discards half, rounded down
BANK_RATE, GENERIC_HARBOUR_RATE, RESOURCE_HARBOUR_RATE = 4, 3, 2


# --- the map's topology, derived from the map file --------------------------------------------------------
CORNERS = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))  # corner k at 30 + 60k degrees, lattice units


def centre(q: int, r: int) -> tuple[int, int]:
    return 2 * q + r, -3 * r


def axial(x: int, y: int) -> tuple[int, int] | None:
    """The hex whose centre is the lattice point (x, y), or None if no hex centre lies there."""
    if y % 3 or (x + y // 3) % 2:
        return None
    r = -y // 3
    return (x - r) // 2, r


def facing(q: int, r: int, k: int) -> tuple[int, int]:
    """The hex across side k (the side between corners k-1 and k): one centre-to-centre step at 60k degrees."""
    (x, y), (a, b), (c, d) = centre(q, r), CORNERS[k - 1], CORNERS[k]
    return axial(x + a + c, y + b + d)


@dataclass
class Topology:
    name: str
    hex_coords: list          # [H] (q, r), in the file's order: the events' hex index
    hex_terrain: list         # [H] as written in the file: a terrain, "sea" or "random"
    hex_token: list           # [H] as written: a number, 0 / absent, or "spiral"
    hex_nodes: list           # [H][6] corner k
    hex_edges: list           # [H][6] side k
    node_hexes: list          # [N] the three hexes around the node, -1 off the map
    node_nodes: list          # [N] neighbouring nodes (along an edge of the map)
    node_edges: list          # [N] edges at the node
    node_land: list           # [N]
    edge_nodes: list          # [E] (a, b), a < b
    edge_hexes: list          # [E] the two hexes the edge separates, -1 off the map
    edge_land: list           # [E]
    edge_sea: list            # [E]
    node_harbours: list       # [N] set of (rate, resource or None)

    @property
    def land_hexes(self) -> list[int]:
        return [h for h, t in enumerate(self.hex_terrain) if t != "sea"]


def topology(spec: str = "standard") -> Topology:
    """A map by name (simlib/games/catan/maps/<name>.toml, read as data) or by path."""
    path = MAPS / f"{spec}.toml" if (MAPS / f"{spec}.toml").exists() else Path(spec)
    with open(path, "rb") as f:
        data = tomllib.load(f)
    coords = [(int(h["q"]), int(h["r"])) for h in data["hex"]]
    terrain = [h["terrain"] for h in data["hex"]]
    token = [h.get("token", 0) for h in data["hex"]]
    at = {c: h for h, c in enumerate(coords)}
    assert len(at) == len(coords), "a hex listed twice"
    assert all(t in (*LAND_TERRAINS, "sea", "random") for t in terrain)

    node_at: dict[tuple[int, int], int] = {}   # corner point -> node
    edge_at: dict[frozenset, int] = {}         # {corner point, corner point} -> edge
    hex_nodes, hex_edges = [], []
    for q, r in coords:
        x, y = centre(q, r)
        points = [(x + a, y + b) for a, b in CORNERS]
        hex_nodes.append([node_at.setdefault(p, len(node_at)) for p in points])
        hex_edges.append([edge_at.setdefault(frozenset((points[k - 1], points[k])), len(edge_at)) for k in range(6)])

    def around(point):
        """The three hexes (q, r) whose corner the point is, on the map or not."""
        found = {axial(point[0] - a, point[1] - b) for a, b in CORNERS} - {None}
        assert len(found) == 3, point
        return found

    def index(c):
        return at.get(c, -1)

    def is_land(h):
        return h >= 0 and terrain[h] != "sea"

    def is_sea(h):
        return h >= 0 and terrain[h] == "sea"

    node_hexes = [None] * len(node_at)
    for point, n in node_at.items():
        node_hexes[n] = sorted((index(c) for c in around(point)), reverse=True)
    edge_nodes, edge_hexes = [None] * len(edge_at), [None] * len(edge_at)
    for pair, e in edge_at.items():
        a, b = pair
        edge_nodes[e] = tuple(sorted((node_at[a], node_at[b])))
        shared = around(a) & around(b)
        assert len(shared) == 2
        edge_hexes[e] = sorted((index(c) for c in shared), reverse=True)
    node_edges = [[] for _ in node_at]
    node_nodes = [[] for _ in node_at]
    for e, (a, b) in enumerate(edge_nodes):
        node_edges[a].append(e)
        node_edges[b].append(e)
        node_nodes[a].append(b)
        node_nodes[b].append(a)

    for h, c in enumerate(coords):  # land is framed: every land hex's six neighbours are on the map
        if is_land(h):
            assert all(facing(*c, k) in at for k in range(6)), f"land at the edge of the map: {c}"

    node_harbours = [set() for _ in node_at]
    for hb in data.get("harbour", []):
        c, k, rate = (int(hb["q"]), int(hb["r"])), int(hb["side"]), int(hb["rate"])
        h = at[c]
        assert is_sea(h) and is_land(index(facing(*c, k))), f"harbour at {c} side {k} is not on a coast"
        assert rate in (GENERIC_HARBOUR_RATE, RESOURCE_HARBOUR_RATE)
        resource = hb["resource"] if rate == RESOURCE_HARBOUR_RATE else None
        assert resource is None or resource in RESOURCES
        for n in (hex_nodes[h][k - 1], hex_nodes[h][k]):
            node_harbours[n].add((rate, resource))

    return Topology(
        name=data.get("name", path.stem), hex_coords=coords, hex_terrain=terrain, hex_token=token,
        hex_nodes=hex_nodes, hex_edges=hex_edges, node_hexes=node_hexes, node_nodes=node_nodes,
        node_edges=node_edges, node_land=[any(is_land(h) for h in hs) for hs in node_hexes],
        edge_nodes=edge_nodes, edge_hexes=edge_hexes, edge_land=[any(is_land(h) for h in hs) for hs in edge_hexes],
        edge_sea=[any(is_sea(h) for h in hs) for hs in edge_hexes], node_harbours=node_harbours)


def spirals(board: Topology) -> list[list[int]]:
    """The land hexes in token order for each of the six corners a spiral may start from: counter-clockwise
    round the outer ring from the corner, then ring by ring inwards, the centre last. Only for land that
    is a hexagon around (0, 0), as on the standard board; else no spiral."""
    land = {board.hex_coords[h]: h for h in board.land_hexes}
    radius = max(max(abs(q), abs(r), abs(q + r)) for q, r in land)
    hexagon = {(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
               if abs(q + r) <= radius}
    if set(land) != hexagon:
        return []
    order = []
    for k in range(radius, 0, -1):
        q, r = k, -k  # ring k's corner up and to the right; counter-clockwise is first west (side 3)
        for side in (3, 4, 5, 0, 1, 2):
            for _ in range(k):
                order.append((q, r))
                q, r = facing(q, r, side)
    order.append((0, 0))
    result = []
    for _ in range(6):
        result.append([land[c] for c in order])
        order = [(-r, q + r) for q, r in order]  # turned by 60 degrees about the centre
    return result


BOARD = topology("standard")


# --- the replay ---------------------------------------------------------------------------------------
class Illegal(AssertionError):
    pass


def check(condition, what):
    if not condition:
        raise Illegal(what)


class Replay:
    def __init__(self, players: int, board: Topology = BOARD):
        self.players = players
        self.board = board
        n_nodes, n_edges = len(board.node_hexes), len(board.edge_nodes)
        self.hands = np.zeros((players, len(RESOURCES)), np.int64)
        self.bank = np.full(len(RESOURCES), BANK_PER_RESOURCE, np.int64)
        self.node_owner = np.full(n_nodes, -1, np.int64)
        self.node_level = np.zeros(n_nodes, np.int64)  # 1 settlement, 2 city
        self.edge_owner = np.full(n_edges, -1, np.int64)
        self.edge_kind: list[str | None] = [None] * n_edges  # "road" or "ship"
        self.edge_built = {}
        self.terrain, self.token, self.robber = {}, {}, None
        self.board_checked = False
        self.deck = dict(DEV_DECK)
        self.cards = {p: Counter() for p in range(players)}      # held, not played
        self.new_cards = {p: Counter() for p in range(players)}  # bought this turn
        self.knights = [0] * players
        self.army = self.longest = None
        self.routes = [0] * players
        self.last_settlement = {}
        self.setup_order = [*range(players), *reversed(range(players))]  # snake order, a road after each
        self.setup_done, self.road_due = 0, None
        self.turn = -1
        self.rolled = self.card_played = self.ship_moved = False
        self.discards_due = {}
        self.robber_due = self.steal_due = False
        self.free_pieces = 0
        self.production_due = {}  # (seat, resource) -> cards the last roll owes
        self.roll_log = []        # per roll: (expected cards per building level, produced, safe) per seat, resource
        self.win_points = POINTS_TO_WIN
        self.after_turns: list[list[int]] = []  # every seat's points in view after each turn the events closed

    # --- rules, drawn from the text ---------------------------------------------------------------------
    def points(self, p):
        buildings = int(self.node_level[self.node_owner == p].sum())  # 1 per settlement, 2 per city
        return (buildings + self.cards[p]["victory_point"] + 2 * (self.longest == p) + 2 * (self.army == p))

    def in_view(self, p):
        """Seat p's points as the table sees them: his victory-point cards stay hidden in his hand."""
        return self.points(p) - self.cards[p]["victory_point"]

    def replayed_standing(self, turns):
        """Every seat's points as the table saw them after each of the play's `turns` turns (the games row's: the
        winner's last turn has no event when he had won as it began), the last row the final points (the hidden
        cards shown)."""
        rows = self.after_turns + [[self.in_view(q) for q in range(self.players)]]  # the last turn with events
        check(turns in (len(rows), len(rows) + 1), f"{turns} turns, the events end in turn {self.turn}")
        return rows[:turns - 1] + [[int(self.points(q)) for q in range(self.players)]]

    def winner(self, turns):
        """The player of the last of `turns` turns if he had the points to win (the game ended on them), else None
        (the turn limit)."""
        p = (turns - 1) % self.players
        return p if self.points(p) >= self.win_points else None

    def pieces(self, p, kind):
        if kind in ("road", "ship"):
            return sum(1 for e in range(len(self.edge_owner)) if self.edge_owner[e] == p and self.edge_kind[e] == kind)
        return int(((self.node_owner == p) & (self.node_level == (1 if kind == "settlement" else 2))).sum())

    def route_ok(self, e, p, kind):
        """Free, on the right ground, and joined to the player's network: at his own building, or at a free
        node where his piece of the same kind ends (roads and ships join only at a settlement or city)."""
        B = self.board
        if self.edge_owner[e] >= 0 or not (B.edge_land[e] if kind == "road" else B.edge_sea[e]):
            return False
        for n in B.edge_nodes[e]:
            if self.node_owner[n] == p:
                return True
            if self.node_owner[n] < 0 and any(f != e and self.edge_owner[f] == p and self.edge_kind[f] == kind
                                              for f in B.node_edges[n]):
                return True
        return False

    def settle_ok(self, n, p, setup):
        B = self.board
        if not B.node_land[n] or self.node_owner[n] >= 0:
            return False
        if any(self.node_owner[m] >= 0 for m in B.node_nodes[n]):
            return False  # the distance rule
        return setup or any(self.edge_owner[f] == p for f in B.node_edges[n])

    def rate(self, p, resource):
        best = BANK_RATE
        for n in np.nonzero(self.node_owner == p)[0]:
            for rate, what in self.board.node_harbours[n]:
                if what is None or what == resource:
                    best = min(best, rate)
        return best

    def pay(self, p, price):
        check((self.hands[p] >= price).all(), f"seat {p} cannot pay {price} with {self.hands[p]}")
        self.hands[p] -= price
        self.bank += price

    def take(self, p, r, amount=1):
        check(self.bank[r] >= amount, f"the bank has no {RESOURCES[r]}")
        self.hands[p, r] += amount
        self.bank[r] -= amount

    def demand(self, dice):
        """Cards owed per seat and resource on this dice sum, before the bank is asked."""
        owed = np.zeros((self.players, len(RESOURCES)), np.int64)
        for h, token in self.token.items():
            if token == dice and h != self.robber:
                r = RES[PRODUCES[self.terrain[h]]]
                for n in self.board.hex_nodes[h]:
                    if self.node_owner[n] >= 0:
                        owed[self.node_owner[n], r] += self.node_level[n]
        return owed

    def produce(self, dice):
        """Production with the shortage rule; the kernel's produce events must match it."""
        # For the dice check: each seat's expected cards per roll (pips / 36 per building level, a 7
        # included as a roll that pays nothing), and whether the bank could pay that resource whatever
        # the dice, so that no shortage clips it.
        owed = {d: self.demand(d) for d in PIPS if d != 7}
        expected = sum(PIPS[d] / 36 * owed[d] for d in owed)
        safe = np.array([all(owed[d][:, r].sum() <= self.bank[r] for d in owed) for r in range(len(RESOURCES))])
        demand = owed.get(dice, np.zeros((self.players, len(RESOURCES)), np.int64))
        before = self.hands.copy()
        for r in range(len(RESOURCES)):
            entitled = np.nonzero(demand[:, r])[0]
            if demand[:, r].sum() <= self.bank[r]:
                for q in entitled:
                    self.take(q, r, demand[q, r])
            elif len(entitled) == 1:  # the shortage rule: a lone player gets what is left
                self.take(entitled[0], r, self.bank[r])
        got = self.hands - before
        self.production_due = {(q, r): int(got[q, r]) for q in range(self.players) for r in range(len(RESOURCES))
                               if got[q, r]}
        self.roll_log.append((expected, got, safe))

    def longest_route(self, p):
        """Every trail over the player's roads and ships, recursively: the longest one's length."""
        B = self.board
        mine = {e for e in range(len(self.edge_owner)) if self.edge_owner[e] == p}

        def onward(node, kind, used):
            """The longest continuation of a trail that reached `node` by a piece of `kind`."""
            if self.node_owner[node] >= 0 and self.node_owner[node] != p:
                return 0  # an opponent's building: the trail ends here
            best = 0
            for f in B.node_edges[node]:
                if f in mine and f not in used and (self.edge_kind[f] == kind or self.node_owner[node] == p):
                    a, b = B.edge_nodes[f]
                    best = max(best, 1 + onward(b if a == node else a, self.edge_kind[f], used | {f}))
            return best

        return max((1 + onward(end, self.edge_kind[e], frozenset({e})) for e in mine for end in B.edge_nodes[e]),
                   default=0)

    def update_longest(self):
        self.routes = [self.longest_route(q) for q in range(self.players)]
        best = max(self.routes)
        if self.longest is not None and self.routes[self.longest] == best and best >= LONGEST_ROUTE_MIN:
            return  # the holder keeps the card on a tie
        leaders = [q for q in range(self.players) if self.routes[q] == best]
        self.longest = leaders[0] if best >= LONGEST_ROUTE_MIN and len(leaders) == 1 else None

    def update_army(self, p):
        """Seat p played a knight: he takes the card at 3 knights, from a holder only with strictly more."""
        if self.knights[p] >= LARGEST_ARMY_MIN and (self.army is None or self.knights[p] > self.knights[self.army]):
            self.army = p

    def playable(self, p, card):
        check(not self.card_played, f"seat {p}: a second development card in one turn")
        check(self.cards[p][card] - self.new_cards[p][card] > 0, f"seat {p} holds no playable {card}")
        self.cards[p][card] -= 1
        self.card_played = True

    def check_board(self):
        """Once the `hex` events are over: the board they describe is the map's, by the published rules."""
        B = self.board
        land = B.land_hexes
        check(sorted(self.terrain) == land, f"hex events for {sorted(self.terrain)}, the map's land is {land}")
        for h in land:
            if B.hex_terrain[h] != "random":
                check(self.terrain[h] == B.hex_terrain[h], f"hex {h} is {self.terrain[h]}, the map says "
                                                           f"{B.hex_terrain[h]}")
            if B.hex_token[h] not in ("spiral", 0):
                check(self.token.get(h) == B.hex_token[h], f"hex {h} has token {self.token.get(h)}")
        if all(B.hex_terrain[h] == "random" for h in land) and len(land) == sum(STANDARD_TERRAINS.values()):
            counts = Counter(self.terrain[h] for h in land)
            check(counts == Counter(STANDARD_TERRAINS), f"terrain {dict(counts)}, not the published counts")
        if all(B.hex_token[h] == "spiral" for h in land) and len(land) == len(TOKENS_A_TO_R) + 1:
            laid = [[self.token[h] for h in order if self.terrain[h] != "desert"] for order in spirals(B)]
            check(list(TOKENS_A_TO_R) in laid, "the number tokens are not laid A-R along a spiral")
        self.board_checked = True

    # --- events -----------------------------------------------------------------------------------------
    def apply(self, e: dict):
        action, p = e["action"], e["seat"]
        if action != "hex" and not self.board_checked:
            self.check_board()
        if action != "produce":
            check(not self.production_due, f"production missing: {self.production_due}")
        if e["turn"] is not None and e["turn"] != self.turn:
            check(e["turn"] == self.turn + 1 and not self.rolled, f"turn {e['turn']} began early")
            check(self.turn >= 0 or (self.setup_done == len(self.setup_order) and self.road_due is None),
                  "the first turn began before the set-up was over")
            self.close_turn()
            self.turn = e["turn"]
            self.card_played = self.ship_moved = False
            self.new_cards = {q: Counter() for q in range(self.players)}
        mover = self.turn % self.players if self.turn >= 0 else None
        step = action not in ("discard", "robber", "steal", "produce") and not e["free"]  # not the rest of a step
        if mover is not None and step:
            check(self.points(mover) < POINTS_TO_WIN, f"seat {mover} had {self.points(mover)} points on his turn: "
                                                      "he had won")
        if action not in ("discard", "produce") and mover is not None:  # they name the seat discarding, receiving
            check(p == mover, f"seat {p} acted on seat {mover}'s turn")
        if action not in ("road", "ship") or not e["free"]:
            self.free_pieces = 0  # road building's pieces are placed at once, or not at all
        if self.discards_due and action != "discard":
            check(all(v == 0 for v in self.discards_due.values()), f"discards missing: {self.discards_due}")
            self.discards_due = {}
        if self.robber_due and action != "discard":  # a 7 (after the discards) or a knight moves the robber
            check(action == "robber", f"the robber must move, not {action}")
            self.robber_due = False
        steal_due, self.steal_due = self.steal_due, False
        check((action == "steal") == steal_due, "a steal is due exactly after the robber moved beside an "
                                                "opponent holding cards")
        if "die_1" in e and action != "roll":
            check(e["die_1"] is None and e["die_2"] is None, f"die_1 / die_2 on {action}, not a roll")
        getattr(self, "on_" + action)(e, p)
        check((self.hands >= 0).all() and (self.bank >= 0).all(), "a negative hand or bank")
        check((self.hands.sum(axis=0) + self.bank == BANK_PER_RESOURCE).all(), "resources not conserved")

    def close_turn(self):
        """The events of a new turn begin: the standing after the one before (none before the first)."""
        if self.turn >= 0:
            self.after_turns.append([int(self.in_view(q)) for q in range(self.players)])

    def on_hex(self, e, p):
        h, terrain = e["hex"], e["terrain"]
        check(terrain in LAND_TERRAINS and h not in self.terrain, f"hex {h}: {terrain}")
        self.terrain[h] = terrain
        if terrain == "desert":
            check(e["token"] is None, "a token on the desert")
            self.robber = h  # the robber starts on the desert
        else:
            check(e["token"] in PIPS and e["token"] != 7, f"token {e['token']}")
            self.token[h] = e["token"]

    def on_setup_settlement(self, e, p):
        n = e["node"]
        check(self.road_due is None, f"seat {self.road_due}'s set-up road is missing")
        check(self.setup_done < len(self.setup_order) and p == self.setup_order[self.setup_done],
              f"set-up settlement by seat {p} out of snake order")
        self.setup_done += 1
        self.road_due = p
        check(self.settle_ok(n, p, setup=True), f"set-up settlement on {n} breaks the distance rule")
        self.node_owner[n], self.node_level[n] = p, 1
        if p in self.last_settlement:  # the second settlement yields one card per producing hex beside it
            for h in self.board.node_hexes[n]:
                resource = PRODUCES.get(self.terrain.get(h))
                if resource is not None and self.bank[RES[resource]] > 0:
                    self.take(p, RES[resource])
        self.last_settlement[p] = n

    def on_setup_road(self, e, p):
        edge = e["edge"]
        check(self.road_due == p, f"a set-up road by seat {p} not right after his settlement")
        self.road_due = None
        check(self.last_settlement[p] in self.board.edge_nodes[edge] and self.board.edge_land[edge]
              and self.edge_owner[edge] < 0, f"set-up road {edge} not at seat {p}'s settlement")
        self.edge_owner[edge], self.edge_kind[edge] = p, "road"
        self.update_longest()  # a game may end with the set-up's roads alone (routes of 1)

    def on_roll(self, e, p):
        check(not self.rolled, "a second roll")
        check(e["dice"] in PIPS, f"two dice cannot make {e['dice']}")
        if "die_1" in e:  # the two dice, where the events carry them
            dice = (e["die_1"], e["die_2"])
            check(all(d is not None and 1 <= d <= 6 for d in dice), f"a die showing {dice}")
            check(sum(dice) == e["dice"], f"dice {dice} do not make {e['dice']}")
        self.rolled = True
        self.produce(e["dice"])  # nothing on a 7
        if e["dice"] == 7:
            self.robber_due = True
            self.discards_due = {q: int(self.hands[q].sum()) // 2 for q in range(self.players)
                                 if self.hands[q].sum() > DISCARD_ABOVE}

    def on_produce(self, e, p):
        key = (p, RES[e["resource"]])
        check(self.production_due.pop(key, None) == e["amount"], f"seat {p} produced {e['amount']} {e['resource']}")

    def on_discard(self, e, p):
        check(self.discards_due.get(p, 0) > 0, f"seat {p} discarded more than half")
        self.discards_due[p] -= 1
        r = RES[e["resource"]]
        check(self.hands[p, r] > 0, "discarded a card not held")
        self.hands[p, r] -= 1
        self.bank[r] += 1

    def on_robber(self, e, p):
        check(e["hex"] in self.terrain and e["hex"] != self.robber, "the robber must move to another land hex")
        self.robber = e["hex"]
        # he steals one card from an opponent beside the hex, if one of them holds any
        self.steal_due = any(q >= 0 and q != p and self.hands[q].sum() > 0
                             for q in self.node_owner[self.board.hex_nodes[self.robber]])

    def on_steal(self, e, p):
        victim, r = e["victim"], RES[e["resource"]]
        beside = {int(self.node_owner[n]) for n in self.board.hex_nodes[self.robber]}
        check(victim != p and victim >= 0 and victim in beside, "victim not at the robber")
        check(self.hands[victim, r] > 0, "stole a card not held")
        self.hands[victim, r] -= 1
        self.hands[p, r] += 1

    def on_knight(self, e, p):
        check(e["before_roll"] == (not self.rolled), "knight flagged before/after the roll wrongly")
        self.playable(p, "knight")
        self.knights[p] += 1
        self.robber_due = True
        self.update_army(p)

    def _route_piece(self, e, p, kind):
        edge = e["edge"]
        check(self.rolled, f"{kind} before the roll")
        if e["free"]:
            check(self.free_pieces > 0, f"a free {kind} without road building")
            self.free_pieces -= 1
        else:
            self.pay(p, COST[kind])
        check(self.pieces(p, kind) < PIECES[kind], f"more than {PIECES[kind]} {kind}s")
        check(self.route_ok(edge, p, kind), f"{kind} on {edge} is not legal for seat {p}")
        self.edge_owner[edge], self.edge_kind[edge] = p, kind
        self.edge_built[edge] = self.turn
        self.update_longest()

    def on_road(self, e, p):
        self._route_piece(e, p, "road")

    def on_ship(self, e, p):
        self._route_piece(e, p, "ship")

    def on_settlement(self, e, p):
        n = e["node"]
        check(self.rolled, "settlement before the roll")
        self.pay(p, COST["settlement"])
        check(self.pieces(p, "settlement") < PIECES["settlement"], "too many settlements")
        check(self.settle_ok(n, p, setup=False), f"settlement on {n} is not legal for seat {p}")
        self.node_owner[n], self.node_level[n] = p, 1
        self.update_longest()  # it may cut an opponent's route

    def on_city(self, e, p):
        n = e["node"]
        check(self.rolled, "city before the roll")
        self.pay(p, COST["city"])
        check(self.node_owner[n] == p and self.node_level[n] == 1, "a city not on one's own settlement")
        check(self.pieces(p, "city") < PIECES["city"], "too many cities")
        self.node_level[n] = 2

    def on_buy_dev(self, e, p):
        card = e["card"]
        check(self.rolled, "bought before the roll")
        self.pay(p, COST["buy_dev"])
        check(self.deck.get(card, 0) > 0, "drew a card the deck no longer holds")
        self.deck[card] -= 1
        self.cards[p][card] += 1
        self.new_cards[p][card] += 1

    def on_road_building(self, e, p):
        self.playable(p, "road_building")
        self.free_pieces = 2

    def on_year_of_plenty(self, e, p):
        self.playable(p, "year_of_plenty")
        self.take(p, RES[e["resource"]])
        self.take(p, RES[e["resource_2"]])

    def on_monopoly(self, e, p):
        self.playable(p, "monopoly")
        r = RES[e["resource"]]
        taken = int(self.hands[:, r].sum() - self.hands[p, r])
        check(e["amount"] == taken, f"monopoly took {e['amount']}, the others held {taken}")
        mine = self.hands[p, r]
        self.hands[:, r] = 0
        self.hands[p, r] = mine + taken

    def on_trade(self, e, p):
        check(self.rolled, "traded before the roll")
        give, get = e["resource"], e["resource_2"]
        check(give in RES and get in RES and give != get, f"traded {give} for {get}")
        due = self.rate(p, give)
        check(e["amount"] == due, f"trade at {e['amount']}:1, due {due}")
        self.pay(p, cost(**{give: e["amount"]}))
        self.take(p, RES[get])

    def at_open_end(self, a, p):
        """Ship a is the last ship of an open shipping route: at one of its ends the player has neither a
        settlement or city nor another ship (a road there does not continue a shipping route: roads and
        ships join only at a settlement or city)."""
        B = self.board

        def another_ship(n):
            return any(f != a and self.edge_owner[f] == p and self.edge_kind[f] == "ship" for f in B.node_edges[n])

        return any(self.node_owner[n] != p and not another_ship(n) for n in B.edge_nodes[a])

    def on_move_ship(self, e, p):
        a, b = e["edge"], e["edge_to"]
        check(self.rolled, "moved a ship before the roll")
        check(not self.ship_moved, "a second ship moved in one turn")
        check(self.edge_owner[a] == p and self.edge_kind[a] == "ship", "moved a ship that is not his")
        check(self.edge_built.get(a) != self.turn, "moved a ship built this turn")
        check(self.at_open_end(a, p), "moved a ship that is not at the open end of a shipping route")
        self.edge_owner[a], self.edge_kind[a] = -1, None
        check(b != a and self.route_ok(b, p, "ship"), f"ship moved to {b}, not a legal place")
        self.edge_owner[b], self.edge_kind[b] = p, "ship"
        self.edge_built[b] = self.turn
        self.ship_moved = True
        self.update_longest()

    def on_end_turn(self, e, p):
        check(self.rolled, "ended the turn without rolling")
        self.rolled = False

    def finish(self):
        """The events are over: nothing may still be owed (a game ends between steps, on a win or the turn
        limit, never inside a roll or a robber move)."""
        check(not self.production_due, f"production missing at the end: {self.production_due}")
        check(all(v == 0 for v in self.discards_due.values()), f"discards missing at the end: {self.discards_due}")
        check(not self.robber_due, "the game ended before the robber moved")
        check(not self.steal_due, "the game ended before the steal")
        check(self.road_due is None and self.setup_done == len(self.setup_order), "the game ended in the set-up")


def feel_of(game: Replay, games_row: dict) -> str | None:
    """Why the games row's feel columns are not the features of the standing the replay gives for its turns, with
    the winner it gives (None: they are)."""
    turns = games_row["turns"]
    return feel_mismatch(games_row, game.replayed_standing(turns), game.winner(turns))


def replay_game(events: list[dict], players: int, board: Topology = BOARD) -> tuple[list[int], Replay]:
    """Replays one game's events in order, then checks nothing is left due; returns every seat's final
    points and the replay (routes, holders, ...)."""
    game = Replay(players, board)
    for e in events:
        game.apply(e)
    game.finish()
    return [int(game.points(q)) for q in range(players)], game
