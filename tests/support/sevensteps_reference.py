"""An independent reference for 7 Steps (`sevensteps`): replays one play from its games, seats, events and turns
rows and checks every fact against the rules as published and settled (docs/games/sevensteps.md and the
settled points of issue 12), re-deriving the board, the heights, the collapses, the scores, the hands, the bag,
the tile piles and the end on its own.

It reads only the game's data files (the tiles, the layout and the special tiles, with tomllib) and imports
nothing from simlib: the published facts (the colour order, the directions, 20 discs per colour, a hand of 7,
the collapse at level 7, ...) are written out below. Every broken rule raises `Illegal` whose message starts
with the rule's name in brackets, e.g. "[adjacent] play 3 turn 17 disc 2: ...".
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

from support.feel_reference import feel_mismatch
from support.paths import SIMLIB  # the data files only

# --- Published and settled facts, written out here (not read from the game's code) ---------------------------
COLOURS = ("blue", "yellow", "black", "red", "white", "orange", "purple")   # the order of every per-colour list
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))           # E, NE, NW, W, SW, SE (axial)
DISCS_PER_COLOUR = 20                                                      # 140 discs in the bag
HAND = 7                                                                   # discs held after a refill
MAX_DISCS = 7                                                              # discs per turn without a "max" aid
COLLAPSE = 7                                                               # a tower reaching 7 collapses
FIELDS_PER_TILE = 7
AID, BONUS = "aid", "bonus"                                                # the two piles (the `taken` column)
AID_EFFECTS = ("high_start", "step_up_2", "downhill", "take_down", "move_tower")
MEASURES = ("one_colour", "colours", "level", "line", "steps_up")
# The rule text's own readings where it can be read two ways (a run's recorded options name the reading it played):
# "Ferner muss auf einem Spielplanteil ein neuer Stein immer auf der niedrigsten Ebene gelegt werden": the lowest
# level of the disc's colour on a board tile ("tile"; "colour": over the whole board, issue 12's reading);
# "er streicht nun Punkte für die eingesetzten Steine ... Hat der Spieler hierbei weniger als 7 Punkte erreicht":
# the points of the discs placed ("discs"; "total": the victory-point bonus included, issue 12's reading).
DEFAULTS = {"side": "front", "layout": "standard", "tiles": "fano", "specials": "assumed", "first_disc": "tile",
            "tile_threshold": 7, "threshold_counts": "discs", "unused_tile_points": 2, "max_turns": 1000}
FIRST_DISC_READINGS = ("tile", "colour")
THRESHOLD_READINGS = ("discs", "total")
NO_SEARCH_POLICIES = ("random",)                                           # policies that never search chains

DATA = SIMLIB / "games" / "sevensteps"
NAMED_FILES = {"layout": ("layouts", "standard"), "tiles": ("tiles", "fano"), "specials": ("specials", "assumed")}


class Illegal(AssertionError):
    """A fact of the tables breaks a rule; `rule` names it (also the bracketed start of the message)."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule


def _data_file(kind: str, value: str) -> Path:
    folder, default = NAMED_FILES[kind]
    if value == default or (DATA / folder / f"{value}.toml").exists():
        return DATA / folder / f"{value}.toml"
    return Path(value)


def _load(path: Path) -> dict:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


