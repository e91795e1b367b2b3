"""Mauerbruch's search neither peeks nor touches (issue 35, item 7): at real decisions of real plays, the take it
chooses does not change when only what the deciding seat has not seen changes (the cards under the stacks' tops:
which of them lies where), while a change it can see (a top card) changes some; and a decision leaves every array
of the real play byte for byte as it found it."""

from __future__ import annotations

import numpy as np

from simlib.core.config import RunConfig
from simlib.core.lineup import Lineup, lineup
from simlib.core.rng import play_key
from simlib.games.mauerbruch import GAME
from simlib.games.mauerbruch.constants import EV_COLS, N_STACKS
from simlib.games.mauerbruch.play import Events, Until, deal, play_on
from simlib.games.mauerbruch.policies import CAUTIOUS, SEARCH
from simlib.games.mauerbruch.search import new_work, search_take
from simlib.games.mauerbruch.state import S_PLAYER, S_REASON, S_TAKE, new_pairs, new_state

NO_EV = Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0)))


class SearchPlay:
    """One play of `config` with search seats, stepped from Python as search.simulate_search_plays plays it:
    `decisions()` stops wherever a search seat is to take (the real play's arrays in hand), `decide()` is the
    search's take there. With `leftovers`, the search decides once more after each decision, on the play with a
    top card otherwise, before the play goes on: the pairs' work space it shares with the play (pw) then holds
    another decision's leftovers."""

    def __init__(self, config, play, leftovers=False):
        self.setup, self.seats = GAME.kernel_setup(config), lineup(config, GAME.policy_catalogue)
        n, n_cards, height = config.players, len(self.setup.cards.kinds), self.setup.sizes.max()
        self.st, self.pw = new_state(n, n_cards, height), new_pairs()
        self.work = new_work(n, n_cards, height, self.seats)  # the search's
        self.key, self.play, self.leftovers = np.uint64(play_key(config.seed, play)), play, leftovers
        deal(self.st, self.key, self.setup.sizes, np.empty(n_cards, np.int16))

    def _run(self, plan, passes, stop_code):
        play_on(self.st, self.setup, self.pw, self.seats, self.key, plan, Until(passes, 0, stop_code), NO_EV)

    def decisions(self):
        """Yields at each take of a search seat (the seat) and plays on with decide()'s take."""
        no_plan, rng = np.full(3, -1, np.int64), np.random.default_rng(self.play)
        while self.st.sc[S_REASON] < 0:
            self._run(no_plan, 0, SEARCH)
            if self.st.sc[S_REASON] < 0:
                yield int(self.st.sc[S_PLAYER])
                plan = np.array(self.decide(), np.int64)
                if self.leftovers and len(under_the_tops(self.st)) > 0:
                    self.decide(a_top_otherwise(self.st, rng))
                self._run(plan, 1, -1)

    def decide(self, st=None, key=None):
        """The search's take (swap stack, pile position, pair) for the seat to move, on the real play's arrays
        unless given others, keyed by the play's key unless given another."""
        c = search_take(self.st if st is None else st, self.setup, self.pw, self.seats,
                        self.key if key is None else np.uint64(key), self.work)
        return tuple(int(x) for x in self.work.cand[c]) if c >= 0 else (-1, -1, -1)

    def arrays(self):
        """Every array of the real play, by name: its state, the deck, the policies (the search's own work space,
        self.work, is not the play's; nor is self.pw, the pairs every pass lists afresh before reading them:
        test_the_work_space_the_search_shares_carries_nothing_into_the_play)."""
        named = {f"st.{f}": a for f, a in zip(self.st._fields, self.st)}
        named |= {f"cards.{f}": a for f, a in zip(self.setup.cards._fields, self.setup.cards)}
        named["sizes"] = self.setup.sizes
        return named | {f"seats.{f}": a for f, a in zip(self.seats._fields, self.seats)}


def copied(t):
    return type(t)(*(a.copy() for a in t))


def under_the_tops(st):
    """The places (stack, height) of the cards under the stacks' tops: what no seat has seen."""
    return [(s, h) for s in range(N_STACKS) for h in range(st.heights[s] - 1)]


def hidden_otherwise(st, rng):
    """The same play but for what nobody has seen: the cards under the tops dealt to their places in another
    order (the tops, the heights, the piles as they were)."""
    other = copied(st)
    places = under_the_tops(st)
    cards = [st.stacks[p] for p in places]
    for p, c in zip(places, rng.permutation(cards)):
        other.stacks[p] = c
    return other


