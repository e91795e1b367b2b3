"""`simlib` commands run in the test's own process: `main(argv)` with its output captured.

A child Python process costs about a second of start-up and imports before the command does anything; most
command-line tests check a status and a line of output, which the same `main` gives in process. A few tests
start the installed entry point in a child on purpose (the console script, a signal, a closed pipe): they
say so.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass


@dataclass(frozen=True)
class CliResult:
    """What a command left: the fields of subprocess.CompletedProcess that the tests read."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


def _stream() -> io.TextIOWrapper:
    # a text stream with a byte buffer under it, as sys.stdout has (`simlib sql --format parquet` writes bytes)
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", errors="replace")


def run_cli(*args: object) -> CliResult:
    """`simlib ARGS...` in process: its status, standard output and standard error."""
    from simlib.cli import main

    argv = [str(a) for a in args]
    out, err = _stream(), _stream()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as done:  # a command that exits rather than returns still gives its status
            status = done.code if isinstance(done.code, int) else 1
    sys.stdout.flush()
    return CliResult(tuple(argv), status or 0, _text(out), _text(err))
