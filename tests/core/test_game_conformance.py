"""What every registered game owes the core and the generic pipelines (run for each game)."""

from __future__ import annotations

import pytest

from simlib.analysis.duck import views_markdown
from simlib.core.config import RunConfig
from simlib.core.docs import lake_markdown
from simlib.core.lake import REQUIRED_COLUMNS
from simlib.core.registry import games

from support.paths import REPO

GAMES = list(games().values())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_tables_have_the_generic_columns_and_documentation(game):
    schemas = game.schemas()
    for table, columns in REQUIRED_COLUMNS.items():
        assert set(columns) <= set(schemas[table].names), table
    for schema in schemas.values():
        for field in schema:
            assert field.metadata and field.metadata.get(b"doc"), field.name


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_parameters_carry_provenance(game):
    for p in game.parameters().values():
        assert p.provenance in ("seed", "published", "assumed") and p.doc
        assert p.provenance == "assumed" or p.source, f"{p.name} needs a source"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_simulate_returns_the_declared_schemas(game):
    block = game.block_size(RunConfig.build(game, players=game.min_players, policies=["random"], plays=1000,
                                            seed=1))
    config = RunConfig.build(game, players=game.max_players, policies=["random"], plays=2 * block, seed=3,
                             events=True, standings="standings" in game.schemas())
    tables = game.simulate(config, 0, 2 * block, events=True)
    for name, schema in game.schemas().items():
        assert tables[name].schema.equals(schema, check_metadata=False), name
    assert tables["games"].num_rows == 2 * block
    assert tables["seats"].num_rows == 2 * block * game.max_players


def test_docs_lake_md_is_current():
    committed = (REPO / "docs" / "lake.md").read_text()
    current = lake_markdown() + "\n" + views_markdown()
    assert committed.strip() == current.strip(), "run `make docs` and commit docs/lake.md"
