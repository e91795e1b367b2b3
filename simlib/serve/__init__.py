"""`simlib serve`: the designer's workbench, a local web app over the same games, lake and report (issue 39).

Starlette (an ASGI toolkit: routes, static files, JSON, background work) served by uvicorn, both well kept and
small; every script and style ships in `static/`, so the page needs no internet. Bound to 127.0.0.1 unless told
otherwise: the page will start runs that write to the lake."""
