"""Rule parameters with provenance, loaded from a game's TOML data file and overridable by designers."""

from __future__ import annotations

import math
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
    # The top of the range `simlib fixes` searches when it is narrower than the allowed one (`search_max`): Die
    # Mauer's penalties are allowed up to what the kernel's int16 scores hold, but a fix is looked for near the rule
    # text's values. None: the search takes the allowed range.
    search_maximum: float | None = None
    derived: bool = False  # filled in from another parameter (Game.resolve_options), not set by hand
    # The rule text's words that this option reads two ways (its values are the readings); empty for a plain rule
    # parameter. The report's Readings section gives the paired effect of the report batch's sweep over it.
    reading: str = ""
    # A component of the game (a map, a deck, tiles, cards), not a rule number: an assumed one is named at the top
    # of every report page whose results rest on it.
    component: bool = False
    # `simlib simulate` also takes the parameter as a flag of its own (`--NAME VALUE`), with this help text; empty:
    # only as --option NAME=VALUE.
    flag: str = ""

    def coerce(self, value: Any) -> Any:
        """Check and convert a designer's value (from TOML or a `name=value` string)."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            value = self._parse(value)
        if kind is int and isinstance(value, float) and value.is_integer():
            value = int(value)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool) != isinstance(self.default, bool):
            raise SimlibError(f"option {self.name}: {value!r} is not {_KIND_WORDS.get(kind, kind.__name__)}")
        if kind is float and not math.isfinite(value):
            raise SimlibError(f"option {self.name}: {value!r} is not a finite number")
        if self.choices is not None and value not in self.choices:
            raise SimlibError(f"option {self.name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise SimlibError(f"option {self.name}: {_shown(value)} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise SimlibError(f"option {self.name}: {_shown(value)} is above the maximum {self.maximum}")
        return value

    def _parse(self, text: str) -> Any:
        """A `name=value` string as the default's type, strictly: bool("false") is True and int(1.5) is 1, so
        neither conversion is used as it is ("12.0" is an integer; coerce refuses 1.5)."""
        kind, word = type(self.default), text.strip().lower()
        if kind is bool and word in _BOOLEANS:
            return _BOOLEANS[word]
        if kind in (int, float):
            try:
                return int(word) if kind is int and word.lstrip("+-").isdigit() else float(word)
            except ValueError:
                pass
        raise SimlibError(f"option {self.name}: {text!r} is not {_KIND_WORDS.get(kind, kind.__name__)}")


def _shown(value: Any) -> str:
    """A number as a refusal quotes it: as typed, unless an integer is too long to read (1e308 as 1e+308)."""
    if isinstance(value, int) and len(str(abs(value))) > 24:
        try:
            return f"{float(value):.6g}"
        except OverflowError:
            return f"an integer of {len(str(abs(value)))} digits"
    return str(value)


_BOOLEANS = {"true": True, "false": False}
_KIND_WORDS = {int: "an integer", float: "a number", bool: "true or false", str: "a text"}


def settable(params: dict[str, Parameter]) -> list[str]:
    """The parameters a designer may set: derived ones are filled in from the others."""
    return [name for name, p in params.items() if not p.derived]


def check_settable(game: str, params: dict[str, Parameter], names) -> None:
    """A designer's options (a flag, --option, --params or a batch file) name settable parameters only:
    a derived value would be replaced when the run is configured, so it is refused, not ignored."""
    for name in names:
        if name in params and params[name].derived:
            raise SimlibError(f"option {name} of {game} is derived from the others and cannot be set "
                              f"(settable: {', '.join(settable(params))})")
        if name not in params:
            raise SimlibError(f"unknown option {name!r} for {game} (settable: {', '.join(settable(params))})")


def gather_options(game: str, params: dict[str, Parameter], params_file: str | None, flags: dict[str, str],
                   items: list[str]) -> dict[str, Any]:
    """A command's rule parameters as the user gave them, strings all: a TOML file of overrides, a parameter's own
    flag (`flags`: {"rounds": "3"} from --rounds 3) and --option NAME=VALUE items. Each is checked settable and
    coerced here, once; a parameter set twice to different values is an error, not a silent choice."""
    given = []  # (how the user said it, parameter, value)
    if params_file:
        given += [(f"{name} = {value!r} in {params_file}", name, value)
                  for name, value in read_overrides(params_file).items()]
    given += [(f"--{name.replace('_', '-')} {value}", name, value) for name, value in flags.items()]
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SimlibError(f"--option needs NAME=VALUE, got {item!r}")
        given.append((f"--option {item}", key.strip(), value.strip()))
    check_settable(game, params, [name for _, name, _ in given])
    options, said = {}, {}
    for how, name, value in given:
        value = params[name].coerce(value)
        if name in options and options[name] != value:
            raise SimlibError(f"{said[name]} and {how} set {name} differently: give it once")
        options[name], said[name] = value, how
    return options


def data_file(spec: str, folder: Path, what: str) -> Path:
    """A built-in data file by name (`folder/<spec>.toml`) or the file at path `spec`; when it is neither,
    one line that lists the built-in names."""
    built_in = folder / f"{spec}.toml"
    if built_in.is_file() or Path(spec).exists():
        return built_in if built_in.is_file() else Path(spec)
    names = ", ".join(sorted(p.stem for p in folder.glob("*.toml")))
    raise SimlibError(f"{what} {spec!r} is neither built in ({names}) nor a file")


def load_parameters(path: Path) -> dict[str, Parameter]:
    """Read a game's parameter file: one table per parameter with default, provenance, source, doc. A number
    parameter a designer may set declares its range, `min` and `max` (values the kernel's integer types hold with
    room: an unbounded one let `penalty_tower=9223372036854775807` overflow the scores); `search_max` optionally
    narrows the range `simlib fixes` searches."""
    with open(path, "rb") as fh:
        raw = tomllib.load(fh)
    params = {}
    for name, entry in raw.items():
        if entry.get("provenance") not in PROVENANCES:
            raise ValueError(f"{path}: parameter {name} needs a provenance in {PROVENANCES}")
        _check_range(path, name, entry)
        params[name] = Parameter(
            name=name,
            default=entry["default"],
            provenance=entry["provenance"],
            source=entry.get("source", ""),
            doc=entry["doc"],
            choices=tuple(entry["choices"]) if "choices" in entry else None,
            minimum=entry.get("min"),
            maximum=entry.get("max"),
            search_maximum=entry.get("search_max"),
            derived=entry.get("derived", False),
            reading=entry.get("reading", ""),
            component=entry.get("component", False),
            flag=entry.get("flag", ""),
        )
    return params


def _check_range(path: Path, name: str, entry: dict) -> None:
    """A settable number parameter has numbers min <= default <= max (and min < search_max <= max)."""
    default = entry.get("default")
    if isinstance(default, bool) or not isinstance(default, (int, float)) or "choices" in entry or \
            entry.get("derived", False):
        return
    ends = {key: entry.get(key) for key in ("min", "max")}
    missing = [key for key, value in ends.items() if value is None]
    if missing:
        raise ValueError(f"{path}: parameter {name} is a number and needs {' and '.join(missing)} (the range a "
                         f"designer may set, which its kernel's types hold)")
    kinds = (int,) if isinstance(default, int) else (int, float)
    for key, value in [*ends.items(), ("search_max", entry.get("search_max", ends["max"]))]:
        if isinstance(value, bool) or not isinstance(value, kinds) or not math.isfinite(value):
            raise ValueError(f"{path}: parameter {name}: {key} = {value!r} is not a finite {type(default).__name__}")
    if not ends["min"] <= default <= ends["max"]:
        raise ValueError(f"{path}: parameter {name}: default {default} is outside {ends['min']}..{ends['max']}")
    if not ends["min"] < entry.get("search_max", ends["max"]) <= ends["max"]:
        raise ValueError(f"{path}: parameter {name}: search_max must lie above min and at most max")


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A user's TOML file (`what` names it in the error): one clear line if it is missing or malformed."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise SimlibError(f"cannot read {what} {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SimlibError(f"{what} {path} is not valid TOML: {exc}") from None
    except ValueError as exc:  # a path no file can have (a NUL byte in it)
        raise SimlibError(f"cannot read {what} {str(path)!r}: {exc}") from None


def read_overrides(path: str | Path) -> dict[str, Any]:
    """A designer's override file: a flat TOML table of `name = value`."""
    return read_toml(path, "parameter file")
