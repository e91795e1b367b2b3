"""The command line: commands a user types, and one clear line for bad input with nothing written."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from simlib.cli import main


def simlib(*args):
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
    (["simulate", "mauer", "--plays", "ten", "--players", "4", "--policies", "random"], "invalid int"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(tmp_path, args, message):
    lake = tmp_path / "lake"
    result = simlib(*args, "--lake", str(lake))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not lake.exists()


def test_unwritable_lake(tmp_path):
    """A lake that cannot be made, not even by root: the lake path is a regular file. (A lake path below a
    file is the next test's case.)"""
    lake = tmp_path / "lake"
    lake.write_text("not a folder")
    result = simlib("simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random",
                    "--lake", str(lake))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not writable" in lines[0], result.stderr
    assert lake.read_text() == "not a folder" and list(tmp_path.rglob("*")) == [lake]  # nothing written


def test_lake_path_that_is_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = simlib("simulate", "mauer", "--plays", "5", "--players", "4", "--policies", "random",
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
