"""Progress while a run simulates: a bar that moves within a shard on a terminal, quiet lines in a log, labelled
with the run's set-up in words; and the lake exactly as without progress."""

from __future__ import annotations

import io
import re
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import simlib.core.runner as runner
from simlib.cli import main
from simlib.core.config import RunConfig
from simlib.core.registry import get_game


def _parts(lake) -> dict[str, pa.Table]:
    """Every part file but the runs table's (it holds the run's start and end times), by path, as written: each
    dictionary column with its dictionary and codes, the schema with its metadata. (Not the files' bytes: Parquet's
    writer encodes the same table in other bytes depending on where its buffers lie in memory.)"""
    return {str(p.relative_to(lake)): pq.read_table(p) for p in sorted(lake.rglob("part-*.parquet"))
            if p.parts[len(lake.parts)] != "runs"}


@pytest.mark.parametrize("game, players, policies, plays", [("mauer", 4, ["random", "heavy", "reader", "hollow"], 200),
                                                            ("mauerbruch", 3, ["greedy", "cautious", "random"], 90)])
@pytest.mark.parametrize("workers", [1, 2])
def test_shards_simulated_in_chunks_write_the_same_tables(tmp_path, monkeypatch, game, players, policies, plays,
                                                         workers):
    """Chunks of one block each (the most calls a shard can take): every part file holds the same table, and forked
    workers count their chunks in the shared counter."""
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 0.0)
    config = RunConfig.build(get_game(game), players=players, policies=policies, plays=plays, seed=9, events=True)
    runner.run(config, tmp_path / "plain", workers=workers, progress=False)
    counted, exit_ = [], runner.Progress.__exit__
    monkeypatch.setattr(runner.Progress, "__exit__", lambda self, *exc: counted.append(self.counter.value)
                        or exit_(self, *exc))
    runner.run(config, tmp_path / "chunked", workers=workers, progress=True)
    assert counted == [plays]
    plain, chunked = _parts(tmp_path / "plain"), _parts(tmp_path / "chunked")
    assert plain and list(plain) == list(chunked)
    for name, table in plain.items():
        assert table.equals(chunked[name], check_metadata=True), name


def test_a_log_gets_quiet_lines_that_move_within_a_shard(tmp_path, monkeypatch, capsys):
    """stderr is not a terminal here (as in CI): lines, no bar; one shard of 2,000 plays, so a line between 0 and
    2,000 is progress within it."""
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 0.0)
    monkeypatch.setattr(runner, "POLL_SECONDS", 0.005)
    monkeypatch.setattr(runner, "LOG_SECONDS", 0.0)
    assert main(["simulate", "mauer", "--plays", "2000", "--players", "4", "--policies", "random", "--option",
                 "penalty_tower=12", "--workers", "1", "--shard-size", "2000", "--lake", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    pattern = r"mauer: 4 random players, tower 12 penalty points: ([\d,]+) of 2,000 plays \(\d+%\) after \d+ s"
    done = [int(re.fullmatch(pattern, line).group(1).replace(",", "")) for line in lines]
    assert any(0 < n < 2000 for n in done), lines


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_that_follows_the_counter(monkeypatch):
    monkeypatch.setattr(runner, "BAR_DELAY", 0.0)
    monkeypatch.setattr(runner, "POLL_SECONDS", 0.01)
    screen = _Terminal()
    with runner.Progress("mauer: 4 random players", 100, stream=screen) as shown:
        with shown.counter.get_lock():
            shown.counter.value += 40  # what a worker does after a chunk, long before its shard returns
        deadline = time.monotonic() + 5
        while "40/100" not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "40/100" in screen.getvalue()
    assert "mauer: 4 random players" in screen.getvalue() and "\r" in screen.getvalue()
    assert runner._plays_done is None  # no counter left for a run that shows nothing


def test_quiet_runs_simulate_each_shard_in_one_call(tmp_path, monkeypatch):
    """Without progress nothing changes: one kernel call a shard."""
    game = get_game("mauer")
    calls = []
    original = type(game).simulate
    monkeypatch.setattr(type(game), "simulate", lambda self, *a, **kw: calls.append(a[1:3]) or original(self, *a, **kw))
    config = RunConfig.build(game, players=4, policies=["random"], plays=100, seed=3)
    runner.run(config, tmp_path, workers=1, shard_size=50, progress=False)
    assert calls == [(0, 50), (50, 100)]
