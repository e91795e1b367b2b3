"""Nothing changes for the user's results: the digests recorded before a restructuring still hold.

tests/support/digests.json was written by `python tests/support/digests.py --record` before the analysis side was
reorganised (issue 9); a difference here means a table or a mart now gives other rows.
"""

from __future__ import annotations

import json

import pytest

from support.digests import RECORDED, mart_digests, small_lake, table_digests

EXPECTED = json.loads(RECORDED.read_text())


def test_games_and_seats_tables_are_unchanged():
    assert table_digests() == EXPECTED["tables"]


@pytest.fixture(scope="module")
def marts(tmp_path_factory):
    _, marts = small_lake(tmp_path_factory, tmp_path_factory.mktemp("digests"))
    return mart_digests(marts)


@pytest.mark.parametrize("mart", sorted(EXPECTED["marts"]))
def test_every_recorded_mart_is_unchanged(marts, mart):
    assert marts.get(mart) == EXPECTED["marts"][mart]
