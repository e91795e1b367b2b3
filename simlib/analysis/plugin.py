"""A game's plug-in to the report (`REPORT = GameReport(...)` in its package's report.py) and where its sections go
on its page: first (`@lead`), in a generic section's place (`@replaces`), or after the generic ones (`page_order`)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import SimlibError
from ..core.game import Game  # a type: the analysis reads the core, never the reverse
from ..core.registry import games


def lead(section: Callable) -> Callable:
    """Mark a game section to be drawn first on its page (its figures lead, before the generic ones)."""
    section.leads = True
    return section


def replaces(generic: str) -> Callable[[Callable], Callable]:
    """Mark a game section to be drawn instead of the generic section of that name (in its place)."""
    def mark(section: Callable) -> Callable:
        section.replaces = generic
        return section
    return mark


def page_order(generic: list[Callable], own: list[Callable]) -> list[Callable]:
    """Leading game sections, then the generic ones (each replaced where a game section says so), then the rest."""
    replacing = {getattr(s, "replaces", None): s for s in own if getattr(s, "replaces", None)}
    leads = [s for s in own if getattr(s, "leads", False)]
    middle = [replacing.get(s.__name__, s) for s in generic]
    middle = [s for s in middle if s not in leads]  # a leading section that replaces one is drawn once, first
    rest = [s for s in own if s not in leads and s not in middle]
    return leads + middle + rest


@dataclass(frozen=True)
class GameReport:
    """A game's plug-in to the report: `REPORT` in its package's report.py. A game without one gets the defaults."""

    sections: tuple[Callable[..., None], ...] = ()  # each section(page) adds to a Page
    # Where the game stands in the report (the rule texts' order: ../shared/GAMES.md); lower first.
    order: int = 100
    # What a play's `score` is called; a game whose score is a penalty taken negative (Die Mauer) names it
    # "penalty points" with score_sign -1, and tables show the points positive.
    score_name: str = "score"
    score_sign: int = 1
    # What the `turns` column counts, for axis labels and the unit of a game's length.
    turn_name: str = "turns"


def game_report(game: Game) -> GameReport:
    """The game's GameReport: `REPORT` of the report.py beside the module that defines its Game class (the
    defaults without one). Imported when the report asks, so that simulating never loads the report's side."""
    if not (game.package / "report.py").exists():
        return GameReport()
    try:
        module = importlib.import_module(type(game).__module__)
        package = module.__name__ if module.__file__.endswith("__init__.py") else module.__name__.rpartition(".")[0]
        return importlib.import_module(f"{package}.report").REPORT
    except Exception as exc:
        raise SimlibError(f"report sections of {game.name} could not be loaded: {type(exc).__name__}: {exc}") from exc


def games_in_order() -> list[Game]:
    """Every registered game in the report's order (GameReport.order, then the name)."""
    return sorted(games().values(), key=lambda g: (game_report(g).order, g.name))
