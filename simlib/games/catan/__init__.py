"""Catan with Seafarers ships (issue 5): work in progress, not registered as a game yet.

Done so far: boards as data with their topology (board.py, maps/). The rules kernel, policies and
tables follow; the package registers under `simlib.games` once `simlib simulate catan` works.
"""
