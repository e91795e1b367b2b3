"""Self-checks of the independent reference for how a play feels (tests/support/feel_reference.py): small plays
worked by hand from the table in docs/statistics.md ("How a play feels (issue 38)"), each asserting the full dict."""

from __future__ import annotations

from support.feel_reference import KEYS, reference_features

F, T_ = False, True


def test_comeback_from_last_three_seats_six_turns():
    # Seat 2 wins, last for the first half.
    standing = [
        [2, 1, 0],  # t0  L={0}    w: rank 3, gap 2
        [3, 2, 1],  # t1  L={0}    w: rank 3, gap 2
        [4, 4, 1],  # t2  L={0,1}  w: rank 3, gap 3
        [5, 4, 5],  # t3  L={0,2}  w: rank 1, gap 0
        [5, 6, 7],  # t4  L={2}    w: rank 1, gap 0
        [6, 6, 9],  # t5  L={2}    w: rank 1, gap 0
    ]
    # lead_changes: single leaders 0 0 - - 2 2: the lead passes from 0 to 2 once -> 1
    # winner_lead_share: t3, t4, t5 -> 3/6
    # decided_at: last t without w among the leaders is 2 -> (1+2)/6
    # max_deficit: max(2,2,3,0,0,0) = 3; worst_rank 3; drama (2+2+3)/6 = 7/6
    # decisive_at: threshold = max over seats 0 and 1 over all turns = 6; w: 0,1,1,5,7,9 -> first > 6 at t4 -> 4/6
    # winner_leads_at, T=6: ceil(6k/10)-1 for k=1..10 = 0,1,1,2,2,3,4,4,5,5; w leads alone at t4,t5 (t3: shared)
    # leader_at_quarter: ceil(6/4)-1=1 -> {0}: 0; ceil(12/4)-1=2 -> {0,1}: -1; ceil(18/4)-1=4 -> {2}: 2
    # half: ceil(6/2)-1 = 2 -> [4,4,1]: rank 3, nobody behind, two ahead -> last
    assert reference_features(standing, 2) == {
        "lead_changes": 1,
        "winner_lead_share": 0.5,
        "decided_at": 0.5,
        "max_deficit": 3.0,
        "worst_rank": 3,
        "drama": 7 / 6,
        "decisive_at": 4 / 6,
        "winner_leads_at": [F, F, F, F, F, F, T_, T_, T_, T_],
        "leader_at_quarter": [0, -1, 2],
        "winner_rank_at_half": 3,
        "winner_last_at_half": True,
    }


def test_two_seats_winner_leads_throughout():
    standing = [
        [1, 0],  # t0  L={0}
        [3, 1],  # t1  L={0}
        [4, 2],  # t2  L={0}
        [6, 2],  # t3  L={0}
    ]
    # lead_changes 0; share 4/4; decided_at 0 (w leads after every turn); max_deficit 0; worst_rank 1; drama 0
    # decisive_at: threshold = max of seat 1 = 2; w: 1,3,4,6 -> first > 2 at t1 -> 1/4
    # winner_leads_at: alone after every turn -> all True
    # leader_at_quarter, T=4: turns 0, 1, 2 -> seat 0 each time
    # half: ceil(4/2)-1 = 1 -> [3,1]: rank 1, not last
    assert reference_features(standing, 0) == {
        "lead_changes": 0,
        "winner_lead_share": 1.0,
        "decided_at": 0.0,
        "max_deficit": 0.0,
        "worst_rank": 1,
        "drama": 0.0,
        "decisive_at": 0.25,
        "winner_leads_at": [T_] * 10,
        "leader_at_quarter": [0, 0, 0],
        "winner_rank_at_half": 1,
        "winner_last_at_half": False,
    }


def test_ties_for_the_lead():
    # Seat 1 wins (say on a tiebreak: it ends level with seat 2).
    standing = [
        [0, 0, 0],  # t0  L={0,1,2}  w: rank 1, gap 0
        [1, 0, 1],  # t1  L={0,2}    w: rank 3, gap 1
        [2, 2, 1],  # t2  L={0,1}    w: rank 1, gap 0
        [2, 3, 2],  # t3  L={1}      w: rank 1, gap 0
        [3, 4, 4],  # t4  L={1,2}    w: rank 1, gap 0
    ]
    # lead_changes: the only single leader is seat 1 at t3, the first: no change -> 0
    # winner_lead_share: t0, t2, t3, t4 (ties count) -> 4/5
    # decided_at: last t without w among the leaders is 1 -> 2/5
    # max_deficit 1; worst_rank 3; drama 1/5
    # decisive_at: threshold = max(seat 0: 3, seat 2: 4) = 4; w reaches 4 but never exceeds it -> 1
    # winner_leads_at, T=5: ceil(5k/10)-1 = 0,0,1,1,2,2,3,3,4,4; w leads alone at t3 only (shared at t0, t2, t4)
    # leader_at_quarter: ceil(5/4)-1=1 -> {0,2}: -1; ceil(10/4)-1=2 -> {0,1}: -1; ceil(15/4)-1=3 -> {1}: 1
    # half: ceil(5/2)-1 = 2 -> [2,2,1]: rank 1 (tied first), seat 2 behind -> not last
    assert reference_features(standing, 1) == {
        "lead_changes": 0,
        "winner_lead_share": 0.8,
        "decided_at": 0.4,
        "max_deficit": 1.0,
        "worst_rank": 3,
        "drama": 0.2,
        "decisive_at": 1.0,
        "winner_leads_at": [F, F, F, F, F, F, T_, T_, F, F],
        "leader_at_quarter": [-1, -1, 1],
        "winner_rank_at_half": 1,
        "winner_last_at_half": False,
    }


def test_one_turn_tied_for_last():
    # T = 1: every tenth, quarter and the half fall on turn 0. Seat 1 is tied last with seat 2, seat 0 ahead.
    # lead_changes 0 (no t in 1..0); share 0; decided_at (1+0)/1 = 1; max_deficit 1; worst_rank 2 (one seat ahead);
    # drama 1; decisive_at: threshold max(1, 0) = 1, w = 0 never exceeds -> 1
    # leader_at_quarter: turn 0 -> {0} three times; half: rank 2, nobody strictly behind, one ahead -> last
    assert reference_features([[1, 0, 0]], 1) == {
        "lead_changes": 0,
        "winner_lead_share": 0.0,
        "decided_at": 1.0,
        "max_deficit": 1.0,
        "worst_rank": 2,
        "drama": 1.0,
        "decisive_at": 1.0,
        "winner_leads_at": [F] * 10,
        "leader_at_quarter": [0, 0, 0],
        "winner_rank_at_half": 2,
        "winner_last_at_half": True,
    }


def test_keys_and_types():
    result = reference_features([[1.5, 0.5], [1.0, 2.0]], 1)
    assert tuple(result) == KEYS
    for key in ("lead_changes", "worst_rank", "winner_rank_at_half"):
        assert type(result[key]) is int
    for key in ("winner_lead_share", "decided_at", "max_deficit", "drama", "decisive_at"):
        assert type(result[key]) is float
    assert all(type(x) is bool for x in result["winner_leads_at"]) and len(result["winner_leads_at"]) == 10
    assert all(type(x) is int for x in result["leader_at_quarter"]) and len(result["leader_at_quarter"]) == 3
    assert type(result["winner_last_at_half"]) is bool