class Board:
    """The 49 fields of a layout and side: field = 7 * place + printed field, its (q, r), colour and neighbours."""

    def __init__(self, side: str = "front", layout: str = "standard", tiles: str = "fano"):
        if side not in ("front", "back"):
            raise ValueError(f"side {side!r}")
        tiles_doc = _load(_data_file("tiles", tiles))
        layout_doc = _load(_data_file("layout", layout))
        assert tuple(tiles_doc["colours"]) == COLOURS, "the tiles file lists the colours in another order"
        by_id = {tile["id"]: tile for tile in tiles_doc["tile"]}
        self.places = layout_doc["place"]
        self.coord: list[tuple[int, int]] = []
        self.colour: list[int] = []
        self.place_of: list[int] = []
        for place, entry in enumerate(self.places):
            tile = by_id[entry["tile"]]
            k = entry.get("rotation", 0)
            for i in range(FIELDS_PER_TILE):
                if i == 0:
                    q, r = entry["q"], entry["r"]
                else:
                    dq, dr = DIRECTIONS[(i - 1 + k) % 6]
                    q, r = entry["q"] + dq, entry["r"] + dr
                self.coord.append((q, r))
                name = tile["front"] if side == "front" else tile["back"][i]
                self.colour.append(COLOURS.index(name))
                self.place_of.append(place)
        self.n = len(self.coord)
        assert len(set(self.coord)) == self.n, "two fields share a coordinate"
        self.at = {c: f for f, c in enumerate(self.coord)}
        self.neighbours = [{self.at[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in self.at}
                           for q, r in self.coord]
        self.fields_of = [[f for f in range(self.n) if self.colour[f] == c] for c in range(len(COLOURS))]
        for c, fields in enumerate(self.fields_of):
            assert len(fields) == 7, f"{COLOURS[c]} has {len(fields)} fields"

    def direction(self, a: int, b: int) -> int:
        (qa, ra), (qb, rb) = self.coord[a], self.coord[b]
        return DIRECTIONS.index((qb - qa, rb - ra))


class Specials:
    """The build-aid and victory-point tiles of a specials file."""

    def __init__(self, specials: str = "assumed"):
        doc = _load(_data_file("specials", specials))
        self.aids = {a["id"]: a for a in doc.get("aid", [])}
        self.bonuses = {b["id"]: b for b in doc.get("bonus", [])}
        for a in self.aids.values():
            assert a["effect"] in AID_EFFECTS, a
        for b in self.bonuses.values():
            assert b["measure"] in MEASURES, b
        self.copies = {AID: Counter({i: a["copies"] for i, a in self.aids.items()}),
                       BONUS: Counter({i: b["copies"] for i, b in self.bonuses.items()})}

    def kind(self, tile: str) -> str | None:
        return AID if tile in self.aids else BONUS if tile in self.bonuses else None


def collapse(heights: list[int], board: Board, colour: int) -> int:
    """Every tower of `colour` at 7 or more goes to 0 (k of them), then each field of the colour gets k more;
    repeated while one reaches 7. Returns the towers collapsed."""
    total = 0
    fields = board.fields_of[colour]
    while True:
        full = [f for f in fields if heights[f] >= COLLAPSE]
        if not full:
            return total
        for f in full:
            heights[f] = 0
        for f in fields:
            heights[f] += len(full)
        total += len(full)


def measures(board: Board, fields: list[int], levels: list[int]) -> dict[str, int]:
    """The five victory-point measures over one turn's placed discs (in chain order)."""
    n = len(fields)
    per_colour = Counter(board.colour[f] for f in fields)
    line = min(n, 1)
    run = 0
    last_dir = None
    for i in range(1, n):
        d = board.direction(fields[i - 1], fields[i])
        run = run + 1 if d == last_dir else 1
        last_dir = d
        line = max(line, run + 1)
    return {"one_colour": max(per_colour.values(), default=0), "colours": len(per_colour),
            "level": max(levels, default=0), "line": line,
            "steps_up": sum(1 for i in range(1, n) if levels[i] > levels[i - 1])}


def _counts(v) -> list[int]:
    return [int(x) for x in v]


class Replay:
    """One play replayed: the state after the replay, and what it met (`seen`) for coverage tests."""

    def __init__(self, players: int, options: dict | None = None, policies: list[str] | None = None,
                 play: int | None = None):
        self.options = {**DEFAULTS, **(options or {})}
        if self.options["first_disc"] not in FIRST_DISC_READINGS:
            raise ValueError(f"first_disc {self.options['first_disc']!r}")
        if self.options["threshold_counts"] not in THRESHOLD_READINGS:
            raise ValueError(f"threshold_counts {self.options['threshold_counts']!r}")
        self.players = players
        self.policies = policies
        self.play = play
        self.board = Board(self.options["side"], self.options["layout"], self.options["tiles"])
        self.specials = Specials(self.options["specials"])
        self.heights = [0] * self.board.n
        self.bag = [0] * len(COLOURS)
        self.hands: list[list[int]] = []
        self.aid_held: list[str | None] = [None] * players
        self.bonus_held: list[str | None] = [None] * players
        self.pile = {k: Counter(v) for k, v in self.specials.copies.items()}
        self.discards = {AID: Counter(), BONUS: Counter()}
        self.seen = Counter()
        zero = dict.fromkeys(("turn_points", "bonus_points", "discs", "turns", "passes", "aids_taken",
                              "bonuses_taken", "aids_played", "bonuses_played", "thrown"), 0)
        self.tally = [dict(zero) for _ in range(players)]
        self.standing: list[list[int]] = []  # every seat's points after each turn (the last with the unused tiles')
        self.collapses = 0
        self.triggered_round: int | None = None
        self.over = False
        self.end_reason: str | None = None
        self.turns = 0
        # for tests of the randomness over many plays: expected and observed discs drawn per colour (the deal
        # included), expected and observed tiles taken per id (each taken tile drawn uniformly from its pile)
        self.draw_expected = [0.0] * len(COLOURS)
        self.draw_observed = [0] * len(COLOURS)
        self.take_expected: Counter = Counter()
        self.take_observed: Counter = Counter()

    # ------------------------------------------------------------------------------------------------------------
    def fail(self, rule: str, where: str, message: str):
        raise Illegal(rule, f"play {self.play} {where}: {message}")

    def conservation(self, where: str):
        board = [0] * len(COLOURS)
        for f, h in enumerate(self.heights):
            board[self.board.colour[f]] += h
        for c in range(len(COLOURS)):
            held = sum(hand[c] for hand in self.hands)
            if self.bag[c] < 0 or self.bag[c] + held + board[c] != DISCS_PER_COLOUR:
                self.fail("conservation", where, f"{COLOURS[c]}: bag {self.bag[c]} + hands {held} + board "
                          f"{board[c]} != {DISCS_PER_COLOUR}")

    def deal(self, turns_rows: list[dict]):
        """The first hands: 7 discs each, read from each seat's first turn (nothing changes a hand before)."""
        if len(turns_rows) < self.players:
            self.fail("end", "deal", f"{len(turns_rows)} turns, fewer than one round of {self.players}")
        self.bag = [DISCS_PER_COLOUR] * len(COLOURS)
        for seat in range(self.players):
            hand = _counts(turns_rows[seat]["hand"])
            if len(hand) != len(COLOURS) or sum(hand) != HAND or min(hand) < 0:
                self.fail("deal", f"seat {seat}", f"first hand {hand} is not {HAND} discs")
            self.hands.append(hand)
            self.bag = [b - h for b, h in zip(self.bag, hand)]
            for c in range(len(COLOURS)):
                self.draw_expected[c] += DISCS_PER_COLOUR * HAND / (len(COLOURS) * DISCS_PER_COLOUR)
                self.draw_observed[c] += hand[c]
        if min(self.bag) < 0 or sum(self.bag) != len(COLOURS) * DISCS_PER_COLOUR - HAND * self.players:
            self.fail("deal", "deal", f"the first hands take more discs than the bag holds: bag {self.bag}")
        self.conservation("deal")

    # ------------------------------------------------------------------------------------------------------------
    def turn(self, row: dict, events: list[dict]):
        t = self.turns
        seat = t % self.players
        where = f"turn {t}"
        if self.over:
            self.fail("end", where, "a turn after the game ended (the round of the short refill was complete)")
        if row["turn"] != t or row["seat"] != seat:
            self.fail("order", where, f"row turn {row['turn']} seat {row['seat']}, expected turn {t} seat {seat}")
        hand = self.hands[seat]
        if _counts(row["hand"]) != hand:
            self.fail("hand", where, f"seat {seat} holds {hand}, the row says {list(row['hand'])}")
        self.conservation(where)
        opts = self.options
        tally = self.tally[seat]
        tally["turns"] += 1
        start_size = sum(hand)

        # 1. build-aid tile, at the start of the turn
        aid = row["aid"]
        effect = None
        max_discs = MAX_DISCS
        if aid is None:
            if row["aid_field"] is not None or row["aid_target"] is not None:
                self.fail("aid", where, "aid_field/aid_target without a build-aid tile played")
        else:
            if self.specials.kind(aid) != AID:
                self.fail("aid", where, f"{aid!r} is not a build-aid tile")
            if self.aid_held[seat] != aid:
                self.fail("aid", where, f"seat {seat} plays {aid} but holds {self.aid_held[seat]}")
            if start_size == 0:
                self.fail("aid", where, "a build-aid tile played on a pass (empty hand)")
            spec = self.specials.aids[aid]
            effect, max_discs = spec["effect"], spec["max_discs"]
            af, at = row["aid_field"], row["aid_target"]
            if effect == "take_down":
                if af is None or not 0 <= af < self.board.n or self.heights[af] == 0 or at is not None:
                    self.fail("aid", where, f"take_down needs one non-empty tower: field {af}, target {at}")
                self.heights[af] -= 1
                self.bag[self.board.colour[af]] += 1
            elif effect == "move_tower":
                ok = (af is not None and at is not None and 0 <= af < self.board.n and 0 <= at < self.board.n
                      and af != at and self.heights[af] > 0 and self.heights[at] == 0
                      and self.board.colour[af] == self.board.colour[at])
                if not ok:
                    self.fail("aid", where, f"move_tower needs a non-empty tower onto an empty field of its colour: "
                              f"{af} (height {self.heights[af] if af is not None else '-'}) -> {at} "
                              f"(height {self.heights[at] if at is not None else '-'})")
                self.heights[at], self.heights[af] = self.heights[af], 0
            elif af is not None or at is not None:
                self.fail("aid", where, f"{effect} takes no field, the row gives {af}, {at}")
            self.aid_held[seat] = None
            self.discards[AID][aid] += 1
            tally["aids_played"] += 1
            self.seen[f"aid_{effect}"] += 1

        # 2. the chain of discs
        placed = row["placed"]
        if placed != len(events):
            self.fail("placed", where, f"placed {placed} but {len(events)} events")
        if start_size > 0 and placed == 0:
            self.fail("at least one", where, f"seat {seat} holds {start_size} discs and placed none")
        if start_size == 0:
            tally["passes"] += 1
            self.seen["pass"] += 1
        if placed > max_discs:
            self.fail("max discs", where, f"{placed} discs placed, at most {max_discs}"
                      + (f" under {aid}" if aid else ""))
        fields: list[int] = []
        levels: list[int] = []
        turn_collapses = 0
        for i, ev in enumerate(events):
            w = f"{where} disc {i}"
            if ev["disc"] != i or ev["turn"] != t or ev["seat"] != seat:
                self.fail("order", w, f"event turn {ev['turn']} seat {ev['seat']} disc {ev['disc']}")
            f = ev["field"]
            if not 0 <= f < self.board.n:
                self.fail("geometry", w, f"no field {f}")
            if (ev["q"], ev["r"]) != self.board.coord[f]:
                self.fail("geometry", w, f"field {f} lies at {self.board.coord[f]}, the event says ({ev['q']}, "
                          f"{ev['r']})")
            c = self.board.colour[f]
            if ev["colour"] != COLOURS[c]:
                self.fail("colour", w, f"field {f} is {COLOURS[c]}, the disc is {ev['colour']}")
            if f in fields:
                self.fail("reuse", w, f"field {f} was already used this turn")
            h = self.heights[f]
            level = h + 1
            if i == 0:
                if effect != "high_start":
                    if opts["first_disc"] == "tile":
                        pool = [g for g in self.board.fields_of[c] if self.board.place_of[g] == self.board.place_of[f]]
                    else:
                        pool = self.board.fields_of[c]
                    lowest = min(self.heights[g] for g in pool)
                    if h != lowest:
                        self.fail("first disc", w, f"{COLOURS[c]} first disc on height {h}, the lowest "
                                  f"({opts['first_disc']}) is {lowest}")
                self.seen[f"first_level_{level}"] += 1
            else:
                prev_f, prev_level = fields[-1], levels[-1]
                if f not in self.board.neighbours[prev_f]:
                    self.fail("adjacent", w, f"field {f} {self.board.coord[f]} is not adjacent to field {prev_f} "
                              f"{self.board.coord[prev_f]}")
                low = -10 ** 9 if effect == "downhill" else prev_level
                high = prev_level + (2 if effect == "step_up_2" else 1)
                if not low <= level <= high:
                    self.fail("step", w, f"level {level} after level {prev_level} (allowed {max(low, 0)}..{high}"
                              f"{', ' + effect if effect else ''})")
                if effect == "downhill" and level < prev_level:
                    self.seen["downhill_step"] += 1
                if effect == "step_up_2" and level == prev_level + 2:
                    self.seen["double_step"] += 1
            if hand[c] <= 0:
                self.fail("held", w, f"seat {seat} holds no {COLOURS[c]} disc")
            if ev["level"] != level:
                self.fail("level", w, f"field {f} had height {h}: level {level}, the event says {ev['level']}")
            hand[c] -= 1
            self.heights[f] = level
            k = collapse(self.heights, self.board, c) if level >= COLLAPSE else 0
            if ev["collapses"] != k:
                self.fail("collapse", w, f"{k} towers collapsed, the event says {ev['collapses']}")
            if k:
                self.seen["collapse"] += 1
                self.seen[f"collapse_{k}"] += 1
                if i > 0:
                    self.seen["collapse_after_first"] += 1
                if fields and levels[-1] == COLLAPSE:
                    self.seen["level7_after_collapse"] += 1
            turn_collapses += k
            fields.append(f)
            levels.append(level)
        self.collapses += turn_collapses
        if placed:
            self.seen[f"chain_{placed}"] += 1

        # 3. victory-point tile, after placing
        bonus = row["bonus"]
        points = 0
        if bonus is None:
            if row["bonus_points"] != 0:
                self.fail("bonus", where, f"bonus_points {row['bonus_points']} without a victory-point tile")
        else:
            if self.specials.kind(bonus) != BONUS:
                self.fail("bonus", where, f"{bonus!r} is not a victory-point tile")
            if self.bonus_held[seat] != bonus:
                self.fail("bonus", where, f"seat {seat} plays {bonus} but holds {self.bonus_held[seat]}")
            spec = self.specials.bonuses[bonus]
            value = measures(self.board, fields, levels)[spec["measure"]]
            if value < spec["at_least"]:
                self.fail("bonus", where, f"{bonus} needs {spec['measure']} >= {spec['at_least']}, the chain has "
                          f"{value}")
            points = spec["points"]
            if row["bonus_points"] != points:
                self.fail("bonus", where, f"{bonus} pays {points}, the row says {row['bonus_points']}")
            self.bonus_held[seat] = None
            self.discards[BONUS][bonus] += 1
            tally["bonuses_played"] += 1
            self.seen[f"bonus_{spec['measure']}"] += 1

        # 4. the turn's score
        score = sum(levels) + points
        if row["turn_score"] != score:
            self.fail("score", where, f"levels {levels} + bonus {points} = {score}, the row says {row['turn_score']}")
        for i, ev in enumerate(events):
            if ev["turn_score"] != score:
                self.fail("score", f"{where} disc {i}", f"turn_score {ev['turn_score']}, the turn scored {score}")
        tally["turn_points"] += score
        tally["bonus_points"] += points
        tally["discs"] += placed

        # 5. a tile after a low-scoring turn: "hierbei" (the discs' points) or the total with the bonus
        taken, tile = row["taken"], row["taken_tile"]
        counted = score if opts["threshold_counts"] == "total" else sum(levels)
        threshold = opts["tile_threshold"]
        lifted = placed > 0 and sum(levels) < threshold <= score  # the bonus alone reached the threshold
        if taken is None:
            if tile is not None:
                self.fail("take", where, f"taken_tile {tile} without a pile")
            if lifted and opts["threshold_counts"] == "total":
                self.seen["no_take_bonus_lifted"] += 1
        else:
            if placed == 0:
                self.fail("take", where, "a tile taken on a turn that placed no disc")
            if counted >= threshold:
                self.fail("take", where, f"a tile taken after a turn scoring {counted} >= {threshold} "
                          f"({opts['threshold_counts']})")
            if lifted:
                self.seen["take_bonus_lifted"] += 1
            if taken not in (AID, BONUS) or self.specials.kind(tile) != taken:
                self.fail("take", where, f"tile {tile!r} is not from the {taken!r} pile")
            held = self.aid_held if taken == AID else self.bonus_held
            if held[seat] is not None:
                self.fail("take", where, f"seat {seat} already holds {held[seat]} from the {taken} pile")
            pile = self.pile[taken]
            if sum(pile.values()) == 0:
                self.pile[taken], self.discards[taken] = self.discards[taken], Counter()
                pile = self.pile[taken]
                self.seen[f"reshuffle_{taken}"] += 1
            if pile[tile] <= 0:
                self.fail("pile", where, f"{tile} is not in the {taken} pile {dict(+pile)}")
            size = sum(pile.values())
            for other, copies in pile.items():
                self.take_expected[other] += copies / size
            self.take_observed[tile] += 1
            pile[tile] -= 1
            held[seat] = tile
            tally["aids_taken" if taken == AID else "bonuses_taken"] += 1
            self.seen[f"take_{taken}"] += 1

        # 6. throw back, refill
        thrown, drawn = _counts(row["thrown"]), _counts(row["drawn"])
        if len(thrown) != len(COLOURS) or min(thrown) < 0 or any(x > h for x, h in zip(thrown, hand)):
            self.fail("throw", where, f"thrown {thrown} from a hand of {hand}")
        for c in range(len(COLOURS)):
            hand[c] -= thrown[c]
            self.bag[c] += thrown[c]
        if sum(thrown):
            self.seen["thrown"] += 1
        tally["thrown"] += sum(thrown)
        need, available = HAND - sum(hand), sum(self.bag)
        if len(drawn) != len(COLOURS) or min(drawn) < 0 or any(d > b for d, b in zip(drawn, self.bag)):
            self.fail("refill", where, f"drawn {drawn} from a bag of {self.bag}")
        if sum(drawn) != min(need, available):
            self.fail("refill", where, f"drew {sum(drawn)} discs; needed {need}, the bag held {available}")
        for c in range(len(COLOURS)):
            if available:
                self.draw_expected[c] += sum(drawn) * self.bag[c] / available
            self.draw_observed[c] += drawn[c]
            hand[c] += drawn[c]
            self.bag[c] -= drawn[c]
        if row["bag_left"] != sum(self.bag):
            self.fail("bag", where, f"bag_left {row['bag_left']}, the bag holds {sum(self.bag)}")
        self.conservation(f"{where} end")

        # 7. the end: a short refill triggers it, the round is completed
        rnd = t // self.players
        if need > available and self.triggered_round is None:
            self.triggered_round = rnd
            self.seen["short_refill"] += 1
            if seat == self.players - 1:
                self.seen["short_refill_last_seat"] += 1
        if self.triggered_round is not None and rnd > self.triggered_round:
            self.seen["turn_after_trigger"] += 1
        self.turns += 1
        self.standing.append([t["turn_points"] for t in self.tally])
        if self.triggered_round is not None and seat == self.players - 1:
            self.over, self.end_reason = True, "bag_empty"
        elif self.turns >= opts["max_turns"]:
            self.over, self.end_reason = True, "turn_limit"

    # ------------------------------------------------------------------------------------------------------------
    def feel(self, games_row: dict, winners: list[int]):
        """The games row's feel columns: the features of the points after each turn, none for a shared win."""
        if "worst_rank" not in games_row:
            return  # a table written before the columns existed
        why = feel_mismatch(games_row, self.standing, winners[0] if len(winners) == 1 else None)
        if why:
            self.fail("feel", "games row", why)

    def finish(self, games_row: dict, seats_rows: list[dict]):
        if not self.over:
            self.fail("end", f"after turn {self.turns - 1}",
                      "the play stops although the bag never ran short in a completed round"
                      if self.triggered_round is None else "the play stops before the round of the short refill "
                      "is complete")
        unused = self.options["unused_tile_points"]
        scores = []
        for seat in range(self.players):
            tiles_left = (self.aid_held[seat] is not None) + (self.bonus_held[seat] is not None)
            tally = self.tally[seat]
            scores.append(tally["turn_points"] + unused * tiles_left)
        best = max(scores)
        winners = [s for s in range(self.players) if scores[s] == best]
        if self.standing:
            self.standing[-1] = scores
        self.feel(games_row, winners)
        expect_games = {"players": self.players, "turns": self.turns, "rounds": self.turns // self.players,
                        "side": self.options["side"], "collapses": self.collapses, "end_reason": self.end_reason,
                        "completed": self.end_reason == "bag_empty", "bag_left": sum(self.bag), "winners": winners}
        if self.play is not None:
            expect_games["play_index"] = self.play
        for key, value in expect_games.items():
            got = list(games_row[key]) if key == "winners" else games_row[key]
            if got != value:
                self.fail("games", "games row", f"{key} is {got}, expected {value}")
        searching = self.policies is not None and any(p.split(":")[0] not in NO_SEARCH_POLICIES
                                                      for p in self.policies)
        if games_row["max_nodes"] < 0 or (self.policies is not None and not searching and games_row["max_nodes"]):
            self.fail("games", "games row", f"max_nodes {games_row['max_nodes']} with policies {self.policies}")
        if games_row["winners"] and len(winners) > 1:
            self.seen["shared_win"] += 1
        rows = sorted(seats_rows, key=lambda s: s["seat"])
        if [s["seat"] for s in rows] != list(range(self.players)):
            self.fail("seats", "seats rows", f"seats {[s['seat'] for s in rows]}")
        for seat, srow in enumerate(rows):
            tally = self.tally[seat]
            aid_left, bonus_left = self.aid_held[seat] is not None, self.bonus_held[seat] is not None
            expect = {**tally, "score": scores[seat], "tile_points": unused * (aid_left + bonus_left),
                      "rank": 1 + sum(1 for s in scores if s > scores[seat]), "winner": scores[seat] == best,
                      "tiles_taken": tally["aids_taken"] + tally["bonuses_taken"],
                      "tiles_played": tally["aids_played"] + tally["bonuses_played"],
                      "aid_left": aid_left, "bonus_left": bonus_left, "tiles_left": aid_left + bonus_left}
            if self.play is not None:
                expect["play_index"] = self.play
            for key, value in expect.items():
                if srow[key] != value:
                    self.fail("seats", f"seat {seat}", f"{key} is {srow[key]}, expected {value}")
            if srow["capped_searches"] < 0 or (srow["policy"] in NO_SEARCH_POLICIES and srow["capped_searches"]):
                self.fail("seats", f"seat {seat}", f"capped_searches {srow['capped_searches']}")
            if self.policies is not None:
                spec = self.policies[seat % len(self.policies)]
                if srow["policy"] != spec.split(":")[0] or not str(srow["policy_spec"]).startswith(srow["policy"]):
                    self.fail("seats", f"seat {seat}", f"policy {srow['policy']} / {srow['policy_spec']}, "
                              f"configured {spec}")
            if tally["passes"]:
                self.seen["passes"] += 1
        if self.end_reason == "turn_limit":
            self.seen["turn_limit"] += 1


def replay(players: int, options: dict | None, events_rows: list[dict], turns_rows: list[dict], games_row: dict,
           seats_rows: list[dict], policies: list[str] | None = None) -> Replay:
    """Replays one play from its rows (any order) and checks every fact; raises Illegal on the first broken rule.
    Returns the finished Replay (its `seen` counts the situations met)."""
    play = games_row.get("play_index")
    game = Replay(players, options, policies, play)
    turns_rows = sorted(turns_rows, key=lambda r: r["turn"])
    by_turn: dict[int, list[dict]] = {}
    for ev in sorted(events_rows, key=lambda e: (e["turn"], e["disc"])):
        by_turn.setdefault(ev["turn"], []).append(ev)
    stray = set(by_turn) - {r["turn"] for r in turns_rows}
    if stray:
        game.fail("order", "events", f"events of turns {sorted(stray)} that have no turns row")
    game.deal(turns_rows)
    for row in turns_rows:
        game.turn(row, by_turn.get(row["turn"], []))
    game.finish(games_row, seats_rows)
    return game
