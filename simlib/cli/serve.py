"""`simlib serve`: the designer's workbench in the browser (simlib/serve)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from ..core import limits
from ..core.errors import SimlibError
from . import flags


def add_commands(sub) -> None:
    p = sub.add_parser("serve", help="open the designer's workbench: a local web page over the games and the report")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; the page starts runs)")
    p.add_argument("--port", type=flags.within("--port", limits.PORT), default=limits.DEFAULT_PORT,
                   help=f"the port (default {limits.DEFAULT_PORT})")
    p.add_argument("--reports", default="reports", help="the written report's folder, served under /report/ "
                                                        "(default reports)")
    flags.add_lake(p)
    flags.add_workers(p)
    p.add_argument("--marts", default="data/marts", help="the marts the report was written from: the plays it names "
                                                          "as examples are listed to open (default data/marts)")
    p.set_defaults(func=_cmd_serve)


def _check_free(host: str, port: int) -> None:
    """One clear line, before the server starts, when the address cannot be listened on."""
    try:
        with socket.create_server((host, port)):
            pass
    except socket.gaierror:
        raise SimlibError(f"--host {host!r}: not an address of this machine") from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise SimlibError(f"port {port} on {host} is in use (another simlib serve?): choose one with --port") \
                from None
        raise SimlibError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _cmd_serve(args) -> int:
    import uvicorn

    from ..serve.app import create_app

    _check_free(args.host, args.port)
    reports = Path(args.reports)
    print(f"simlib workbench on http://{args.host}:{args.port}/ (Ctrl-C stops it)"
          + ("" if (reports / "index.html").is_file() else f"; no report in {reports}/ yet: `make report` writes one"),
          flush=True)
    # Only requests addressed to this machine by the name it was started with (DNS rebinding cannot reach it); on
    # every address (0.0.0.0), any name.
    hosts = ["*"] if args.host in ("0.0.0.0", "::") else sorted({args.host, "127.0.0.1", "localhost"})
    uvicorn.run(create_app(reports, args.lake, args.workers, hosts, Path(args.marts)), host=args.host, port=args.port,
                log_level="warning")
    return 0
