"""Workbench jobs (issue 39, item 2): a what-if sweep run chunk by chunk, one seed a chunk, its verdicts the report's
over the pooled plays; bad fields refused beside each field; one job at a time; a stopped job resumes."""

from __future__ import annotations

import shlex
import time

import duckdb
import numpy as np
import pytest
from starlette.testclient import TestClient

from simlib.analysis.effects import PairSums, effect_row, with_holm
from simlib.analysis.pipeline import models_for_runs
from simlib.cli import main
from simlib.core.lake import Lake
from simlib.serve.app import create_app

DONE = ("done", "stopped", "failed")
JOB = {"game": "mauer", "players": 3, "lineup": "random", "vary": {"penalty_tower": "12"}, "seed": 5}


def _wait(client, job_id: int, until=lambda job: job["state"] in DONE, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(f"/api/jobs/{job_id}").json()
        if until(job):
            return job
        assert time.monotonic() < deadline, job
        time.sleep(0.1)


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    return tmp_path_factory.mktemp("workbench") / "lake"


@pytest.fixture(scope="module")
def client(lake):
    with TestClient(create_app(lake=str(lake), workers=1)) as client:
        yield client


@pytest.fixture(scope="module")
def finished(client):
    """A job of two chunks (1,000 then 2,000 plays a run), stopped by its budget: the width asked for is out of
    reach."""
    job = client.post("/api/jobs", json=JOB | {"budget": 3000, "width": 1e-9}).json()
    return _wait(client, job["id"])


def test_bad_fields_are_named_one_by_one_and_nothing_runs(client, lake):
    response = client.post("/api/jobs", json={
        "game": "mauer", "players": 9, "lineup": "random", "vary": {"penalty_tower": "x", "nope": "1"},
        "budget": "-3", "width": "0", "seed": "1.5"})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"players", "vary:penalty_tower", "vary:nope", "budget", "width", "seed"}, errors
    assert "3 to 6 players" in errors["players"] and "not an integer" in errors["vary:penalty_tower"]
    nothing = client.post("/api/jobs", json=JOB | {"vary": {}})
    assert nothing.status_code == 400 and "change at least one rule parameter" in nothing.json()["errors"]["vary"]
    assert client.post("/api/jobs", json=JOB | {"lineup": "nobody"}).status_code == 400
    assert client.post("/api/jobs", json=JOB | {"game": "chess"}).json()["errors"] == {"game": "unknown game 'chess'"}
    not_json = client.post("/api/jobs", content=b"select 1", headers={"content-type": "application/json"})
    assert not_json.json()["errors"] == {"form": "the request is not JSON"}
    # a form another site's page could send without asking: refused, as is a stop sent that way
    assert client.post("/api/jobs", content=b'{"game": "mauer"}', headers={"content-type": "text/plain"}
                       ).status_code == 415
    assert client.post("/api/jobs/1/stop", content=b"", headers={"content-type": "text/plain"}).status_code == 415
    malformed = {"vary": "penalty_tower=12", "game": ["mauer"], "lineup": 3}
    for field, value in malformed.items():
        response = client.post("/api/jobs", json=JOB | {field: value})
        assert response.status_code == 400 and field in response.json()["errors"], (field, response.json())
    assert not any(lake.glob("runs/**/*.parquet")) if lake.exists() else True


def test_a_job_runs_its_chunks_on_successive_seeds_until_the_budget(finished):
    assert finished["state"] == "done", finished
    assert "budget of 3,000 plays per run is spent" in finished["reason"]
    assert [(c["seed"], c["plays"]) for c in finished["chunks"]] == [(5, 1000), (6, 2000)]
    assert [h["plays"] for h in finished["history"]] == [1000, 3000]
    verdicts = finished["verdicts"]
    assert verdicts["plays"] == 3000 and verdicts["baseline"] == "tower 15 penalty points"
    [variant] = verdicts["variants"]
    assert variant["sentence"].startswith("tower 12 penalty points (against tower 15 penalty points): penalty points "
                                          "per seat")
    # Random players never look at what a tower costs: the seats and the length are the same in every pair.
    assert "unchanged in every paired play: seat 0's advantage, game length" in variant["sentence"]
    first, last = finished["history"][0]["intervals"][0], finished["history"][-1]["intervals"][0]
    assert last["hi"] - last["lo"] < first["hi"] - first["lo"]  # the interval narrows as the plays come in


