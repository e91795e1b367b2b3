"""The compiled-kernel cache follows imports across packages (simlib/core/jit.py, issue 9): a package
compiled against another's engine has its cache dropped when that engine changes."""

from __future__ import annotations

from pathlib import Path

import pytest

import simlib
from simlib.core.jit import compiled_sources, drop_stale_cache

from support.paths import TOY

SIMLIB = Path(simlib.__file__).resolve().parent


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _compiled(package: Path) -> list[Path]:
    """Stand-ins for Numba's cache files (an index and a compiled module) beside an ordinary .pyc."""
    files = [package / "__pycache__" / name for name in ("kernel.run-3.py311.nbi", "kernel.run-3.py311.1.nbc")]
    for f in files + [package / "__pycache__" / "kernel.cpython-311.pyc"]:
        _write(f, "cached")
    return files


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """Throwaway packages: `scenario` imports `engine` (whose kernel imports its rules); `other` is apart."""
    root = tmp_path / "games"
    _write(root / "__init__.py", "")
    _write(root / "engine" / "__init__.py", "from .kernel import simulate\n")
    _write(root / "engine" / "kernel.py", "from .rules import step\n\n\ndef simulate():\n    return step()\n")
    _write(root / "engine" / "rules.py", "def step():\n    return 1\n")
    _write(root / "scenario" / "__init__.py", "from ..engine import simulate\n")
    _write(root / "other" / "__init__.py", "X = 1\n")
    return root


def test_sources_are_found_through_imports_transitively(games):
    found = {p.relative_to(games).as_posix() for p in compiled_sources(games / "scenario")}
    assert found == {"scenario/__init__.py", "engine/__init__.py", "engine/kernel.py", "engine/rules.py"}


def test_an_edit_to_the_imported_engine_drops_both_caches(games):
    scenario, engine = games / "scenario", games / "engine"
    drop_stale_cache(scenario)  # the first call records the sources
    stale = _compiled(scenario) + _compiled(engine)
    apart = _compiled(games / "other")
    drop_stale_cache(scenario)
    assert all(f.exists() for f in stale), "an unchanged tree keeps its cache"

    (engine / "rules.py").write_text("def step():\n    return 2\n")
    drop_stale_cache(scenario)
    assert not any(f.exists() for f in stale)
    assert all(f.exists() for f in apart)
    assert (engine / "__pycache__" / "kernel.cpython-311.pyc").exists()  # only Numba's files go


def test_a_new_import_is_followed(games):
    scenario = games / "scenario"
    drop_stale_cache(scenario)
    (scenario / "__init__.py").write_text("from ..engine import simulate\nfrom ..other import X\n")
    drop_stale_cache(scenario)
    cached = _compiled(games / "other")
    (games / "other" / "__init__.py").write_text("X = 2\n")
    drop_stale_cache(scenario)
    assert not any(f.exists() for f in cached)


def test_a_scenario_on_the_catan_engine_follows_catan_and_the_core(tmp_path):
    """Die Mauerspechte's case: a package importing simlib's Catan by its absolute name (only looked up
    here; nothing is cleared)."""
    _write(tmp_path / "mauerspechte" / "kernel.py", "from simlib.games.catan.kernel import simulate_games\n")
    found = set(compiled_sources(tmp_path / "mauerspechte"))
    catan = SIMLIB / "games" / "catan"
    assert {catan / "kernel.py", catan / "rules.py", catan / "constants.py", SIMLIB / "core" / "rng.py"} <= found
    assert not any(p.is_relative_to(SIMLIB / "analysis") for p in found)


def test_every_game_hashes_its_kernel_and_the_core_random_draws():
    for game in ("mauer", "mauerbruch", "catan"):
        found = set(compiled_sources(SIMLIB / "games" / game))
        assert {SIMLIB / "games" / game / "kernel.py", SIMLIB / "core" / "rng.py"} <= found


def test_a_package_is_compiled_here_until_its_sources_or_the_cache_folder_change(games, monkeypatch):
    from simlib.core.jit import compiled_here, mark_compiled

    engine = games / "engine"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    drop_stale_cache(engine)
    assert not compiled_here(engine)  # never compiled on this machine
    mark_compiled(engine)
    assert compiled_here(engine)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(games / "elsewhere"))
    assert not compiled_here(engine)  # another cache folder holds nothing yet
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    (engine / "rules.py").write_text("def step():\n    return 2\n")
    drop_stale_cache(engine)
    assert not compiled_here(engine)  # an edit: the kernels are compiled again


def test_the_first_compile_is_announced_once(tmp_path):
    """`simlib simulate` on an empty Numba cache says it compiles, and how long that usually takes; the next
    run, with the cache filled, says nothing of it."""
    import os
    import subprocess
    import sys

    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "numba"),
                        "PYTHONPATH": os.pathsep.join([str(TOY), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, "-m", "simlib.cli", "simulate", "toydice", "--plays", "100", "--players", "3",
            "--policies", "plain", "--lake", str(tmp_path / "lake"), "--quiet"]
    first = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    assert "simlib: compiling the kernels of Toy dice first: once per machine" in first
    assert "usually under a minute" in first and "simlib: kernels compiled in" in first
    second = subprocess.run(args + ["--seed", "2"], env=env, capture_output=True, text=True, check=True).stdout
    assert "compiling" not in second
