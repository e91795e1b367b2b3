"""The pipeline's models: SQL (or Polars) files under pipelines/, described in pipelines/schema.toml."""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .. import __version__

PIPELINES_DIR = Path(__file__).resolve().parents[2] / "pipelines"
MATERIALIZATIONS = ("view", "per_run", "table")


@dataclass(frozen=True)
class Model:
    name: str
    path: Path
    materialized: str
    description: str
    columns: dict[str, str] = field(default_factory=dict)
    unique: tuple[str, ...] = ()
    not_null: tuple[str, ...] = ()
    accepted_values: dict[str, list] = field(default_factory=dict)
    ranges: dict[str, list] = field(default_factory=dict)

    @property
    def is_mart(self) -> bool:
        return self.name.startswith("mart_")

    def sql(self) -> str:
        return self.path.read_text()

    def python_model(self):
        spec = importlib.util.spec_from_file_location(f"simlib_pipeline_{self.name}", self.path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.model


def load_models(folder: Path = PIPELINES_DIR) -> list[Model]:
    """Models in the order schema.toml lists them (their build order)."""
    with open(folder / "schema.toml", "rb") as fh:
        spec = tomllib.load(fh)["models"]
    files = {p.stem: p for p in folder.rglob("*") if p.suffix in (".sql", ".py") and p.stem != "__init__"}
    models = []
    for name, entry in spec.items():
        if name not in files:
            raise ValueError(f"pipelines/schema.toml names {name}, but there is no {name}.sql or {name}.py")
        if entry.get("materialized") not in MATERIALIZATIONS:
            raise ValueError(f"model {name}: materialized must be one of {MATERIALIZATIONS}")
        models.append(Model(
            name=name, path=files[name], materialized=entry["materialized"], description=entry["description"],
            columns=entry.get("columns", {}), unique=tuple(entry.get("unique", ())),
            not_null=tuple(entry.get("not_null", ())), accepted_values=entry.get("accepted_values", {}),
            ranges=entry.get("range", {}),
        ))
    undeclared = set(files) - set(spec) - {"macros"}
    if undeclared:
        raise ValueError(f"pipelines: {', '.join(sorted(undeclared))} not declared in schema.toml")
    return models


def fingerprint(folder: Path = PIPELINES_DIR) -> str:
    """Changes whenever a model, the macros, the schema file or simlib changes: cached results then expire."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(folder.rglob("*")):
        if path.suffix in (".sql", ".py", ".toml"):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
