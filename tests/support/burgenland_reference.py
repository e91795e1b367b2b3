"""An independent reference for Burgenland (`burgenland`): replays one play from its games, seats and events rows
and checks every fact against the rules as documented (docs/games/burgenland.md, whose section "As built" wins,
and docs/lake.md for the meaning of the columns), re-deriving the piles, the hands, the board, the tiles, the
rewards and the end on its own.

It reads only the game's data files (the map and the cards-and-tiles file, with tomllib) and imports no simlib
code: the published facts (the well rewards 5, 4, 3, 3, 2, 2, 1, 1, the price of 4 cards, the 16/12/12/8
pieces, 17 jokers, ...) are written out below and the data files are checked against them. Every broken rule
raises `Illegal` whose message starts with the rule's name in brackets, e.g.
"[payment] play 3 event 41 (turn 37 seat 1 build): ...".

The face-down pile and the discard pile are kept as counts per (colour, coins): every card drawn must be one the
face-down pile still holds, and the discards become the new face-down pile only when a card is wanted and the
face-down pile is empty. The master-builder pile is known only as far as it has been revealed (its first 12
payments must be a permutation of the data file's values, then the cycle repeats). The well cards' order is in
no table: the marker's castle is never known to the replay (a well built on it moves it at once), so a well is
checked to go on a castle without one; that the first well stands uniformly on the castles free of a pre-placed
well is left to a test over many plays (`first_well`).

The rule text reads two ways where it says a well goes "immer nur in der Burg, die aktuell über den roten
Anzeigemarker verfügt" (MARKER_TILE_READING); the replay takes the reading from the options the run recorded.
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np

from support.feel_reference import feel_mismatch
from support.paths import SIMLIB  # the data files only

# --- Published and documented facts, written out here (not read from the game's code) ------------------------
RULES_VERSION = 3  # 3: the text's "immer nur" reading of the well marker by default (free_well_tile false)
PIECES = ("wall", "house", "palas", "well")
SQUARE = ("wall", "house", "palas")
TOTAL_PIECES = {"wall": 16, "house": 12, "palas": 12, "well": 8}        # 48 wooden pieces (the red marker apart)
N_COLOURS = 8                                                           # one border stone per colour
N_POSITIONS = 8
N_CASTLES = 11                                                          # small castles 1..11; 0 = the central one
CARDS_PER_COLOUR = 10                                                   # 80 colour cards
CARD_COINS = (1, 2, 3)                                                  # published range of a card's coins
JOKERS = 17
MASTER_BUILDERS = 12                                                    # values 1..5
SWAP_TILES = 9
BONUS_TILES = 13
WELL_REWARDS = (5, 4, 3, 3, 2, 2, 1, 1)                                 # the k-th well built in play
PRICE = 4                                                               # cards of a small-castle building
START_CARDS = 4                                                         # seat 0; staggered: seat k gets 4 + k
START_JOKERS = 1
DRAW = 2                                                                # the draw action
STALL_ROUNDS = 10                                                       # As built 10: 10 x players turns
SPOT_KINDS = ("joker", "coins", "swap", "bonus")
TILE_EFFECTS = ("extra_spot", "ignore_house_rule", "second_palas", "free_master_builder", "any_well", "swap",
                "jokers")
BUILD_EFFECTS = ("extra_spot", "ignore_house_rule", "second_palas", "free_master_builder", "any_well")
EXCHANGING_POLICIES = ("builder",)                                      # As built 9
DEFAULTS = {"start_hands": "staggered", "map": "standard", "data": "assumed", "central_wall": 5,
            "central_house": 6, "central_palas": 7, "central_jokers": True, "central_master_builder": False,
            "joker_exchange": 6, "swap_return": "supply", "free_well_tile": False, "max_turns": 2000}
# The rule text's reading of the well marker, which a run's recorded options name (free_well_tile): "Brunnen werden
# auf das einzig runde Feld pro Burg gebaut und immer nur in der Burg, die aktuell über den roten Anzeigemarker
# verfügt". False (the text's default): "immer nur" without exception, so no tile places a well elsewhere and the
# designed any_well tile (X5) lifts the house rule instead (docs: "Readings of the rule text"); true: X5 puts one
# well on any castle without a well.
MARKER_TILE_READING = {False: "ignore_house_rule", True: "any_well"}
MAIN_ACTIONS = ("draw", "build")
FREE_ACTIONS = ("swap", "exchange")

DATA = SIMLIB / "games" / "burgenland"
SPOT_LETTERS = {"a": 0, "b": 1, "c": 2}


class Illegal(AssertionError):
    """A fact of the tables breaks a rule; `rule` names it (also the bracketed start of the message)."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule


def _load(path: Path) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _file(folder: str, value: str) -> Path:
    named = DATA / folder / f"{value}.toml"
    return named if named.exists() else Path(value)


class Map:
    """The board of a map file: colours, castles (positions, spot symbols) and the set-up per player count."""

    def __init__(self, name: str = "standard"):
        doc = _load(_file("maps", name))
        self.colours = tuple(doc["colours"])
        assert len(set(self.colours)) == N_COLOURS and doc["positions"] == N_POSITIONS, "map: 8 colours/positions"
        self.castles: dict[int, dict] = {}
        for entry in doc["castle"]:
            spots = []
            for s in entry["spots"]:
                kind, _, value = s.partition(":")
                assert kind in SPOT_KINDS, f"map: castle {entry['id']}: spot kind {s!r}"
                spots.append((kind, int(value) if kind == "coins" else 0))
            a, b = entry["stones"]
            assert a != b and 0 <= a < N_POSITIONS and 0 <= b < N_POSITIONS, f"map: castle {entry['id']} stones"
            assert len(spots) == 3, f"map: castle {entry['id']}: 3 square spots"
            self.castles[entry["id"]] = {"stones": (a, b), "spots": tuple(spots)}
        assert sorted(self.castles) == list(range(1, N_CASTLES + 1)), "map: castles 1..11"
        self.setup = {}
        for entry in doc["setup"]:
            n = entry["players"]
            supply = {k: entry["supply"].get(k, 0) for k in PIECES}
            pre = [(p["castle"], p["spot"], p["piece"]) for p in entry.get("preplace", [])]
            placed = Counter(piece for _, _, piece in pre)
            for k in PIECES:
                assert placed[k] + n * supply[k] == TOTAL_PIECES[k], f"map: setup {n}: {k} do not make 48 pieces"
            self.setup[n] = (supply, pre)


class Data:
    """The cards and tiles of a data file, checked against the published counts."""

    def __init__(self, name: str = "assumed"):
        doc = _load(_file("data", name))
        self.cards = {int(k): int(v) for k, v in doc["cards"].items()}       # per colour: coins -> cards
        assert sum(self.cards.values()) == CARDS_PER_COLOUR, "data: 10 cards per colour"
        assert set(self.cards) <= set(CARD_COINS), "data: coins 1-3"
        assert doc["jokers"] == JOKERS and doc["swap_tiles"] == SWAP_TILES, "data: 17 jokers, 9 swap tiles"
        self.master_builders = Counter(doc["master_builders"])
        assert len(doc["master_builders"]) == MASTER_BUILDERS and set(self.master_builders) <= set(range(1, 6))
        self.tiles = {b["id"]: b for b in doc["bonus"]}
        for b in self.tiles.values():
            assert b["effect"] in TILE_EFFECTS, b
        self.copies = Counter({i: b["copies"] for i, b in self.tiles.items()})
        assert sum(self.copies.values()) == BONUS_TILES, "data: 13 bonus tiles"

    def effect(self, tile) -> str | None:
        return self.tiles[tile]["effect"] if tile in self.tiles else None


