"""Catan with Seafarers ships (issue 5): work in progress, not registered as a game yet.

Done so far: boards as data with their topology (board.py, maps/), and the first rules (rules.py:
placement and the distance rule, production with the bank-shortage rule, the longest trade route).
The turn kernel, policies and tables follow; the package registers under `simlib.games` once
`simlib simulate catan` works.
"""

from pathlib import Path

from ...core.jit import drop_stale_cache

drop_stale_cache(Path(__file__).parent)
