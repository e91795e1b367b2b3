"""Rule parameters with provenance, loaded from a game's TOML data file and overridable by designers."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SimlibError

PROVENANCES = ("seed", "published", "assumed")


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    provenance: str  # seed (the rule text), published (a public source) or assumed (our choice)
    source: str
    doc: str
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None
    derived: bool = False  # filled in from another parameter (Game.resolve_options), not set by hand

    def coerce(self, value: Any) -> Any:
        """Check and convert a designer's value (from TOML or a `name=value` string)."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            try:
                value = kind(float(value)) if kind is int else kind(value)
            except ValueError:
                raise SimlibError(f"option {self.name}: {value!r} is not a {kind.__name__}") from None
        if kind is int and isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, kind) or isinstance(value, bool) != isinstance(self.default, bool):
            raise SimlibError(f"option {self.name}: {value!r} is not a {kind.__name__}")
        if self.choices is not None and value not in self.choices:
            raise SimlibError(f"option {self.name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise SimlibError(f"option {self.name}: {value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise SimlibError(f"option {self.name}: {value} is above the maximum {self.maximum}")
        return value


def load_parameters(path: Path) -> dict[str, Parameter]:
    """Read a game's parameter file: one table per parameter with default, provenance, source, doc."""
    with open(path, "rb") as fh:
        raw = tomllib.load(fh)
    params = {}
    for name, entry in raw.items():
        if entry.get("provenance") not in PROVENANCES:
            raise ValueError(f"{path}: parameter {name} needs a provenance in {PROVENANCES}")
        params[name] = Parameter(
            name=name,
            default=entry["default"],
            provenance=entry["provenance"],
            source=entry.get("source", ""),
            doc=entry["doc"],
            choices=tuple(entry["choices"]) if "choices" in entry else None,
            minimum=entry.get("min"),
            maximum=entry.get("max"),
            derived=entry.get("derived", False),
        )
    return params


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A user's TOML file (`what` names it in the error): one clear line if it is missing or malformed."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise SimlibError(f"cannot read {what} {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SimlibError(f"{what} {path} is not valid TOML: {exc}") from None


def read_overrides(path: str | Path) -> dict[str, Any]:
    """A designer's override file: a flat TOML table of `name = value`."""
    return read_toml(path, "parameter file")
