"""Game packages. Each registers itself under the `simlib.games` entry-point group in pyproject.toml."""
