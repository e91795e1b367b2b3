"""The board as data: a map file (stone positions, castles with their spots' symbols, each player count's
supply and pre-placed pieces), checked entry by entry and turned into the kernel's arrays.

A file is read once into the run's options as text (the run id hashes it), so workers and replays need no file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.errors import SimlibError
from ...core.params import data_file
from .constants import (
    N_CASTLES,
    N_COLOURS,
    N_POSITIONS,
    PIECE_TOTALS,
    PIECES,
    SPOT_COINS,
    SPOT_KINDS,
    SQUARE_SPOTS,
    WELL,
)

PACKAGE = Path(__file__).parent
SPOT_LETTERS = "abcdefgh"


@dataclass(frozen=True)
class Board:
    """Castle c (0..10) is the map's castle id c + 1."""

    name: str
    colours: tuple[str, ...]   # the 8 colour names
    stones: np.ndarray         # [11, 2] the two stone positions of each castle
    spot_kind: np.ndarray      # [11, 3] SPOT_* code of each square spot
    spot_value: np.ndarray     # [11, 3] coins of a coins spot, else 0
    supply: dict[int, np.ndarray]    # players -> [4] pieces per player by kind
    preplaced: dict[int, np.ndarray]  # players -> [11, 4] piece on each square spot (-1 free) and the well spot


def read_text(spec: str, folder: str, what: str) -> str:
    """The text of a built-in file (`folder/<spec>.toml` in the package) or of the file at path `spec`."""
    path = data_file(spec, PACKAGE / folder, what)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SimlibError(f"cannot read {what} {spec}: {getattr(exc, 'strerror', None) or exc}") from None


