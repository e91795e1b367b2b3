"""`python -m simlib.cli`, as the `simlib` console script."""

import sys

from . import main

sys.exit(main())
