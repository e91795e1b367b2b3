"""Hypothesis profiles: CI (`bash .ci/run`, which runs with CI=true) runs the same examples every time;
locally the tests keep Hypothesis's default, randomised profile and draw new examples on every run.

The profile is loaded here, before pytest imports the test modules, so a test's own `@settings(...)`
(e.g. max_examples, deadline) takes everything it does not set from the loaded profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

# derandomize: the examples follow from the test alone, the same on every run; no deadline (Numba compiles
# on a test's first call); no example database, neither read nor written.
settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)

if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
    settings.load_profile("ci")

# Tests import game modules directly (a kernel, a rules module): load the registry first, which checks every
# game's Numba cache against its sources before any game is imported.
from simlib.core.registry import games  # noqa: E402

games()
