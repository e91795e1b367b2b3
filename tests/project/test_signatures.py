"""Settings travel as named structures (issue 37): at most MOST functions in simlib take 10 or more positional
parameters, and each of those says in its docstring why ("Positional parameters: ..."), a measured hot loop."""

from __future__ import annotations

import ast
from pathlib import Path

from support.paths import SIMLIB

MOST = 10
LONG = 10
WHY = "Positional parameters:"


def long_signatures(root: Path) -> list[tuple[str, int, bool]]:
    """(where, positional parameters, says why) for each function of LONG or more positional parameters."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                n = len(names) - (names[:1] in (["self"], ["cls"]))
                if n >= LONG:
                    says_why = WHY in (ast.get_docstring(node) or "")
                    found.append((f"{path.relative_to(root.parent)}:{node.lineno} {node.name}", n, says_why))
    return found


def test_few_functions_take_long_positional_lists():
    found = long_signatures(SIMLIB)
    unexplained = [f"{where} ({n})" for where, n, why in found if not why]
    assert not unexplained, f"say why ({WHY!r}) or take named structures:\n" + "\n".join(unexplained)
    assert len(found) <= MOST, "\n".join(f"{where} ({n})" for where, n, _ in found)


def test_the_count_sees_a_planted_signature(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "def f(" + ", ".join(f"x{i}" for i in range(LONG)) + "): pass\n"
        "class C:\n    def g(self, " + ", ".join(f"x{i}" for i in range(LONG - 1)) + "): pass\n"
        "def h(" + ", ".join(f"x{i}" for i in range(LONG)) + f"):\n    '''{WHY} the rollouts' loop.'''\n")
    assert sorted((where.split()[1], n, why) for where, n, why in long_signatures(package)) == [
        ("f", LONG, False), ("h", LONG, True)]
