"""An install that works anywhere: the built wheel, in a fresh virtualenv, run from another directory.

The wheel is built from a copy of the repository's files, installed without dependencies into a
throwaway venv that sees this environment's dependencies (numpy, DuckDB, ...) but not its editable
simlib, and `simlib pipeline`, `simlib report` and `simlib sql` run on a small lake from a folder that
holds nothing of the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from support.digests import small_lake
from support.paths import REPO

_SKIP_ANYWHERE = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build", "dist", ".pytest_cache",
                                       ".hypothesis")


def _skip(folder: str, names: list[str]) -> set[str]:
    """What the copy leaves out: caches anywhere; the generated data/ and reports/ at the top only (a game's
    own data/ folder ships)."""
    top = {"data", "reports"} if Path(folder) == REPO else set()
    return set(_SKIP_ANYWHERE(folder, names)) | (top & set(names))


def _venv_with_wheel(root: Path) -> Path:
    source = root / "source"
    shutil.copytree(REPO, source, ignore=_skip)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", root / "dist", source],
                   check=True, capture_output=True)
    wheel = next((root / "dist").glob("simlib-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    target = Path(sysconfig.get_path("purelib", vars={"base": venv, "platbase": venv}))
    # The dependencies of this environment, without its own (editable) simlib.
    ours = Path(sysconfig.get_path("purelib"))
    for entry in ours.iterdir():
        if not entry.name.lower().startswith(("simlib", "__editable__", "_virtualenv")):
            (target / entry.name).symlink_to(entry)
    subprocess.run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet",
                    "--no-deps", wheel], check=True, capture_output=True)
    return venv


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("install")
    venv = _venv_with_wheel(root)
    small_lake(tmp_path_factory, root / "made")  # simulated with this checkout; the installed simlib only reads it
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return venv, root / "made" / "lake", elsewhere


def _simlib(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([venv / "bin" / "simlib", *args], cwd=cwd, capture_output=True, text=True, env=env)


def test_the_wheel_ships_the_pipelines_and_runs_them_from_anywhere(installed):
    venv, lake, cwd = installed
    where = subprocess.run([venv / "bin" / "python", "-c", "import simlib; print(simlib.__file__)"], cwd=cwd,
                           capture_output=True, text=True, check=True).stdout
    assert str(venv) in where and str(REPO) not in where  # the installed copy, not this checkout

    built = _simlib(venv, cwd, "pipeline", "--lake", str(lake), "--marts", "marts", "--db", "simlib.duckdb")
    assert built.returncode == 0, built.stderr
    assert "0 failed" in built.stdout and (cwd / "marts" / "mart_seat_outcomes.parquet").exists()

    report = _simlib(venv, cwd, "report", "--lake", str(lake), "--marts", "marts", "--out", "reports")
    assert report.returncode == 0, report.stderr
    assert all((cwd / "reports" / f"{g}.html").exists() for g in ("mauer", "catan", "sevensteps", "burgenland"))

    query = _simlib(venv, cwd, "sql", "select game, count(*) as n from mart_run_balance group by game order by game",
                    "--lake", str(lake), "--marts", "marts", "--format", "csv")
    assert query.returncode == 0, query.stderr
    games = ("burgenland", "catan", "mauer", "mauerbruch", "sevensteps")
    runs = {g: len(list((lake / "runs" / f"game={g}").iterdir())) for g in games}
    assert query.stdout.replace('"', "").splitlines() == ["game,n"] + [f"{g},{n}" for g, n in runs.items()]
