"""The run configuration: everything a run's results depend on, and the run id derived from it."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import __version__
from .errors import SimlibError
from .limits import PLAYS, SEED, shown
from .params import Parameter, settable


@dataclass(frozen=True)
class PolicyInfo:
    """A scripted policy: a one-line description and its numeric parameters with defaults."""

    name: str
    code: int  # the number the game's kernel dispatches on
    description: str
    params: dict[str, float] = field(default_factory=dict)
    param_docs: dict[str, str] = field(default_factory=dict)
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)  # inclusive; absent = unbounded
    # Parameters that take whole numbers only (a budget, a policy code, a count, a 0/1 switch): the kernel reads
    # them as integers, so 1.5 would play as 1 under a run id of its own; parse_policy refuses it.
    integers: frozenset[str] = frozenset()


class GameRules(Protocol):
    """What a configuration is built and checked against: a game's name, player counts, policies and parameters,
    and its own checks. A Game (simlib/core/game.py) is one; it is described here, not imported, because a Game's
    methods take a RunConfig: game.py imports this module, and not the other way round."""

    name: str
    min_players: int
    max_players: int

    def policies(self) -> dict[str, PolicyInfo]: ...

    def parameters(self) -> dict[str, Parameter]: ...

    def resolve_options(self, options: dict) -> dict: ...

    def schemas(self) -> dict: ...

    def validate(self, config: RunConfig) -> None: ...


@dataclass(frozen=True)
class PolicySpec:
    """A policy for one seat: its name and parameter values (defaults filled in)."""

    name: str
    params: tuple[tuple[str, float], ...] = ()

    def __str__(self) -> str:
        return ":".join([self.name] + [f"{k}={_number(v)}" for k, v in self.params])


def _number(value: float) -> str:
    """A policy parameter as its run id and lake rows spell it: `:g` (the spelling every run id had) when that reads
    back as the same number, else Python's shortest exact spelling (0.5000004 is not 0.5: another run)."""
    text = f"{value:g}"
    return text if float(text) == value else repr(float(value))


def parse_policy(text: str, game: GameRules) -> PolicySpec:
    """`name` or `name:key=value:key=value`."""
    name, *pairs = text.strip().split(":")
    known = game.policies()
    if name not in known:
        raise SimlibError(f"unknown policy {name!r} for {game.name} (known: {', '.join(known)})")
    info = known[name]
    values, given = dict(info.params), set()
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or key not in info.params:
            allowed = ", ".join(info.params) or "none"
            raise SimlibError(f"policy {name}: bad parameter {pair!r} (parameters: {allowed})")
        if key in given:
            raise SimlibError(f"policy {name}: parameter {key} is given twice")
        given.add(key)
        try:
            values[key] = float(value)
        except ValueError:
            raise SimlibError(f"policy {name}: parameter {key} needs a number, got {value!r}") from None
        if not math.isfinite(values[key]):
            raise SimlibError(f"policy {name}: parameter {key} needs a finite number, got {value!r}")
        low, high = info.bounds.get(key, (float("-inf"), float("inf")))
        if not low <= values[key] <= high:
            raise SimlibError(f"policy {name}: parameter {key} must be in {low:g}..{high:g}, got {value}")
        if key in info.integers and not values[key].is_integer():
            raise SimlibError(f"policy {name}: parameter {key} takes whole numbers ({low:g}..{high:g}), got {value}")
    return PolicySpec(name, tuple(sorted(values.items())))


def check_players(game: GameRules, players: Any) -> int:
    """A player count the game takes (checked before anything is made per player, e.g. a metric per seat)."""
    if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise SimlibError(f"{game.name} takes {game.min_players}-{game.max_players} players, not {shown(players)}")
    return players


@dataclass(frozen=True)
class RunConfig:
    game: str
    players: int
    policies: tuple[PolicySpec, ...]
    plays: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)  # every rule parameter, resolved
    events: bool = False
    standings: bool = False  # write the standings table (each seat's standing after each turn: core/feel.py)

    @classmethod
    def build(cls, game: GameRules, *, players: int, policies: list[str], plays: int, seed: int,
              options: dict[str, Any] | None = None, events: bool = False, standings: bool = False) -> RunConfig:
        """Validate user input and resolve defaults; raises SimlibError with one clear line."""
        check_players(game, players)
        PLAYS.check("--plays", plays)
        SEED.check("--seed", seed)
        for name, flag in (("events", events), ("standings", standings)):
            if not isinstance(flag, bool):
                raise SimlibError(f"{name} is true or false, not {flag!r}")
        if standings and "standings" not in game.schemas():
            raise SimlibError(f"{game.name} keeps no standings table yet: --standings is not available for it")
        if len(policies) == 1:
            policies = policies * players
        if len(policies) != players:
            raise SimlibError(f"{len(policies)} policies given for {players} players (give one, or one per seat)")
        specs = tuple(parse_policy(p, game) for p in policies)
        params = game.parameters()
        resolved = {name: p.default for name, p in params.items()}
        for name, value in (options or {}).items():
            if name not in params:
                raise SimlibError(f"unknown option {name!r} for {game.name} (settable: {', '.join(settable(params))})")
            resolved[name] = params[name].coerce(value)
        resolved = game.resolve_options(resolved)
        config = cls(game.name, players, specs, plays, seed, resolved, events, standings)
        game.validate(config)
        return config

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "policies": [str(p) for p in self.policies],
            "plays": self.plays,
            "seed": self.seed,
            "options": dict(sorted(self.options.items())),
            "events": self.events,
            # Only when asked: a run without standings keeps the run id it had before the option existed.
            **({"standings": True} if self.standings else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, game: GameRules) -> RunConfig:
        d = json.loads(text)
        return cls.build(game, players=d["players"], policies=d["policies"], plays=d["plays"],
                         seed=d["seed"], options=d["options"], events=d["events"],
                         standings=d.get("standings", False))

    def run_id(self, rules_versions: dict[str, int]) -> str:
        """Same configuration, rules (of the game and every engine it runs on) and simlib version → same run
        id, and the same data. `rules_versions` is `Game.rules_versions()`."""
        text = f"{self.to_json()}|rules={rules_versions[self.game]}|simlib={__version__}"
        engines = ",".join(f"{name}:{v}" for name, v in sorted(rules_versions.items()) if name != self.game)
        if engines:  # a game on its own engine keeps the run ids it always had
            text += f"|engines={engines}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]
