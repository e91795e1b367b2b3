"""The game-agnostic core: registry, run configuration, seeding, runner, lake writer."""

# simlib's version: part of every run id, so it lives in the lowest layer; `simlib.__version__` is this one.
__version__ = "0.1.0"
