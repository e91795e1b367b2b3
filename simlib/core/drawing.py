"""What every game's board drawing (Game.drawing) shares: the turn a set-up's shapes stand from, and the geometry of
pointy-top hexes of radius 1 at axial coordinates (q, r), y downwards as r grows (NE is r - 1), as Catan's maps and
7 Steps' fields are laid out."""

from __future__ import annotations

import math

SETUP_TURN = -1  # a shape placed before the first turn


def hex_centre(q: int, r: int) -> tuple[float, float]:
    return math.sqrt(3) * (q + r / 2), 1.5 * r


def hex_corner(centre: tuple[float, float], i: int) -> tuple[float, float]:
    """Corner i, between directions i and i + 1 (E, NE, NW, W, SW, SE): at 30 + 60 i degrees."""
    angle = math.radians(30 + 60 * i)
    return centre[0] + math.cos(angle), centre[1] - math.sin(angle)


def hex_corners(centre: tuple[float, float]) -> list[tuple[float, float]]:
    return [hex_corner(centre, i) for i in range(6)]
