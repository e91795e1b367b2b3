"""Reading a written report page in tests: its figures are embedded (`<figure id='<game>_<name>'>` holding a
data: URI PNG), so a page is one file."""

from __future__ import annotations

import base64
import re

_FIGURE = re.compile(r"<figure id='([\w]+)'><img src='data:image/png;base64,([A-Za-z0-9+/=]+)'")


def figure_names(page: str, game: str) -> list[str]:
    """The game's figures on the page, in page order, without the game's prefix."""
    return [name.removeprefix(f"{game}_") for name, _ in _FIGURE.findall(page) if name.startswith(f"{game}_")]


def figure_png(page: str, name: str) -> bytes:
    """The PNG of the figure `name` (<game>_<figure>) embedded in the page; b"" when it is not there."""
    return next((base64.b64decode(data) for found, data in _FIGURE.findall(page) if found == name), b"")
