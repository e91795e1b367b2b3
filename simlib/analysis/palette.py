"""Colours and markers: one colour per policy name across the whole report (a policy called `random` looks the
same on every page), and among set-ups of one policy in one figure a marker each."""

from __future__ import annotations

from ..core.game import Game  # a type: the analysis reads the core, never the reverse

MARKERS = ("o", "s", "^", "D", "v", "P", "X")  # set-ups of one policy in one figure: a marker each, in this order
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
            "#000000", "#e7ba52", "#5254a3", "#637939", "#7b4173", "#9edae5")  # tab10, then dark and far from it


def _policy_names() -> list[str]:
    """Every game's policy names, each once, in the games' registry and catalogue order."""
    from ..core.registry import games  # the registry, not a game: the colours follow every game's catalogue

    names: list[str] = []
    for game in games().values():
        names += [name for name in game.policies() if name not in names]
    return names


def colour(game: Game, policy: str) -> str:
    names = _policy_names()
    return _PALETTE[names.index(policy) % len(_PALETTE)] if policy in names else "#7f7f7f"
