"""simlib: balance analysis of board games by batch simulation."""

__version__ = "0.1.0"
