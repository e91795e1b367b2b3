"""The fast tier's list of what it leaves out names modules and tests that exist: a renamed test would
otherwise slip into the fast tier unnoticed, and a stale name would hide nothing."""

from __future__ import annotations

import ast

from conftest import SLOW_MODULES, SLOW_TESTS
from support.paths import TESTS


def test_every_slow_module_and_test_exists():
    modules = {p.stem: p for p in TESTS.rglob("test_*.py")}
    assert set(SLOW_MODULES) - set(modules) == set()
    names = {node.name for p in modules.values() for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}
    assert set(SLOW_TESTS) - names == set()
