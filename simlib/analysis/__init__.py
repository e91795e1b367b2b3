"""Analysis over the lake: the SQL/Polars pipeline, ad-hoc SQL, and the report."""

# `simlib sql`'s default time limit in seconds: minutes for the heaviest query over 10 million plays, not an
# endless cross join. Here, not in sql.py, so that the command line reads it without importing DuckDB.
SQL_TIMEOUT = 600.0
