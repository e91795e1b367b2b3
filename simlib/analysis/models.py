"""The pipeline's models: one SQL or Polars file each, in the shared folder or a game's own folder.

A folder holds its models and a `schema.toml` documenting them (see pipelines/README.md). A model's
inputs are the tables its SQL reads (found by DuckDB's parser) or the `INPUTS` a Polars model declares:
other models by name, and lake views (`lake_<table>`, `lake_<game>_<table>`). The build order follows
from them. Each model has a cache key made of its own file, the macros and its inputs' keys, so an
edit to one model recomputes it and what reads it, nothing else.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import tomllib
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import duckdb

from ..core import __version__
from ..core.errors import SimlibError
from ..core.registry import games
from ..core.resources import shared_pipelines
from .duck import table_columns

MATERIALIZATIONS = ("view", "per_part", "per_run", "table", "union")
CACHED = ("per_part", "per_run")  # results kept per run
MACROS = "macros.sql"
RUN_SCOPES = ("all", "swept", "sweeps")  # the runs a model covers; each scope covers the ones after it


@dataclass(frozen=True)
class Model:
    name: str
    path: Path
    scope: str | None  # the game whose runs the model covers; None: every game's (the shared folder)
    materialized: str
    description: str
    inputs: tuple[str, ...] = ()  # models read
    sources: tuple[str, ...] = ()  # lake views read
    columns: dict[str, str] = field(default_factory=dict)
    unique: tuple[str, ...] = ()
    not_null: tuple[str, ...] = ()
    accepted_values: dict[str, list] = field(default_factory=dict)
    ranges: dict[str, list] = field(default_factory=dict)
    part_of: str | None = None  # the shared `union` model this game model adds its rows to
    members: tuple[str, ...] = ()  # a `union` model's: the game models adding their rows
    # The runs it covers: "all"; "swept", the what-if sweeps' and the skill ladder's; "sweeps", the sweeps' only.
    runs: str = "all"
    key: str = ""

    @property
    def is_mart(self) -> bool:
        return self.name.startswith("mart_")

    def covers(self, game: str) -> bool:
        return self.scope is None or self.scope == game

    def sql(self) -> str:
        if not self.members:
            return self.path.read_text()
        branches = [f"({self.path.read_text()})", *(f"(select * from {m})" for m in self.members)]
        return " union all by name ".join(branches)

    def python_module(self):
        return _load_module(self.path)


def shared_column_docs() -> dict[str, str]:
    """Columns many models share (game, run_id, players, ...), described once in the shared schema.toml's
    `[columns]`: a model's own `columns` need not repeat them."""
    with open(shared_pipelines() / "schema.toml", "rb") as fh:
        return tomllib.load(fh).get("columns", {})


