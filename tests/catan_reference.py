"""A plain replay of Catan's `events`, one game at a time (tests only).

It knows the map's topology (the standard map file) and the published rules, nothing of the kernel:
hands, bank, buildings, routes, development cards and the robber are tracked from the events alone,
every action is checked to be affordable and legal when it happens, and the final points are returned
for comparison with the `seats` table. Only the longest-route length comes from simlib's search, which
test_catan_rules checks against a plain search of every trail.
"""

from __future__ import annotations

import numpy as np

from simlib.games.catan import constants as C
from simlib.games.catan.board import DESERT, TERRAINS, load_board
from simlib.games.catan.rules import ROAD, SHIP, longest_route

BOARD = load_board("standard")
RES = {r: i for i, r in enumerate(C.RESOURCES)}
COST = {"road": C.COST_ROAD, "ship": C.COST_SHIP, "settlement": C.COST_SETTLEMENT, "city": C.COST_CITY,
        "buy_dev": C.COST_DEV}


class Illegal(AssertionError):
    pass


def check(condition, what):
    if not condition:
        raise Illegal(what)


class Replay:
    def __init__(self, players: int):
        self.players = players
        self.hands = np.zeros((players, 5), np.int64)
        self.bank = np.full(5, C.BANK_PER_RESOURCE, np.int64)
        self.node_owner = np.full(len(BOARD.node_hexes), -1, np.int64)
        self.node_level = np.zeros(len(BOARD.node_hexes), np.int64)
        self.edge_owner = np.full(len(BOARD.edge_nodes), -1, np.int64)
        self.edge_kind = np.zeros(len(BOARD.edge_nodes), np.int64)
        self.edge_built = {}
        self.terrain, self.token, self.robber = {}, {}, None
        self.deck = list(C.DEV_DECK)
        self.cards = np.zeros((players, 5), np.int64)  # held, not played
        self.new_cards = np.zeros((players, 5), np.int64)  # bought this turn
        self.knights = [0] * players
        self.army = self.longest = None
        self.routes = [0] * players
        self.last_settlement = {}
        self.turn = -1
        self.rolled = self.card_played = self.ship_moved = False
        self.discards_due = {}
        self.free_pieces = 0
        self.production_due = {}  # (seat, resource) -> cards the last roll owes
        self.roll_log = []        # per roll: (expected cards per building level, produced, safe) per seat, resource

    # --- rules, drawn from the text ---------------------------------------------------------------------
    def points(self, p):
        buildings = int(self.node_level[self.node_owner == p].sum())
        return buildings + self.cards[p, C.VICTORY_POINT] + 2 * (self.longest == p) + 2 * (self.army == p)

    def route_ok(self, e, p, kind):
        if self.edge_owner[e] >= 0 or not (BOARD.edge_land[e] if kind == ROAD else BOARD.edge_sea[e]):
            return False
        for n in BOARD.edge_nodes[e]:
            if self.node_owner[n] == p:
                return True
            if self.node_owner[n] < 0 and any(f >= 0 and f != e and self.edge_owner[f] == p and
                                              self.edge_kind[f] == kind for f in BOARD.node_edges[n]):
                return True
        return False

    def settle_ok(self, n, p, setup):
        if not BOARD.node_land[n] or self.node_owner[n] >= 0:
            return False
        if any(m >= 0 and self.node_owner[m] >= 0 for m in BOARD.node_nodes[n]):
            return False  # the distance rule
        return setup or any(f >= 0 and self.edge_owner[f] == p for f in BOARD.node_edges[n])

    def rate(self, p, r):
        best = 4
        for n in np.nonzero(self.node_owner == p)[0]:
            if BOARD.node_harbour_rate[n] == 3:
                best = min(best, 3)
            elif BOARD.node_harbour_rate[n] == 2 and BOARD.node_harbour_resource[n] == r:
                best = 2
        return best

    def pay(self, p, cost):
        check((self.hands[p] >= cost).all(), f"seat {p} cannot pay {cost} with {self.hands[p]}")
        self.hands[p] -= cost
        self.bank += cost

    def take(self, p, r, amount=1):
        check(self.bank[r] >= amount, f"the bank has no {C.RESOURCES[r]}")
        self.hands[p, r] += amount
        self.bank[r] -= amount

    def demand(self, dice):
        """Cards owed per seat and resource on this dice sum, before the bank is asked."""
        owed = np.zeros((self.players, 5), np.int64)
        for h, token in self.token.items():
            if token == dice and h != self.robber:
                for n in BOARD.hex_nodes[h]:
                    if self.node_owner[n] >= 0:
                        owed[self.node_owner[n], self.terrain[h]] += self.node_level[n]
        return owed

    def produce(self, dice):
        """Production with the shortage rule; the kernel's produce events must match it."""
        # For the dice check: each seat's expected cards per roll (pips / 36 per building level, a 7
        # included as a roll that pays nothing), and whether the bank could pay that resource whatever
        # the dice, so that no shortage clips it.
        owed = {d: self.demand(d) for d in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)}
        expected = sum((6 - abs(7 - d)) / 36 * owed[d] for d in owed)
        safe = np.array([all(owed[d][:, r].sum() <= self.bank[r] for d in owed) for r in range(5)])
        demand = owed.get(dice, np.zeros((self.players, 5), np.int64))
        before = self.hands.copy()
        for r in range(5):
            entitled = np.nonzero(demand[:, r])[0]
            if demand[:, r].sum() <= self.bank[r]:
                for q in entitled:
                    self.take(q, r, demand[q, r])
            elif len(entitled) == 1:  # the shortage rule: a lone player gets what is left
                self.take(entitled[0], r, self.bank[r])
        got = self.hands - before
        self.production_due = {(q, r): int(got[q, r]) for q in range(self.players) for r in range(5) if got[q, r]}
        self.roll_log.append((expected, got, safe))

    def update_longest(self):
        self.routes = [longest_route(q, self.edge_owner, self.edge_kind, self.node_owner, BOARD.node_edges,
                                     BOARD.edge_nodes) for q in range(self.players)]
        best = max(self.routes)
        if self.longest is not None and self.routes[self.longest] == best and best >= 5:
            return  # the holder keeps the card on a tie
        leaders = [q for q in range(self.players) if self.routes[q] == best]
        self.longest = leaders[0] if best >= 5 and len(leaders) == 1 else None

    def playable(self, p, card):
        check(not self.card_played, f"seat {p}: a second development card in one turn")
        check(self.cards[p, card] - self.new_cards[p, card] > 0, f"seat {p} holds no playable {C.DEV_CARDS[card]}")
        self.cards[p, card] -= 1
        self.card_played = True

    # --- events -----------------------------------------------------------------------------------------
    def apply(self, e: dict):
        action, p = e["action"], e["seat"]
        if action != "produce":
            check(not self.production_due, f"production missing: {self.production_due}")
        if e["turn"] is not None and e["turn"] != self.turn:
            check(e["turn"] == self.turn + 1 and not self.rolled, f"turn {e['turn']} began early")
            self.turn = e["turn"]
            self.card_played = self.ship_moved = False
            self.new_cards[:] = 0
        mover = self.turn % self.players if self.turn >= 0 else None
        step = action not in ("discard", "robber", "steal", "produce") and not e["free"]  # not the rest of a step
        if mover is not None and step:
            check(self.points(mover) < 10, f"seat {mover} had {self.points(mover)} points on his turn: he had won")
        if action not in ("discard", "steal", "produce") and mover is not None:
            check(p == mover, f"seat {p} acted on seat {mover}'s turn")
        if action not in ("road", "ship") or not e["free"]:
            self.free_pieces = 0  # road building's pieces are placed at once, or not at all
        if self.discards_due and action != "discard":
            check(all(v == 0 for v in self.discards_due.values()), f"discards missing: {self.discards_due}")
            self.discards_due = {}
        getattr(self, "on_" + action)(e, p)
        check((self.hands >= 0).all() and (self.bank >= 0).all(), "a negative hand or bank")
        check((self.hands.sum(axis=0) + self.bank == C.BANK_PER_RESOURCE).all(), "resources not conserved")

    def on_hex(self, e, p):
        t = TERRAINS.index(e["terrain"])
        self.terrain[e["hex"]] = t
        if t == DESERT:
            check(e["token"] is None, "a token on the desert")
            self.robber = e["hex"]
        else:
            self.token[e["hex"]] = e["token"]

    def on_setup_settlement(self, e, p):
        n = e["node"]
        check(self.settle_ok(n, p, setup=True), f"set-up settlement on {n} breaks the distance rule")
        self.node_owner[n], self.node_level[n] = p, 1
        if p in self.last_settlement:  # the second settlement yields
            for h in BOARD.node_hexes[n]:
                if h >= 0 and self.terrain.get(h, DESERT) < DESERT and self.bank[self.terrain[h]] > 0:
                    self.take(p, self.terrain[h])
        self.last_settlement[p] = n

    def on_setup_road(self, e, p):
        edge = e["edge"]
        check(self.last_settlement[p] in BOARD.edge_nodes[edge] and BOARD.edge_land[edge]
              and self.edge_owner[edge] < 0, f"set-up road {edge} not at seat {p}'s settlement")
        self.edge_owner[edge], self.edge_kind[edge] = p, ROAD

    def on_roll(self, e, p):
        check(not self.rolled, "a second roll")
        self.rolled = True
        self.produce(e["dice"])  # nothing on a 7
        if e["dice"] == 7:
            self.discards_due = {q: int(self.hands[q].sum()) // 2 for q in range(self.players)
                                 if self.hands[q].sum() > 7}

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

    def on_steal(self, e, p):
        victim, r = e["victim"], RES[e["resource"]]
        check(victim != p and victim in self.node_owner[BOARD.hex_nodes[self.robber]], "victim not at the robber")
        check(self.hands[victim, r] > 0, "stole a card not held")
        self.hands[victim, r] -= 1
        self.hands[p, r] += 1

    def on_knight(self, e, p):
        check(e["before_roll"] == (not self.rolled), "knight flagged before/after the roll wrongly")
        self.playable(p, C.KNIGHT)
        self.knights[p] += 1
        if self.knights[p] >= 3 and (self.army is None or self.knights[p] > self.knights[self.army]):
            self.army = p

    def _route_piece(self, e, p, name, kind):
        edge = e["edge"]
        check(self.rolled, f"{name} before the roll")
        if e["free"]:
            check(self.free_pieces > 0, f"a free {name} without road building")
            self.free_pieces -= 1
        else:
            self.pay(p, np.array(COST[name]))
        limit = C.PIECES[name + "s"]
        check(((self.edge_owner == p) & (self.edge_kind == kind)).sum() < limit, f"more than {limit} {name}s")
        check(self.route_ok(edge, p, kind), f"{name} on {edge} is not legal for seat {p}")
        self.edge_owner[edge], self.edge_kind[edge] = p, kind
        self.edge_built[edge] = self.turn
        self.update_longest()

    def on_road(self, e, p):
        self._route_piece(e, p, "road", ROAD)

    def on_ship(self, e, p):
        self._route_piece(e, p, "ship", SHIP)

    def on_settlement(self, e, p):
        n = e["node"]
        check(self.rolled, "settlement before the roll")
        self.pay(p, np.array(COST["settlement"]))
        check(((self.node_owner == p) & (self.node_level == 1)).sum() < C.PIECES["settlements"], "too many settlements")
        check(self.settle_ok(n, p, setup=False), f"settlement on {n} is not legal for seat {p}")
        self.node_owner[n], self.node_level[n] = p, 1
        self.update_longest()  # it may cut an opponent's route

    def on_city(self, e, p):
        n = e["node"]
        check(self.rolled, "city before the roll")
        self.pay(p, np.array(COST["city"]))
        check(self.node_owner[n] == p and self.node_level[n] == 1, "a city not on one's own settlement")
        check(((self.node_owner == p) & (self.node_level == 2)).sum() < C.PIECES["cities"], "too many cities")
        self.node_level[n] = 2

    def on_buy_dev(self, e, p):
        card = C.DEV_CARDS.index(e["card"])
        check(self.rolled, "bought before the roll")
        self.pay(p, np.array(COST["buy_dev"]))
        check(self.deck[card] > 0, "drew a card the deck no longer holds")
        self.deck[card] -= 1
        self.cards[p, card] += 1
        self.new_cards[p, card] += 1

    def on_road_building(self, e, p):
        self.playable(p, C.ROAD_BUILDING)
        self.free_pieces = 2

    def on_year_of_plenty(self, e, p):
        self.playable(p, C.YEAR_OF_PLENTY)
        self.take(p, RES[e["resource"]])
        self.take(p, RES[e["resource_2"]])

    def on_monopoly(self, e, p):
        self.playable(p, C.MONOPOLY)
        r = RES[e["resource"]]
        taken = int(self.hands[:, r].sum() - self.hands[p, r])
        check(e["amount"] == taken, f"monopoly took {e['amount']}, the others held {taken}")
        mine = self.hands[p, r]
        self.hands[:, r] = 0
        self.hands[p, r] = mine + taken

    def on_trade(self, e, p):
        give, get = RES[e["resource"]], RES[e["resource_2"]]
        check(give != get and e["amount"] == self.rate(p, give), f"trade at {e['amount']}:1, due {self.rate(p, give)}")
        self.pay(p, np.eye(5, dtype=np.int64)[give] * e["amount"])
        self.take(p, get)

    def on_move_ship(self, e, p):
        a, b = e["edge"], e["edge_to"]
        check(not self.ship_moved, "a second ship moved in one turn")
        check(self.edge_owner[a] == p and self.edge_kind[a] == SHIP, "moved a ship that is not his")
        check(self.edge_built.get(a) != self.turn, "moved a ship built this turn")
        open_end = any(self.node_owner[n] != p and not any(f >= 0 and f != a and self.edge_owner[f] == p
                                                         for f in BOARD.node_edges[n]) for n in BOARD.edge_nodes[a])
        check(open_end, "moved a ship that is not at an open end")
        self.edge_owner[a], self.edge_kind[a] = -1, 0
        check(b != a and self.route_ok(b, p, SHIP), f"ship moved to {b}, not a legal place")
        self.edge_owner[b], self.edge_kind[b] = p, SHIP
        self.edge_built[b] = self.turn
        self.ship_moved = True
        self.update_longest()

    def on_end_turn(self, e, p):
        check(self.rolled, "ended the turn without rolling")
        self.rolled = False


def replay_game(events: list[dict], players: int) -> tuple[list[int], Replay]:
    """Replays one game's events in order; returns every seat's final points."""
    game = Replay(players)
    for e in events:
        game.apply(e)
    return [int(game.points(q)) for q in range(players)], game
