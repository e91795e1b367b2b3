"""Die Mauer, written plainly for one play at a time: the yardstick for the batch kernel.

Nothing here is shared with simlib's kernel. It resolves a Baurunde from the fists as issue 2
settles the rule text, and replays a play's event rows, asserting that every step was legal.
"""

from __future__ import annotations

from collections import Counter

PIECES = ["wall1", "wall2", "wall3", "wall4", "wall5", "gate", "tower"]
SPECIAL = {"gate", "tower"}
PENALTY = {"wall1": 1, "wall2": 2, "wall3": 3, "wall4": 4, "wall5": 6, "gate": 10, "tower": 15}


class Wall:
    def __init__(self, pieces=()):
        self.pieces = list(pieces)

    def sites(self) -> int:
        """Where a gate or tower could go: ends not special; an empty wall is one site."""
        if not self.pieces:
            return 1
        return sum(end not in SPECIAL for end in (self.pieces[0], self.pieces[-1]))

    def legal_ends(self, piece: str) -> set[str]:
        if not self.pieces:
            return {"start"}
        ends = set()
        for end, neighbour in (("left", self.pieces[0]), ("right", self.pieces[-1])):
            if piece not in SPECIAL or neighbour not in SPECIAL:
                ends.add(end)
        return ends

    def place(self, piece: str, end: str) -> None:
        assert end in self.legal_ends(piece), f"{piece} may not go at {end} of {self.pieces}"
        if end == "left":
            self.pieces.insert(0, piece)
        else:
            self.pieces.append(piece)

    def specials_touch(self) -> bool:
        return any(a in SPECIAL and b in SPECIAL for a, b in zip(self.pieces, self.pieces[1:]))


def resolve(builder: int, plans: list[str], wall: Wall) -> tuple[str, list[int]]:
    """The case of the Bauphase and the seats that build the builder's planned piece, in order.

    For the hollow-hand cases the list names the builder (case 1: builds a piece of his choice)
    or the giver (case 2).
    """
    n = len(plans)
    competitors = [(builder + j) % n for j in range(1, n)]
    goal = plans[builder]
    if goal == "hollow":
        hollow = [s for s in competitors if plans[s] == "hollow"]
        if not hollow:
            return "hollow_1", [builder]
        if len(hollow) == 1:
            return "hollow_2", hollow
        return "hollow_3", []
    if goal in SPECIAL and wall.sites() == 0:
        return "illegal_plan", []
    guessed = [s for s in competitors if plans[s] == goal]
    if not guessed:
        return "builder_builds", [builder]
    if goal in SPECIAL and len(guessed) > wall.sites():
        return "builder_outguessed", [builder]
    return "competitors_build", guessed


def deadlocked(hands: list[Counter], wall: Wall) -> bool:
    return (bool(wall.pieces) and wall.pieces[0] in SPECIAL and wall.pieces[-1] in SPECIAL
            and not any(h[p] for h in hands for p in PIECES if p not in SPECIAL))


def replay(players: int, events: list[dict], penalty=PENALTY, max_baurunden: int = 500):
    """Replay one play's events, asserting every rule; returns (hands, wall, end reason)."""
    hands = [Counter({p: 1 for p in PIECES}) for _ in range(players)]
    wall = Wall()
    for i, ev in enumerate(events):
        assert not any(sum(h.values()) == 0 for h in hands), "a Baurunde after a supply became empty"
        assert not deadlocked(hands, wall), "a Baurunde after a deadlock"
        builder = i % players
        assert ev["baurunde"] == i and ev["builder_seat"] == builder
        assert ev["wall_length"] == len(wall.pieces)
        ends = (wall.pieces[0], wall.pieces[-1]) if wall.pieces else (None, None)
        assert (ev["wall_left"], ev["wall_right"]) == ends
        plans = ev["plans"]
        assert len(plans) == players
        for s, p in enumerate(plans):
            assert p == "hollow" or hands[s][p] > 0, f"seat {s} plans {p} it does not hold"
        case, seats = resolve(builder, plans, wall)
        assert ev["outcome"] == case, (ev, case)
        builds = [(b["seat"], b["piece"]) for b in ev["builds"]]
        if case in ("builder_builds", "builder_outguessed", "competitors_build"):
            assert builds == [(s, plans[builder]) for s in seats]
        elif case == "hollow_1":
            buildable = [p for p in PIECES if hands[builder][p] and wall.legal_ends(p)]
            if buildable:
                assert len(builds) == 1 and builds[0][0] == builder and builds[0][1] in buildable
            else:
                assert builds == []
        else:
            assert builds == []
        for b in ev["builds"]:
            wall.place(b["piece"], b["end"])
            hands[b["seat"]][b["piece"]] -= 1
        if case == "hollow_2":
            giver, piece = ev["gift_from"], ev["gift_piece"]
            assert giver == seats[0] and hands[giver][piece] > 0
            hands[giver][piece] -= 1
            hands[builder][piece] += 1
        else:
            assert ev["gift_from"] is None and ev["gift_piece"] is None
        assert not wall.specials_touch(), f"specials touch in {wall.pieces}"
    if any(sum(h.values()) == 0 for h in hands):
        reason = "emptied"
    elif deadlocked(hands, wall):
        reason = "deadlock"
    else:
        assert len(events) == max_baurunden, "the play stopped without a reason"
        reason = "baurunde_limit"
    return hands, wall, reason


def penalties(hands: list[Counter], penalty=PENALTY) -> list[int]:
    return [sum(penalty[p] * c for p, c in h.items()) for h in hands]