def a_top_otherwise(st, rng):
    """The control: the same cards on the wall, but one top card swapped with a card under a top (the seat sees
    the tops)."""
    other = copied(st)
    stacks = [s for s in range(N_STACKS) if st.heights[s] > 0]
    s = stacks[rng.integers(len(stacks))]
    places = under_the_tops(st)
    p = places[rng.integers(len(places))]
    top = (s, st.heights[s] - 1)
    other.stacks[top], other.stacks[p] = st.stacks[p], st.stacks[top]
    return other


def played_on(p, st):
    """The piles after eight more takes of cautious seats from `st`, with the play's draws."""
    st, n, defaults = copied(st), len(p.seats.codes), p.seats.defaults
    cautious = Lineup(np.full(n, CAUTIOUS), np.tile(defaults[CAUTIOUS], (n, 1)), defaults)
    play_on(st, p.setup, p.pw, cautious, p.key, np.full(3, -1, np.int64), Until(0, 8, -1), NO_EV)
    return st.pile_n


SEARCH_TABLE = ["search:budget=8", "greedy", "search:budget=8:base=1", "cautious"]


def test_the_stepped_play_is_the_kernels_play():
    """The harness plays what the search kernel plays (so the states below are real plays' states)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=5)
    out = GAME._run_kernel(config, 0, 3, False)[0].out
    for play in range(3):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            pass
        assert list(p.st.pile_n) == list(out.piles[play]) and p.st.sc[S_TAKE] == out.takes[play]


def test_the_work_space_the_search_shares_carries_nothing_into_the_play():
    """The pairs' work space the search shares with the play (pw) holding another decision's leftovers at every
    search decision, the plays end as the kernel's: the play reads none of it before writing it."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=5)
    out = GAME._run_kernel(config, 0, 3, False)[0].out
    for play in range(3):
        p = SearchPlay(config, play, leftovers=True)
        for _ in p.decisions():
            pass
        assert list(p.st.pile_n) == list(out.piles[play]) and p.st.sc[S_TAKE] == out.takes[play]


def test_what_the_seat_has_not_seen_never_changes_its_take():
    """At every take of two search seats in eight real plays, with four keys each: the cards under the tops
    dealt in another order never change the take; a top card swapped with one under it (the control, which the
    seat sees) changes some; and the order under the tops matters (the play on from it, with the same draws, goes
    otherwise at some takes: a search that read it would show, as the search did before its deal began from the
    sorted cards)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=8, seed=7)
    rng = np.random.default_rng(35)
    checked, seen_changes, hidden_matters, decisions = 0, 0, 0, 0
    for play in range(8):
        p = SearchPlay(config, play)
        for k, seat in enumerate(p.decisions()):
            if len(under_the_tops(p.st)) < 2:
                continue
            unseen, control = hidden_otherwise(p.st, rng), a_top_otherwise(p.st, rng)
            assert any((a != b).any() for a, b in zip(p.st, unseen))
            hidden_matters += (played_on(p, p.st) != played_on(p, unseen)).any()
            decisions += 1
            for key in (p.key, *rng.integers(1, 2**62, 3)):
                take = p.decide(copied(p.st), key)
                assert p.decide(copied(unseen), key) == take, (play, k, seat, int(key))
                seen_changes += p.decide(copied(control), key) != take
                checked += 1
    assert checked >= 400 and hidden_matters >= 0.2 * decisions
    assert seen_changes >= 0.1 * checked  # the test can fail: what the seat sees does move its take


def test_a_search_decision_leaves_the_real_play_as_it_found_it():
    """At every take of the search seats in three real plays, every array of the play after the search's decision
    is byte for byte what it was before (the rollouts play on the search's own copy)."""
    config = RunConfig.build(GAME, players=4, policies=SEARCH_TABLE, plays=3, seed=8)
    checked = 0
    for play in range(3):
        p = SearchPlay(config, play)
        for _ in p.decisions():
            before = {name: a.copy() for name, a in p.arrays().items()}
            p.decide()
            after = p.arrays()
            changed = [name for name in after if after[name].tobytes() != before[name].tobytes()]
            assert not changed, (play, changed)
            checked += 1
    assert checked >= 30
