"""The flags of `simlib`'s commands, each declared once here, and the number types and limits they parse with;
the values they give are turned into the core's and the design layer's objects by the commands, at the edge."""

from __future__ import annotations

import argparse
import math

from ..core import limits
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.params import gather_options
from ..core.registry import games

SEED_DEFAULT = 0  # every command's: a run's id depends on its seed, and simulate's runs always had 0


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, exit status 2
        # argparse quotes arguments as typed: a line break or other control character in one is written escaped
        raise SimlibError("".join(c if c.isprintable() else repr(c)[1:-1] for c in message))


def integer(text: str) -> int:
    """An integer flag's value; argparse's own message ("invalid int value") does not read well."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more seconds (0: no limit)")
    return value


def within(flag: str, limit):
    """A number flag's type: its value parsed (an integer, or a number for a real limit) and checked against its
    range in simlib/core/limits.py, one line that says the range, before anything is allocated or written."""
    def parse(text: str):
        if limit.integer:
            return limit.check(flag, integer(text))
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        return limit.check(flag, value)
    return parse


def _players(text: str) -> int:
    if "," in text:
        raise argparse.ArgumentTypeError(f"{text!r}: give one number of players (only simlib sweep takes several)")
    return integer(text)


def _several_players(text: str) -> list[int]:
    return [integer(part) for part in text.split(",")]


def _lake_location(text: str) -> str:
    if not text.strip():  # an empty path is the current folder: a lake's tables would land among its files
        raise argparse.ArgumentTypeError("give a folder or an object-store URL, not an empty string")
    return text


def add_game(p: argparse.ArgumentParser, optional: bool = False) -> None:
    if optional:
        p.add_argument("game", nargs="?", help="only this game (default: all)")
    else:
        p.add_argument("game", help="a game (simlib games lists them)")


def add_lake(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lake", default="data/lake", type=_lake_location,
                   help="the lake: a folder, or an object-store URL such as s3://bucket/prefix (default data/lake)")


def add_workers(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=within("--workers", limits.WORKERS),
                   help="worker processes of the local executor (default: all cores)")


def add_run_location(p: argparse.ArgumentParser) -> None:
    """Where a command's runs are simulated and written; see docs/scaling.md."""
    add_lake(p)
    add_workers(p)
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="local: this machine's processes (default); dask: the workers of a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler, e.g. tcp://host:8786 (default: $SIMLIB_DASK_SCHEDULER)")


def open_executor(args):
    from ..core.executors import open_executor

    return open_executor(args.executor, args.scheduler, args.workers)


def add_players(p: argparse.ArgumentParser, several: bool = False) -> None:
    if several:
        p.add_argument("--players", type=_several_players, required=True, help="number of players, or several: 3,4")
    else:
        p.add_argument("--players", type=_players, required=True, help="number of players")


def add_policies(p: argparse.ArgumentParser, several: bool = False) -> None:
    if several:
        p.add_argument("--policies", action="append", required=True,
                       help="a line-up: one policy, or one per seat (a,b,c); repeat for several")
    else:
        p.add_argument("--policies", required=True, help="the line-up: one policy, or one per seat: a,b,c "
                                                         "(name:param=value)")


def add_plays(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--plays", type=within("--plays", limits.PLAYS), required=True, help=what)


def add_seed(p: argparse.ArgumentParser, what: str, limit=limits.SEED) -> None:
    p.add_argument("--seed", type=within("--seed", limit), default=SEED_DEFAULT, help=f"{what} (default 0)")


def _option_flags() -> dict[str, list[str]]:
    """The parameters `simlib simulate` takes as flags of their own (`flag` in a game's parameters.toml), each with
    its help text per game: {"rounds": ["mauer: Spielrunden per match"]}."""
    flags: dict[str, list[str]] = {}
    for game in games().values():
        for name, p in game.parameters().items():
            if p.flag:
                flags.setdefault(name, []).append(f"{game.name}: {p.flag}")
    return flags


def add_options(p: argparse.ArgumentParser, runs: str = "every run", own_flags: bool = False) -> None:
    """--option and --params (and with `own_flags` each parameter's own flag, such as --rounds): rule parameters
    fixed for `runs`."""
    if own_flags:
        for name, helps in _option_flags().items():
            p.add_argument(f"--{name.replace('_', '-')}", dest=f"option_{name}", metavar="VALUE",
                           help=f"same as --option {name}=VALUE ({'; '.join(helps)})")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help=f"a rule parameter's value for {runs}")
    p.add_argument("--params", metavar="FILE", help=f"TOML file of rule parameter values for {runs}")


def options(args, game: Game) -> dict:
    """The rule parameters the command was given (a file, a parameter's own flag, --option), as the core gathers
    and checks them."""
    flags = {name: getattr(args, f"option_{name}") for name in _option_flags()
             if getattr(args, f"option_{name}", None) is not None}  # every game's: another's is refused as unknown
    return gather_options(game.name, game.parameters(), args.params, flags, args.option)


def add_events(p: argparse.ArgumentParser) -> None:
    p.add_argument("--events", action="store_true", help="also write the events table (much larger)")
    p.add_argument("--standings", action="store_true",
                   help="also write the standings table: each seat's standing after each turn (play, turn, seat)")


def add_quiet(p: argparse.ArgumentParser, what: str = "no progress bar (on a terminal) or progress lines (in a log)"):
    p.add_argument("--quiet", action="store_true", help=what)


def add_marts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--marts", default="data/marts", help="the marts folder (default data/marts)")


def add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default="data/simlib.duckdb",
                   help="the DuckDB file with views and marts (default data/simlib.duckdb)")


def add_out(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="reports", help="where index.html and the game pages go (default reports)")
