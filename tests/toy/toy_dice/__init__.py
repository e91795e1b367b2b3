"""Toy dice, a game defined outside simlib to prove a game plugs in by its own files alone.

Each player rolls `dice` six-sided dice (policy `lucky` rerolls a die showing 1 once); the highest total
wins, ties share. Its package brings everything: the rules, tables, parameters, its pipeline folder
(stg_toydice_seats, mart_toydice_totals) and a report section. It is registered through the entry
point of toy_dice-0.1.dist-info beside it, found when this folder is on PYTHONPATH.
"""

from __future__ import annotations

from pathlib import Path

import numba as nb
import numpy as np
import pyarrow as pa

from simlib.core import tables as T
from simlib.core.config import PolicyInfo, RunConfig
from simlib.core.game import Game
from simlib.core.lake import described
from simlib.core.rng import below, draw, play_key

_KEYS = [described("rules_version", pa.int16(), "Rules version."),
         described("play_index", pa.int64(), "The play within its run.")]
GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("turns", pa.int32(), "Always 1: everybody rolls once."),
    described("end_reason", pa.dictionary(pa.int8(), pa.string()), "Always rolled."),
    described("completed", pa.bool_(), "Always true."),
    described("winners", pa.list_(pa.int8()), "Seats with the highest total."),
])
SEATS = pa.schema(_KEYS + [
    described("seat", pa.int8(), "Seat."),
    described("policy", pa.dictionary(pa.int8(), pa.string()), "Policy name."),
    described("policy_spec", pa.dictionary(pa.int8(), pa.string()), "Policy with its parameters."),
    described("total", pa.int16(), "The seat's total of pips."),
    described("score", pa.int16(), "The total."),
    described("rank", pa.int8(), "1 + seats with a higher total."),
    described("winner", pa.bool_(), "The seat has the highest total."),
])


@nb.njit(cache=True)
def roll(seed, first_play, n_plays, players, dice, rerolls):
    totals = np.zeros((n_plays, players), np.int64)
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        for s in range(players):
            for d in range(dice):
                pips = 1 + below(draw(key, 2 * (s * dice + d)), 6)
                if pips == 1 and rerolls[s]:
                    pips = 1 + below(draw(key, 2 * (s * dice + d) + 1), 6)
                totals[i, s] += pips
    return totals


class ToyDice(Game):
    name = "toydice"
    title = "Toy dice"
    rules_version = 1
    min_players = 2
    max_players = 5
    package = Path(__file__).parent
    policy_catalogue = {"plain": PolicyInfo("plain", 0, "Keeps every die."),
                        "lucky": PolicyInfo("lucky", 1, "Rerolls a die showing 1, once.")}
    table_schemas = {"games": GAMES, "seats": SEATS}
    event_tables = ()

    def pipeline_folder(self) -> Path:
        return self.package / "pipeline"

    def simulate(self, config: RunConfig, start: int, stop: int, events: bool) -> dict[str, pa.Table]:
        rerolls = np.array([p.name == "lucky" for p in config.policies])
        totals = roll(config.seed, start, stop - start, config.players, config.options["dice"], rerolls)
        n, players = totals.shape
        is_winner = T.top_scorers(totals)
        games = T.keys(self.rules_version, T.play_indices(start, n)) | {
            "players": T.constant(players, n), "turns": T.constant(1, n), "end_reason": T.constant("rolled", n),
            "completed": T.constant(True, n), "winners": T.winners(is_winner)}
        seats = T.keys(self.rules_version, T.play_indices(start, n, players)) | {
            "seat": T.seat_numbers(n, players), "total": totals.ravel(), "score": totals.ravel()
        } | T.policy_columns(config.policies, np.tile(np.arange(players), n)) | T.rank_and_winner(totals)
        return {"games": T.table(GAMES, games), "seats": T.table(SEATS, seats)}

    def describe_play(self, config: RunConfig, play: int) -> str:
        seats = self.simulate(config, play, play + 1, events=False)["seats"].to_pylist()
        return "\n".join(f"seat {s['seat']} ({s['policy']}) rolls {s['total']}" for s in seats)


GAME = ToyDice()
