"""A readable account of one Catan game, turn by turn, from its event rows (`simlib replay catan`).

Per turn: the seat, the roll and what each seat received, discards, the robber and the steal, builds
(roads, ships, settlements, cities, with where), development cards bought and played, trades and ship
moves; at the end the points per seat, as the seats table has them, then the standing after every turn (the
victory points in view, from the standings table) and how the play felt (core/feel.py). Places are named by the
hexes around them as this play's board has them: a node (intersection) by its land hexes (and harbour), a path by
the two hexes it separates, a hex by its terrain and number token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyarrow as pa

from ...core.config import RunConfig
from ...core.feel import Standing, feel_sentence, standing_lines
from .board import RESOURCES, Board
from .tables import STANDING

_INDENT = " " * 17


class _Places:
    """Names for this play's hexes, nodes and paths (the board's terrain and tokens come from the hex events)."""

    def __init__(self, board: Board, events: list[dict]):
        self.board = board
        self.hexes = {e["hex"]: e["terrain"] + (f" {e['token']}" if e["token"] is not None else "")
                      for e in events if e["action"] == "hex"}

    def hex(self, h: int) -> str:
        return f"hex {h} ({self.hexes.get(h, 'sea')})"

    def _side(self, h: int) -> str:
        return "off the map" if h < 0 else self.hexes.get(h, "sea")

    def node(self, n: int) -> str:
        around = [self.hexes[h] for h in self.board.node_hexes[n] if h in self.hexes]
        rate = int(self.board.node_harbour_rate[n])
        if rate == 3:
            around.append("harbour 3:1")
        elif rate == 2:
            around.append(f"harbour 2:1 {RESOURCES[self.board.node_harbour_resource[n]]}")
        return f"node {n} ({', '.join(around)})"

    def path(self, e: int) -> str:
        a, b = self.board.edge_hexes[e]
        return f"path {e} ({self._side(a)} | {self._side(b)})"


@dataclass
class _Step:
    """One step of a turn (turn -1: the set-up): what the seat did, and what followed from it (a roll's
    production, a robber's steal, road building's pieces), shown as `text: details` or `text` + `empty`."""

    turn: int
    seat: int
    text: str
    details: list[str] = field(default_factory=list)
    empty: str = ""

    def __str__(self) -> str:
        return self.text + (": " + "; ".join(self.details) if self.details else self.empty)


def _cards(names: list[str]) -> str:
    """'2 wool, 1 ore' from a list of card names, in resource order."""
    return ", ".join(f"{names.count(r)} {r}" for r in RESOURCES if r in names)


def _count(n: int, thing: str, things: str) -> str:
    return f"{n} {thing if n == 1 else things}"


def _discards(turn: int, discards: dict[int, list[str]]) -> _Step:
    return _Step(turn, -1, "; ".join(f"seat {q} discards {len(cards)} ({_cards(cards)})"
                                     for q, cards in sorted(discards.items())))


def _steps(events: list[dict], places: _Places) -> list[_Step]:
    """The set-up and the turns' steps in order, each event folded into the step it belongs to."""
    steps: list[_Step] = []
    discards: dict[int, list[str]] = {}
    for e in events:
        action, seat, turn = e["action"], e["seat"], -1 if e["turn"] is None else e["turn"]
        if action != "discard" and discards:
            steps.append(_discards(steps[-1].turn, discards))
            discards = {}
        if action == "setup_settlement":
            steps.append(_Step(turn, seat, f"settlement at {places.node(e['node'])}"))
        elif action == "setup_road":
            steps[-1].text += f", road on {places.path(e['edge'])}"
        elif action == "roll":
            rolled = f"rolls {e['dice']} ({e['die_1']}+{e['die_2']})"
            steps.append(_Step(turn, seat, rolled, empty=": nothing produced" if e["dice"] != 7 else ""))
        elif action == "produce":  # one event per seat and resource, a seat's together
            got = f"+{e['amount']} {e['resource']}"
            details = steps[-1].details
            if details and details[-1].startswith(f"seat {seat} "):
                details[-1] += f", {got}"
            else:
                details.append(f"seat {seat} {got}")
        elif action == "discard":
            discards.setdefault(seat, []).append(e["resource"])
        elif action == "knight":
            steps.append(_Step(turn, seat, f"plays a knight {'before' if e['before_roll'] else 'after'} the roll"))
        elif action == "robber":
            steps.append(_Step(turn, seat, f"moves the robber to {places.hex(e['hex'])}", empty=", nobody to rob"))
        elif action == "steal":
            steps[-1].details.append(f"steals 1 {e['resource']} from seat {e['victim']}")
        elif action in ("road", "ship") and e["free"]:
            steps[-1].details.append(f"{action} on {places.path(e['edge'])}")
        elif action in ("road", "ship"):
            steps.append(_Step(turn, seat, f"builds a {action} on {places.path(e['edge'])}"))
        elif action in ("settlement", "city"):
            steps.append(_Step(turn, seat, f"builds a {action} at {places.node(e['node'])}"))
        elif action == "buy_dev":
            steps.append(_Step(turn, seat, f"buys a development card ({e['card'].replace('_', ' ')})"))
        elif action == "road_building":
            steps.append(_Step(turn, seat, "plays road building", empty=": no place for a piece"))
        elif action == "year_of_plenty":
            steps.append(_Step(turn, seat, f"plays year of plenty: 1 {e['resource']}, 1 {e['resource_2']}"))
        elif action == "monopoly":
            steps.append(_Step(turn, seat, f"plays monopoly on {e['resource']}, takes {e['amount']}"))
        elif action == "trade":
            where = "the bank" if e["amount"] == 4 else f"a {e['amount']}:1 harbour"
            steps.append(_Step(turn, seat, f"trades {e['amount']} {e['resource']} for 1 {e['resource_2']} "
                                           f"with {where}"))
        elif action == "move_ship":
            steps.append(_Step(turn, seat, f"moves a ship from {places.path(e['edge'])} to "
                                           f"{places.path(e['edge_to'])}"))
    if discards:
        steps.append(_discards(steps[-1].turn, discards))
    return steps


