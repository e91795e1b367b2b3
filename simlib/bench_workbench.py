"""`make bench-workbench`: how long a designer waits for the workbench's first verdict, per game, at random players.

Each game gets a fresh app (so the time includes starting the worker process and loading the game's compiled
kernels, as the first job after `simlib serve` does) and one job of one variant; the figure is the job's own
`first_verdict_seconds` (submitted to the first chunk's verdicts) and the time until the page's next poll could show
it. Issue 39 asks for at most 10 s for Die Mauer, Mauerbruch, 7 Steps and Burgenland and 30 s for Catan and Die
Mauerspechte, with kernels compiled (`simlib compile`). Writes to a temporary lake.
"""

from __future__ import annotations

import argparse
import tempfile
import time

# One variant a game: a rule the text reads two ways, or a cost; what matters here is the time, not the effect.
VARIANTS = {
    "mauer": {"penalty_tower": "12"},
    "mauerbruch": {"opening": "piles"},
    "sevensteps": {"first_disc": "colour"},
    "burgenland": {"start_hands": "equal"},
    "catan": {"victory_points": "9"},
    "mauerspechte": {"hotel_points": "1"},
}
LIMITS = {"catan": 30.0, "mauerspechte": 30.0}  # seconds; 10 for the others


def first_verdict(game: str, lake: str, players: int) -> tuple[float, float, float]:
    """(seconds to the first verdict as the job counts them, seconds until a poll returned it, the slowest poll's
    seconds while plays ran: how responsive the page stays)."""
    from starlette.testclient import TestClient

    from .serve.app import create_app

    with TestClient(create_app(lake=lake)) as client:
        began = time.perf_counter()
        job = client.post("/api/jobs", json={"game": game, "players": players, "lineup": "random",
                                             "vary": VARIANTS[game], "budget": 10**9, "width": 1e-9})
        if job.status_code != 201:
            raise SystemExit(f"{game}: {job.json()}")
        job_id = job.json()["id"]
        slowest = 0.0
        while True:
            asked = time.perf_counter()
            shown = client.get(f"/api/jobs/{job_id}").json()
            slowest = max(slowest, time.perf_counter() - asked)
            if shown["verdicts"] or shown["state"] == "failed":
                break
            time.sleep(0.05)
        polled = time.perf_counter() - began
        client.post(f"/api/jobs/{job_id}/stop", json={})
        while client.get(f"/api/jobs/{job_id}").json()["state"] not in ("stopped", "done", "failed"):
            time.sleep(0.05)  # the running chunk ends before its lake is removed
        if shown["state"] == "failed":
            raise SystemExit(f"{game}: {shown['reason']}")
        return shown["first_verdict_seconds"], polled, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(VARIANTS))
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    print(f"{'game':<14}{'first verdict (s)':>19}{'shown by a poll (s)':>21}{'limit (s)':>11}"
          f"{'slowest poll (ms)':>19}")
    late = []
    for game in args.games:
        with tempfile.TemporaryDirectory() as tmp:
            seconds, polled, slowest = first_verdict(game, f"{tmp}/lake", args.players)
        limit = LIMITS.get(game, 10.0)
        late += [game] * (polled > limit)
        print(f"{game:<14}{seconds:>19.1f}{polled:>21.1f}{limit:>11.0f}{1000 * slowest:>19.0f}", flush=True)
    print("every game within its limit" if not late else f"over the limit: {', '.join(late)}")
    return 1 if late else 0


if __name__ == "__main__":
    raise SystemExit(main())
