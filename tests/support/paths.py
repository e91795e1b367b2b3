"""Where things are, said once: the repository, the tests folder, the toy game the tests install."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]  # tests/: on sys.path (pytest's `pythonpath`), so `support` imports
REPO = TESTS.parent
SIMLIB = REPO / "simlib"
TOY = TESTS / "toy"  # a game package outside simlib, installed by test_toy_game and test_jit_cache
