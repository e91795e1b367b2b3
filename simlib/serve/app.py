"""The workbench's web app: the page, its catalogue, and the written report beside it."""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .catalogue import catalogue

STATIC = Path(__file__).parent / "static"


def create_app(reports: Path | None = None) -> Starlette:
    """The app; with `reports` (a folder `simlib report` wrote), its pages under /report/."""
    report = reports is not None and (reports / "index.html").is_file()
    cached = {"games": catalogue(), "report": report}  # the registry does not change while the server runs

    async def page(request):
        return FileResponse(STATIC / "workbench.html")

    async def api_catalogue(request):
        return JSONResponse(cached)

    routes = [Route("/", page), Route("/api/catalogue", api_catalogue),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    if report:
        routes.append(Mount("/report", StaticFiles(directory=reports, html=True), name="report"))
    return Starlette(routes=routes)
