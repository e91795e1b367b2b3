"""Mauerbruch, written plainly for one play at a time: the yardstick for the batch kernel.

Nothing here is shared with simlib's kernel. Cards are (kind, symbol, value) tuples read from the
deck file; `replay` walks a play's deal and pair events and asserts every rule.
"""

from __future__ import annotations

import csv
from math import gcd
from pathlib import Path


def read_deck(path: Path) -> dict[int, tuple[str, str, int]]:
    lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    cards = {}
    for row in csv.DictReader(lines):
        cards[int(row["id"])] = (row["kind"], row["symbol"], int(row["value"]) if row["value"] else 0)
    return cards


def bans(tops: list[tuple]) -> tuple[bool, bool]:
    kinds = {card[0] for card in tops}
    return "ban2" in kinds, "ban5" in kinds


def pair_kind(a: tuple, b: tuple, ban2: bool, ban5: bool) -> str:
    """'double', 'single' or 'none', as issue 4 settles the rule text."""
    (ka, sa, va), (kb, sb, vb) = a, b
    if ka in ("ban2", "ban5") or kb in ("ban2", "ban5"):
        return "double" if ka == kb else "none"
    if "wish" in (ka, kb):
        return "none"
    if ka == kb == "joker":
        return "single"
    if "joker" in (ka, kb):
        return "double" if sa == sb else "single"
    g = gcd(va, vb)
    divisor = g > 1 and not (g == 2 and ban2) and not (g == 5 and ban5)
    same = sa == sb
    if same and divisor:
        return "double"
    return "single" if same or divisor else "none"


def available(stacks: list[list[int]], deck) -> list[tuple[int, int, str]]:
    tops = [deck[s[-1]] for s in stacks if s]
    ban2, ban5 = bans(tops)
    out = []
    for i in range(len(stacks)):
        for j in range(i + 1, len(stacks)):
            if stacks[i] and stacks[j]:
                kind = pair_kind(deck[stacks[i][-1]], deck[stacks[j][-1]], ban2, ban5)
                if kind != "none":
                    out.append((i, j, kind))
    return out


def swap_could_pair(stacks: list[list[int]], pile: list[int], deck) -> bool:
    """Could a Wunschkarte on top of the wall, swapped for one of the pile's last seven cards, make a pair?"""
    for s, stack in enumerate(stacks):
        if stack and deck[stack[-1]][0] == "wish":
            for card in pile[-7:]:
                trial = [list(x) for x in stacks]
                trial[s][-1] = card
                if any(s in (i, j) for i, j, _ in available(trial, deck)):
                    return True
    return False


def bonus_choices(stacks: list[list[int]], broken: list[int]) -> list[int]:
    """The stacks the wall-breaker may add to his pile ("alle Karten eines Nachbarstapels des entfernten
    Stapels"): the left and right neighbours, in the row of seven, of the stack his pair emptied (of either
    stack when it emptied both) that still hold cards. An edge stack has one neighbour; a neighbour the same
    pair emptied has no cards to give."""
    return sorted({n for s in broken for n in (s - 1, s + 1) if 0 <= n < len(stacks) and stacks[n]})


def replay(players: int, deal: list[list[int]], events: list[dict], deck, discard_opening: bool = True,
           standing: list | None = None):
    """Replay a play; returns (piles by seat, discarded cards, stacks left, emptied stack or None, the seat
    to move next). `standing`, if given, gets each seat's cards won after each take."""
    stacks = [list(s) for s in deal]
    piles = [[] for _ in range(players)]
    discarded = 0
    expect_seat = None
    swap_may_continue = None  # after a double with no pair left, the same seat may swap and take on
    phase_seen = "opening_double"
    emptied = None
    for i, ev in enumerate(events):
        assert emptied is None, "a pair taken after the wall broke"
        assert ev["take"] == i
        seat = ev["seat"]
        if ev["swap_card"] is not None:
            assert ev["phase"] == "turn"
            stack = stacks[ev["swap_stack"]]
            assert deck[stack[-1]][0] == "wish", "swapped a card that is no Wunschkarte"
            pile = piles[seat]
            assert ev["swap_card"] in pile[-7:], "swapped a card not among the last seven of the pile"
            pile.remove(ev["swap_card"])
            pile.append(stack[-1])
            stack[-1] = ev["swap_card"]
        pairs = available(stacks, deck)
        a, b = ev["stack_a"], ev["stack_b"]
        assert stacks[a][-1] == ev["card_a"] and stacks[b][-1] == ev["card_b"], "not the top cards"
        tops = [deck[s[-1]] for s in stacks if s]
        assert (ev["ban2"], ev["ban5"]) == bans(tops)
        assert ev["pair_kind"] == pair_kind(deck[ev["card_a"]], deck[ev["card_b"]], *bans(tops)) != "none"
        if ev["phase"] == "opening_double":
            assert phase_seen == "opening_double" and ev["pair_kind"] == "double"
        elif ev["phase"] == "opening_single":
            assert phase_seen == "opening_double" and ev["pair_kind"] == "single"
            assert not any(k == "double" for _, _, k in pairs), "the opening ended while a double was left"
        else:
            assert phase_seen in ("opening_single", "turn")
        if expect_seat is not None and not (seat == swap_may_continue and ev["swap_card"] is not None):
            assert seat == expect_seat, f"take {i}: seat {seat} moved, expected {expect_seat}"
        phase_seen = ev["phase"]
        stacks[a].pop()
        stacks[b].pop()
        if ev["phase"] == "opening_double" and discard_opening:
            discarded += 2
        else:
            piles[seat] += [ev["card_a"], ev["card_b"]]
        if standing is not None:
            standing.append([len(p) for p in piles])
        if not stacks[a] or not stacks[b]:
            emptied = a if not stacks[a] else b
            continue
        swap_may_continue = None
        if ev["phase"] == "turn" and ev["pair_kind"] == "double":
            # The double-pair obligation: the same seat takes again if any pair is left; if none is, the
            # turn ends, unless the seat swaps a Wunschkarte for a pair first (a swap comes before a take).
            expect_seat = seat if available(stacks, deck) else (seat + 1) % players
            swap_may_continue = seat
        else:
            expect_seat = (seat + 1) % players
    return piles, discarded, stacks, emptied, expect_seat
