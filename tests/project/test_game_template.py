"""One template per game (docs/architecture.md, "A game's package"): the same files with the same roles in every
game package, imports only downward through the roles, the search on the core's decider, and policy
parameters read by name. Read from the source with `ast`; the checks on made-up packages below keep it from
passing by seeing nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from support.imports import import_graph
from support.paths import SIMLIB

# The template's modules by tier, lowest first: a module imports only modules of a lower tier (in its own package
# or another game's), never one of its own tier or above. The rules' tier is state.py, rules.py and a game's
# other modules (a board, a deck, a hotel's rules): they may import one another (tests/project/test_layers.py
# forbids a circle among them).
TIERS = (("constants",), ("policies",), ("state", "rules"), ("decisions",), ("play",), ("kernel",), ("search",),
         ("tables",), ("replay", "drawing"), ("report",), ("__init__",))
OPTIONAL = ("drawing",)  # only a game with a board has one
ROLES = tuple(name for tier in TIERS for name in tier)
RULES = 2
DATA_FILES = ("parameters.toml", "report_batch.toml", "ladder_batch.toml")
GAME_DIRS = sorted(p for p in (SIMLIB / "games").iterdir() if (p / "__init__.py").exists())
PARAMETER_ARRAYS = ("prm", "params", "search_prm", "policy_params")


def role(module: str) -> int:
    """A game module's tier by its name; a game's other modules are parts of its rules."""
    name = module.split(".")[3] if module.count(".") >= 3 else "__init__"
    return next((i for i, tier in enumerate(TIERS) if name in tier), RULES)


def wrong_way_imports(graph: dict[str, set[str]], game: str) -> list[tuple[str, str]]:
    """Imports from a module of `game` to a game module of the same tier or a higher one (the rules' tier within
    itself and the same tier in another game excepted)."""
    prefix = f"simlib.games.{game}"
    found = []
    for module, targets in graph.items():
        if module != prefix and not module.startswith(prefix + "."):
            continue
        for target in targets:
            if not target.startswith("simlib.games.") or target == "simlib.games":
                continue
            same_role = role(target) == role(module)
            allowed = same_role and (role(module) == RULES or not target.startswith(prefix))
            if role(target) >= role(module) and not allowed:
                found.append((module, target))
    return sorted(found)


def literal_parameter_reads(source: str) -> list[int]:
    """Lines that read a policy parameter by a literal position, e.g. `prm[p, 0]`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id in PARAMETER_ARRAYS:
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if any(isinstance(p, ast.Constant) and isinstance(p.value, int) for p in parts):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("game", GAME_DIRS, ids=lambda p: p.name)
def test_every_game_has_the_template_files(game):
    missing = [f"{name}.py" for name in ROLES if name not in OPTIONAL and not (game / f"{name}.py").exists()]
    missing += [name for name in DATA_FILES if not (game / name).exists()]
    assert not missing, f"{game.name} lacks {missing}"


@pytest.mark.parametrize("game", GAME_DIRS, ids=lambda p: p.name)
def test_imports_go_down_the_tiers(game):
    wrong = wrong_way_imports(import_graph(), game.name)
    assert not wrong, "\n".join(f"{a} -> {b}" for a, b in wrong)


@pytest.mark.parametrize("game", GAME_DIRS, ids=lambda p: p.name)
def test_the_search_is_the_core_decider(game):
    source = (game / "search.py").read_text()
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
             and getattr(n.func, "id", None) == "rollout_decider"]
    assert calls, f"{game.name}/search.py builds no rollout_decider"
    assert "next_rollout" not in source, f"{game.name}/search.py drives the plan itself"


@pytest.mark.parametrize("game", GAME_DIRS, ids=lambda p: p.name)
def test_policy_parameters_are_read_by_name(game):
    found = {path.name: literal_parameter_reads(path.read_text()) for path in sorted(game.glob("*.py"))}
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, f"parameters read by position: {found}"


def test_the_checks_find_planted_faults():
    graph = {"simlib.games.x.rules": {"simlib.games.x.decisions", "simlib.games.x.constants"},
             "simlib.games.x.board": {"simlib.games.x.play", "simlib.games.x.deck"},
             "simlib.games.x.state": {"simlib.games.x.board", "simlib.games.x.search"},
             "simlib.games.x.decisions": {"simlib.games.y.decisions", "simlib.games.x.rules"},
             "simlib.games.x.search": {"simlib.games.x.kernel", "simlib.core.rollout_decider"},
             "simlib.games.x": {"simlib.games.x.tables"}}
    assert wrong_way_imports(graph, "x") == [("simlib.games.x.board", "simlib.games.x.play"),
                                             ("simlib.games.x.rules", "simlib.games.x.decisions"),
                                             ("simlib.games.x.state", "simlib.games.x.search")]
    assert literal_parameter_reads("a = int(prm[p, 0])\nb = prm[p, PARAMS.search.budget]\nc = x[p, 0]\n") == [1]


def test_the_template_is_written_down():
    doc = (Path(SIMLIB).parent / "docs" / "architecture.md").read_text()
    for name in ROLES:
        assert f"`{name}.py`" in doc, name
