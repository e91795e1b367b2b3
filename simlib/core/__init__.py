"""The game-agnostic core: registry, run configuration, seeding, runner, lake writer."""
