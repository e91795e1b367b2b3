"""Blocks: what each seat cannot tell of the others' resource cards (EventLog.unseen, EventLog.unseen_group).

Every change of a hand is public (production, trades, purchases, discards, monopoly, year of plenty) but a steal:
its thief and its victim see the card, every other seat sees only that one card of the victim's went to the
thief. Seat o therefore tells of seat q's hand what it saw go in and did not see go out, counting q's public
losses against those cards first; `unseen[o, q, r]` is how many of q's cards of kind r are not so told (the
play's truth: what o cannot tell is the rest of q's hand). What o tells, every hand's size and the bank are
public, and so is the mix of the cards o cannot tell within a group of seats (`unseen_group[o, q]`, a bit per
seat: the seats among which o saw such cards pass, by steals between two others; a seat left with none of them
may stay in its group until its next steal, adding nothing to the mix); a search deals that mix again within its
group (search.determinize) without reading which card is where.

A simplification, on the side of seeing less: of a robbed hand o then tells one card less of every kind it told
(any of them may be the one that went), and a group's cards are dealt as one mix, while a card stolen in a chain
(a seat robbed after it robbed) could not have gone to every seat of its group.

The record is kept beside the events, in the play's EventLog, where a search reads it (state.observed_log). A
scripted kernel's log keeps none (None), and the hooks below, on the turn's payments, discards, trades and steals,
are then compiled to nothing (each is chosen by the log's type): the scripted plays' hot path is the same code as
before the record.
"""

import numba as nb
from numba.core import types
from numba.extending import overload

from ...core.blocks import block
from .constants import N_RES


def _keeps_record(lg):
    """The log's type (at compile time) keeps the record: its arrays, not None (nor left out: a NamedTuple built in
    compiled code without them has no such field)."""
    i = lg.fields.index("unseen")
    return i < len(lg.types) and not isinstance(lg.types[i], types.NoneType)


def reset_unseen(lg):
    """A play begins: every seat tells every hand (they are empty), each seat a group of its own."""


@overload(reset_unseen)
def _reset_unseen(lg):
    if not _keeps_record(lg):
        return lambda lg: None

    def reset(lg):
        lg.unseen[:] = 0
        for o in range(lg.unseen_group.shape[0]):
            for q in range(lg.unseen_group.shape[1]):
                lg.unseen_group[o, q] = 1 << q
    return reset


def lost_in_public(st, lg, q, r):
    """Seat q's cards of kind r left its hand in public (a payment, a discard, a trade, a monopoly, a steal the
    seat looking saw): they count against what each seat told of them first, so what a seat cannot tell of the
    kind is at most what q still holds of it."""


@overload(lost_in_public)
def _lost_in_public(st, lg, q, r):
    if not _keeps_record(lg):
        return lambda st, lg, q, r: None

    def lost(st, lg, q, r):
        for o in range(lg.unseen.shape[0]):
            lg.unseen[o, q, r] = min(lg.unseen[o, q, r], st.hands[q, r])
    return lost


def paid_in_public(st, lg, q, costs, c):
    """lost_in_public for every kind of cost row c that q paid."""


@overload(paid_in_public)
def _paid_in_public(st, lg, q, costs, c):
    if not _keeps_record(lg):
        return lambda st, lg, q, costs, c: None

    def paid(st, lg, q, costs, c):
        for o in range(lg.unseen.shape[0]):
            for r in range(N_RES):
                if costs[c, r] > 0:
                    lg.unseen[o, q, r] = min(lg.unseen[o, q, r], st.hands[q, r])
    return paid


def card_stolen(st, lg, thief, victim, r):
    """The robber's steal of a card of kind r, already moved from victim to thief (_stolen_in_sight)."""


@overload(card_stolen)
def _card_stolen(st, lg, thief, victim, r):
    if not _keeps_record(lg):
        return lambda st, lg, thief, victim, r: None
    return lambda st, lg, thief, victim, r: _stolen_in_sight(st, lg, thief, victim, r)


@nb.njit(cache=True, inline="always")
def unseen_cards(lg, o, q):
    """How many of q's cards o cannot tell."""
    m = 0
    for r in range(N_RES):
        m += lg.unseen[o, q, r]
    return m


@block(_nrt=False)
def _stolen_in_sight(st, lg, thief, victim, r):
    """Its thief and victim saw the card (a public loss of the victim's); every other seat o saw a card go: of
    the victim's hand it tells one card less of each kind it told, the card joins the thief's cards it cannot
    tell, and the two seats' groups become one (a seat whose cards o tells in full leaves its old group first:
    none of that group's mix is in its hand)."""
    P = st.hands.shape[0]
    unseen, group = lg.unseen, lg.unseen_group
    for o in range(unseen.shape[0]):  # the seats, or none (a rollout's log)
        if o == thief or o == victim:
            continue
        for q in (thief, victim):
            if unseen_cards(lg, o, q) == 0 and group[o, q] != 1 << q:
                for s in range(P):
                    group[o, s] &= ~(1 << q)
                group[o, q] = 1 << q
        for k in range(N_RES):
            held = st.hands[victim, k] + (k == r)  # before the steal
            told = max(held - unseen[o, victim, k] - 1, 0)
            unseen[o, victim, k] = st.hands[victim, k] - told
        unseen[o, thief, r] += 1
        joined = group[o, thief] | group[o, victim]
        for s in range(P):
            if (joined >> s) & 1:
                group[o, s] = joined
    lost_in_public(st, lg, victim, r)
