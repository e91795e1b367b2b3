"""What `simlib simulate` prints after a run, read back from the lake with DuckDB (generic over games), and a
run's set-up in words (the progress bar's label, the batch's lines)."""

from __future__ import annotations

from pathlib import Path

from .config import RunConfig
from .game import Game
from .lake import Lake


def setup_words(game: Game, config: RunConfig) -> str:
    """'4 random players, tower 12 penalty points': the line-up and the options that differ from the defaults,
    worded as the set-up mart and the What-if page word them."""
    # Imported here: the core does not load simlib.analysis (Polars, DuckDB views) to run a simulation.
    from ..analysis.setups import changed_options, options_label, table_words

    specs = [str(p) for p in config.policies]
    options = options_label(game, changed_options(game, config.options, one_policy=False))
    return table_words(game, specs) + (f", {options}" if options else "")


def run_summary(lake: Lake | Path | str, game: Game, run_id: str, lineup: list[str]) -> str:
    """Plays, win rate and mean score by seat; with several policies also by policy (in `lineup`'s order);
    and a line when shared wins make the seats' win rates add up past 100%."""
    import duckdb

    lake = Lake.at(lake)
    con = duckdb.connect()
    lake.register(con)
    seats = f"read_parquet('{lake.url(lake.path(f'seats/game={game.name}/run_id={run_id}/*.parquet'))}')"
    games = f"read_parquet('{lake.url(lake.path(f'games/game={game.name}/run_id={run_id}/*.parquet'))}')"
    by_seat = con.execute(f"select avg(winner::int), avg(score) from {seats} group by seat order by seat").fetchall()
    by_policy = {spec: (w, s) for spec, w, s in con.execute(
        f"select policy_spec::varchar, avg(winner::int), avg(score) from {seats} group by all").fetchall()}
    rotate = con.execute(f"select max(n) > 1 from (select count(distinct policy_spec) as n from {seats} "
                         f"group by seat)").fetchone()[0]
    plays, shared, winners = con.execute(f"select count(*), count(*) filter (where len(winners) > 1), "
                                         f"coalesce(sum(len(winners)), 0) from {games}").fetchone()
    con.close()
    wins, scores = " ".join(f"{w:.1%}" for w, _ in by_seat), " ".join(f"{s:.2f}" for _, s in by_seat)
    lines = [f"{plays:,} play{'s' if plays != 1 else ''}; win rate by seat: {wins}; mean score by seat: {scores}"]
    if len(by_policy) > 1:
        lines.append(_by_policy(game, by_policy, lineup, rotate))
    if plays and winners > plays:
        lines.append(f"the seats' win rates add up to {winners / plays:.1%}: {shared:,} of {plays:,} plays "
                     f"({shared / plays:.1%}) ended in a shared win, which counts as a win for every winner")
    return "\n".join(lines)


def _by_policy(game: Game, by_policy: dict[str, tuple[float, float]], lineup: list[str], rotate: bool) -> str:
    from ..analysis.setups import spec_words

    order = sorted(by_policy, key=lambda spec: lineup.index(spec) if spec in lineup else len(lineup))
    wins = ", ".join(f"{spec_words(game, spec)} {by_policy[spec][0]:.1%}" for spec in order)
    scores = ", ".join(f"{spec_words(game, spec)} {by_policy[spec][1]:.2f}" for spec in order)
    seating = ("seats rotate: each policy plays every seat in turn" if rotate
               else "each policy keeps its seat")
    return f"win rate by policy: {wins} ({seating}); mean score by policy: {scores}"