def test_each_chunk_is_the_command_lines_sweep(finished, tmp_path, capsys):
    """The command the page shows writes the same runs: the same run ids and the same plays."""
    chunk = finished["chunks"][1]
    argv = shlex.split(chunk["command"])[1:]
    argv[argv.index("--lake") + 1] = str(tmp_path / "lake")
    assert main(argv + ["--quiet"]) == 0
    capsys.readouterr()
    served = Lake.at(finished_lake(finished))
    for run_id in chunk["run_ids"]:
        mine = f"games/game=mauer/run_id={run_id}/*.parquet"
        ours = duckdb.sql(f"select * from read_parquet('{tmp_path / 'lake' / mine}') order by play_index").fetchall()
        theirs = duckdb.sql(f"select * from read_parquet('{served.path(mine)}') order by play_index").fetchall()
        assert ours == theirs and len(ours) == chunk["plays"]


def finished_lake(job: dict) -> str:
    return shlex.split(job["chunks"][0]["command"])[shlex.split(job["chunks"][0]["command"]).index("--lake") + 1]


def test_the_pooled_verdict_is_the_marts_over_the_same_plays(finished):
    """After one chunk the tally's rows are mart_variant_effects' over that chunk's runs; pooled over two chunks,
    its sums are the sums of each chunk's plays (the same estimator over twice the plays)."""
    lake = Lake.at(finished_lake(finished))
    runs = [("mauer", r) for c in finished["chunks"] for r in c["run_ids"]]
    with models_for_runs(lake, runs, {"int_play_outcomes", "int_play_headline"}) as con:
        rows = con.execute("select o.run_id, o.play_index, h.value from int_play_outcomes as o join int_play_headline "
                           "as h using (game, run_id, play_index) order by o.run_id, o.play_index").fetchall()
    values = {}
    for run_id, _, value in rows:
        values.setdefault(run_id, []).append(value)
    base = np.concatenate([values[c["run_ids"][0]] for c in finished["chunks"]])
    variant = np.concatenate([values[c["run_ids"][1]] for c in finished["chunks"]])
    [expected] = with_holm([effect_row("headline: penalty points per seat", PairSums.of(variant, base))])
    shown = next(m for m in finished["verdicts"]["variants"][0]["metrics"] if m["metric"].startswith("headline"))
    for column in ("difference", "difference_lo", "difference_hi", "baseline_mean", "variant_mean", "p_holm"):
        assert shown[column] == pytest.approx(expected[column], rel=1e-9, abs=1e-12), column


def test_stop_keeps_the_chunks_and_resume_goes_on_with_the_next_seed(client):
    job = client.post("/api/jobs", json=JOB | {"seed": 40, "budget": 10**6, "width": 1e-9}).json()
    _wait(client, job["id"], lambda j: j["chunks"])
    stopped = client.post(f"/api/jobs/{job['id']}/stop", json={}).json()
    assert stopped["state"] in ("stopping", "stopped")
    stopped = _wait(client, job["id"])
    assert stopped["state"] == "stopped" and stopped["reason"] == "stopped by the designer"
    kept = len(stopped["chunks"])
    resumed = client.post(f"/api/jobs/{job['id']}/resume", json={}).json()
    assert resumed["state"] in ("queued", "running")
    more = _wait(client, job["id"], lambda j: len(j["chunks"]) > kept)
    assert [c["seed"] for c in more["chunks"]] == list(range(40, 40 + len(more["chunks"])))
    client.post(f"/api/jobs/{job['id']}/stop", json={})
    _wait(client, job["id"])


