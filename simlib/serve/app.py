"""The workbench's web app: the page, its catalogue, its jobs, and the written report beside it.

The page sends a job's fields, never SQL or code: the server checks each field (jobs.JobSpec.parse) and runs only
the sweeps they describe."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import SimlibError
from .catalogue import catalogue
from .chunk import PlayRequest
from .examples import report_examples
from .jobs import Workbench
from .spec import FieldErrors, JobSpec

STATIC = Path(__file__).parent / "static"
NOT_JSON = JSONResponse({"errors": {"form": "send the request as application/json"}}, status_code=415)


def sent_as_json(request) -> bool:
    """A POST that starts or stops work must say it is JSON: a page of another site cannot send that without the
    browser asking this server first, and the server does not say yes (no CORS), so no other site can start runs."""
    return request.headers.get("content-type", "").split(";")[0].strip() == "application/json"


def create_app(reports: Path | None = None, lake: str = "data/lake", workers: int | None = None,
               hosts: list[str] | None = None, marts: Path | None = None) -> Starlette:
    """The app; with `reports` (a folder `simlib report` wrote), its pages under /report/, and with `marts` (the
    folder it was written from) the plays it names as examples. Jobs write to `lake`.
    `hosts`: the host names requests may be addressed to (a page of another site that renames itself to this
    machine's address is refused); None: any."""
    report = reports is not None and (reports / "index.html").is_file()
    # the registry does not change while the server runs; the report's examples are read once, as the report is
    cached = {"games": catalogue(), "report": report, "lake": lake,
              "examples": report_examples(marts) if marts is not None else []}
    cached_names = {g["name"] for g in cached["games"]}

    async def page(request):
        return FileResponse(STATIC / "workbench.html")

    async def api_catalogue(request):
        return JSONResponse(cached)

    async def submit(request):
        bench = request.app.state.workbench
        if not sent_as_json(request):
            return NOT_JSON
        try:
            data = await request.json()
        except ValueError:
            return JSONResponse({"errors": {"form": "the request is not JSON"}}, status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"errors": {"form": "the request is not a job's fields"}}, status_code=400)
        try:
            spec = JobSpec.parse(data)
        except FieldErrors as exc:
            return JSONResponse({"errors": exc.errors}, status_code=400)
        return JSONResponse(bench.public(bench.submit(spec)), status_code=201)

    def on_job(action):
        async def handler(request):
            bench = request.app.state.workbench
            if request.method == "POST" and not sent_as_json(request):
                return NOT_JSON
            try:
                job = action(bench, int(request.path_params["job_id"]))
            except SimlibError as exc:
                return JSONResponse({"errors": {"job": str(exc)}}, status_code=404)
            return JSONResponse(bench.public(job))
        return handler

    async def play_page(request):
        return FileResponse(STATIC / "play.html")

    def asked(request, number: str, words: str) -> tuple[str, int]:
        """The query's game and one whole number of it, or FieldErrors naming the bad one."""
        query = request.query_params
        if query.get("game") not in cached_names:
            raise FieldErrors({"game": f"unknown game {query.get('game')!r}"})
        try:
            return query["game"], int(query.get(number, ""))
        except ValueError:
            raise FieldErrors({number: words}) from None

    def work(field: str, status: int):
        """A GET that the worker answers: bad fields are 400, a refusal of the work itself `status` under `field`."""
        def wrap(answer):
            async def handler(request):
                try:
                    return JSONResponse(await answer(request, request.app.state.workbench))
                except FieldErrors as exc:
                    return JSONResponse({"errors": exc.errors}, status_code=400)
                except SimlibError as exc:
                    return JSONResponse({"errors": {field: str(exc)}}, status_code=status)
            return handler
        return wrap

    @work("run", 404)
    async def api_play(request, bench):
        """One play of a run, told step by step: ?game=NAME&run=RUN_ID&play=INDEX."""
        game, play = asked(request, "play", "the play is a whole number, from 0")
        return await run_in_threadpool(bench.tell_play, PlayRequest(game, request.query_params.get("run", ""), play,
                                                                    lake))

    @work("lineup", 400)
    async def api_speed(request, bench):
        """What a line-up costs on this machine, before it runs: ?game=NAME&players=N&lineup=SPEC."""
        game, players = asked(request, "players", "a whole number of players")
        return await run_in_threadpool(bench.speed, game, players, request.query_params.get("lineup", ""))

    async def jobs(request):
        bench = request.app.state.workbench
        return JSONResponse([bench.public(j) for j in bench.jobs.values()])

    @asynccontextmanager
    async def lifespan(app):
        app.state.workbench = Workbench(lake, workers)
        try:
            yield
        finally:
            app.state.workbench.close()

    routes = [Route("/", page), Route("/api/catalogue", api_catalogue),
              Route("/play", play_page), Route("/api/play", api_play), Route("/api/speed", api_speed),
              Route("/api/jobs", jobs, methods=["GET"]), Route("/api/jobs", submit, methods=["POST"]),
              Route("/api/jobs/{job_id:int}", on_job(Workbench.job), methods=["GET"]),
              Route("/api/jobs/{job_id:int}/stop", on_job(Workbench.stop), methods=["POST"]),
              Route("/api/jobs/{job_id:int}/resume", on_job(Workbench.resume), methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    if report:
        routes.append(Mount("/report", StaticFiles(directory=reports, html=True), name="report"))
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
