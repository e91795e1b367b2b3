"""How a play feels (simlib/core/feel.py): hand-made standings with the features worked out by hand from
docs/statistics.md, and random standings against a reference written from that doc alone
(tests/support/feel_reference.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simlib.core.feel import new_feel, record_feel

from support.feel_reference import first_difference, reference_features

# Three seats, six turns; seat 2 comes back from last place at half-time and wins.
COMEBACK = [[1, 0, 0], [2, 1, 0], [2, 3, 1], [3, 3, 2], [3, 4, 4], [4, 4, 6]]
COMEBACK_FEEL = {
    "lead_changes": 2,  # single leaders 0 0 1 - - 2: from 0 to 1, from 1 to 2
    "winner_lead_share": 2 / 6,  # after turns 4 and 5
    "decided_at": 4 / 6,  # last behind after turn 3
    "max_deficit": 2.0,  # gaps 1 2 2 1 0 0
    "worst_rank": 3,
    "drama": 6 / 6,
    "decisive_at": 5 / 6,  # the others' best is 4; seat 2 passes it after turn 5
    # tenths after turns 0 1 1 2 2 3 4 4 5 5
    "winner_leads_at": [False] * 8 + [True] * 2,  # alone after turn 5 only (turn 4: {1, 2} lead)
    "leader_at_quarter": [0, 1, -1],  # after turns 1, 2 and 4 ({1,2} lead)
    "winner_rank_at_half": 3,  # after turn 2: 2, 3, 1
    "winner_last_at_half": True,
}

# Two seats, four turns; seat 0 leads throughout.
RUNAWAY = [[1, 0], [2, 1], [3, 1], [5, 2]]
RUNAWAY_FEEL = {
    "lead_changes": 0, "winner_lead_share": 1.0, "decided_at": 0.0, "max_deficit": 0.0, "worst_rank": 1,
    "drama": 0.0,
    "decisive_at": 2 / 4,  # the other's best is 2; seat 0 has 3 after turn 2
    "winner_leads_at": [True] * 10, "leader_at_quarter": [0, 0, 0], "winner_rank_at_half": 1,
    "winner_last_at_half": False,
}


def features(standing, winner: int, rows: int = 2, row: int = 1) -> dict:
    """record_feel's row for one play, written into a Feel of `rows` plays (the other rows must stay empty)."""
    s = np.asarray(standing, dtype=np.float64)
    padded = np.vstack([s, np.full((3, s.shape[1]), 99.0)])  # turns after the play's end must not be read
    feel = new_feel(rows)
    record_feel(feel, row, padded, s.shape[0], winner)
    for other in set(range(rows)) - {row}:
        assert feel.lead_changes[other] == -1 and math.isnan(feel.drama[other])
    return {name: (column[row].tolist() if column.ndim > 1 else column[row].item())
            for name, column in feel._asdict().items()}


def agree(got: dict, want: dict) -> bool:
    """The same features (pytest.approx takes no lists inside a dict)."""
    return first_difference(got, want) is None


@pytest.mark.parametrize("standing, winner, expected", [(COMEBACK, 2, COMEBACK_FEEL), (RUNAWAY, 0, RUNAWAY_FEEL)],
                         ids=["comeback", "runaway"])
def test_hand_made_plays(standing, winner, expected):
    assert agree(features(standing, winner), expected)


def test_the_reference_agrees_on_the_hand_made_plays():
    assert agree(reference_features(COMEBACK, 2), COMEBACK_FEEL)
    assert agree(reference_features(RUNAWAY, 0), RUNAWAY_FEEL)


def test_a_play_without_a_single_winner_has_no_feature():
    got = features(COMEBACK, -1)
    assert got["lead_changes"] == -1 and got["worst_rank"] == -1 and math.isnan(got["drama"])
    assert got["leader_at_quarter"] == [-1, -1, -1] and not any(got["winner_leads_at"])


def test_random_plays_agree_with_the_reference():
    """Small integer standings (many ties) of 1 to 40 turns, 2 to 6 seats: every feature as the reference reads
    the doc."""
    rng = np.random.default_rng(38)
    for _ in range(400):
        turns, seats = int(rng.integers(1, 41)), int(rng.integers(2, 7))
        standing = np.cumsum(rng.integers(-1, 3, size=(turns, seats)), axis=0).astype(float)
        winner = int(rng.integers(0, seats))
        assert agree(features(standing, winner), reference_features(standing.tolist(), winner)), \
            (standing.tolist(), winner)
