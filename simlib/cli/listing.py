"""What simlib knows, listed: `simlib games`, `policies`, `params` and `schema`."""

from __future__ import annotations

import shutil
import sys
import textwrap

from ..core.registry import games, get_game
from . import flags


def add_commands(sub) -> None:
    sub.add_parser("games", help="list the games").set_defaults(func=_cmd_games)
    p = sub.add_parser("policies", help="list a game's policies and their parameters")
    flags.add_game(p)
    p.set_defaults(func=_cmd_policies)
    p = sub.add_parser("params", help="list a game's rule parameters with provenance")
    flags.add_game(p)
    p.set_defaults(func=_cmd_params)
    p = sub.add_parser("schema", help="print the lake's documented columns and views (Markdown; docs/lake.md)")
    p.set_defaults(func=_cmd_schema)


def _columns(header: tuple[str, ...], rows: list[tuple]) -> str:
    """Rows under a header, every column as wide as its longest cell; on a terminal the last column (free text)
    wrapped to its width and indented under itself, elsewhere one line a row (for grep)."""
    cells = [tuple(map(str, row)) for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header) - 1)]
    indent = sum(widths) + 2 * len(widths)
    room = max(40, shutil.get_terminal_size().columns - indent) if sys.stdout.isatty() else 10**6
    lines = []
    for row in cells:
        lead = "".join(f"{cell:{width}s}  " for cell, width in zip(row, widths))
        text = textwrap.wrap(row[-1], room) or [""]
        lines += [(lead + text[0]).rstrip()] + [" " * indent + more for more in text[1:]]
    return "\n".join(lines)


def _cmd_games(args) -> None:
    rows = [(g.name, f"{g.min_players}-{g.max_players}", g.rules_version, g.title) for g in games().values()]
    print(_columns(("game", "players", "rules_version", "title"), rows))


def _cmd_policies(args) -> None:
    rows = []
    for info in get_game(args.game).policies().values():
        rows.append((info.name, "", "", info.description))
        rows += [("", key, f"{default:g}", info.param_docs.get(key, "")) for key, default in info.params.items()]
    print(_columns(("policy", "parameter", "default", "description"), rows))


def _cmd_params(args) -> None:
    params = get_game(args.game).parameters().values()
    rows = [(p.name, _shown(p.default), "derived" if p.derived else p.provenance, p.doc) for p in params]
    print(_columns(("parameter", "default", "provenance", "description"), rows))
    if any(p.derived for p in params):
        print("derived parameters are filled in from the others when a run is configured: they cannot be set")


def _shown(value) -> str:
    """A default as a designer types it with --option (true, not True; "" for an empty text)."""
    if isinstance(value, bool):
        return str(value).lower()
    return '""' if value == "" else str(value)


def _cmd_schema(args) -> None:
    from ..analysis.duck import views_markdown
    from ..core.docs import lake_markdown

    print(lake_markdown())
    print(views_markdown())
