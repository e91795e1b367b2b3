"""The cards and tiles as data: coins on the colour cards, jokers, master-builder values, swap tiles and the
bonus tiles (data/assumed.toml, or a designer's file), checked entry by entry."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.errors import SimlibError
from .board import entries, load_toml, read_text, whole
from .constants import EFFECTS, JOKERS, MAX_COINS, N_COLOURS


@dataclass(frozen=True)
class Components:
    cards: np.ndarray            # [3] colour cards of each colour showing 1, 2, 3 coins
    jokers: int
    master_builders: np.ndarray  # the master-builder cards' coins, in the file's order
    swap_tiles: int
    bonus_ids: tuple[str, ...]   # one entry per physical bonus tile (copies expanded)
    bonus_names: tuple[str, ...]
    bonus_effect: np.ndarray     # EFFECTS code of each physical tile
    bonus_value: np.ndarray      # jokers for a `jokers` tile, else 0

    @property
    def colour_cards(self) -> int:
        return int(self.cards.sum()) * N_COLOURS


def data_text(spec: str) -> str:
    return read_text(spec, "data", "data file")


def components_from_text(spec: str, text: str) -> Components:
    where = f"data file {spec}"
    raw = load_toml(text, where)
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, dict) or not set(cards_raw) <= {str(c) for c in range(1, MAX_COINS + 1)}:
        raise SimlibError(f"{where}: cards must map coins 1 to {MAX_COINS} to counts, e.g. {{ 1 = 3, 2 = 4, 3 = 3 }}")
    cards = np.array([whole(cards_raw.get(str(c), 0), f"{where}: cards {c}", 0, 30) for c in range(1, MAX_COINS + 1)],
                     np.int64)
    if cards.sum() == 0:
        raise SimlibError(f"{where}: cards: no colour cards")
    jokers = whole(raw.get("jokers"), f"{where}: jokers", 0, 100)
    masters = raw.get("master_builders")
    if not isinstance(masters, list) or not masters:
        raise SimlibError(f"{where}: master_builders must be a list of coin values")
    master = np.array([whole(v, f"{where}: master_builders", 1, 5) for v in masters], np.int64)
    swaps = whole(raw.get("swap_tiles"), f"{where}: swap_tiles", 0, 100)
    ids, names, effect, value = [], [], [], []
    for n, entry in enumerate(entries(raw, "bonus", where), 1):
        tid = entry.get("id")
        w = f"{where}: bonus {tid if isinstance(tid, str) else n}"
        if not isinstance(tid, str) or not tid or tid in ids:
            raise SimlibError(f"{w}: id must be a new non-empty text")
        if entry.get("effect") not in EFFECTS:
            raise SimlibError(f"{w}: unknown effect {entry.get('effect')!r} ({', '.join(EFFECTS)})")
        code = EFFECTS.index(entry["effect"])
        jokers_taken = whole(entry.get("value"), f"{w}: value", 1, 10) if code == JOKERS else 0
        if code != JOKERS and "value" in entry:
            raise SimlibError(f"{w}: value is only for effect jokers")
        copies = whole(entry.get("copies", 1), f"{w}: copies", 1, 20)
        ids += [tid] * copies
        names += [str(entry.get("name", tid))] * copies
        effect += [code] * copies
        value += [jokers_taken] * copies
    return Components(cards, jokers, master, swaps, tuple(ids), tuple(names), np.array(effect, np.int64),
                      np.array(value, np.int64))