def test_a_job_with_nothing_left_does_not_resume(client, finished):
    again = client.post(f"/api/jobs/{finished['id']}/resume", json={}).json()
    assert again["state"] == "done" and len(again["chunks"]) == len(finished["chunks"])


def test_one_job_at_a_time_the_next_one_queues(client):
    first = client.post("/api/jobs", json=JOB | {"seed": 60, "budget": 6000, "width": 1e-9}).json()
    second = client.post("/api/jobs", json=JOB | {"seed": 70, "budget": 1000, "width": 1e-9}).json()
    assert second["state"] == "queued" and second["ahead"] >= 1
    done = _wait(client, second["id"])
    assert done["state"] == "done"
    assert client.get(f"/api/jobs/{first['id']}").json()["state"] == "done"  # the first finished before it ran
    assert client.get("/api/jobs/999").status_code == 404


def test_pair_sums_add_up_over_chunks():
    rng = np.random.default_rng(1)
    v, b = rng.normal(size=500), rng.normal(size=500)
    whole = PairSums.of(v, b)
    parts = PairSums.of(v[:200], b[:200]) + PairSums.of(v[200:], b[200:])
    assert parts.n == whole.n and np.allclose(parts.astuple()[1:], whole.astuple()[1:])


def test_a_play_of_any_chunk_opens_as_the_replay_tells_it(client, finished):
    """Item 5: a play of a job's run, step by step as `simlib replay` prints it, with each seat's standing after each
    Baurunde and the check against the lake's rows."""
    run_id = finished["chunks"][1]["run_ids"][1]
    told = client.get(f"/api/play?game=mauer&run={run_id}&play=7").json()
    assert told["text"].startswith("Die Mauer, play 7 (match 1, round 2), 3 players")
    assert told["mismatch"] == "" and told["plays"] == 2000 and told["unit"] == "penalty points"
    assert told["drawing"] is None  # Die Mauer has no board: its wall is in the account
    assert told["rules"] == "tower 12 penalty points"  # the variant's rules, in the report's words
    baseline = finished["chunks"][1]["run_ids"][0]
    assert client.get(f"/api/play?game=mauer&run={baseline}&play=7").json()["rules"] == ""
    seats = {seat for _, seat, _ in told["standings"]}
    turns = sorted({turn for turn, _, _ in told["standings"]})
    assert seats == {0, 1, 2} and turns == list(range(len(turns))) and len(turns) > 1
    assert len(told["standings"]) == 3 * len(turns)
    refused = {"play=x": "play", "play=2000": "run", "play=0&game=chess": "game"}
    for query, field in refused.items():
        response = client.get(f"/api/play?game=mauer&run={run_id}&{query}")
        assert response.status_code in (400, 404) and field in response.json()["errors"], query
    assert "not a run id" in client.get("/api/play?game=mauer&run=nope&play=0").json()["errors"]["run"]
    traversal = client.get(f"/api/play?game=mauer&run={run_id}/../../../../etc&play=0")
    assert traversal.status_code == 404 and "not a run id" in traversal.json()["errors"]["run"]
    assert "no run '0123456789abcdef'" in client.get(
        "/api/play?game=mauer&run=0123456789abcdef&play=0").json()["errors"]["run"]


def test_a_line_ups_cost_is_measured_before_it_runs(client):
    """Item 4: plays a second of a rung on this machine, measured in the worker, so the page can say what a chunk and
    the budget will take; a search rung plays far fewer than random players, and its first chunk is cut to fit."""
    from simlib.serve.spec import MIN_FIRST_PLAYS, first_plays

    random = client.get("/api/speed?game=mauer&players=3&lineup=random").json()
    search = client.get("/api/speed?game=mauer&players=3&lineup=search:base=2:budget=16:horizon=0").json()
    assert random["plays_per_second"] > 20 * search["plays_per_second"] > 0
    assert random["processes"] == 1 and random["first_plays"] == 1000
    assert first_plays(random["plays_per_second"], 1, 2, 5) == 1000
    assert first_plays(1.0, 1, 2, 5) == MIN_FIRST_PLAYS
    assert first_plays(300.0, 2, 3, 7) == 798  # 300 plays a second on 2 processes, 3 runs: 800 in 4 s, in blocks
    bad = client.get("/api/speed?game=mauer&players=3&lineup=nobody")
    assert bad.status_code == 400 and "nobody" in bad.json()["errors"]["lineup"]
    assert client.get("/api/speed?game=mauer&players=x&lineup=random").status_code == 400


