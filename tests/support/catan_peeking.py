"""What a seat can tell of the others' resource cards, and the check that a search decides alike whatever its seat
cannot tell: Catan's engine rule written again from the public events (ObserverViews), shared by Catan's and Die
Mauerspechte's hygiene tests (catan/test_search_hygiene_catan.py, mauerspechte/test_search_hygiene_mauerspechte.py).
The hands come from an independent reference (support/catan_reference.py or support/mauerspechte_reference.py);
the determinizations and decisions are simlib's, the ones under test."""

from __future__ import annotations

import itertools

import numpy as np

from simlib.games.catan.constants import RESOURCES
from simlib.games.catan.search import determinize


def copied(t):
    """A copy of a state NamedTuple, its arrays copied."""
    return type(t)(*(a.copy() if isinstance(a, np.ndarray) else a for a in t))


class ObserverViews:
    """What each seat can tell of the others' resource cards, from the public events alone (simlib's unseen.py
    written again): an independent reference (`game`: support/catan_reference.py's or mauerspechte_reference.py's
    replay) keeps the hands from the events, and every change of a hand is public but a steal between two
    others, which a seat sees as one card going from the victim to the thief. A seat tells what it saw go into a
    hand, public losses counted against those cards first; of a hand robbed so it tells one card less of every
    kind it told, and the cards it cannot tell lie within a group of seats joined by such steals (a seat whose
    cards it tells again in full leaves its group at the next one). The views' arrays are in simlib's order of
    the resources (the reference's own, asserted)."""

    def __init__(self, game, reference_resources):
        assert tuple(reference_resources) == RESOURCES
        self.game, P = game, game.players
        self.told = np.zeros((P, P, len(RESOURCES)), np.int64)  # [o, q, r]
        self.groups = [[frozenset({q}) for q in range(P)] for _ in range(P)]  # [o][q]
        self.applied = 0

    def feed(self, events):
        """The events not fed yet."""
        for e in events[self.applied:]:
            self.apply(e)
        self.applied = len(events)

    def apply(self, e):
        before = self.game.hands.copy()
        self.game.apply(e)
        change, moved = self.game.hands - before, np.zeros_like(before)
        thief = victim = -1
        if e["action"] == "steal":
            thief, victim, r = e["seat"], e["victim"], RESOURCES.index(e["resource"])
            moved[thief, r], moved[victim, r] = 1, -1
        for o in range(self.game.players):
            saw = e["action"] != "steal" or o in (thief, victim)
            self.told[o] = np.maximum(self.told[o] + (change if saw else change - moved), 0)
            if not saw:
                self.unseen_steal(o, thief, victim, self.game.hands - moved)

    def unseen_steal(self, o, thief, victim, held):
        """Seat o saw a card of `victim`'s go to `thief` (held: the hands before)."""
        groups, told = self.groups[o], self.told[o]
        for q in range(self.game.players):
            if q != o and held[q].sum() == told[q].sum() and groups[q] != {q}:
                groups[:] = [g - {q} for g in groups]
                groups[q] = frozenset({q})
        told[victim] = np.maximum(told[victim] - 1, 0)
        joined = groups[thief] | groups[victim]
        for s in joined:
            groups[s] = joined

    def untold(self, o):
        """[q, r]: how many of q's cards of kind r seat o cannot tell (from the reference's hands)."""
        untold = self.game.hands - self.told[o]
        untold[o] = 0
        return untold

    def check_record(self, st, lg):
        """The play's record (its log's unseen, unseen_group) says what these views say, for every seat."""
        assert (self.game.hands == st.hands).all()
        for o in range(self.game.players):
            untold = self.untold(o)
            assert (lg.unseen[o] == untold).all(), (o, lg.unseen[o].tolist(), untold.tolist())
            holding = {q for q in range(self.game.players) if untold[q].sum() > 0}
            for q in holding:
                mask = {s for s in range(self.game.players) if lg.unseen_group[o, q] >> s & 1}
                assert mask & holding == self.groups[o][q] & holding, (o, q, mask, self.groups[o][q])


