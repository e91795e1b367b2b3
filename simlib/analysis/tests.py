"""Data tests declared in the pipelines' schema.toml files, run against the built models."""

from __future__ import annotations

from .models import Model, shared_column_docs


def _row_checks(model: Model) -> list[tuple[str, str]]:
    """(description, condition an offending row meets) for every declared test on single rows."""
    t = model.name
    checks = [(f"{t}.{col} not null", f"{col} is null") for col in model.not_null]
    for col, values in model.accepted_values.items():
        listed = ", ".join(f"'{v}'" for v in values)
        checks.append((f"{t}.{col} in accepted values", f"{col} not in ({listed})"))
    for col, (low, high) in model.ranges.items():
        checks.append((f"{t}.{col} in [{low}, {high}]", f"{col} < '{low}'::double or {col} > '{high}'::double"))
    return checks


def _offending_rows(con, model: Model) -> list[tuple[str, int]]:
    """Every declared test of the model with the rows that fail it: the row tests in one scan of the model
    (one query per test cost seconds over a report's marts), the unique key in its own query."""
    results = []
    if model.unique:
        keys = ", ".join(model.unique)
        sql = f"select count(*) from (select {keys} from {model.name} group by all having count(*) > 1)"
        results.append((f"{model.name}: ({keys}) unique", con.execute(sql).fetchone()[0]))
    checks = _row_checks(model)
    if checks:
        counts = ", ".join(f"count(*) filter (where {condition})" for _, condition in checks)
        row = con.execute(f"select {counts} from {model.name}").fetchone()
        results += [(description, bad) for (description, _), bad in zip(checks, row)]
    return results


def documented_columns_match(con, model: Model, shared: frozenset[str] = frozenset()) -> list[str]:
    """Every column the model has is described in its schema.toml or among the `shared` columns, and nothing
    that it lacks is described in its schema.toml."""
    actual = {c[0] for c in con.execute(f"describe {model.name}").fetchall()}
    undocumented = actual - set(model.columns) - shared
    absent = set(model.columns) - actual
    if not undocumented and not absent:
        return []
    return [f"{model.name}: columns not documented {sorted(undocumented)}, documented but absent {sorted(absent)}"]


def run_data_tests(con, models: list[Model], documented_only: list[Model] = ()) -> tuple[list[str], int]:
    """Failures and the number of tests run: every declared test of `models`, and the documentation
    check of those and of `documented_only` (whose rows are not scanned)."""
    failures = []
    count = 0
    shared = frozenset(shared_column_docs())
    for model in [*models, *documented_only]:
        failures += documented_columns_match(con, model, shared)
        count += 1
    for model in models:
        for description, bad in _offending_rows(con, model):
            count += 1
            if bad:
                failures.append(f"{description}: {bad} rows fail")
    return failures, count
