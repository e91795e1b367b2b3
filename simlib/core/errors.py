class SimlibError(Exception):
    """A problem with the user's input or environment, reported as one line (exit status 2)."""
