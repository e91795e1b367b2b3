"""The `simlib` command line: the parser assembled from the command groups (listing, runs, design, lake), each a
module of its own over the flags of flags.py, and `main`, which turns an error into one line and a status."""

from __future__ import annotations

import argparse
import os
import sys

from ..core import __version__
from ..core.errors import SimlibError
from . import design, lake, listing, runs, serve
from .flags import Parser


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="simlib", description="Simulate board games in batches and analyse their balance.")
    parser.add_argument("--version", action="version", version=f"simlib {__version__}",
                        help="print simlib's version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in (listing, runs, design, lake, serve):
        group.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help and --version print and exit: a status, here as for any command
            return done.code or 0
        if args.command is None:  # bare `simlib`: what it can do, on stdout (asked for, not an error)
            parser.print_help()
            return 0
        status = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except SimlibError as exc:
        print(f"simlib: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simlib: interrupted; finished parts are kept, rerun the same command to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`simlib replay ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status or 0