@functools.lru_cache(maxsize=None)
def load_map(name: str) -> Map:
    return Map(name)


@functools.lru_cache(maxsize=None)
def load_data(name: str) -> Data:
    return Data(name)


def _cards(colours, coins) -> list[tuple[int, int]]:
    return [(int(c), int(k)) for c, k in zip(colours, coins)]


def _small_split(paid: list[tuple[int, int]], jokers: int, colours: tuple[int, int], master: int) -> bool:
    """Some split of the paid colour cards into 4 - jokers price cards of the castle's colours and master-builder
    cards whose coins reach `master` (the price cards' coins not counted)."""
    need = PRICE - jokers
    if need < 0:
        return False
    if master == 0:
        return len(paid) == need and all(c in colours for c, _ in paid)
    eligible = sorted(k for c, k in paid if c in colours)
    if len(eligible) < need:
        return False
    rest = sum(k for _, k in paid) - sum(eligible[:need])      # the lowest price cards leave the most coins
    return len(paid) > need and rest >= master


def _central_price_sets(paid: list[tuple[int, int]], need: int):
    """Index sets of `need` paid cards that are all of one colour or all of different colours."""
    idx = range(len(paid))
    for subset in itertools.combinations(idx, need):
        cols = [paid[i][0] for i in subset]
        if len(set(cols)) <= 1 or len(set(cols)) == len(cols):
            yield subset


def _central_split(paid, jokers: int, n: int, master: int) -> bool:
    need = n - jokers
    if need < 0:
        return False
    if master == 0:
        if len(paid) != need:
            return False
        cols = [c for c, _ in paid]
        return len(set(cols)) <= 1 or len(set(cols)) == len(cols)
    total = sum(k for _, k in paid)
    if len(paid) <= need:
        return False
    return any(total - sum(paid[i][1] for i in s) >= master for s in _central_price_sets(paid, need))


def _price_options(hand: Counter, colours: tuple[int, int], need: int) -> list[Counter]:
    """As built 3: the price cards taken one by one, each the lowest-coin card of the two colours; on a tie of
    coins from the colour with more cards left in the hand; on a tie of both, either (every outcome returned)."""
    mine = {card: n for card, n in hand.items() if card[0] in colours and n > 0}
    states = {frozenset()}
    for _ in range(need):
        grown = set()
        for state in states:
            took = dict(state)
            left = {card: n - took.get(card, 0) for card, n in mine.items() if n > took.get(card, 0)}
            if not left:
                continue
            k = min(coins for _, coins in left)
            candidates = [c for c in colours if (c, k) in left]
            if len(candidates) == 2:
                size = {c: sum(n for (cc, _), n in left.items() if cc == c) for c in candidates}
                candidates = [c for c in candidates if size[c] == max(size.values())]
            for c in candidates:
                took2 = dict(took)
                took2[(c, k)] = took2.get((c, k), 0) + 1
                grown.add(frozenset(took2.items()))
        states = grown
    return [Counter(dict(state)) for state in states]


def _most_held(rest: Counter, extra: Counter) -> bool:
    """As built 3: each master-builder card of a coin value comes from the colour holding most cards of that value
    (counted as the cards are taken; any of them on a tie)."""
    for k in CARD_COINS:
        want = tuple(extra[(c, k)] for c in range(N_COLOURS))
        states = {(0,) * N_COLOURS}
        for _ in range(sum(want)):
            grown = set()
            for state in states:
                left = [rest[(c, k)] - state[c] for c in range(N_COLOURS)]
                top = max(left)
                for c in range(N_COLOURS):
                    if left[c] == top and top > 0:
                        grown.add(state[:c] + (state[c] + 1,) + state[c + 1:])
            states = grown
        if want not in states:
            return False
    return True


def _min_overpay(coins: Counter, value: int) -> tuple[int, int] | None:
    """(overpay, cards) of the best set of cards with the given coin counts reaching `value`: smallest overpay,
    then fewest cards; None if the cards do not reach it."""
    best = None
    ranges = [range(coins.get(k, 0) + 1) for k in CARD_COINS]
    for counts in itertools.product(*ranges):
        total = sum(n * k for n, k in zip(counts, CARD_COINS))
        if total >= value:
            key = (total - value, sum(counts))
            if best is None or key < best:
                best = key
    return best


