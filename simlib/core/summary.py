"""What `simlib simulate` prints after a run, read back from the lake with DuckDB (generic over games), and a
run's set-up in words (the progress bar's label, the batch's lines)."""

from __future__ import annotations

from pathlib import Path

from .config import RunConfig
from .game import Game
from .lake import Lake
from .setups import changed_options, options_label, spec_words, table_words


def setup_words(game: Game, config: RunConfig) -> str:
    """'4 random players, tower 12 penalty points': the line-up and the options that differ from the defaults,
    worded as the set-up mart and the What-if page word them."""
    specs = [str(p) for p in config.policies]
    options = options_label(game, changed_options(game, config.options, one_policy=False))
    return table_words(game, specs) + (f", {options}" if options else "")


def run_summary(lake: Lake | Path | str, game: Game, run_id: str, lineup: list[str]) -> str:
    """Plays, win share (a shared win split among its winners) and mean score by seat; with several policies also by
    policy (in `lineup`'s order); and a line saying how many plays ended in a shared win."""
    import duckdb

    lake = Lake.at(lake)
    con = duckdb.connect()
    lake.register(con)
    seats = f"read_parquet('{lake.url(lake.path(f'seats/game={game.name}/run_id={run_id}/*.parquet'))}')"
    games = f"read_parquet('{lake.url(lake.path(f'games/game={game.name}/run_id={run_id}/*.parquet'))}')"
    shares = (f"(select s.*, case when s.winner then 1.0 / len(g.winners) else 0 end as share from {seats} as s "
              f"join {games} as g using (play_index))")
    by_seat = con.execute(f"select avg(share), avg(score) from {shares} group by seat order by seat").fetchall()
    by_policy = {spec: (w, s) for spec, w, s in con.execute(
        f"select policy_spec::varchar, avg(share), avg(score) from {shares} group by all").fetchall()}
    rotate = con.execute(f"select max(n) > 1 from (select count(distinct policy_spec) as n from {seats} "
                         f"group by seat)").fetchone()[0]
    plays, shared = con.execute(f"select count(*), count(*) filter (where len(winners) > 1) from {games}").fetchone()
    con.close()
    wins, scores = " ".join(f"{w:.1%}" for w, _ in by_seat), " ".join(f"{s:.2f}" for _, s in by_seat)
    lines = [f"{plays:,} play{'s' if plays != 1 else ''}; win share by seat (fair {1 / len(by_seat):.1%}): {wins}; "
             f"mean score by seat: {scores}"]
    if len(by_policy) > 1:
        lines.append(_by_policy(game, by_policy, lineup, rotate))
    if shared:
        lines.append(f"{shared:,} of {plays:,} plays ({shared / plays:.1%}) ended in a shared win, split among its "
                     f"winners")
    return "\n".join(lines)


def _by_policy(game: Game, by_policy: dict[str, tuple[float, float]], lineup: list[str], rotate: bool) -> str:
    order = sorted(by_policy, key=lambda spec: lineup.index(spec) if spec in lineup else len(lineup))
    wins = ", ".join(f"{spec_words(game, spec)} {by_policy[spec][0]:.1%}" for spec in order)
    scores = ", ".join(f"{spec_words(game, spec)} {by_policy[spec][1]:.2f}" for spec in order)
    seating = ("seats rotate: each policy plays every seat in turn" if rotate
               else "each policy keeps its seat")
    return f"win share by policy: {wins} ({seating}); mean score by policy: {scores}"
