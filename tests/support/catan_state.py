"""A Catan play's state (simlib.games.catan.state.State, as the kernels compile it) with some fields set, for
tests that call the compiled rules from Python.

Why not a test's own namedtuple of just the fields a rule reads: Numba writes every type a cached block was called
with into the block's shared cache index, and a process without tests/ on its path (a `simlib batch` child) that
later reads that index fails to import the type (ModuleNotFoundError: 'test_catan_rules'). With the kernels' own
State the compiled code is the kernels' own too."""

from __future__ import annotations

import numba as nb

from simlib.games.catan.state import new_state, published_rules


@nb.njit  # not cached: a test's entry point into the block, which has no Python entry of its own
def _new_state(bd, rules, players):
    return new_state(bd, rules, players)


def catan_state(bd, players: int = 4, **fields):
    """A zeroed state of `players` on board `bd` (state.board_arrays) with `fields` (arrays of the State's dtypes)."""
    return _new_state(bd, published_rules(10, 19), players)._replace(**fields)
