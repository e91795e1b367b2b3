"""The command line: commands a user types, and one clear line for bad input with nothing written."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from simlib import __version__
from simlib.cli import main

from support.cli import run_cli
from support.paths import REPO, TOY


def simlib(*args):
    """The installed entry point in a child process: for what only a process shows (its exit status as the shell
    sees it, a closed pipe)."""
    return subprocess.run([sys.executable, "-m", "simlib.cli", *args], capture_output=True, text=True)


def test_games_and_policies(capsys):
    assert main(["games"]) == 0
    assert "mauer" in capsys.readouterr().out
    assert main(["policies", "mauer"]) == 0
    out = capsys.readouterr().out
    for name in ("random", "heavy", "reader", "hollow"):
        assert f"\n{name}" in "\n" + out


def test_params_show_provenance(capsys):
    assert main(["params", "mauer"]) == 0
    out = capsys.readouterr().out
    assert "penalty_tower" in out and "seed" in out and "assumed" in out


BAD = [
    (["simulate", "chess", "--plays", "10", "--players", "4", "--policies", "random"], "unknown game"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "genius"], "unknown policy"),
    (["simulate", "mauer", "--plays", "10", "--players", "2", "--policies", "random"], "3-6 players"),
    (["simulate", "mauer", "--plays", "10", "--players", "7", "--policies", "random"], "3-6 players"),
    (["simulate", "mauer", "--plays", "0", "--players", "4", "--policies", "random"], "positive"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "random,heavy"], "2 policies"),
    (["simulate", "mauer", "--plays", "7", "--players", "4", "--policies", "random"], "multiple of rounds"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "heavy:speed=3"], "bad parameter"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "heavy:epsilon=2"], "must be in 0..1"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "random", "--option", "start=late"],
     "not one of"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "random", "--option", "colour=red"],
     "unknown option"),
    (["simulate", "mauer", "--plays", "ten", "--players", "4", "--policies", "random"], "'ten' is not an integer"),
    # Issue 23's table: conflicting, derived, duplicate and ill-typed values are errors, not silent choices.
    (["simulate", "mauer", "--plays", "30", "--players", "4", "--policies", "random", "--rounds", "2", "--option",
      "rounds=3"], "--rounds 2 and --option rounds=3 set rounds differently: give it once"),
    (["simulate", "mauerbruch", "--plays", "10", "--players", "3", "--policies", "random", "--option", "deck_id=abc"],
     "option deck_id of mauerbruch is derived from the others and cannot be set (settable: deck, opening)"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "heavy:epsilon=0.1:epsilon=0.2"],
     "policy heavy: parameter epsilon is given twice"),
    (["simulate", "mauerbruch", "--plays", "10", "--players", "3", "--policies", "random", "--option", "colour=red"],
     "unknown option 'colour' for mauerbruch (settable: deck, opening)"),
    (["simulate", "mauerbruch", "--plays", "10", "--players", "3", "--policies", "random", "--rounds", "2"],
     "unknown option 'rounds' for mauerbruch"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "random", "--option", "penalty_tower=abc"],
     "option penalty_tower: 'abc' is not an integer"),
    (["simulate", "mauer", "--plays", "10", "--players", "4", "--policies", "random", "--option", "penalty_tower=1.5"],
     "option penalty_tower: 1.5 is not an integer"),
    (["simulate", "burgenland", "--plays", "10", "--players", "3", "--policies", "random", "--option",
      "central_jokers=maybe"], "option central_jokers: 'maybe' is not true or false"),
    (["simulate", "catan", "--plays", "10", "--players", "3", "--policies", "random", "--option", "map=nosuch"],
     "map 'nosuch' is neither built in (beginner, standard) nor a file"),
    (["sweep", "mauer", "--vary", "penalty_tower=15", "--players", "4", "--policies", "random", "--plays", "10",
      "--no-report"], "nothing to compare: penalty_tower=15 is the baseline's own value"),
    # --players is one flag everywhere: several, comma-separated, where a command takes several (sweep) only.
    (["simulate", "mauer", "--plays", "10", "--players", "3,4", "--policies", "random"],
     "argument --players: '3,4': give one number of players (only simlib sweep takes several)"),
    (["fixes", "mauer", "--players", "3,4", "--policies", "random"],
     "argument --players: '3,4': give one number of players (only simlib sweep takes several)"),
    (["sweep", "mauer", "--vary", "penalty_tower=12", "--players", "3,x", "--policies", "random", "--plays", "10"],
     "argument --players: 'x' is not an integer"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(tmp_path, args, message):
    lake = tmp_path / "lake"
    result = run_cli(*args, "--lake", str(lake))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not lake.exists()


def test_unwritable_lake(tmp_path):
    """A lake that cannot be made, not even by root: the lake path is a regular file. (A lake path below a
    file is the next test's case.)"""
    lake = tmp_path / "lake"
    lake.write_text("not a folder")
    result = run_cli("simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random",
                    "--lake", str(lake))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not writable" in lines[0], result.stderr
    assert lake.read_text() == "not a folder" and list(tmp_path.rglob("*")) == [lake]  # nothing written


def test_lake_path_that_is_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run_cli("simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random",
                    "--lake", str(blocker / "lake"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "not writable" in result.stderr


def test_simulate_then_replay(tmp_path, capsys):
    lake = str(tmp_path)
    assert main(["simulate", "mauer", "--plays", "10", "--players", "3", "--policies", "random,heavy,hollow",
                 "--seed", "5", "--lake", lake, "--quiet"]) == 0
    out = capsys.readouterr().out
    run_id = out.split("wrote run ")[1].split()[0]
    assert "10 plays" in out
    assert main(["replay", "mauer", "--run", run_id, "--play", "7", "--lake", lake]) == 0
    text = capsys.readouterr().out
    assert "play 7 (match 1, round 2)" in text and "Bauherr 0" in text and "penalty" in text
    assert "replay matches the lake's rows" in text
    assert main(["simulate", "mauer", "--plays", "10", "--players", "3", "--policies", "random,heavy,hollow",
                 "--seed", "5", "--lake", lake, "--quiet"]) == 0
    assert "already complete" in capsys.readouterr().out
    assert main(["replay", "mauer", "--run", "nope", "--play", "1", "--lake", lake]) == 2


@pytest.mark.parametrize("command", [["games"], ["schema"], ["replay", "mauer", "--run", "RUN", "--play", "0"]])
def test_no_traceback_when_the_reader_goes_away(command, tmp_path):
    """`simlib ... | head`: the pipe closes early; the command stops quietly (status 141, like SIGPIPE)."""
    if command[0] == "replay":
        main(["simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random", "--rounds", "1",
              "--lake", str(tmp_path), "--quiet"])
        run_id = next((tmp_path / "runs" / "game=mauer").iterdir()).name.removeprefix("run_id=")
        command = [c if c != "RUN" else run_id for c in command] + ["--lake", str(tmp_path)]
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: the first write fails with a broken pipe
    done = subprocess.run([sys.executable, "-m", "simlib.cli", *command], stdout=write_end, stderr=subprocess.PIPE,
                          text=True)
    os.close(write_end)
    assert "Traceback" not in done.stderr and done.returncode == 141, done.stderr


def test_every_flag_of_every_command_has_help_text():
    from simlib.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        for action in command._actions:
            if action.dest != "help":
                assert action.help, f"simlib {name}: {action.option_strings or action.dest} has no help text"


def test_an_empty_lake_path_is_an_error_not_the_current_folder(tmp_path):
    done = subprocess.run([sys.executable, "-m", "simlib.cli", "simulate", "mauer", "--plays", "5", "--players", "4",
                           "--policies", "random", "--rounds", "1", "--lake", ""], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["simlib: error: argument --lake: give a folder or an object-store URL, not "
                                        "an empty string"]
    assert list(tmp_path.iterdir()) == []


def test_a_batch_sweep_of_the_baseline_alone_is_an_error(tmp_path):
    batch = tmp_path / "b.toml"
    batch.write_text('[[sweep]]\nvary = { penalty_tower = [15] }\nplayers = 4\npolicies = ["random"]\nplays = 10\n')
    done = run_cli("batch", "mauer", "--file", str(batch), "--lake", str(tmp_path / "lake"), "--quiet")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "nothing to compare" in done.stderr
    assert not (tmp_path / "lake").exists()


def test_a_batch_file_cannot_set_a_derived_parameter_nor_go_without_a_game(tmp_path):
    batch = tmp_path / "b.toml"
    batch.write_text('[[run]]\nplayers = 3\npolicies = ["random"]\nplays = 10\noptions = { deck_id = "abc" }\n')
    done = run_cli("batch", "mauerbruch", "--file", str(batch), "--lake", str(tmp_path / "lake"), "--quiet")
    assert done.returncode == 2 and "deck_id of mauerbruch is derived" in done.stderr
    done = run_cli("batch", "--file", str(batch), "--lake", str(tmp_path / "lake"), "--quiet")
    assert done.stderr.splitlines() == ["simlib: error: --file needs a game: simlib batch GAME --file FILE"]
    assert not (tmp_path / "lake").exists()


def test_batch_lines_say_each_runs_set_up_in_words(tmp_path, capsys):
    batch = tmp_path / "b.toml"
    batch.write_text('[[run]]\nplayers = 4\npolicies = ["random", "heavy,random,random,random"]\nplays = 10\n'
                     'options = { penalty_tower = 12 }\n')
    assert main(["batch", "mauer", "--file", str(batch), "--lake", str(tmp_path / "lake"), "--quiet",
                 "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"\[1/2\] mauer run [0-9a-f]{16}: 4 random players, tower 12 penalty points; "
                        r"10 plays \(written\)", lines[0]), lines
    assert re.fullmatch(r"\[2/2\] mauer run [0-9a-f]{16}: heavy in seat 0 against 3 random, tower 12 penalty "
                        r"points; 10 plays \(written\)", lines[1]), lines


def test_version_and_bare_simlib():
    done = simlib("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"simlib {__version__}\n", "")
    done = simlib()  # asked what it can do: the help on stdout, status 0
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: simlib") and all(c in done.stdout for c in ("simulate", "batch", "sql"))


def _aligned(out: str, header: tuple[str, ...], first_cells: list[str]) -> None:
    """The header names every column, and each column starts where its header does, on every row."""
    lines = out.splitlines()
    assert lines[0].split() == list(header), lines[0]
    starts = [lines[0].index(name) for name in header]
    for cell in first_cells:
        row = next(line for line in lines[1:] if line.startswith(cell + " "))
        assert all(row[start - 1] == " " and row[start] != " " for start in starts[1:]), (row, starts)


def test_games_policies_and_params_print_aligned_columns_with_headers(capsys):
    assert main(["games"]) == 0
    _aligned(capsys.readouterr().out, ("game", "players", "rules_version", "title"), ["mauerspechte", "mauer"])
    assert main(["params", "burgenland"]) == 0
    out = capsys.readouterr().out
    _aligned(out, ("parameter", "default", "provenance", "description"), ["central_master_builder", "map"])
    assert re.search(r"^map_text +\"\" +derived ", out, re.M) and "cannot be set" in out
    assert main(["policies", "mauerbruch"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["policy", "parameter", "default", "description"]
    assert re.search(r"^ +break_margin +0 +cards it wants", out, re.M)


def test_the_simulate_summary_gives_win_shares_by_policy_too(tmp_path, capsys):
    assert main(["simulate", "mauer", "--plays", "30", "--players", "3", "--policies", "random,heavy,hollow",
                 "--lake", str(tmp_path), "--quiet", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "(1 part)" in out and "30 plays; win share by seat (fair 33.3%):" in out
    assert re.search(r"^win share by policy: random [\d.]+%, heavy [\d.]+%, hollow [\d.]+% \(seats rotate: each "
                     r"policy plays every seat in turn\); mean score by policy: random ", out, re.M), out
    assert main(["simulate", "mauer", "--plays", "10", "--players", "3", "--policies", "heavy", "--lake",
                 str(tmp_path), "--quiet"]) == 0
    assert "by policy" not in capsys.readouterr().out  # one policy: by seat says it all


def test_the_summary_splits_a_shared_win(tmp_path):
    """Three plays with the policies rotating through the seats, the second won by seats 1 and 2 together: each takes
    half of it. Seat 0 wins play 0 (1/3), seat 1 half of play 1 (1/6), seat 2 half of play 1 and play 2 (1/2);
    heavy sits at seat 0, 2, 1 (1 + 1/2 + 0), reader at 1, 0, 2 (0 + 0 + 1), random at 2, 1, 0 (0 + 1/2 + 0)."""
    from simlib.core.registry import get_game
    from simlib.core.summary import run_summary

    from support.lake_fixture import seats_from_penalties, write_run

    games, seats = seats_from_penalties([[0, 5, 5], [5, 0, 0], [5, 5, 0]])
    for row in seats:
        row["player"] = (row["seat"] + row["play_index"]) % 3
    write_run(tmp_path, "r1", 3, ["heavy", "reader", "random"], games, seats)
    lines = run_summary(tmp_path, get_game("mauer"), "r1", ["heavy", "reader", "random"]).splitlines()
    assert lines[0].startswith("3 plays; win share by seat (fair 33.3%): 33.3% 16.7% 50.0%;")
    assert lines[1].startswith("win share by policy: heavy 50.0%, reader 33.3%, random 16.7% (seats rotate")
    assert lines[2] == "1 of 3 plays (33.3%) ended in a shared win, split among its winners"


def test_option_values_read_as_a_designer_means_them():
    from simlib.core.registry import get_game

    params = get_game("burgenland").parameters()
    assert params["central_jokers"].coerce("false") is False and params["central_jokers"].coerce("True") is True
    assert get_game("mauer").parameters()["penalty_tower"].coerce("12.0") == 12


def test_errors_name_simlib_commands_not_makefile_targets(tmp_path):
    for command in (["pipeline", "--lake", str(tmp_path / "lake"), "--marts", str(tmp_path / "m"), "--db",
                     str(tmp_path / "d.duckdb")],
                    ["report", "--lake", str(tmp_path / "lake"), "--marts", str(tmp_path / "m"), "--out",
                     str(tmp_path / "r")]):
        done = run_cli(*command)
        assert done.returncode == 2 and "simlib simulate" in done.stderr and "make " not in done.stderr, done.stderr


@pytest.fixture(scope="module")
def small_lake(tmp_path_factory):
    lake = tmp_path_factory.mktemp("cli") / "lake"
    assert main(["simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random", "--rounds", "1",
                 "--lake", str(lake), "--quiet", "--workers", "1"]) == 0
    return lake


def sql(lake, *args):
    return run_cli("sql", *args, "--lake", str(lake), "--marts", str(lake.parent / "marts"))


def test_sql_over_a_missing_lake_is_an_error_naming_it(tmp_path):
    done = sql(tmp_path / "nosuch", "select count(*) from runs")
    assert done.stderr.splitlines() == [f"simlib: error: no lake at {tmp_path / 'nosuch'}: no such folder "
                                        f"(simulate first, or give --lake)"] and done.returncode == 2
    done = sql(tmp_path, "select count(*) from runs")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"simlib: error: no lake at {tmp_path}: the folder has no runs table "
                                        f"(simulate into it first, or give --lake)"]


def test_sql_takes_one_statement_and_a_row_count_in_range(small_lake):
    done = sql(small_lake, "select 1; select 2")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == ["simlib: query error: 2 statements given: simlib sql runs one at a time"]
    for rows in ("-1", "0", "1000001", str(2**64)):  # 2**64: beyond DuckDB's count, found by the fuzz
        done = sql(small_lake, "select 1", "--max-rows", rows)
        assert done.returncode == 2 and done.stderr.splitlines() == [
            f"simlib: error: --max-rows must be 1 to 1,000,000 (more rows: --format csv), not {rows}"]
    assert sql(small_lake, "select 1", "--max-rows", "1000000").returncode == 0


def test_sql_csv_into_a_closed_pipe_ends_quietly(small_lake):
    read_end, write_end = os.pipe()
    os.close(read_end)
    done = subprocess.run([sys.executable, "-m", "simlib.cli", "sql", "select * from range(100000)", "--format", "csv",
                           "--lake", str(small_lake)], stdout=write_end, stderr=subprocess.PIPE, text=True)
    os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_sql_write_errors_name_the_file_asked_for_not_a_temporary_one(small_lake, tmp_path):
    for fmt in ("csv", "parquet", "json"):
        target = tmp_path / "no such folder" / f"out.{fmt}"
        done = sql(small_lake, "select 1 as x", "--format", fmt, "--output", str(target))
        assert done.returncode == 2
        assert done.stderr.splitlines() == [f"simlib: error: cannot write {target}: No such file or directory"]


def test_the_readme_documents_the_batch_file_format_with_a_working_example(tmp_path):
    """The README's example batch file is one `simlib batch` reads, and the line it shows counts its runs."""
    from simlib.core.registry import get_game
    from simlib.design.batch import read_batch

    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Batch files"):]
    example = section[section.index("```toml\n") + 8:section.index("```\n", section.index("```toml"))]
    (tmp_path / "b.toml").write_text(example)
    batch = read_batch(get_game("mauer"), tmp_path / "b.toml", scale=0.001)
    assert {"[[run]]", "[[tournament]]", "[[sweep]]"} <= set(example.split())
    assert f"[1/{len(batch.configs)}] mauer run" in section and len(batch.sweeps) == 1


def test_compile_loads_a_games_scripted_and_search_kernels(monkeypatch):
    """`simlib compile` hands the runner one scripted and one search line-up per game asked for."""
    import simlib.core.runner as runner

    asked = []
    monkeypatch.setattr(runner, "compile_kernels", lambda configs, workers=None: asked.extend(configs))
    done = run_cli("compile", "mauerbruch", "--workers", 1)
    assert done.returncode == 0 and "Mauerbruch" in done.stdout
    assert sorted(c.policies[0].name for c in asked) == ["random", "search"]
    assert run_cli("compile", "nosuch").returncode == 2


def test_a_run_written_before_the_feel_columns_replays_on_the_columns_it_has(tmp_path, capsys):
    """Lakes written before a games column was added (issue 38's feel columns): `simlib replay` compares the columns
    the run has, and still finds a changed value."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from simlib.core.config import RunConfig
    from simlib.core.feel import FEEL_FIELDS
    from simlib.core.registry import get_game
    from simlib.core.replay import compare_with_lake

    assert main(["simulate", "mauerbruch", "--plays", "40", "--players", "3", "--policies", "random", "--seed", "5",
                 "--lake", str(tmp_path), "--quiet"]) == 0
    run_id = capsys.readouterr().out.split("wrote run ")[1].split()[0]
    parts = sorted((tmp_path / "games" / "game=mauerbruch").rglob("part-*.parquet"))
    for part in parts:  # as a writer before the columns existed left them
        old = pq.read_table(part)
        pq.write_table(old.drop_columns([f.name for f in FEEL_FIELDS]), part)
    game = get_game("mauerbruch")
    config = RunConfig.build(game, players=3, policies=["random"], plays=40, seed=5)
    assert compare_with_lake(game, config, tmp_path, run_id, 7) == []
    changed = pq.read_table(parts[0])
    turns = changed["turns"].cast("int64")
    pq.write_table(changed.set_column(changed.schema.get_field_index("turns"), "turns",
                                      pc.add(turns, 1).cast(changed.schema.field("turns").type)), parts[0])
    first = pq.read_table(parts[0])["play_index"][0].as_py()
    assert compare_with_lake(game, config, tmp_path, run_id, first) == ["games"]


def test_a_mauerbruch_replay_shows_the_standing_and_how_the_play_felt(tmp_path, capsys):
    assert main(["simulate", "mauerbruch", "--plays", "20", "--players", "3", "--policies", "random", "--seed", "5",
                 "--lake", str(tmp_path), "--quiet", "--events"]) == 0
    run_id = capsys.readouterr().out.split("wrote run ")[1].split()[0]
    assert main(["replay", "mauerbruch", "--run", run_id, "--play", "4", "--lake", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    takes = [line for line in text.splitlines() if "cards won: " in line]
    won = [list(map(int, line.split("cards won: ")[1].split())) for line in takes]
    assert won and all(len(w) == 3 for w in won) and all(sum(b) - sum(a) in (0, 2) for a, b in zip(won, won[1:]))
    assert "feel: " in text and "replay matches the lake's rows" in text


@pytest.mark.parametrize("game, step", [("mauer", "Baurunde"), ("sevensteps", "turn"), ("burgenland", "turn"),
                                        ("catan", "turn"), ("mauerspechte", "turn")])
def test_a_replay_shows_the_standing_after_each_turn(tmp_path, capsys, game, step):
    """Issue 38 item 6: the standing after every turn (the kernel's own, as --standings writes it), then the feel."""
    assert main(["simulate", game, "--plays", "10", "--players", "3", "--policies", "random", "--seed", "5",
                 "--lake", str(tmp_path), "--quiet"]) == 0
    run_id = capsys.readouterr().out.split("wrote run ")[1].split()[0]
    assert main(["replay", game, "--run", run_id, "--play", "2", "--lake", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    head = next(line for line in text.splitlines() if line.startswith("standing: "))
    assert head.endswith(f"after each {step}, seat 0 first")
    rows = text.split(head)[1].split("\nfeel: ")[0].strip().splitlines()
    turns = [int(r.split()[0]) for r in rows]
    assert turns == list(range(len(turns))) and len(turns) > 3 and all(len(r.split()) == 4 for r in rows)
    assert "replay matches the lake's rows" in text


def test_standings_are_written_only_when_asked(tmp_path, capsys):
    """--standings writes the standings table (play, turn, seat, standing), and a run without it has none."""
    import pyarrow.dataset as ds

    lake = tmp_path / "lake"
    for flags in ([], ["--standings"]):
        assert main(["simulate", "mauerbruch", "--plays", "30", "--players", "3", "--policies", "random", "--seed",
                     "7", "--lake", str(lake), "--quiet", *flags]) == 0
    runs = sorted(p.name for p in (lake / "standings" / "game=mauerbruch").iterdir())
    assert len(runs) == 1  # the run with --standings only
    table = ds.dataset(lake / "standings" / "game=mauerbruch" / runs[0]).to_table()
    assert table.column_names[-3:] == ["turn", "seat", "standing"]
    assert sorted(set(table["play_index"].to_pylist())) == list(range(30))


def test_standings_for_a_game_without_them_is_one_clear_line(tmp_path):
    """Every game of simlib keeps a standings table; the toy game (tests/toy, registered through its entry point when
    its folder is on PYTHONPATH, so in a child process) keeps none, and --standings for it is refused in one line."""
    from simlib.core.registry import games

    assert all("standings" in game.schemas() for game in games().values())
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(TOY), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "simlib.cli", "simulate", "toydice", "--plays", "10", "--players", "3",
                           "--policies", "plain", "--standings", "--lake", str(tmp_path)], env=env, capture_output=True,
                          text=True)
    assert done.returncode != 0 and done.stderr.count("\n") == 1 and "--standings" in done.stderr, done.stderr


def test_a_batch_run_of_three_spielrunden_a_match_is_read_in_whole_matches(tmp_path):
    """A [[run]] with Die Mauer's rounds = 3: its plays are rounded to whole matches, where the probe of 10**9 plays
    (which 3 does not divide) once refused the file."""
    from simlib.core.registry import get_game
    from simlib.design.batch import read_batch

    (tmp_path / "b.toml").write_text('[[run]]\nplayers = 4\npolicies = ["random"]\nplays = 1000\n'
                                     'options = { rounds = 3 }\n')
    [config] = read_batch(get_game("mauer"), tmp_path / "b.toml").configs
    assert config.options["rounds"] == 3 and config.plays % 3 == 0 and abs(config.plays - 1000) < 3