def load_toml(text: str, where: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimlibError(f"{where} is not valid TOML: {exc}") from None


def whole(value, where: str, low: int, high: int) -> int:
    """`value` checked to be an integer in low..high."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise SimlibError(f"{where}: an integer from {low} to {high} expected, got {value!r}")
    return value


def entries(raw: dict, key: str, where: str) -> list[dict]:
    items = raw.get(key, [])
    if not isinstance(items, list) or not all(isinstance(e, dict) for e in items):
        raise SimlibError(f"{where}: {key} must be a list of [[{key}]] tables")
    return items


def map_text(spec: str) -> str:
    return read_text(spec, "maps", "map file")


def _spot(value, where: str) -> tuple[int, int]:
    kind, _, coins = value.partition(":") if isinstance(value, str) else ("", "", "")
    if kind not in SPOT_KINDS[:4] or (kind == "coins") != bool(coins):
        raise SimlibError(f"{where}: unknown kind {value!r} (joker, coins:N, swap or bonus)")
    if kind != "coins":
        return SPOT_KINDS.index(kind), 0
    if not coins.isdigit() or not 1 <= int(coins) <= 5:
        raise SimlibError(f"{where}: coin value must be 1 to 5, got {coins!r}")
    return SPOT_COINS, int(coins)


def _castles(raw: dict, where: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    stones = np.full((N_CASTLES, 2), -1, np.int64)
    kind = np.zeros((N_CASTLES, SQUARE_SPOTS), np.int64)
    value = np.zeros((N_CASTLES, SQUARE_SPOTS), np.int64)
    pairs: dict[tuple[int, int], int] = {}
    for entry in entries(raw, "castle", where):
        cid = whole(entry.get("id"), f"{where}: castle {entry.get('id')!r}: id", 1, N_CASTLES)
        w = f"{where}: castle {cid}"
        if stones[cid - 1, 0] >= 0:
            raise SimlibError(f"{w}: duplicate id")
        pos = entry.get("stones")
        if (not isinstance(pos, list) or len(pos) != 2 or len(set(map(str, pos))) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < N_POSITIONS for p in pos)):
            raise SimlibError(f"{w}: stones {pos!r} must be two different positions from 0 to {N_POSITIONS - 1}")
        pair = tuple(sorted(pos))
        if pair in pairs:
            raise SimlibError(f"{w}: same stones as castle {pairs[pair]}")
        pairs[pair] = cid
        stones[cid - 1] = pos
        spots = entry.get("spots")
        if not isinstance(spots, list) or len(spots) != SQUARE_SPOTS:
            got = len(spots) if isinstance(spots, list) else repr(spots)
            raise SimlibError(f"{w}: {SQUARE_SPOTS} square spots expected, got {got}")
        for s, spot in enumerate(spots):
            kind[cid - 1, s], value[cid - 1, s] = _spot(spot, f"{w}: spot {SPOT_LETTERS[s]}")
    missing = [c + 1 for c in range(N_CASTLES) if stones[c, 0] < 0]
    if missing:
        raise SimlibError(f"{where}: castle {missing[0]} missing (ids 1 to {N_CASTLES} expected)")
    _check_network(stones, where)
    return stones, kind, value


def _check_network(stones: np.ndarray, where: str) -> None:
    """Every position touches a castle, and the roads connect every position."""
    for p in range(N_POSITIONS):
        if not (stones == p).any():
            raise SimlibError(f"{where}: position {p}: no castle")
    reached, frontier = {0}, [0]
    while frontier:
        p = frontier.pop()
        for a, b in stones:
            for x, y in ((a, b), (b, a)):
                if x == p and y not in reached:
                    reached.add(int(y))
                    frontier.append(int(y))
    if len(reached) < N_POSITIONS:
        raise SimlibError(f"{where}: the road network is not connected (position {min(set(range(8)) - reached)})")


def _setup(entry: dict, where: str) -> tuple[int, np.ndarray, np.ndarray]:
    players = whole(entry.get("players"), f"{where}: setup players", 2, 4)
    w = f"{where}: setup players={players}"
    supply_raw = entry.get("supply")
    if not isinstance(supply_raw, dict) or set(supply_raw) != set(PIECES):
        raise SimlibError(f"{w}: supply must give {', '.join(PIECES)}")
    supply = np.array([whole(supply_raw[p], f"{w}: supply {p}", 0, 16) for p in PIECES], np.int64)
    placed = np.full((N_CASTLES, SQUARE_SPOTS + 1), -1, np.int64)  # column 3: the well spot
    pre = entry.get("preplace", [])
    if not isinstance(pre, list) or not all(isinstance(e, dict) for e in pre):
        raise SimlibError(f"{w}: preplace must be a list of tables")
    for e in pre:
        cid = whole(e.get("castle"), f"{w}: preplace castle", 1, N_CASTLES)
        spot, piece = e.get("spot"), e.get("piece")
        we = f"{w}: castle {cid} spot {spot}"
        if piece not in PIECES:
            raise SimlibError(f"{we}: unknown piece {piece!r}")
        k = PIECES.index(piece)
        letters = SPOT_LETTERS[:SQUARE_SPOTS]
        col = SQUARE_SPOTS if spot == "well" else letters.find(spot) if isinstance(spot, str) and spot else -1
        if col < 0 or (k == WELL) != (col == SQUARE_SPOTS):
            raise SimlibError(f"{we}: a {piece} needs spot a, b or c (a well: spot \"well\")")
        if placed[cid - 1, col] >= 0:
            raise SimlibError(f"{we}: two pieces on one spot")
        placed[cid - 1, col] = k
    for c in range(N_CASTLES):
        row = placed[c, :SQUARE_SPOTS]
        if (row == 1).sum() > (row == 0).sum():
            raise SimlibError(f"{w}: castle {c + 1}: a house without a wall")
        if (row == 2).sum() > 1:
            raise SimlibError(f"{w}: castle {c + 1}: a second palas")
    for k, piece in enumerate(PIECES):
        n = int((placed == k).sum())
        if n + players * supply[k] != PIECE_TOTALS[k]:
            raise SimlibError(f"{w}: {piece}s {n} pre-placed + supply {supply[k]} x {players} must be "
                              f"{PIECE_TOTALS[k]}")
    return players, supply, placed


def board_from_text(spec: str, text: str) -> Board:
    where = f"map file {spec}"
    raw = load_toml(text, where)
    colours = raw.get("colours")
    if (not isinstance(colours, list) or len(colours) != N_COLOURS or len(set(colours)) != N_COLOURS
            or not all(isinstance(c, str) and c for c in colours)):
        raise SimlibError(f"{where}: colours must be {N_COLOURS} different names")
    positions = raw.get("positions")
    if positions != N_POSITIONS:
        raise SimlibError(f"{where}: positions: {N_POSITIONS} expected (one stone per colour), got {positions!r}")
    stones, kind, value = _castles(raw, where)
    supply, placed = {}, {}
    for entry in entries(raw, "setup", where):
        players, s, p = _setup(entry, where)
        if players in supply:
            raise SimlibError(f"{where}: setup players={players} given twice")
        supply[players], placed[players] = s, p
    for players in (2, 3, 4):
        if players not in supply:
            raise SimlibError(f"{where}: setup players={players} missing")
    return Board(str(raw.get("name", spec)), tuple(colours), stones, kind, value, supply, placed)
