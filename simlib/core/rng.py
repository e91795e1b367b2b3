"""Counter-based random draws.

Every draw is a pure function of (seed, play index, what is being drawn), so any play can be
replayed alone and a batch gives the same numbers whatever its shard size, worker count or
composition. Games name what they draw with a small integer index (for example Baurunde, seat and
purpose packed together); the index picks one output of a SplitMix64 sequence keyed by the play.
Two policies that draw with the same index see the same number (common random numbers), which
makes "what if" comparisons less noisy.
"""

import numba as nb
import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)

# A stream's draws in one turn: 2**32, more than any turn could take (a search's tie-breaks included) in hours of
# play, so that no stream runs into the next (see turn_draw_index); the index stays far inside 64 bits.
STREAM_DRAWS = 1 << 32


@nb.njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective 64-bit mix."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def play_key(seed, play):
    """The key of one play: depends on the run's seed and the play's index only."""
    seed_key = mix64(np.uint64(seed) + GOLDEN)
    return mix64(seed_key + np.uint64(play) * GOLDEN)


@nb.njit(cache=True, inline="always")
def draw(key, index):
    """The 64-bit draw number `index` of the play with this key."""
    return mix64(key + np.uint64(index) * GOLDEN)


@nb.njit(cache=True, inline="always")
def below(u, n):
    """Map a 64-bit draw to 0..n-1 (multiply-shift on the top 32 bits; bias < n / 2**32)."""
    return np.int64(((u >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True, inline="always")
def unit(u):
    """Map a 64-bit draw to a float in [0, 1)."""
    return np.float64(u >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True, inline="always")
def turn_draw_index(turn, n_streams, stream, rank):
    """The index of a draw keyed by what it is: the turn (-1: the set-up), the stream (a purpose, such as the dice,
    a deck or a policy's choices) and its rank among that stream's draws in that turn. Two variants of a play that
    part at one choice still draw the same numbers for the same purpose in every later turn (a running counter
    would shift every later draw), so their difference stays paired (common random numbers, issue 25)."""
    return ((turn + 1) * n_streams + stream) * STREAM_DRAWS + rank


@nb.njit(cache=True, inline="always")
def begin_turn_draws(draw_turn, drawn, turn):
    """The keyed draws of turn `turn` begin (-1: the set-up): `draw_turn` [1] holds the turn, `drawn` [streams]
    each stream's draws taken in it, counted again from 0."""
    draw_turn[0] = turn
    drawn[:] = 0


@nb.njit(cache=True, inline="always")
def next_turn_draw_index(draw_turn, drawn, stream):
    """The index of the stream's next draw in this turn (a game has one stream per entry of `drawn`), counted as
    taken."""
    index = turn_draw_index(draw_turn[0], drawn.shape[0], stream, drawn[stream])
    drawn[stream] += 1
    return index
