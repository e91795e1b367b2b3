"""Decks as data: a CSV file of cards, validated, with a name and a content hash for identity.

    # name: numnum-assumed
    id,kind,symbol,value
    1,joker,circle,1
    2,number,circle,2
    101,ban2,,

kind is number (value >= 2), joker (value 1), ban2, ban5 or wish (no symbol or value needed).
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.errors import SimlibError
from .constants import JOKER, KINDS, NUMBER, SYMBOLS

BUILTIN = {"numnum": Path(__file__).with_name("numnum_assumed.csv")}
MIN_CARDS = 14  # two per stack
MAX_CARDS = 1000


@dataclass(frozen=True)
class Deck:
    name: str
    ids: np.ndarray      # the id printed in the file, per card
    kinds: np.ndarray    # index into KINDS
    symbols: np.ndarray  # index into SYMBOLS, -1 for cards without one
    values: np.ndarray   # number value (1 for a joker), 0 for special cards

    @property
    def canonical(self) -> str:
        """The deck as text in a fixed form: the same cards give the same text, whatever the file's layout."""
        rows = [f"{i},{KINDS[k]},{SYMBOLS[s] if s >= 0 else ''},{v if v else ''}"
                for i, k, s, v in sorted(zip(self.ids.tolist(), self.kinds.tolist(), self.symbols.tolist(),
                                             self.values.tolist()))]
        return "\n".join(rows)

    @property
    def id(self) -> str:
        return hashlib.sha256(self.canonical.encode()).hexdigest()[:12]

    def __len__(self) -> int:
        return len(self.ids)


def parse_deck(text: str, source: str, name: str | None = None) -> Deck:
    lines = text.splitlines()
    for line in lines:
        if line.startswith("# name:"):
            name = name or line.split(":", 1)[1].strip()
    body = [(n, line) for n, line in enumerate(lines, 1) if line.strip() and not line.lstrip().startswith("#")]
    if not body:
        raise SimlibError(f"deck {source}: no cards")
    header = [h.strip() for h in body[0][1].split(",")]
    if header[:4] != ["id", "kind", "symbol", "value"]:
        raise SimlibError(f"deck {source} line {body[0][0]}: header must be id,kind,symbol,value")
    ids, kinds, symbols, values = [], [], [], []
    seen: dict[int, int] = {}
    for n, line in body[1:]:
        row = next(csv.reader(io.StringIO(line)))
        row = [c.strip() for c in row] + [""] * (4 - len(row))
        card_id, kind, symbol, value = row[:4]
        where = f"deck {source} line {n}"
        try:
            card = int(card_id)
        except ValueError:
            raise SimlibError(f"{where}: card id {card_id!r} is not a whole number") from None
        if card in seen:
            raise SimlibError(f"{where}: duplicate card id {card} (first on line {seen[card]})")
        seen[card] = n
        if kind not in KINDS:
            raise SimlibError(f"{where}: unknown card kind {kind!r} (known: {', '.join(KINDS)})")
        k = KINDS.index(kind)
        if k in (NUMBER, JOKER):
            if symbol not in SYMBOLS:
                raise SimlibError(f"{where}: symbol {symbol!r} is not one of {', '.join(SYMBOLS)}")
            try:
                v = int(value)
            except ValueError:
                raise SimlibError(f"{where}: a {kind} needs a whole-number value, got {value!r}") from None
            if v < 1:
                raise SimlibError(f"{where}: number {v} is below 1")
            if k == NUMBER and v == 1:
                raise SimlibError(f"{where}: the 1 is the joker: write kind joker")
            if k == JOKER and v != 1:
                raise SimlibError(f"{where}: a joker has value 1, not {v}")
            s = SYMBOLS.index(symbol)
        else:
            if symbol and symbol not in SYMBOLS:
                raise SimlibError(f"{where}: symbol {symbol!r} is not one of {', '.join(SYMBOLS)}")
            s, v = -1, 0
        ids.append(card)
        kinds.append(k)
        symbols.append(s)
        values.append(v)
    if not MIN_CARDS <= len(ids) <= MAX_CARDS:
        raise SimlibError(f"deck {source}: {len(ids)} cards; a deck needs {MIN_CARDS}-{MAX_CARDS}")
    return Deck(name or Path(source).stem, np.array(ids, np.int32), np.array(kinds, np.int8),
                np.array(symbols, np.int8), np.array(values, np.int32))


def load_deck(spec: str) -> Deck:
    """A built-in deck by name, or a deck file by path."""
    path = BUILTIN.get(spec, Path(spec))
    try:
        text = path.read_text()
    except OSError as exc:
        raise SimlibError(f"deck {spec!r} is neither built in ({', '.join(BUILTIN)}) nor a readable file: "
                          f"{exc.strerror}") from None
    return parse_deck(text, spec)
