"""simlib: balance analysis of board games by batch simulation.

In a notebook: `con = simlib.connect()` opens the lake and the marts read-only, with the same views as
`simlib sql` (docs/lake.md); `con.sql("select ...").df()` gives pandas, `.pl()` Polars.
"""

from __future__ import annotations

from pathlib import Path

from .core import __version__

__all__ = ["__version__", "connect"]


def connect(lake: str | Path = "data/lake", marts: str | Path = "data/marts"):
    """A read-only DuckDB connection over the lake (a folder, or an object-store URL such as s3://bucket/lake)
    and the marts (paths relative to the working directory)."""
    from .analysis.sql import open_readonly
    from .core.errors import SimlibError
    from .core.lake import Lake

    lake = Lake.at(lake)
    if not lake.fs.isdir(lake.root):
        raise SimlibError(f"no lake at {lake.url(lake.root)}: simulate first, or pass connect(lake=..., marts=...)")
    return open_readonly(lake, Path(marts))
