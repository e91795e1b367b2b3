"""The README's notebook analyses, run as a user would: `simlib.connect()` from the folder holding data/."""

from __future__ import annotations

import re

import pandas as pd
import polars as pl
import pytest

import simlib
from simlib.core.errors import SimlibError

from support.digests import small_lake
from support.paths import REPO

README = (REPO / "README.md").read_text()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("notebook")
    small_lake(tmp_path_factory, root / "data")  # data/lake and data/marts, as `make report` leaves them
    return root


def test_the_readme_notebook_analyses_run(project, monkeypatch):
    monkeypatch.chdir(project)
    section = README.split("## In a notebook", 1)[1].split("\n## ", 1)[0]
    cells = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(cells) == 3
    namespace: dict = {}
    for cell in cells:
        exec(compile(cell, "README.md", "exec"), namespace)
    seat0, penalties, length = namespace["seat0"], namespace["penalties"], namespace["length"]
    assert isinstance(seat0, pd.DataFrame) and isinstance(length, pd.DataFrame)
    assert isinstance(penalties, pl.DataFrame)
    # one row per set-up of one policy (the small lake: 3 and 4 players, random and heavy, and the tournament's
    # reader table), never a mixed table; each advantage inside its interval
    assert set(seat0["players"]) == {3, 4} and not seat0["setup_label"].str.contains(":").any()
    assert seat0["setup_label"].is_unique
    assert ((seat0["advantage_lo"] <= seat0["advantage"]) & (seat0["advantage"] <= seat0["advantage_hi"])).all()
    assert penalties["seat_plays"].sum() > 0 and (penalties["penalty"] >= 0).all()
    assert set(length["game"]) == {"mauer", "mauerbruch", "catan", "sevensteps", "burgenland"}


def test_connect_is_read_only_and_says_when_there_is_no_lake(project, tmp_path, monkeypatch):
    con = simlib.connect(project / "data" / "lake", project / "data" / "marts")
    assert con.execute("select count(*) from catan_production").fetchall()[0][0] > 0
    for query in (f"copy (select 1) to '{tmp_path / 'x.csv'}'",
                  f"explain analyze copy (select 1) to '{tmp_path / 'x.csv'}'"):
        with pytest.raises(Exception, match="read-only|ANALYZE"):
            con.execute(query)
        with pytest.raises(Exception, match="read-only|ANALYZE"):
            con.sql(query)
    assert not (tmp_path / "x.csv").exists()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SimlibError, match="no lake"):
        simlib.connect()