def hidden_card_swapped(st, lg, me, views):
    """The state with a card `me` cannot tell of one seat swapped for one of another kind of another seat in the
    same group (a steal it did not see took the other card), and its log with the record of `me` following the
    hands (what it tells stays); None if there are no two such cards."""
    untold = views.untold(me)
    told = st.hands - untold
    for a, b in itertools.permutations(range(st.hands.shape[0]), 2):
        if me in (a, b) or b not in views.groups[me][a]:
            continue
        for x, y in itertools.permutations(range(len(RESOURCES)), 2):
            if untold[a, x] > 0 and untold[b, y] > 0:
                v, vlg = copied(st), copied(lg)
                v.hands[a, x], v.hands[a, y] = v.hands[a, x] - 1, v.hands[a, y] + 1
                v.hands[b, y], v.hands[b, x] = v.hands[b, y] - 1, v.hands[b, x] + 1
                vlg.unseen[me] = v.hands - told
                vlg.unseen[me, me] = 0
                return v, vlg
    return None


def dev_card_swapped(st, me):
    """The state with a development card another seat holds swapped with an undrawn one of another kind (its new
    cards forgotten, as determinize forgets them: only the mover's matter), None if there is none."""
    for q in range(st.hands.shape[0]):
        for kind in np.flatnonzero(st.dev_hand[q]) if q != me else ():
            for c in range(st.deck_pos[0], st.deck.shape[0]):
                if st.deck[c] != kind:
                    v = copied(st)
                    v.dev_hand[q, kind] -= 1
                    v.dev_hand[q, st.deck[c]] += 1
                    v.dev_new[:] = np.where(np.arange(st.hands.shape[0])[:, None] == me, st.dev_new, 0)
                    v.deck[c] = kind
                    return v
    return None


def deck_reordered(st, rng):
    """The state with the deck's undrawn part in another order."""
    v = copied(st)
    v.deck[st.deck_pos[0]:] = rng.permutation(st.deck[st.deck_pos[0]:])
    return v


def card_changed(st, q, tellable):
    """Control: one card of q's that the seat to move can tell (tellable[q, kind] > 0) changed for one of another
    kind from the bank, None if there is none."""
    for x, y in itertools.permutations(range(len(RESOURCES)), 2):
        if tellable[q, x] > 0 and st.bank[y] > 0:
            v = copied(st)
            v.hands[q, x], v.hands[q, y] = v.hands[q, x] - 1, v.hands[q, y] + 1
            v.bank[x], v.bank[y] = v.bank[x] + 1, v.bank[y] - 1
            return v
    return None


def variants(st, lg, me, views, rng):
    """What the seat to move cannot see changed (hidden) and what it can see changed (controls), by name: each a
    state and the play's log (None where there is nothing to change)."""
    told = st.hands - views.untold(me)
    others = [q for q in range(st.hands.shape[0]) if q != me and told[q].sum() > 0]
    with_log = {"the others' development cards": dev_card_swapped(st, me), "the deck's order": deck_reordered(st, rng),
                "its own hand": card_changed(st, me, st.hands),
                "a card it tells of another's hand": card_changed(st, others[0], told) if others else None}
    with_log = {what: v and (v, lg) for what, v in with_log.items()}
    hidden = {"a card stolen between two others": hidden_card_swapped(st, lg, me, views),
              **{what: with_log[what] for what in ("the others' development cards", "the deck's order")}}
    controls = {what: with_log[what] for what in ("its own hand", "a card it tells of another's hand")}
    return hidden, controls


def same_deals(a, alg, b, blg, me, keys):
    """determinize deals a (its log alg) and b (blg) alike at every key."""
    for key in keys:
        x, y = copied(a), copied(b)
        determinize(x, alg, me, np.uint64(key), np.zeros(x.deck.shape[0], np.int64))
        determinize(y, blg, me, np.uint64(key), np.zeros(y.deck.shape[0], np.int64))
        if not all((u == w).all() for u, w in zip(x, y)):
            return False
    return True


def no_peeking(play, me, views, rng, counts):
    """At one decision: every hidden variant deals alike and decides alike; each control's decision is counted
    where it differs. counts: per variant, states tried and (controls) decisions changed."""
    decided = play.decide(st=copied(play.st), scratch=copied(play.scratch))
    hidden, controls = variants(play.st, play.lg, me, views, rng)
    for what, variant in hidden.items():
        if variant is not None:
            v, vlg = variant
            assert same_deals(play.st, play.lg, v, vlg, me, range(4)), (what, play.turn)
            assert play.decide(st=v, lg=vlg, scratch=copied(play.scratch)) == decided, (what, play.turn)
            counts[what] += 1
    for what, variant in controls.items():
        if variant is not None:
            v, vlg = variant
            counts[what] += play.decide(st=v, lg=vlg, scratch=copied(play.scratch)) != decided