def _points(s: dict) -> str:
    parts = [_count(s["settlements"], "settlement", "settlements"), _count(s["cities"], "city", "cities")]
    if s["vp_cards"]:
        parts.append(_count(s["vp_cards"], "victory-point card", "victory-point cards"))
    if s["longest_route_card"]:
        parts.append("the longest-route card")
    if s["largest_army_card"]:
        parts.append("the largest-army card")
    return (f"seat {s['seat']} ({s['policy_spec']}): {s['points']} points ({', '.join(parts)}); "
            f"{_count(s['roads'], 'road', 'roads')}, {_count(s['ships'], 'ship', 'ships')}, longest route "
            f"{s['longest_route']}, {_count(s['knights'], 'knight', 'knights')} played, "
            f"{_count(s['dev_bought'], 'development card', 'development cards')} bought"
            f"{', winner' if s['winner'] else ''}")


def describe(config: RunConfig, play: int, result: dict[str, pa.Table], board: Board) -> str:
    """One game told turn by turn, then its standing and how it felt; `result` holds the play's games, seats, events
    and standings tables."""
    return "\n".join(account(config, play, result, board) + feel_lines(result, play, STANDING))


def feel_lines(result: dict[str, pa.Table], play: int, standing: Standing) -> list[str]:
    """The play's standing after every turn (its standings table) and how it felt (its games row), in `standing`'s
    words."""
    return [*standing_lines(result["standings"], play, standing),
            feel_sentence(result["games"].to_pylist()[0], standing)]


def account(config: RunConfig, play: int, result: dict[str, pa.Table], board: Board) -> list[str]:
    """The game's lines turn by turn, to the end and every seat's points (a scenario tells its own steps after
    them)."""
    game = result["games"].to_pylist()[0]
    seats = result["seats"].to_pylist()
    events = result["events"].to_pylist()
    places = _Places(board, events)
    ending = (f"seat {game['winners'][0]} wins" if game["completed"] else "stopped by the turn limit, no winner")
    lines = [
        f"Catan, play {play}, {config.players} players, map {config.options['map']}: {ending} after "
        f"{game['turns']} turns",
        "seats: " + ", ".join(f"{s['seat']}={s['policy_spec']}" for s in seats),
        "board: " + ", ".join(f"{h} {name}" for h, name in sorted(places.hexes.items())),
        "set-up:",
    ]
    shown = -1
    for step in _steps(events, places):
        if step.turn < 0:
            lines.append(f"{'':6}seat {step.seat}: {step}")
        elif step.turn != shown:
            lines.append(f"turn {step.turn:4d}  seat {step.turn % config.players}  {step}")
            shown = step.turn
        else:
            lines.append(f"{_INDENT}{step}")
    if game["completed"]:
        last, winner = game["turns"] - 1, game["winners"][0]
        won = f"has {game['final_points'][winner]} points and wins"
        lines.append(f"{_INDENT}{won}" if shown == last else f"turn {last:4d}  seat {winner}  {won} as the turn begins")
    lines.append(f"end: {game['end_reason']} after {game['turns']} turns ({game['rounds']} rounds); points:")
    lines += [_points(s) for s in seats]
    return lines
