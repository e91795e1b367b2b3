"""What the workbench offers, as JSON: each game with its player counts, policies (with their parameters) and rule
parameters (with provenance, source and, for a reading of the rule text, its words), from the same registry the
command line lists (`simlib games`, `policies`, `params`)."""

from __future__ import annotations

from typing import Any

from ..analysis.plugin import games_in_order
from ..core.setups import spec_words


def _value(value: Any) -> Any:
    """A default as JSON holds it (a tuple as a list)."""
    return list(value) if isinstance(value, tuple) else value


def game_entry(game) -> dict[str, Any]:
    policies = [{"name": p.name, "description": p.description,
                 "params": [{"name": k, "default": v, "doc": p.param_docs.get(k, "")} for k, v in p.params.items()]}
                for p in game.policies().values()]
    parameters = [{"name": p.name, "default": _value(p.default), "provenance": "derived" if p.derived else p.provenance,
                   "source": p.source, "doc": p.doc, "reading": p.reading, "settable": not p.derived,
                   "choices": _value(p.choices), "minimum": p.minimum, "maximum": p.maximum}
                  for p in game.parameters().values()]
    rungs = [{"spec": spec, "words": spec_words(game, spec)} for spec in game.ladder_rungs()]
    return {"name": game.name, "title": game.title, "rules_version": game.rules_version,
            "players": [game.min_players, game.max_players], "policies": policies, "rungs": rungs,
            "parameters": parameters}


def catalogue() -> list[dict[str, Any]]:
    """Every game, in the report's order."""
    return [game_entry(g) for g in games_in_order()]
