"""The core's promises: results depend only on (seed, play, configuration); the lake is safe to read."""

from __future__ import annotations

from functools import partial

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from simlib.core import runner
from simlib.core.config import RunConfig
from simlib.core.lake import part_path, read_run, write_atomic
from simlib.core.runner import run
from simlib.games.mauer import GAME

TABLES = ("games", "seats", "events")


def config(plays=60, seed=42, **kw):
    return RunConfig.build(GAME, players=4, policies=["random", "heavy", "reader", "hollow"], plays=plays,
                           seed=seed, options={"rounds": 3}, events=True, **kw)


def lake_table(lake, name, run_id):
    table = ds.dataset(lake / name / "game=mauer" / f"run_id={run_id}", format="parquet").to_table()
    keys = [("play_index", "ascending")] + ([("seat", "ascending")] if name == "seats" else []) \
        + ([("baurunde", "ascending")] if name == "events" else [])
    return table.sort_by(keys)


@pytest.mark.parametrize("shard_size,workers", [(3, 1), (21, 2), (60, 2)])
def test_content_does_not_depend_on_shards_or_workers(tmp_path, shard_size, workers):
    cfg = config()
    reference = run(cfg, tmp_path / "one", workers=1, shard_size=1000, progress=False)
    other = run(cfg, tmp_path / "other", workers=workers, shard_size=shard_size, progress=False)
    assert reference.run_id == other.run_id
    for name in TABLES:
        assert lake_table(tmp_path / "one", name, reference.run_id).equals(
            lake_table(tmp_path / "other", name, other.run_id)), name


def test_a_play_replayed_alone_equals_its_row_in_the_batch():
    cfg = config(plays=300)
    batch = GAME.simulate(cfg, 0, 300, events=True)
    for play in (0, 1, 2, 151, 299):
        first = play - play % 3
        alone = GAME.simulate(cfg, first, first + 3, events=True)
        for name in TABLES:
            mine = batch[name].filter(pa.compute.equal(batch[name]["play_index"], play))
            theirs = alone[name].filter(pa.compute.equal(alone[name]["play_index"], play))
            assert mine.num_rows > 0 and mine.equals(theirs), (name, play)


def test_same_seed_same_content_other_seed_other_content(tmp_path):
    a = GAME.simulate(config(seed=1), 0, 30, events=False)
    b = GAME.simulate(config(seed=1), 0, 30, events=False)
    c = GAME.simulate(config(seed=2), 0, 30, events=False)
    assert a["seats"].equals(b["seats"]) and not a["seats"].equals(c["seats"])


def test_runs_row_carries_the_configuration(tmp_path):
    cfg = config()
    result = run(cfg, tmp_path, workers=1, progress=False)
    row = read_run(tmp_path, "mauer", result.run_id)
    assert row["status"] == "complete" and row["plays"] == 60 and row["seed"] == 42
    assert RunConfig.from_json(row["config"], GAME) == cfg


def test_an_interrupted_run_resumes_and_keeps_what_was_written(tmp_path):
    cfg = config()
    full = run(cfg, tmp_path / "full", workers=1, shard_size=12, progress=False)
    lake = tmp_path / "cut"
    first = run(cfg, lake, workers=1, shard_size=12, progress=False)
    # Make it look killed after two parts: later parts gone, the runs row says interrupted.
    kept = part_path(lake, "seats", "mauer", first.run_id, 1)
    kept_bytes = kept.read_bytes()
    for name in TABLES:
        for part in (2, 3, 4):
            part_path(lake, name, "mauer", first.run_id, part).unlink()
    runs_file = part_path(lake, "runs", "mauer", first.run_id, 0)
    row = pq.read_table(runs_file).to_pylist()[0] | {"status": "interrupted"}
    write_atomic(pa.Table.from_pylist([row], schema=pq.read_schema(runs_file)), runs_file)
    half_written = kept.with_name(".part-00002.parquet.999.tmp")
    half_written.write_bytes(b"PAR1 cut off")

    resumed = run(cfg, lake, workers=1, shard_size=999, progress=False)
    assert resumed.resumed and resumed.shards_written == 3
    assert kept.read_bytes() == kept_bytes and not half_written.exists()
    for name in TABLES:
        assert lake_table(lake, name, first.run_id).equals(lake_table(tmp_path / "full", name, full.run_id))
    assert run(cfg, lake, progress=False).already_complete


def test_no_temporary_files_are_left_in_the_lake(tmp_path):
    run(config(), tmp_path, workers=2, shard_size=6, progress=False)
    names = [p.name for p in tmp_path.rglob("*") if p.is_file() and p.parent.name != ".locks"]
    assert names and all(n.startswith("part-") and n.endswith(".parquet") for n in names)
    # the run's lock file stays (empty, reused by the next writer): a lock lives in the kernel, not in the file
    assert [p.stat().st_size for p in (tmp_path / ".locks").iterdir()] == [0]


def test_compile_kernels_loads_each_kernel_a_batch_needs_once(monkeypatch):
    # A line-up with a search seat runs a kernel of its own: the batch's scripted and search runs of one game
    # are both compiled up front, in one process (they share blocks), and a second scripted run adds nothing.
    loaded = []
    monkeypatch.setattr(runner, "_load_kernels", lambda configs: loaded.append([c.policies[0].name for c in configs]))
    monkeypatch.setattr(runner, "compiled_here", lambda package, kernel: True)
    build = partial(RunConfig.build, GAME, players=3, plays=1, seed=1, options={"rounds": 1})
    configs = [build(policies=["random"]), build(policies=["reader"]), build(policies=["reader", "search", "reader"]),
               build(policies=["search"])]
    runner.compile_kernels(configs, workers=1)
    assert GAME.kernel_of(configs[0]) == "scripted" and GAME.kernel_of(configs[2]) == "search"
    assert loaded == []  # every kernel already compiled here: the runs load them
    monkeypatch.setattr(runner, "compiled_here", lambda package, kernel: kernel == "scripted")
    monkeypatch.setattr(runner, "mark_compiled", lambda package, kernel: None)
    runner.compile_kernels(configs, workers=2)
    assert loaded == [["reader"]]  # only the search kernel is new
    monkeypatch.setattr(runner, "compiled_here", lambda package, kernel: False)
    runner.compile_kernels(configs, workers=1)
    assert loaded == [["reader"], ["random", "reader"]]
