"""How a play feels (issue 38), written plainly for one play at a time: the yardstick for simlib's features.

Written from docs/statistics.md alone (its section "How a play feels (issue 38)"), following its table literally;
nothing here is shared with simlib, and it imports nothing from it (standard library only).

`standing[t][p]` is seat p's standing after turn t, t = 0 .. T-1 (T >= 1), already oriented so that more is better;
`winner` is the eventual winner's seat. Where the doc can be read more than one way, the comment at that feature says
which reading is taken (the most literal one).
"""

from __future__ import annotations

import math

KEYS = (
    "lead_changes",
    "winner_lead_share",
    "decided_at",
    "max_deficit",
    "worst_rank",
    "drama",
    "decisive_at",
    "winner_leads_at",
    "leader_at_quarter",
    "winner_rank_at_half",
    "winner_last_at_half",
)


def _ceil_div(a: int, b: int) -> int:
    """ceil(a / b) in integer arithmetic (no float error)."""
    return -(-a // b)


def _leaders(row: list[float]) -> set[int]:
    """L(t): the seats whose standing equals the largest one (ties: several leaders)."""
    top = max(row)
    return {p for p in range(len(row)) if row[p] == top}


def _rank(row: list[float], p: int) -> int:
    """1 plus the number of seats strictly ahead of seat p."""
    ahead = 0
    for q in range(len(row)):
        if row[q] > row[p]:
            ahead += 1
    return 1 + ahead


def _gap(row: list[float], p: int) -> float:
    """The gap between the leaders' standing and seat p's (0 when p leads)."""
    return float(max(row) - row[p])


def reference_features(standing: list[list[float]], winner: int) -> dict:
    T = len(standing)
    if T < 1:
        raise ValueError("a play needs at least one recorded turn")
    n = len(standing[0])
    for row in standing:
        if len(row) != n:
            raise ValueError("every turn must give a standing for every seat")
    if not 0 <= winner < n:
        raise ValueError("the winner must be one of the seats")
    w = winner
    s = standing

    leaders = [_leaders(s[t]) for t in range(T)]

    # lead_changes: the turns after which a single seat leads and the last single leader before was another seat
    # (turns with a shared lead neither count nor reset; the first single leader is no change).
    lead_changes = 0
    last_sole = None
    for t in range(T):
        if len(leaders[t]) == 1:
            (sole,) = leaders[t]
            if last_sole is not None and sole != last_sole:
                lead_changes += 1
            last_sole = sole

    # winner_lead_share: the share of the T turns after which w is among the leaders (ties count as leading).
    led = 0
    for t in range(T):
        if w in leaders[t]:
            led += 1
    winner_lead_share = led / T

    # decided_at: (1 + the last t where w is not among the leaders) / T; 0 if w leads after every turn.
    # Reading: "led" in the prose means "among the leaders" (as the formula says), so a tie for the lead counts as
    # leading. The "1 if w does not lead after the last turn" case is the formula itself with t = T-1.
    last_not_leading = None
    for t in range(T):
        if w not in leaders[t]:
            last_not_leading = t
    if last_not_leading is None:
        decided_at = 0.0
    else:
        decided_at = (1 + last_not_leading) / T

    # max_deficit: the largest gap, over the turns, between the leaders' standing and w's (0 if w always leads).
    max_deficit = 0.0
    for t in range(T):
        gap = _gap(s[t], w)
        if gap > max_deficit:
            max_deficit = gap

    # worst_rank: w's worst (largest) rank over the turns.
    worst_rank = 1
    for t in range(T):
        r = _rank(s[t], w)
        if r > worst_rank:
            worst_rank = r

    # drama: the mean over the T turns of the gap between the leaders' standing and w's (0 where w leads).
    total_gap = 0.0
    for t in range(T):
        total_gap += _gap(s[t], w)
    drama = total_gap / T

    # decisive_at: threshold = the highest standing any other seat reached after any turn (over the whole play,
    # later turns included, not only turns up to t); (the first t where w's standing strictly exceeds it) / T,
    # or 1 if it never does. Reading: "exceeds" is strict (equal to the threshold does not count); the share is
    # t / T (turns before t), not (t + 1) / T. With no other seat (a one-seat play) the doc gives no threshold;
    # here it is taken as -infinity, so w exceeds it at t = 0 and decisive_at is 0.
    threshold = -math.inf
    for t in range(T):
        for p in range(n):
            if p != w and s[t][p] > threshold:
                threshold = s[t][p]
    decisive_at = 1.0
    for t in range(T):
        if s[t][w] > threshold:
            decisive_at = t / T
            break

    # winner_leads_at: for k = 1 .. 10, whether w leads alone (is the single leader) after turn ceil(k T / 10) - 1.
    winner_leads_at = []
    for k in range(1, 11):
        t = _ceil_div(k * T, 10) - 1
        winner_leads_at.append(leaders[t] == {w})

    # leader_at_quarter: for f = 1/4, 1/2, 3/4, the single leader after turn ceil(f T) - 1, or -1 ("none") when
    # several lead.
    leader_at_quarter = []
    for q in (1, 2, 3):
        t = _ceil_div(q * T, 4) - 1
        if len(leaders[t]) == 1:
            leader_at_quarter.append(next(iter(leaders[t])))
        else:
            leader_at_quarter.append(-1)

    # winner_rank_at_half: w's rank after turn ceil(T / 2) - 1.
    half = _ceil_div(T, 2) - 1
    winner_rank_at_half = _rank(s[half], w)

    # winner_last_at_half: after that turn, no seat strictly behind w and at least one strictly ahead
    # (so a tie for last place with someone ahead still counts as last).
    behind = 0
    ahead = 0
    for p in range(n):
        if s[half][p] < s[half][w]:
            behind += 1
        elif s[half][p] > s[half][w]:
            ahead += 1
    winner_last_at_half = behind == 0 and ahead >= 1

    return {
        "lead_changes": lead_changes,
        "winner_lead_share": float(winner_lead_share),
        "decided_at": float(decided_at),
        "max_deficit": float(max_deficit),
        "worst_rank": worst_rank,
        "drama": float(drama),
        "decisive_at": float(decisive_at),
        "winner_leads_at": winner_leads_at,
        "leader_at_quarter": leader_at_quarter,
        "winner_rank_at_half": winner_rank_at_half,
        "winner_last_at_half": winner_last_at_half,
    }


def feel_mismatch(games_row: dict, standing: list[list[float]], winner: int | None) -> str | None:
    """Why a games row's feel columns are not the reference's features of `standing` (each seat's standing after
    each turn, replayed) with the single `winner` (None: no single winner, so no features); None when they are."""
    got = {key: games_row[key] for key in KEYS}
    if winner is None:
        return None if all(v is None for v in got.values()) else f"features {got} for a play without a single winner"
    want = reference_features(standing, winner)
    want["leader_at_quarter"] = [None if s < 0 else s for s in want["leader_at_quarter"]]
    return first_difference(got, want)


def kept_standing(rows: list[dict]) -> list[list[float]]:
    """A play's rows of the standings table (turn, seat, standing; any order) as the standing after each turn, a list
    per turn indexed by seat."""
    turns = 1 + max((r["turn"] for r in rows), default=-1)
    seats = 1 + max((r["seat"] for r in rows), default=-1)
    standing = [[None] * seats for _ in range(turns)]
    for r in rows:
        standing[r["turn"]][r["seat"]] = r["standing"]
    return standing


def first_difference(got: dict, want: dict) -> str | None:
    """The first feature where `got` is not `want` (floats within rounding, the rest equal), in words; None if none."""
    if got.keys() != want.keys():
        return f"features {sorted(got)}, expected {sorted(want)}"
    for key, value in want.items():
        same = math.isclose(got[key], value, abs_tol=1e-12) if isinstance(value, float) else got[key] == value
        if not same:
            return f"{key} is {got[key]}, expected {value}"
    return None