def test_the_report_pools_a_jobs_chunks_as_the_page_did(finished):
    """The marts read a job's chunks (one sweep on two seeds) as one sweep: after `make report` the What-if page
    states what the workbench stated, from the same plays."""
    lake = Lake.at(finished_lake(finished))
    runs = [("mauer", r) for c in finished["chunks"] for r in c["run_ids"]]
    with models_for_runs(lake, runs, {"mart_variant_effects"}) as con:
        mart = con.sql("select * from mart_variant_effects where not is_baseline and seat is null").pl()
    assert mart["sweep_id"].n_unique() == 1 and set(mart["n_sweeps"]) == {2} and set(mart["n_plays"]) == {3000}
    shown = {m["metric"]: m for m in finished["verdicts"]["variants"][0]["metrics"]}
    for row in mart.iter_rows(named=True):
        for column in ("difference", "difference_lo", "difference_hi", "p_holm", "equivalent"):
            assert shown[row["metric"]][column] == pytest.approx(row[column], rel=1e-9, abs=1e-12), column


def test_at_a_mixed_table_the_page_and_the_report_share_one_holm_family(client):
    """Greedy in seat 0 against two random players (a mixed table: seat 0's advantage measures the policies, so no
    verdict reads it), yet the report's Holm family counts it: the page adjusts over the same tests, so its p_holm
    equals the mart's, here where the p-values lie strictly between 0 and 1. Each run shows each policy's win share
    instead, as the report's policy strength says it."""
    job = client.post("/api/jobs", json={"game": "mauerbruch", "players": 3, "lineup": "greedy,random,random",
                                         "vary": {"opening": "piles"}, "budget": 6000, "width": 1e-9}).json()
    done = _wait(client, job["id"])
    assert done["state"] == "done", done
    shown = {m["metric"]: m for m in done["verdicts"]["variants"][0]["metrics"]}
    assert "seat0_advantage" not in shown and "length" in shown
    lake = Lake.at(finished_lake(done))
    runs = [("mauerbruch", r) for c in done["chunks"] for r in c["run_ids"]]
    with models_for_runs(lake, runs, {"mart_variant_effects"}) as con:
        mart = con.sql("select * from mart_variant_effects where not is_baseline and seat is null").pl()
    assert set(mart["metric"]) >= {"seat0_advantage", "length"}
    for row in mart.filter(mart["metric"].is_in(list(shown))).iter_rows(named=True):
        assert 0 < row["p_value"] < 1, row  # a p that Holm's family size changes
        for column in ("difference", "difference_lo", "difference_hi", "p_value", "p_holm", "equivalent"):
            assert shown[row["metric"]][column] == pytest.approx(row[column], rel=1e-9, abs=1e-12), column
    # Each run's policies: greedy's win share over the job's chunks as mart_policy_strength pools the pairing.
    with models_for_runs(lake, runs, {"mart_policy_strength"}) as con:
        strength = con.sql("select options_label, focal, n_plays, win_share, win_share_lo, win_share_hi "
                           "from mart_policy_strength").pl()
    assert set(strength["focal"]) == {"greedy"} and set(strength["n_plays"]) == {done["verdicts"]["plays"]}
    for run in done["verdicts"]["runs"]:
        greedy, rand = run["policies"]
        assert (greedy["policy"], rand["policy"]) == ("greedy", "random") and greedy["fair"] == pytest.approx(1 / 3)
        [row] = strength.filter((strength["options_label"] == "") == run["is_baseline"]).iter_rows(named=True)
        assert (greedy["share"]["value"], greedy["share"]["lo"], greedy["share"]["hi"]) == pytest.approx(
            (row["win_share"], row["win_share_lo"], row["win_share_hi"]), rel=1e-9)
        assert greedy["share"]["value"] + 2 * rand["share"]["value"] == pytest.approx(1, abs=0.01)  # nearly all won