class Replay:
    """One play replayed: the state after the replay, and what it met (`seen`) for coverage tests."""

    def __init__(self, players: int, options: dict | None = None, policies: list[str] | None = None,
                 play: int | None = None, stones: list[str] | None = None, waive: tuple[str, ...] = ()):
        self.options = {**DEFAULTS, **(options or {})}
        self.waive = frozenset(waive)      # known discrepancies ("table.column") counted in `waived`, not raised
        self.waived: Counter = Counter()
        self.players = players
        self.policies = policies
        self.play = play
        self.map = load_map(self.options["map"])
        self.data = load_data(self.options["data"])
        if self.options["free_well_tile"] not in MARKER_TILE_READING:
            raise ValueError(f"free_well_tile {self.options['free_well_tile']!r}")
        self.where = "set-up"
        self.seen: Counter = Counter()
        cols = self.map.colours
        # border stones, as games.stones gives them: one per colour
        if stones is None or sorted(stones) != sorted(cols):
            self.fail("stones", f"games.stones {stones} is not one stone of each of the colours {list(cols)}")
        self.stones = [cols.index(s) for s in stones]
        # colour cards: face-down pile and discards as counts per (colour, coins)
        # (colour, coins) -> index into the count arrays
        self.cards = [(c, k) for c in range(N_COLOURS) for k in sorted(self.data.cards)]
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.deck = np.array([self.data.cards[k] for _, k in self.cards], dtype=np.int64)
        self.pile = self.deck.copy()
        self.discards = np.zeros_like(self.deck)
        self.hands = np.zeros((players, len(self.cards)), dtype=np.int64)
        self.jokers = [0] * players
        self.joker_pile = JOKERS
        self.reshuffles = 0
        # master builders: the values revealed, in pile order
        self.mb_seen: list[int] = []
        self.mb_turned = 0
        # wells built in play (the marker's castle is not in the tables)
        self.wells_built = 0
        # tiles
        self.swap_supply = SWAP_TILES
        self.swap_held = [0] * players
        self.swap_out = 0
        self.bonus_pile = Counter(self.data.copies)
        self.bonus_held = [Counter() for _ in range(players)]
        self.bonus_used: Counter = Counter()
        # pieces
        if players not in self.map.setup:
            self.fail("set-up", f"the map has no set-up for {players} players")
        supply, pre = self.map.setup[players]
        self.supply = [dict(supply) for _ in range(players)]
        self.start_supply = sum(supply.values())
        self.castles = {c: {"spots": {}, "extra": 0, "well": False, "x2": 0, "x3": 0}
                        for c in self.map.castles}
        self.central = Counter()
        for castle, spot, piece in pre:
            if spot == "well":
                self.castles[castle]["well"] = True
            else:
                self.castles[castle]["spots"][SPOT_LETTERS[spot]] = piece
        # the play
        self.dealt = 0
        self.turn = 0                      # the next turn
        self.standing: list[list[int]] = []  # after each turn, every seat's pieces left, negated
        self.turn_events: list[str] = []   # actions of the running turn
        self.stall = 0                     # turns in a row without a build while draws yielded nothing
        self.over: str | None = None
        self.winner: int | None = None
        zero = dict.fromkeys(("turns", "draws", "builds", "start_cards", "cards_drawn", "cards_rewarded",
                              "jokers_walls", "jokers_spots", "jokers_tiles", "jokers_exchanged", "jokers_used",
                              "coins_paid", "spot_bonuses", "swaps_taken", "swaps_played", "tiles_taken",
                              "tiles_played", "wells_built", "well_coins", "central_built"), 0)
        self.tally = [dict(zero) for _ in range(players)]
        self.games = Counter()
        # for tests of the randomness over many plays: colour cards drawn per (colour, coins) (expected from the
        # face-down pile at each card, observed), bonus tiles taken per id (each drawn uniformly from the pile), the
        # castle of the first well (built at the marker); the first master builder paid is mb_seen[0]
        self.draw_expected = np.zeros(len(self.cards))
        self.draw_observed = np.zeros(len(self.cards), dtype=np.int64)
        self.tile_expected: Counter = Counter()
        self.tile_observed: Counter = Counter()
        self.first_well: int | None = None
        # turns begun holding a swap tile (or swap bonus tile), per policy, and those that swapped; the random
        # policy's pairs
        self.could_swap = False
        self.swap_chances: Counter = Counter()
        self.swap_taken: Counter = Counter()
        self.random_pairs: Counter = Counter()
        self.conservation()

    # --------------------------------------------------------------------------------------------------------
    def fail(self, rule: str, message: str):
        raise Illegal(rule, f"play {self.play} {self.where}: {message}")

    def policy(self, seat: int) -> str | None:
        if not self.policies:
            return None
        return self.policies[seat % len(self.policies)].split(":")[0]

    def policy_param(self, seat: int, key: str, default: float) -> float:
        spec = self.policies[seat % len(self.policies)] if self.policies else ""
        for item in spec.partition(":")[2].split(","):
            name, _, value = item.partition("=")
            if name.strip() == key:
                return float(value)
        return default

    def effect(self, tile) -> str | None:
        """What a bonus tile does under the run's reading of the well marker (MARKER_TILE_READING)."""
        effect = self.data.effect(tile)
        if effect == "any_well":
            return MARKER_TILE_READING[self.options["free_well_tile"]]
        return effect

    def reachable_piece(self, seat: int) -> str | None:
        """A piece of the seat's supply whose 4-card price its hand reaches (cards of the castle's colours and
        jokers) on a castle where it can go, its held bonus tiles counted (an extra spot, a second palas, a house
        against the rule); a well on any castle without one (the marker's castle is not known here)."""
        hand = self.hands[seat].reshape(N_COLOURS, -1).sum(axis=1)
        supply = {k for k, v in self.supply[seat].items() if v > 0}
        effects = {self.effect(t) for t, n in self.bonus_held[seat].items() if n > 0}
        for castle, state in self.castles.items():
            a, b = self.castle_colours(castle)
            if hand[a] + hand[b] + self.jokers[seat] < PRICE:
                continue
            if "well" in supply and not state["well"]:
                return "well"
            spots = list(state["spots"].values())
            if not (any(s not in state["spots"] for s in range(3)) or "extra_spot" in effects):
                continue
            if "wall" in supply:
                return "wall"
            if "house" in supply and (spots.count("house") < spots.count("wall") or "ignore_house_rule" in effects):
                return "house"
            if "palas" in supply and ("palas" not in spots or "second_palas" in effects):
                return "palas"
        return None

    def affordable_wall_or_house(self, seat: int) -> tuple[str, int] | None:
        """A wall or house of the seat's supply that its hand pays (4 cards of the castle's colours, jokers for
        any) on a free square spot of a small castle, the house rule kept; None if there is none."""
        hand = self.hands[seat].reshape(N_COLOURS, -1).sum(axis=1)
        for castle, state in self.castles.items():
            spots = list(state["spots"].values())
            if all(s in state["spots"] for s in range(3)):
                continue
            a, b = self.castle_colours(castle)
            if hand[a] + hand[b] + self.jokers[seat] < PRICE:
                continue
            if self.supply[seat]["wall"] > 0:
                return "wall", castle
            if self.supply[seat]["house"] > 0 and spots.count("house") + 1 <= spots.count("wall"):
                return "house", castle
        return None

    def castle_colours(self, castle: int) -> tuple[int, int]:
        a, b = self.map.castles[castle]["stones"]
        return self.stones[a], self.stones[b]

    def conservation(self, action: str = "build"):
        """Every component accounted for: colour cards and jokers after every event; swap and bonus tiles after
        every build and swap (nothing else moves them); the pieces and the building rules of every castle after
        every build."""
        # (no count can go below 0: every card taken or paid is checked to be there first)
        total = self.pile + self.discards + self.hands.sum(axis=0)
        if not np.array_equal(total, self.deck):
            i = next(i for i in range(len(self.cards)) if total[i] != self.deck[i] or self.pile[i] < 0
                     or self.discards[i] < 0 or (self.hands[:, i] < 0).any())
            self.fail("conservation", f"card {self.cards[i]}: pile {self.pile[i]} + discards {self.discards[i]} + "
                      f"hands {self.hands[:, i].tolist()} should make {self.deck[i]}")
        if self.joker_pile < 0 or min(self.jokers) < 0 or self.joker_pile + sum(self.jokers) != JOKERS:
            self.fail("conservation", f"jokers: pile {self.joker_pile} + hands {self.jokers} != {JOKERS}")
        if action not in ("build", "swap"):
            return
        if min(self.swap_supply, min(self.swap_held)) < 0 or \
                self.swap_supply + sum(self.swap_held) + self.swap_out != SWAP_TILES:
            self.fail("conservation", f"swap tiles: supply {self.swap_supply} + held {self.swap_held} + out "
                      f"{self.swap_out} != {SWAP_TILES}")
        held = Counter()
        for h in self.bonus_held:
            held.update(h)
        if any(self.bonus_pile[t] + held[t] + self.bonus_used[t] != n for t, n in self.data.copies.items()) or \
                any(v < 0 for h in (self.bonus_pile, *self.bonus_held) for v in h.values()):
            self.fail("conservation", f"bonus tiles: pile {dict(self.bonus_pile)} + held {dict(held)} + used "
                      f"{dict(self.bonus_used)} != {dict(self.data.copies)}")
        if action != "build":
            return
        on_board = dict.fromkeys(PIECES, 0)
        for castle, state in self.castles.items():
            spots = dict.fromkeys(SQUARE, 0)
            for piece in state["spots"].values():
                spots[piece] += 1
                on_board[piece] += 1
            on_board["well"] += state["well"]
            if spots["house"] - spots["wall"] > state["x2"] or spots["palas"] - 1 > state["x3"]:
                self.fail("conservation", f"castle {castle}: {spots} with {state['x2']} X2 and {state['x3']} X3 "
                          f"tiles played there")
        for kind in PIECES:
            held = sum(s[kind] for s in self.supply)
            if min(s[kind] for s in self.supply) < 0 or \
                    held + on_board[kind] + self.central[kind] != TOTAL_PIECES[kind]:
                self.fail("conservation", f"{kind}: supplies {held} + small castles {on_board[kind]} + central "
                          f"{self.central[kind]} != {TOTAL_PIECES[kind]}")

    # --------------------------------------------------------------------------------------------------------
    def take_cards(self, cards: list[tuple[int, int]], seat: int, rule: str) -> int:
        """Draws the cards one by one from the face-down pile into the seat's hand; the discards are shuffled
        into a new pile only when a card is wanted and the pile is empty. Returns the reshuffles."""
        shuffles = 0
        for i, card in enumerate(cards):
            if not self.pile.any():
                if not self.discards.any():
                    self.fail(rule, f"card {i} {card} drawn while the face-down pile and the discards are empty")
                self.pile, self.discards = self.discards, np.zeros_like(self.deck)
                shuffles += 1
                self.seen["reshuffle"] += 1
            i = self.index.get(card)
            if i is None or self.pile[i] <= 0:
                self.fail(rule, f"card {i} (colour {card[0]}, coins {card[1]}) is not in the face-down pile "
                          f"{self.counter(self.pile)}")
            self.draw_expected += self.pile / self.pile.sum()
            self.draw_observed[i] += 1
            self.pile[i] -= 1
            self.hands[seat, i] += 1
        return shuffles

    def dry(self) -> bool:
        return not self.pile.any() and not self.discards.any()

    def coins_reward(self, cards: list[tuple[int, int]], value: int, seat: int, rule: str) -> int:
        """Cards drawn until their coins reach `value` (fewer only if both piles ran dry)."""
        total = 0
        for i, (_, k) in enumerate(cards):
            if total >= value:
                self.fail(rule, f"card {i} drawn although the coins {total} already reach {value}")
            total += k
        shuffles = self.take_cards(cards, seat, rule)
        if total < value:
            if not self.dry():
                self.fail(rule, f"coins {total} of {len(cards)} cards stop short of {value} while cards are left")
            self.seen["reward_ran_dry"] += 1
        return shuffles

    def held(self, seat: int, cards: list[tuple[int, int]], jokers: int) -> Counter:
        hand = self.hands[seat]
        need = Counter(cards)
        for card, n in need.items():
            i = self.index.get(card)
            if i is None or hand[i] < n:
                self.fail("held", f"seat {seat} pays {n} x (colour {card[0]}, coins {card[1]}) but holds "
                          f"{0 if i is None else hand[i]}")
        if jokers < 0 or jokers > self.jokers[seat]:
            self.fail("held", f"seat {seat} pays {jokers} jokers but holds {self.jokers[seat]}")
        return need

    def pay(self, seat: int, cards: list[tuple[int, int]], jokers: int):
        hand = self.hands[seat]
        need = self.held(seat, cards, jokers)
        for card, n in need.items():
            hand[self.index[card]] -= n
            self.discards[self.index[card]] += n
        self.jokers[seat] -= jokers
        self.joker_pile += jokers

    def counter(self, counts) -> Counter:
        """An array of card counts as a Counter of (colour, coins)."""
        return Counter({self.cards[i]: int(n) for i, n in enumerate(counts) if n})

    def take_jokers(self, seat: int, n: int):
        self.jokers[seat] += n
        self.joker_pile -= n

    def next_master_builder(self, value: int):
        """The top master builder is paid (value) and goes under the pile."""
        k = self.mb_turned
        if k < MASTER_BUILDERS:
            left = self.data.master_builders - Counter(self.mb_seen)
            if left[value] <= 0:
                self.fail("master builder", f"value {value} is not among the unrevealed master builders "
                          f"{sorted(left.elements())} (revealed {self.mb_seen})")
            self.mb_seen.append(value)
        else:
            expected = self.mb_seen[k % MASTER_BUILDERS]
            if value != expected:
                self.fail("master builder", f"the {k + 1}th master builder paid is {value}; the pile, turned "
                          f"under in order {self.mb_seen}, shows {expected}")
            self.seen["master_builder_cycle"] += 1
        self.mb_turned += 1

    # --------------------------------------------------------------------------------------------------------
    def event(self, index: int, ev: dict):
        action = ev["action"]
        seat = ev["seat"]
        self.where = f"event {index} (turn {ev['turn']} seat {seat} {action})"
        if self.over:
            self.fail("end", f"an event after the play ended ({self.over})")
        if ev.get("rules_version", RULES_VERSION) != RULES_VERSION or \
                (self.play is not None and ev.get("play_index", self.play) != self.play):
            self.fail("order", f"rules_version {ev.get('rules_version')} / play_index {ev.get('play_index')}")
        if action == "deal":
            self.deal(ev)
        else:
            if self.dealt < self.players:
                self.fail("order", f"{action} before every seat was dealt")
            t = self.turn
            if ev["turn"] != t or seat != t % self.players:
                self.fail("order", f"expected turn {t} of seat {t % self.players}")
            if not self.turn_events:           # the turn's first event: could the seat swap?
                self.could_swap = self.swap_held[seat] > 0 or any(
                    n > 0 and self.effect(t) == "swap" for t, n in self.bonus_held[seat].items())
            if action in FREE_ACTIONS:
                if action in self.turn_events:
                    self.fail("free actions", f"a second {action} in one turn (As built 2: at most one each)")
                self.turn_events.append(action)
                self.swap(ev) if action == "swap" else self.exchange(ev)
            elif action in MAIN_ACTIONS:
                self.tally[seat]["turns"] += 1
                if self.could_swap:
                    self.swap_chances[self.policy(seat)] += 1
                    self.swap_taken[self.policy(seat)] += "swap" in self.turn_events
                if action == "draw" and "exchange" in self.turn_events and self.policy(seat) == "builder":
                    self.fail("policy", "the builder exchanged coins for a joker and then draws (it exchanges when "
                              "that makes a build affordable)")
                self.draw(ev) if action == "draw" else self.build(ev)
                self.turn_events = []
                self.turn += 1
                self.standing.append([-sum(s.values()) for s in self.supply])  # fewer pieces left is better
                self.games["turns"] += 1
                if not self.over and self.turn >= self.options["max_turns"]:
                    self.over = "turn_limit"
                if not self.over and self.stall >= STALL_ROUNDS * self.players:
                    self.over = "stalled"
            else:
                self.fail("order", f"unknown action {action!r}")
        if ev["deck_left"] != self.pile.sum():
            self.fail("deck", f"deck_left {ev['deck_left']}, the face-down pile holds {self.pile.sum()}")
        self.conservation(action)

    def expect_empty(self, ev: dict, keys: tuple[str, ...], rule: str):
        for key in keys:
            value = ev[key]
            if value not in (None, [], 0, False):
                self.fail(rule, f"{key} is {value!r}, expected none for this action")

    def deal(self, ev: dict):
        seat = ev["seat"]
        if ev["turn"] is not None or seat != self.dealt:
            self.fail("order", f"deal of seat {seat} (turn {ev['turn']}), expected seat {self.dealt} before turn 0")
        self.expect_empty(ev, ("piece", "castle", "spot", "colours", "bonus_tile", "master_builder", "well_reward",
                               "paid_colours", "paid_coins", "jokers_paid", "wall_jokers", "spot_bonus",
                               "swap_gained", "tile_gained", "swapped", "reshuffles"), "deal")
        cards = _cards(ev["gained_colours"], ev["gained_coins"])
        n = START_CARDS + (seat if self.options["start_hands"] == "staggered" else 0)
        if len(cards) != n or len(ev["gained_colours"]) != len(ev["gained_coins"]):
            self.fail("deal", f"seat {seat} is dealt {len(cards)} colour cards, {self.options['start_hands']} "
                      f"gives {n}")
        if ev["jokers_gained"] != START_JOKERS:
            self.fail("deal", f"seat {seat} is dealt {ev['jokers_gained']} jokers, expected {START_JOKERS}")
        self.take_cards(cards, seat, "deal")
        self.take_jokers(seat, START_JOKERS)
        self.tally[seat]["start_cards"] = n
        self.dealt += 1

    def draw(self, ev: dict):
        seat = ev["seat"]
        self.expect_empty(ev, ("piece", "castle", "spot", "colours", "bonus_tile", "master_builder", "well_reward",
                               "paid_colours", "paid_coins", "jokers_paid", "wall_jokers", "spot_bonus",
                               "jokers_gained", "swap_gained", "tile_gained", "swapped"), "draw")
        if self.policy(seat) == "builder":
            can = self.affordable_wall_or_house(seat)
            if can is not None:
                self.fail("policy", f"the builder draws although it can pay a {can[0]} in castle {can[1]} (builds "
                          f"whenever it can)")
        cards = _cards(ev["gained_colours"], ev["gained_coins"])
        if len(ev["gained_colours"]) != len(ev["gained_coins"]):
            self.fail("draw", "gained_colours and gained_coins differ in length")
        if len(cards) > DRAW:
            self.fail("draw", f"{len(cards)} cards drawn, the draw takes {DRAW}")
        shuffles = self.take_cards(cards, seat, "draw")
        if len(cards) < DRAW:
            if not self.dry():
                self.fail("draw", f"only {len(cards)} cards drawn while the piles hold "
                          f"{self.pile.sum()} + {self.discards.sum()}")
            self.seen["draw_short"] += 1
        self.check_reshuffles(ev, shuffles)
        self.tally[seat]["draws"] += 1
        self.tally[seat]["cards_drawn"] += len(cards)
        self.stall = self.stall + 1 if not cards else 0

    def check_reshuffles(self, ev: dict, shuffles: int):
        if ev["reshuffles"] != shuffles:
            self.fail("reshuffle", f"the event says {ev['reshuffles']} reshuffles, the draws needed {shuffles} "
                      f"(a reshuffle only when a card is wanted and the face-down pile is empty)")
        self.reshuffles += shuffles

    def swap(self, ev: dict):
        seat = ev["seat"]
        self.expect_empty(ev, ("piece", "castle", "spot", "colours", "master_builder", "well_reward", "paid_colours",
                               "paid_coins", "jokers_paid", "wall_jokers", "spot_bonus", "gained_colours",
                               "gained_coins", "jokers_gained", "swap_gained", "tile_gained", "reshuffles"), "swap")
        pair = list(ev["swapped"])
        if len(pair) != 2 or pair[0] == pair[1] or not all(0 <= p < N_POSITIONS for p in pair):
            self.fail("swap", f"swapped {pair} is not two different positions 0-7")
        tile = ev["bonus_tile"]
        if tile is None:
            if self.swap_held[seat] <= 0:
                self.fail("swap", f"seat {seat} swaps without a swap tile")
            self.swap_held[seat] -= 1
            if self.options["swap_return"] == "supply":
                self.swap_supply += 1
            else:
                self.swap_out += 1
            self.seen["swap_tile"] += 1
        else:
            if self.effect(tile) != "swap":
                self.fail("tile", f"tile {tile} ({self.effect(tile)}) played for a swap")
            if self.bonus_held[seat][tile] <= 0:
                self.fail("tile", f"seat {seat} plays {tile} but holds {dict(+self.bonus_held[seat])}")
            if self.swap_held[seat] > 0:
                self.fail("swap", f"seat {seat} plays swap bonus tile {tile} while holding {self.swap_held[seat]} "
                          f"swap tiles (As built 8: the swap tile first)")
            self.bonus_held[seat][tile] -= 1
            self.bonus_used[tile] += 1
            self.tally[seat]["tiles_played"] += 1
            self.seen["swap_bonus_tile"] += 1
        a, b = pair
        builder = self.policy(seat) == "builder"
        if builder and self.affordable_wall_or_house(seat):
            self.fail("policy", f"the builder swaps although it can pay a {self.affordable_wall_or_house(seat)[0]} "
                      f"(it swaps only with no affordable build)")
        self.stones[a], self.stones[b] = self.stones[b], self.stones[a]
        if builder and self.reachable_piece(seat) is None:
            self.fail("policy", "the builder's swap brings no piece of its within its 4-card price on a castle "
                      "where it can go")
        if self.policy(seat) == "random":
            self.random_pairs[(min(a, b), max(a, b))] += 1
        self.tally[seat]["swaps_played"] += 1
        self.games["swaps_used"] += 1

    def exchange(self, ev: dict):
        seat = ev["seat"]
        self.expect_empty(ev, ("piece", "castle", "spot", "colours", "bonus_tile", "master_builder", "well_reward",
                               "jokers_paid", "wall_jokers", "spot_bonus", "gained_colours", "gained_coins",
                               "swap_gained", "tile_gained", "swapped", "reshuffles"), "exchange")
        value = self.options["joker_exchange"]
        if not value:
            self.fail("exchange", "an exchange although joker_exchange is 0 (off)")
        policy = self.policy(seat)
        if policy is not None and policy not in EXCHANGING_POLICIES:
            self.fail("policy", f"seat {seat} plays {policy}; only {EXCHANGING_POLICIES} exchange (As built 9)")
        cards = _cards(ev["paid_colours"], ev["paid_coins"])
        coins = sum(k for _, k in cards)
        if coins < value:
            self.fail("exchange", f"cards of {coins} coins exchanged for a joker, the exchange needs {value}")
        if ev["jokers_gained"] != 1:
            self.fail("exchange", f"jokers_gained {ev['jokers_gained']}, an exchange gives 1 joker")
        if self.joker_pile < 1:
            self.fail("exchange", "a joker exchanged from an empty joker pile")
        if cards != sorted(cards):
            self.fail("exchange", f"paid cards {cards} are not in card order (by colour, then coins)")
        best = _min_overpay(Counter(k for (_, k), n in self.counter(self.hands[seat]).items() for _ in range(n)), value)
        self.pay(seat, cards, 0)
        if best is not None and (coins - value, len(cards)) != best:
            self.fail("payment choice", f"exchange of {len(cards)} cards, {coins} coins for {value}: the smallest "
                      f"overpay then fewest cards is overpay {best[0]} with {best[1]} cards (As built 9)")
        self.take_jokers(seat, 1)
        self.tally[seat]["jokers_exchanged"] += 1
        self.seen["exchange"] += 1

    # --------------------------------------------------------------------------------------------------------
    def build(self, ev: dict):
        seat = ev["seat"]
        piece, castle, spot, tile = ev["piece"], ev["castle"], ev["spot"], ev["bonus_tile"]
        if ev["swapped"]:
            self.fail("build", f"swapped {ev['swapped']} on a build")
        if piece not in PIECES:
            self.fail("build", f"unknown piece {piece!r}")
        if self.supply[seat][piece] <= 0:
            self.fail("supply", f"seat {seat} builds a {piece} but has none left ({self.supply[seat]})")
        effect = None
        if tile is not None:
            effect = self.effect(tile)
            self.seen["well_tile_as_house_rule"] += effect != self.data.effect(tile)
            if effect not in BUILD_EFFECTS:
                self.fail("tile", f"tile {tile} ({effect}) played with a build")
            if self.bonus_held[seat][tile] <= 0:
                self.fail("tile", f"seat {seat} plays {tile} but holds {dict(+self.bonus_held[seat])}")
        paid = _cards(ev["paid_colours"], ev["paid_coins"])
        if len(ev["paid_colours"]) != len(ev["paid_coins"]):
            self.fail("payment", "paid_colours and paid_coins differ in length")
        if any(not 0 <= c < N_COLOURS or k not in self.data.cards for c, k in paid):
            self.fail("payment", f"paid cards {paid} are not colour cards")
        if paid != sorted(paid):
            self.fail("payment", f"paid cards {paid} are not in card order (by colour, then coins)")
        jokers = ev["jokers_paid"]
        last = sum(self.supply[seat].values()) == 1
        hand_before = self.counter(self.hands[seat])
        jokers_before = self.jokers[seat]

        if castle == 0:
            master = self.central_build(ev, seat, piece, spot, effect, paid, jokers)
        elif castle in self.map.castles:
            master = self.small_build(ev, seat, piece, castle, spot, effect, paid, jokers)
        else:
            self.fail("build", f"no castle {castle}")
        self.held(seat, paid, jokers)
        if jokers and piece != "palas" and self.policy(seat) == "saver" and \
                self.policy_param(seat, "keep_jokers", 1) == 1:
            self.fail("policy", f"the saver pays {jokers} jokers for a {piece}; with keep_jokers 1 jokers pay only "
                      f"for palases")
        self.choice(seat, castle, piece, paid, jokers, master, hand_before, jokers_before)

        # pay, place
        self.pay(seat, paid, jokers)
        self.tally[seat]["jokers_used"] += jokers
        self.tally[seat]["coins_paid"] += sum(k for _, k in paid)
        if tile is not None:
            self.bonus_held[seat][tile] -= 1
            self.bonus_used[tile] += 1
            self.tally[seat]["tiles_played"] += 1
            self.seen[f"tile_{effect}"] += 1
        self.supply[seat][piece] -= 1
        self.tally[seat]["builds"] += 1
        self.stall = 0
        if castle == 0:
            self.central[piece] += 1
            self.tally[seat]["central_built"] += 1
            self.games["central_built"] += 1
        elif piece == "well":
            self.castles[castle]["well"] = True
        else:
            self.castles[castle]["spots"][spot] = piece
            if spot >= 3:
                self.castles[castle]["extra"] += 1

        # rewards (none for the last piece, As built 5 and rule 20)
        wall_jokers, spot_bonus = 0, None
        well_reward = 0
        if piece == "well":
            well_reward = WELL_REWARDS[self.wells_built] if self.wells_built < len(WELL_REWARDS) else None
            if well_reward is None:
                self.fail("well", f"a {self.wells_built + 1}th well built in play; there are 8 rewards")
            self.wells_built += 1
            self.tally[seat]["wells_built"] += 1
            self.games["wells_built"] += 1
        if last:
            self.seen[f"last_{piece}"] += 1
            self.expect_empty(ev, ("wall_jokers", "spot_bonus", "gained_colours", "gained_coins", "jokers_gained",
                                   "swap_gained", "tile_gained", "reshuffles", "well_reward"), "last piece")
            self.over, self.winner = "last_piece", seat
            return
        if piece == "wall" and castle != 0:
            walls = sum(p == "wall" for p in self.castles[castle]["spots"].values())
            wall_jokers = min(walls, self.joker_pile)
            if walls > self.joker_pile:
                self.seen["wall_jokers_capped"] += 1
        if ev["wall_jokers"] != wall_jokers:
            self.fail("wall jokers", f"wall_jokers {ev['wall_jokers']}, expected {wall_jokers} "
                      f"(walls now in castle {castle}, joker pile {self.joker_pile})")
        self.take_jokers(seat, wall_jokers)
        self.tally[seat]["jokers_walls"] += wall_jokers
        if ev["well_reward"] != well_reward:
            self.fail("well reward", f"well_reward {ev['well_reward']}, the {self.wells_built}th well in play gets "
                      f"{well_reward}")
        if castle != 0 and piece != "well" and spot < 3:
            spot_bonus = self.map.castles[castle]["spots"][spot]
        cards = _cards(ev["gained_colours"], ev["gained_coins"])
        if len(ev["gained_colours"]) != len(ev["gained_coins"]):
            self.fail("spot bonus", "gained_colours and gained_coins differ in length")
        jokers_gained = 0
        swap_gained = False
        tile_gained = None
        shuffles = 0
        kind = spot_bonus[0] if spot_bonus else None
        if ev["spot_bonus"] != kind:
            self.fail("spot bonus", f"spot_bonus {ev['spot_bonus']!r}, castle {castle} spot {spot} gives {kind!r}")
        if kind is not None:
            self.tally[seat]["spot_bonuses"] += 1
        if kind == "joker":
            jokers_gained = min(1, self.joker_pile)
            self.seen["joker_spot_empty"] += jokers_gained == 0
            self.tally[seat]["jokers_spots"] += jokers_gained
        elif kind == "swap":
            swap_gained = self.swap_supply > 0
            self.seen["swap_supply_empty"] += not swap_gained
        elif kind == "bonus":
            tile_gained = ev["tile_gained"]
            if not sum(self.bonus_pile.values()):
                self.seen["bonus_pile_empty"] += 1
                if tile_gained is not None:
                    self.fail("spot bonus", f"tile {tile_gained} taken from an empty bonus pile")
            elif tile_gained is None or self.bonus_pile[tile_gained] <= 0:
                self.fail("spot bonus", f"tile_gained {tile_gained!r} is not in the bonus pile "
                          f"{dict(+self.bonus_pile)}")
            else:
                size = sum(self.bonus_pile.values())
                for t, n in self.bonus_pile.items():
                    self.tile_expected[t] += n / size
                self.tile_observed[tile_gained] += 1
        if kind == "coins":
            shuffles = self.coins_reward(cards, spot_bonus[1], seat, "coins")
            self.tally[seat]["cards_rewarded"] += len(cards)
            self.seen["coins_spot"] += 1
        elif piece == "well":
            shuffles = self.coins_reward(cards, well_reward, seat, "well reward")
            self.tally[seat]["cards_rewarded"] += len(cards)
            self.tally[seat]["well_coins"] += well_reward
        elif cards:
            self.fail("spot bonus", f"cards {cards} gained by a {piece} on a {kind} spot")
        self.check_reshuffles(ev, shuffles)
        if ev["swap_gained"] != swap_gained:
            self.fail("spot bonus", f"swap_gained {ev['swap_gained']}, expected {swap_gained} (supply "
                      f"{self.swap_supply})")
        if kind != "bonus" and ev["tile_gained"] is not None:
            self.fail("spot bonus", f"tile {ev['tile_gained']} gained on a {kind} spot")
        if swap_gained:
            self.swap_supply -= 1
            self.swap_held[seat] += 1
            self.tally[seat]["swaps_taken"] += 1
        if tile_gained is not None:
            self.bonus_pile[tile_gained] -= 1
            self.tally[seat]["tiles_taken"] += 1
            if self.effect(tile_gained) == "jokers":
                n = min(self.data.tiles[tile_gained]["value"], self.joker_pile - jokers_gained)
                jokers_gained += n
                self.tally[seat]["jokers_tiles"] += n
                self.tally[seat]["tiles_played"] += 1
                self.bonus_used[tile_gained] += 1
                self.seen["tile_jokers"] += 1
            else:
                self.bonus_held[seat][tile_gained] += 1
        if ev["jokers_gained"] != jokers_gained:
            self.fail("spot bonus", f"jokers_gained {ev['jokers_gained']}, expected {jokers_gained} "
                      f"({kind} spot, joker pile {self.joker_pile})")
        self.take_jokers(seat, jokers_gained)

    def check_master(self, ev: dict, master: int):
        if ev["master_builder"] != master:
            self.fail("master builder", f"master_builder {ev['master_builder']}, expected {master} for a {ev['piece']}"
                      + (f" with {ev['bonus_tile']}" if ev["bonus_tile"] else "")
                      + (" in the central castle" if ev["castle"] == 0 else ""))

    def central_build(self, ev, seat, piece, spot, effect, paid, jokers) -> int:
        opts = self.options
        if piece == "well":
            self.fail("central", "a well in the central castle")
        if spot is not None or ev["colours"]:
            self.fail("central", f"spot {spot} / colours {ev['colours']} in the central castle")
        if effect is not None and not (effect == "free_master_builder" and piece == "palas"
                                       and opts["central_master_builder"]):
            self.fail("tile", f"{ev['bonus_tile']} ({effect}) played in the central castle (no building rules)")
        self.seen["central_free_master_builder"] += effect is not None
        n = opts[f"central_{piece}"]
        master = 0
        if piece == "palas" and opts["central_master_builder"] and effect != "free_master_builder":
            master = ev["master_builder"]
            if master <= 0:
                self.fail("master builder", "a central palas pays no master builder (central_master_builder)")
            self.next_master_builder(master)
        self.check_master(ev, master)
        if jokers and not opts["central_jokers"]:
            self.fail("central", f"{jokers} jokers paid in the central castle (central_jokers false)")
        if not _central_split(paid, jokers, n, master):
            self.fail("central", f"{paid} + {jokers} jokers do not pay a central {piece}: {n} cards all of one "
                      f"colour or all different" + (f", master builder {master}" if master else ""))
        cols = {c for c, _ in paid}
        self.seen["central_" + piece] += 1
        self.seen["central_jokers"] += jokers > 0
        self.seen["central_one_colour" if len(cols) == 1 else "central_different"] += 1
        return master

    def small_build(self, ev, seat, piece, castle, spot, effect, paid, jokers) -> int:
        state = self.castles[castle]
        colours = self.castle_colours(castle)
        names = [self.map.colours[c] for c in colours]
        if list(ev["colours"]) != names:
            self.fail("colours", f"castle {castle} has colours {names} (stones at positions "
                      f"{self.map.castles[castle]['stones']}), the event says {list(ev['colours'])}")
        master = 0
        if piece == "well":
            if spot is not None:
                self.fail("well", f"a well on square spot {spot}")
            if state["well"]:
                self.fail("well", f"castle {castle} already has a well")
            if effect not in (None, "any_well"):
                self.fail("tile", f"{ev['bonus_tile']} ({effect}) played with a well")
            if effect == "any_well":
                self.seen["any_well"] += 1
            else:
                self.seen["well_at_marker"] += 1
                if self.wells_built == 0:
                    self.first_well = castle      # the first well at the marker: the set-up's top well card
        else:
            taken = state["spots"]
            if effect == "extra_spot":
                n_spots = 3 + state["extra"]
                if any(s not in taken for s in range(n_spots)):
                    self.fail("extra spot", f"an extra spot on castle {castle} while spots "
                              f"{[s for s in range(n_spots) if s not in taken]} are free")
                if spot != n_spots:
                    self.fail("extra spot", f"spot {spot}; the new extra spot of castle {castle} is {n_spots}")
                self.seen["extra_spot"] += 1
            else:
                if spot is None or not 0 <= spot < 3 or spot in taken:
                    self.fail("spot", f"spot {spot} of castle {castle} is not a free square spot (taken: "
                              f"{sorted(taken)})")
            walls = sum(p == "wall" for p in taken.values()) + (piece == "wall")
            houses = sum(p == "house" for p in taken.values()) + (piece == "house")
            palases = sum(p == "palas" for p in taken.values())
            if effect in ("ignore_house_rule", "second_palas", "free_master_builder", "any_well") and \
                    piece != {"ignore_house_rule": "house", "second_palas": "palas", "free_master_builder": "palas",
                              "any_well": "well"}[effect]:
                self.fail("tile", f"{ev['bonus_tile']} ({effect}) played with a {piece}")
            if piece == "house" and houses > walls:
                if effect != "ignore_house_rule":
                    self.fail("house rule", f"castle {castle} would hold {houses} houses and {walls} walls")
                state["x2"] += 1
                self.seen["house_rule_ignored"] += 1
            elif effect == "ignore_house_rule":
                self.seen["x2_not_needed"] += 1
            if piece == "palas":
                if palases:
                    if effect != "second_palas":
                        self.fail("palas", f"castle {castle} already has a palas")
                    state["x3"] += 1
                    self.seen["second_palas"] += 1
                elif effect == "second_palas":
                    self.seen["x3_not_needed"] += 1
                if effect != "free_master_builder":
                    master = ev["master_builder"]
                    if master <= 0:
                        self.fail("master builder", f"a palas pays master builder {master}")
                    self.next_master_builder(master)
                else:
                    self.seen["free_master_builder"] += 1
        self.check_master(ev, master)
        if not _small_split(paid, jokers, colours, master):
            self.fail("payment", f"{paid} + {jokers} jokers do not pay a {piece} in castle {castle} "
                      f"(colours {list(colours)}): {PRICE} cards of these colours, jokers for any"
                      + (f", plus master builder {master} in further cards" if master else ""))
        if jokers:
            self.seen["jokers_paid"] += 1
        if jokers == PRICE:
            self.seen["four_jokers"] += 1
        return master

    def choice(self, seat, castle, piece, paid, jokers, master, hand, held_jokers):
        """As built 3 and 4: the payment every policy makes. Small castle: the fewest jokers with which the whole
        price can be paid; the price cards one by one, each the lowest-coin card of the castle's two colours, on a
        tie of coins from the colour with more cards left (either on a tie of both); the master builder's cards the
        set of the smallest overpay, then the fewest cards, each card of a coin value from the colour holding most
        cards of that value (any of them on a tie). Central castle (no master builder): the fewest jokers; one colour
        (a colour held most, its lowest-coin cards) before different colours (colours held most, the lowest-coin
        card of each)."""
        paid_c = Counter(paid)
        if castle == 0:
            if master:
                return                 # a central master builder's payment is not described
            n = self.options[f"central_{piece}"]
            per = Counter()
            for (c, _), k in hand.items():
                per[c] += k
            per = +per
            best = max(per.values(), default=0)
            fewest = max(0, n - max(best, len(per))) if self.options["central_jokers"] else 0
            if jokers != fewest:
                self.fail("payment choice", f"{jokers} jokers paid for a central {piece}; {fewest} suffice "
                          f"(As built 4: the fewest jokers)")
            cols = [c for c, _ in paid]
            lowest = {c: sorted(k for (cc, k), m in hand.items() if cc == c for _ in range(m)) for c in per}
            if len(cols) > 1 and len(set(cols)) > 1 and best >= len(cols):
                self.fail("payment choice", f"central {piece} paid in different colours {cols}; one colour pays with "
                          f"the same {fewest} jokers (As built 4: one colour first)")
            if len(cols) > 1 and len(set(cols)) == 1:
                c = cols[0]
                if per[c] < best or sorted(k for _, k in paid) != lowest[c][:len(cols)]:
                    self.fail("payment choice", f"central {piece} paid with {paid}: colour {c} held {per[c]} times "
                              f"(most: {best}), its lowest coins {lowest[c][:len(cols)]} (As built 4)")
            elif len(cols) > 1:
                chosen = set(cols)
                if min(per[c] for c in chosen) < max([per[c] for c in per if c not in chosen], default=0) or \
                        any(k != lowest[c][0] for c, k in paid):
                    self.fail("payment choice", f"central {piece} paid with {paid}: not the colours held most "
                              f"{dict(per)}, each by its lowest-coin card (As built 4)")
            return
        colours = self.castle_colours(castle)
        eligible = sorted(k for (c, k), n in hand.items() if c in colours for _ in range(n))
        all_coins = Counter(k for (_, k), n in hand.items() for _ in range(n))
        fewest = None
        for j in range(max(0, PRICE - len(eligible)), min(PRICE, held_jokers) + 1):
            rest = all_coins - Counter(eligible[:PRICE - j])
            if _min_overpay(rest, master) is not None:
                fewest = j
                break
        if fewest is None:
            return                     # unaffordable: the payment check refuses it already
        if jokers != fewest:
            self.fail("payment choice", f"{jokers} jokers paid for a {piece} in castle {castle}; {fewest} suffice "
                      f"(As built 3: the fewest jokers)")
        options = _price_options(hand, colours, PRICE - jokers)
        if master == 0:
            if paid_c not in options:
                self.fail("payment choice", f"price cards {paid}; the lowest-coin cards of colours {list(colours)}, "
                          f"from the colour with more cards on a tie, are {[sorted(o.elements()) for o in options]} "
                          f"(As built 3)")
            return
        prices = [o for o in options if not o - paid_c]
        if not prices:
            self.fail("payment choice", f"the paid cards {paid} do not hold the price cards "
                      f"{[sorted(o.elements()) for o in options]} (As built 3: lowest coins of the castle's colours)")
        for price in prices:
            rest = Counter(hand) - price
            extra = paid_c - price
            mb_coins = sum(k * n for (_, k), n in extra.items())
            best = _min_overpay(Counter(k for (_, k), n in rest.items() for _ in range(n)), master)
            if (mb_coins - master, sum(extra.values())) != best:
                self.fail("payment choice", f"master builder {master} paid with {sorted(extra.elements())}; the "
                          f"smallest overpay then fewest cards is overpay {best[0]} with {best[1]} cards (As built 3)")
            if _most_held(rest, extra):
                return
        self.fail("payment choice", f"master builder {master} paid with cards {sorted((paid_c - prices[0]).elements())}"
                  f" not each from the colour holding most cards of its coins (As built 3)")

    # --------------------------------------------------------------------------------------------------------
    def finish(self, games_row: dict, seats_rows: list[dict]):
        self.where = "the end"
        if self.dealt != self.players:
            self.fail("deal", f"{self.dealt} seats dealt, {self.players} play")
        if self.turn_events:
            self.fail("order", f"the play ends after free actions {self.turn_events} without a main action")
        if not self.over:
            self.fail("end", f"the play stops after {self.turn} turns: no last piece, no turn limit "
                      f"({self.options['max_turns']}), not stalled ({self.stall} turns without a build or card)")
        players = self.players
        left = [sum(s.values()) for s in self.supply]
        expect = {"rules_version": RULES_VERSION, "players": players, "start_hands": self.options["start_hands"],
                  "turns": self.turn,
                  "rounds": -(-self.turn // players), "end_reason": self.over, "completed": self.over == "last_piece",
                  "wells_built": self.wells_built, "swaps_used": self.games["swaps_used"],
                  "central_built": self.games["central_built"], "reshuffles": self.reshuffles,
                  "winners": [self.winner] if self.winner is not None else []}
        if self.play is not None:
            expect["play_index"] = self.play
        for key, value in expect.items():
            got = list(games_row[key]) if key == "winners" else games_row[key]
            if got != value:
                self.fail("games", f"{key} is {got}, expected {value}")
        if "worst_rank" in games_row:  # not in a table written before the feel columns existed
            why = feel_mismatch(games_row, self.standing, self.winner)
            if why:
                self.fail("feel", why)
        rows = sorted(seats_rows, key=lambda s: s["seat"])
        if [s["seat"] for s in rows] != list(range(players)):
            self.fail("seats", f"seats {[s['seat'] for s in rows]}")
        for seat, row in enumerate(rows):
            t = self.tally[seat]
            supply = self.supply[seat]
            exp = {**t, "rules_version": RULES_VERSION, "score": self.start_supply - left[seat],
                   "pieces_left": left[seat],
                   "walls_left": supply["wall"], "houses_left": supply["house"], "palases_left": supply["palas"],
                   "wells_left": supply["well"], "winner": seat == self.winner,
                   "rank": 1 + sum(1 for x in left if x < left[seat]),
                   "jokers_gained": t["jokers_walls"] + t["jokers_spots"] + t["jokers_tiles"] + t["jokers_exchanged"],
                   "cards_left": int(self.hands[seat].sum()), "jokers_left": self.jokers[seat]}
            if self.play is not None:
                exp["play_index"] = self.play
            if exp["score"] != t["builds"]:
                self.fail("seats", f"seat {seat}: {t['builds']} builds but {exp['score']} pieces placed")
            for key, value in exp.items():
                if row[key] != value:
                    if f"seats.{key}" in self.waive:
                        self.waived[f"seats.{key}"] += 1
                        continue
                    self.fail("seats", f"seat {seat}: {key} is {row[key]}, expected {value}")
            policy = self.policy(seat)
            if policy is not None and (row["policy"] != policy or not str(row["policy_spec"]).startswith(policy)):
                self.fail("seats", f"seat {seat}: policy {row['policy']} / {row['policy_spec']}, configured {policy}")
        self.seen[self.over] += 1
        self.seen[f"players_{players}"] += 1
        if len(set(left)) < players and self.over == "last_piece":
            self.seen["shared_rank"] += 1


def order_events(events_rows: list[dict]) -> list[dict]:
    """The play's events in play order: the deal, then by turn (the rows' own order within a turn)."""
    return sorted(events_rows, key=lambda e: -1 if e["turn"] is None else e["turn"])


def replay(players: int, options: dict | None, games_row: dict, seats_rows: list[dict], events_rows: list[dict],
           policies: list[str] | None = None, waive: tuple[str, ...] = ()) -> Replay:
    """Replays one play from its rows and checks every fact; raises Illegal on the first broken rule.
    Returns the finished Replay (its `seen` counts the situations met)."""
    game = Replay(players, options, policies, games_row.get("play_index"), list(games_row["stones"]), waive)
    for index, ev in enumerate(order_events(events_rows)):
        game.event(index, ev)
    game.finish(games_row, seats_rows)
    return game
