"""The special tiles as data: build-aid kinds and victory-point tiles from a specials file, checked and
expanded to one entry per physical tile (the kernel's arrays)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.errors import SimlibError
from .constants import AID_EFFECTS, BONUS_MEASURES, HAND
from .datafile import PACKAGE, file_text, integer, parse, tables


@dataclass(frozen=True)
class Specials:
    """Per physical tile (copies expanded, in file order): its id and what it does."""

    name: str
    aid_ids: tuple[str, ...]
    aid_effect: np.ndarray     # [aid tiles] AID_EFFECTS code
    aid_max_discs: np.ndarray  # [aid tiles] the most discs a turn under it may place
    bonus_ids: tuple[str, ...]
    bonus_measure: np.ndarray  # [bonus tiles] BONUS_MEASURES code
    bonus_at_least: np.ndarray
    bonus_points: np.ndarray


def _choice(entry, key, where, choices) -> int:
    if entry.get(key) not in choices:
        raise SimlibError(f"{where}: {key} must be one of {', '.join(choices)} (found {entry.get(key)!r})")
    return choices.index(entry[key])


def specials_text(spec: str) -> str:
    """A built-in name (specials/<name>.toml; `assumed`) or a file path: the file's text."""
    return file_text(spec, PACKAGE / "specials" / f"{spec}.toml", "specials file")


def load_specials(spec: str) -> Specials:
    """a built-in name or a file path; every problem is one SimlibError naming the entry."""
    return specials_from_text(spec, specials_text(spec))


def specials_from_text(spec: str, text: str) -> Specials:
    where = f"specials file {spec}"
    raw = parse(text, where)
    seen: set[str] = set()
    aid: list[tuple[str, int, int]] = []
    bonus: list[tuple[str, int, int, int]] = []
    for section, rows in (("aid", aid), ("bonus", bonus)):
        for n, entry in enumerate(tables(raw, section, where), 1):
            w = f"{where}, {section} {n}"
            tid = entry.get("id")
            if not isinstance(tid, str) or not tid or tid in seen:
                raise SimlibError(f"{w}: needs an id of its own (found {tid!r})")
            seen.add(tid)
            copies = integer(entry, "copies", w, 1, 10)
            if section == "aid":
                row = (tid, _choice(entry, "effect", w, AID_EFFECTS), integer(entry, "max_discs", w, 1, HAND))
            else:  # a bonus of 0 could never be played (a tile is played only when it pays)
                row = (tid, _choice(entry, "measure", w, BONUS_MEASURES), integer(entry, "at_least", w, 1, HAND),
                       integer(entry, "points", w, 1, 50))
            rows.extend([row] * copies)
        if not rows:
            raise SimlibError(f"{where}: needs at least one [[{section}]] tile")
    return Specials(
        spec, tuple(a[0] for a in aid), np.array([a[1] for a in aid], np.int64),
        np.array([a[2] for a in aid], np.int64),
        tuple(b[0] for b in bonus), np.array([b[1] for b in bonus], np.int64),
        np.array([b[2] for b in bonus], np.int64), np.array([b[3] for b in bonus], np.int64))