def test_the_reports_example_plays_are_listed_to_open(tmp_path):
    """The report names, per set-up, a comeback and a runaway play (mart_setup_feel); the workbench lists those of the
    tables of one policy with their runs, as the report shows no run id in its sentences and links nowhere."""
    import polars as pl

    pl.DataFrame({"game": ["mauer", "mauer", "mauer"], "setup_label": ["4 random players", "3 heavy players",
                                                                    "heavy in seat 0 against 3 random"],
                  "players": [4, 3, 4], "lineup_kind": ["one_policy", "one_policy", "one_vs_field"],
                  "example_run_id": ["0123456789abcdef", "fedcba9876543210", "00000000000000aa"],
                  "comeback_play": [5, None, 1], "runaway_play": [8, None, 2]}).write_parquet(
        tmp_path / "mart_setup_feel.parquet")
    with TestClient(create_app(marts=tmp_path)) as listed:
        examples = listed.get("/api/catalogue").json()["examples"]
    assert examples == [{"game": "mauer", "setup": "4 random players", "run_id": "0123456789abcdef", "plays": [
        {"kind": "won from last place at half-time", "play": 5}, {"kind": "its winner led throughout", "play": 8}]}]
    with TestClient(create_app(marts=tmp_path / "none")) as bare:
        assert bare.get("/api/catalogue").json()["examples"] == []


def test_the_worker_outlives_the_request_thread_that_started_it(tmp_path):
    """A request's thread ends after a few idle seconds; the worker it first asked must live on (the CI failure of
    stop 49: the worker died with that thread, and the play asked for next found no worker)."""
    import threading

    from simlib.serve.jobs import Workbench

    bench = Workbench(str(tmp_path / "lake"), workers=1)
    try:
        asked = threading.Thread(target=bench.speed, args=("mauer", 3, "random"))
        asked.start()
        asked.join()
        worker = set(bench._pool._processes)
        time.sleep(0.5)  # the parent-death signal, were it bound to the ended thread, is delivered at once
        assert bench.speed("mauer", 4, "random")["plays_per_second"] > 0  # another key: measured in the worker
        assert set(bench._pool._processes) == worker
    finally:
        bench.close()


def test_a_variant_that_changes_the_block_runs_in_multiples_of_every_block():
    """Die Mauer's rounds = 3 against the default 5: every chunk is a whole number of matches of both (15), where a
    designer's try was once refused with "--plays (1000) must be a multiple of rounds (3)"."""
    from simlib.serve.spec import JobSpec, first_plays, next_plays

    spec = JobSpec.parse({"game": "mauer", "players": 4, "lineup": "random", "vary": {"rounds": "3"},
                          "budget": 3000})
    assert spec.block() == 15
    first = first_plays(1e6, 1, spec.runs(), spec.block())
    assert first == 990
    assert next_plays(spec.budget, [{"plays": first, "seconds": 0.5}], spec.block(), first) % 15 == 0


def test_a_line_up_is_read_in_full_so_one_policy_written_two_ways_is_one_policy():
    """'heavy' and 'heavy:epsilon=0.1' are the same policy (the lake writes the second): a table of them is a table of
    one policy, with seat 0's share and the start-player answer, not a mixed table."""
    from simlib.serve.spec import JobSpec

    def lineup(text: str) -> str:
        return JobSpec.parse({"game": "mauer", "players": 3, "lineup": text, "vary": {"penalty_tower": "12"}}).lineup

    assert lineup("heavy,heavy:epsilon=0.1,heavy") == "heavy:epsilon=0.1"
    assert lineup("heavy,random,random") == "heavy:epsilon=0.1,random,random"