def _load_module(path: Path):
    """A Polars model's module, loaded from its file (pipeline folders are not packages)."""
    spec = importlib.util.spec_from_file_location(f"simlib_pipeline_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pipeline_folders() -> dict[str | None, Path]:
    """The shared folder (key None) and each registered game's own folder (key: the game)."""
    folders: dict[str | None, Path] = {None: shared_pipelines()}
    for game in games().values():
        folder = game.pipeline_folder()
        if folder is not None:
            folders[game.name] = folder
    return folders


def lake_views() -> dict[str, str]:
    """Every lake view a model may read, with the lake table behind it."""
    views = {}
    for table, per_game in table_columns().items():
        views[f"lake_{table}"] = table
        views |= {f"lake_{game}_{table}": table for game in per_game}
    return views


def _sql_reads(sql: str, con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables a query reads, from DuckDB's parse tree: its base tables less the CTEs it defines."""
    tree = json.loads(con.execute("select json_serialize_sql(?::varchar)", [sql]).fetchone()[0])
    if tree.get("error"):
        raise ValueError(tree.get("error_message", "cannot parse"))
    tables, ctes = set(), set()

    def walk(node) -> None:
        if isinstance(node, dict):
            if node.get("type") == "BASE_TABLE":
                tables.add(node["table_name"])
            ctes.update(entry["key"] for entry in node.get("cte_map", {}).get("map", []))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(tree)
    return tables - ctes


def _reads(path: Path, con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables a model reads: parsed from its SQL, or the INPUTS a Polars model declares."""
    if path.suffix == ".py":
        return set(getattr(_load_module(path), "INPUTS", ()))
    try:
        return _sql_reads(path.read_text(), con)
    except (duckdb.Error, ValueError) as exc:
        raise SimlibError(f"model {path}: {str(exc).splitlines()[0]}") from None


def _folder_models(scope: str | None, folder: Path, con: duckdb.DuckDBPyConnection) -> list[Model]:
    schema_path = folder / "schema.toml"
    try:
        with open(schema_path, "rb") as fh:
            spec = tomllib.load(fh).get("models", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimlibError(f"pipeline schema {schema_path}: {exc}") from None
    files = {p.stem: p for p in folder.iterdir() if p.suffix in (".sql", ".py") and p.name != MACROS}
    undeclared = sorted(set(files) - set(spec))
    if undeclared:
        raise SimlibError(f"{schema_path}: model file(s) {', '.join(undeclared)} not declared")
    models = []
    for name, entry in spec.items():
        if name not in files:
            raise SimlibError(f"{schema_path} declares {name}, but {folder} has no {name}.sql or {name}.py")
        if entry.get("materialized") not in MATERIALIZATIONS:
            raise SimlibError(f"{schema_path}: model {name}: materialized must be one of {MATERIALIZATIONS}")
        if entry.get("runs", "all") not in RUN_SCOPES or (entry.get("runs", "all") != "all" and (
                entry["materialized"] not in CACHED or files[name].suffix != ".sql")):
            raise SimlibError(f"{schema_path}: model {name}: runs must be all, swept or sweeps (swept and sweeps: a "
                              f"per_part or per_run SQL model)")
        models.append(Model(
            name=name, path=files[name], scope=scope, materialized=entry["materialized"],
            description=entry.get("description", ""), columns=entry.get("columns", {}),
            unique=tuple(entry.get("unique", ())), not_null=tuple(entry.get("not_null", ())),
            accepted_values=entry.get("accepted_values", {}), ranges=entry.get("range", {}),
            inputs=tuple(sorted(_reads(files[name], con))), part_of=entry.get("part_of"),
            runs=entry.get("runs", "all"),
        ))
    return models


def covers_runs(outer: str, inner: str) -> bool:
    """A model over `outer` runs has rows for every run a model over `inner` runs covers."""
    if inner not in RUN_SCOPES:
        raise SimlibError(f"runs = {inner!r}: not one of {', '.join(RUN_SCOPES)}")
    return RUN_SCOPES.index(outer) <= RUN_SCOPES.index(inner)


def _resolve_inputs(models: dict[str, Model]) -> dict[str, Model]:
    """Split what each model reads into models and lake views, and check the reads are allowed."""
    views = lake_views()
    resolved = {}
    for m in models.values():
        unknown = [r for r in m.inputs if r not in models and r not in views]
        if unknown:
            raise SimlibError(f"model {m.name} ({m.path}) reads {', '.join(unknown)}: neither a model nor a lake view")
        inputs = tuple(r for r in m.inputs if r in models)
        for r in inputs:
            if models[r].scope is not None and models[r].scope != m.scope:
                raise SimlibError(f"model {m.name} reads {r}, a model of {models[r].scope} runs only")
            if m.materialized == "per_part" and models[r].materialized != "view":
                raise SimlibError(f"model {m.name} is per_part, so it reads only the lake and staging views, not {r}")
            if m.materialized in CACHED and not covers_runs(models[r].runs, m.runs):
                raise SimlibError(f"model {m.name} covers {m.runs} runs, so it cannot read {r} ({models[r].runs} "
                                  f"runs only)")
            if m.materialized in CACHED and models[r].materialized == "table":
                raise SimlibError(f"model {m.name} is {m.materialized}, so it cannot read {r}, a model over all runs")
        resolved[m.name] = Model(**(vars(m) | {"inputs": inputs,
                                               "sources": tuple(r for r in m.inputs if r in views)}))
    return resolved


def _add_union_members(models: dict[str, Model]) -> dict[str, Model]:
    """A shared `union` model (its own file gives the columns, no rows) gains the rows of every game model
    declared `part_of` it: a shared model that reads each game's figure without naming any game."""
    for m in list(models.values()):
        if m.part_of is None:
            continue
        target = models.get(m.part_of)
        if target is None or target.materialized != "union" or target.scope is not None or m.scope is None:
            raise SimlibError(f"model {m.name} ({m.path}) is part_of {m.part_of!r}, which must be a shared "
                              f"model materialized as union (and {m.name} a game's model)")
        models[target.name] = Model(**(vars(target) | {"inputs": (*target.inputs, m.name),
                                                      "members": (*target.members, m.name)}))
    return models


def load_models(folders: dict[str | None, Path] | None = None) -> list[Model]:
    """Every model of the given folders (default: the shared one and each game's), inputs first, keyed."""
    folders = pipeline_folders() if folders is None else folders
    models: dict[str, Model] = {}
    con = duckdb.connect()
    for scope, folder in folders.items():
        for model in _folder_models(scope, folder, con):
            if model.name in models:
                raise SimlibError(f"model {model.name} is defined twice: {models[model.name].path} and {model.path}")
            models[model.name] = model
    if not models:
        raise SimlibError(f"no pipeline models found in {', '.join(map(str, folders.values()))}")
    models = _add_union_members(_resolve_inputs(models))
    try:
        order = list(TopologicalSorter({m.name: m.inputs for m in models.values()}).static_order())
    except CycleError as exc:
        raise SimlibError(f"pipeline models read each other in a cycle: {' -> '.join(exc.args[1])}") from None
    macros = (shared_pipelines() / MACROS).read_bytes()
    keyed: dict[str, Model] = {}
    for name in order:
        m = models[name]
        digest = hashlib.sha256(f"{__version__}|{m.materialized}|{','.join(m.sources)}".encode())
        digest.update(macros)
        digest.update(m.path.read_bytes())
        for upstream in m.inputs:
            digest.update(keyed[upstream].key.encode())
        keyed[name] = Model(**(vars(m) | {"key": digest.hexdigest()[:12]}))
    return list(keyed.values())
