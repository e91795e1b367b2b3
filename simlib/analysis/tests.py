"""Data tests declared in the pipelines' schema.toml files, run against the built models."""

from __future__ import annotations

from .models import Model


def _checks(model: Model) -> list[tuple[str, str]]:
    """(description, SQL counting offending rows) for every declared test."""
    t = model.name
    checks = []
    if model.unique:
        keys = ", ".join(model.unique)
        checks.append((f"{t}: ({keys}) unique",
                       f"select count(*) from (select {keys} from {t} group by all having count(*) > 1)"))
    for col in model.not_null:
        checks.append((f"{t}.{col} not null", f"select count(*) from {t} where {col} is null"))
    for col, values in model.accepted_values.items():
        listed = ", ".join(f"'{v}'" for v in values)
        checks.append((f"{t}.{col} in accepted values", f"select count(*) from {t} where {col} not in ({listed})"))
    for col, (low, high) in model.ranges.items():
        checks.append((f"{t}.{col} in [{low}, {high}]",
                       f"select count(*) from {t} where {col} < '{low}'::double or {col} > '{high}'::double"))
    return checks


def documented_columns_match(con, model: Model) -> list[str]:
    """Every column the model has is described in its schema.toml, and nothing else is."""
    actual = {c[0] for c in con.execute(f"describe {model.name}").fetchall()}
    if actual == set(model.columns):
        return []
    return [f"{model.name}: columns not documented {sorted(actual - set(model.columns))}, "
            f"documented but absent {sorted(set(model.columns) - actual)}"]


def run_data_tests(con, models: list[Model], documented_only: list[Model] = ()) -> tuple[list[str], int]:
    """Failures and the number of tests run: every declared test of `models`, and the documentation
    check of those and of `documented_only` (whose rows are not scanned)."""
    failures = []
    count = 0
    for model in [*models, *documented_only]:
        failures += documented_columns_match(con, model)
        count += 1
    for model in models:
        for description, sql in _checks(model):
            count += 1
            bad = con.execute(sql).fetchone()[0]
            if bad:
                failures.append(f"{description}: {bad} rows fail")
    return failures, count
