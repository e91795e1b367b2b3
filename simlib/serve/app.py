"""The workbench's web app: the page, its catalogue, its jobs, and the written report beside it.

The page sends a job's fields, never SQL or code: the server checks each field (jobs.JobSpec.parse) and runs only
the sweeps they describe."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import SimlibError
from .catalogue import catalogue
from .chunk import PlayRequest
from .jobs import FieldErrors, JobSpec, Workbench

STATIC = Path(__file__).parent / "static"


def create_app(reports: Path | None = None, lake: str = "data/lake", workers: int | None = None) -> Starlette:
    """The app; with `reports` (a folder `simlib report` wrote), its pages under /report/. Jobs write to `lake`."""
    report = reports is not None and (reports / "index.html").is_file()
    cached = {"games": catalogue(), "report": report, "lake": lake}  # the registry does not change while it runs
    cached_names = {g["name"] for g in cached["games"]}

    async def page(request):
        return FileResponse(STATIC / "workbench.html")

    async def api_catalogue(request):
        return JSONResponse(cached)

    def job_json(bench: Workbench, job) -> dict:
        return job.public() | {"ahead": bench.queued_ahead(job)}

    async def submit(request):
        bench = request.app.state.workbench
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
        return JSONResponse(job_json(bench, bench.submit(spec)), status_code=201)

    def on_job(action):
        async def handler(request):
            bench = request.app.state.workbench
            try:
                job = action(bench, int(request.path_params["job_id"]))
            except SimlibError as exc:
                return JSONResponse({"errors": {"job": str(exc)}}, status_code=404)
            return JSONResponse(job_json(bench, job))
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
        return JSONResponse([job_json(bench, j) for j in bench.jobs.values()])

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
    return Starlette(routes=routes, lifespan=lifespan)
