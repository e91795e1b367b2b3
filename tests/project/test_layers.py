"""One-way layers (docs/architecture.md): core <- games <- analysis <- design <- serve <- cli, nothing upward, no import
circle. Every module under simlib/ is parsed, every import counted wherever it is written (inside a function or
under TYPE_CHECKING too: an upward import is upward wherever it is)."""

from __future__ import annotations

import pytest

from support.imports import import_graph

# Lowest first; a module may import its own layer or a lower one. Modules directly under simlib/ (the package,
# the command line's tools such as bench.py and calibrate.py) are at the top.
LAYERS = ("simlib.core", "simlib.games", "simlib.analysis", "simlib.design", "simlib.serve", "simlib.cli")
TOP = len(LAYERS)


def layer(module: str) -> int:
    """A module's layer by its name. A game's report.py is the game's plug-in to the report: it builds pages with
    simlib.analysis.page, so it sits in the analysis layer (nothing in the games layer imports it; the report
    finds it by name)."""
    parts = module.split(".")
    if parts[:2] == ["simlib", "games"] and parts[-1] == "report":
        return LAYERS.index("simlib.analysis")
    for i, prefix in enumerate(LAYERS):
        if module == prefix or module.startswith(prefix + "."):
            return i
    return TOP


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, targets in graph.items() for b in targets if layer(b) > layer(a))


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_module_imports_a_higher_layer():
    upward = upward_imports(import_graph())
    assert not upward, "upward imports:\n" + "\n".join(f"{a} -> {b}" for a, b in upward)


def test_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_graph_covers_every_layer():
    """The parse found the project: modules in every layer, imports followed (a check that sees nothing passes)."""
    graph = import_graph()
    assert {layer(m) for m in graph} == set(range(TOP + 1))
    assert "simlib.core.errors" in graph["simlib.core.config"]  # a relative import, resolved
    assert "simlib.analysis.report" in graph["simlib.cli.lake"]  # an import inside a function


@pytest.mark.parametrize("graph, upward, circle", [
    ({"simlib.core.a": {"simlib.design.b"}, "simlib.design.b": set()}, [("simlib.core.a", "simlib.design.b")], []),
    ({"simlib.games.x.report": {"simlib.analysis.page"}, "simlib.games.x": {"simlib.games.x.report"},
      "simlib.analysis.page": set()}, [("simlib.games.x", "simlib.games.x.report")], []),
    ({"simlib.core.a": {"simlib.core.b"}, "simlib.core.b": {"simlib.core.c"}, "simlib.core.c": {"simlib.core.a"},
      "simlib.core.d": {"simlib.core.a"}}, [], [["simlib.core.a", "simlib.core.b", "simlib.core.c"]]),
    ({"simlib.cli": {"simlib.core.a"}, "simlib.core.a": set()}, [], []),
])
def test_the_checker_finds_planted_faults(graph, upward, circle):
    assert upward_imports(graph) == upward
    assert circles(graph) == circle


def test_imports_are_resolved_relative_and_inside_functions(tmp_path):
    package = tmp_path / "simlib"
    (package / "core").mkdir(parents=True)
    (package / "design").mkdir()
    for name in ("__init__.py", "core/__init__.py", "design/__init__.py", "design/fixes.py"):
        (package / name).write_text("")
    (package / "core" / "batch.py").write_text("def run():\n    from ..design import fixes\n")
    assert upward_imports(import_graph(package)) == [("simlib.core.batch", "simlib.design.fixes")]
