"""Where the project's pipeline files are: the top-level `pipelines/` folder of a source checkout (and an
editable install), or the copy a wheel ships inside the package (`simlib/pipelines/`, see setup.py)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def pipelines_root() -> Path:
    shipped = _PACKAGE / "pipelines"
    return shipped if shipped.is_dir() else _PACKAGE.parent / "pipelines"


def shared_pipelines() -> Path:
    """The models and macros every game's runs go through."""
    return pipelines_root() / "shared"
