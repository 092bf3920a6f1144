"""Catalog parsing rules and the local-server helpers that need no running server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.errors import CatalogError
from graphmem.graph.catalog import load_catalog, parse_statement, schema_statements
from graphmem.server import process
from graphmem.server.runtime import Runtime


def test_catalog_loads_every_file_with_headers() -> None:
    catalog = load_catalog()
    assert "core.upsert_passages" in catalog
    assert catalog["core.upsert_passages"].params == {"space", "session_id", "rows"}
    assert all(s.returns is not None for s in catalog.values())


def test_schema_applies_constraints_before_indexes() -> None:
    names = schema_statements()
    first_index = min(i for i, n in enumerate(names) if not n.startswith("schema.constraints"))
    assert all(n.startswith("schema.constraints") for n in names[:first_index])
    assert "schema.vector.passage" in names and "schema.fulltext.passage" in names


def test_header_must_match_the_parameters_used() -> None:
    src = "// params: $a\n// returns: x\nRETURN $a + $b AS x"
    with pytest.raises(CatalogError, match="differ"):
        parse_statement("t", src)


def test_one_statement_per_file() -> None:
    src = "// params: none\n// returns: none\nRETURN 1; RETURN 2"
    with pytest.raises(CatalogError, match="one statement"):
        parse_statement("t", src)


def test_parameters_inside_string_literals_do_not_count() -> None:
    stmt = parse_statement("t", "// params: $a\n// returns: x\nRETURN $a + '$notparam' AS x")
    assert stmt.params == {"a"}


def _settings(tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", cache_dir=tmp_path / "cache")


def test_stale_pid_file_is_removed(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    lay = process.layout(settings)
    lay.run.mkdir(parents=True)
    lay.pid_file.write_text(str(os.getpid()))  # alive, but not a Neo4j process
    assert process.running_pid(settings) is None
    assert not lay.pid_file.exists()


def test_conf_binds_loopback_with_auth(tmp_path: Path) -> None:
    settings = _settings(tmp_path).model_copy(update={"bolt_port": 17687, "heap_size": "3g"})
    conf = process.render_conf(settings, process.layout(settings), Runtime(tmp_path / "rt"))
    assert "server.bolt.listen_address=127.0.0.1:17687" in conf
    assert "server.default_listen_address=127.0.0.1" in conf
    assert "dbms.security.auth_enabled=true" in conf
    assert "server.memory.heap.max_size=3g" in conf
    assert "dbms.security.procedures.unrestricted=gds.*" in conf


def test_external_uri_means_no_local_start(tmp_path: Path) -> None:
    settings = Settings(NEO4J_URI="bolt://example.invalid:7687", home=tmp_path)
    assert process.start(settings) == {
        "started": False,
        "external": True,
        "uri": "bolt://example.invalid:7687",
    }


def test_store_rows_keep_plain_values_and_convert_maps() -> None:
    import neo4j

    from graphmem.graph.store import _row

    vector = [0.25] * 384
    record = neo4j.Record({"v": vector, "m": {"k": [1, 2]}, "s": "x", "n": None, "e": []})
    row = _row(record)
    assert row == {"v": vector, "m": {"k": [1, 2]}, "s": "x", "n": None, "e": []}
    assert list(row) == ["v", "m", "s", "n", "e"]


def test_blas_threads_are_capped() -> None:
    from threadpoolctl import threadpool_info

    from graphmem.process.threads import limit_blas_threads

    limit_blas_threads(1)
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)
