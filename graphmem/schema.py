"""``graphmem init``: apply ``schema/`` idempotently and pin the embedder in a meta node."""

from __future__ import annotations

from typing import Any

from graphmem.catalog import schema_statements
from graphmem.embed import Embedder
from graphmem.errors import SchemaError
from graphmem.store import GraphStore

# 2: range indexes on space (schema/indexes/), passage_search also indexes space.
SCHEMA_VERSION = 2
_META_KEY = "schema"


def stored_meta(store: GraphStore) -> dict[str, Any] | None:
    rows = store.read("meta.get", key=_META_KEY)
    return rows[0] if rows else None


def check_embedder(store: GraphStore, embedder: Embedder) -> None:
    """Before reading or writing: the database has this code's schema version (else the
    full-text query, which requires the space field, would silently find nothing against
    the older index) and was indexed with the configured embedder."""
    meta = stored_meta(store)
    if meta is None:
        raise SchemaError("the database has no graphmem schema yet", hint="run `graphmem init`")
    if int(meta.get("schema_version") or 0) < SCHEMA_VERSION:
        raise SchemaError(
            f"the database has graphmem schema version {meta.get('schema_version')}, this "
            f"graphmem needs {SCHEMA_VERSION}",
            hint="run `graphmem init` (it upgrades the indexes in place; data is kept)",
        )
    _same_embedder(meta, embedder)


def _same_embedder(meta: dict[str, Any], embedder: Embedder) -> None:
    """Vectors of two embedders can't share an index: refuse instead of mixing them."""
    if meta["embedder"] != embedder.name or meta["dim"] != embedder.dim:
        raise SchemaError(
            f"the database is indexed with {meta['embedder']} (dim {meta['dim']}) but "
            f"{embedder.name} (dim {embedder.dim}) is configured",
            hint="configure the same embedder, or use a fresh database",
        )


# Indexes whose definition grew since they were first created: `CREATE ... IF NOT EXISTS`
# keeps an existing index as it is, so init drops one that lacks the property (it is then
# created again, and populated in the background until admin.await_indexes returns).
GROWN_INDEXES = {"passage_search": "space"}


def _replace_grown_indexes(store: GraphStore) -> list[str]:
    replaced = []
    for name, prop in GROWN_INDEXES.items():
        rows = store.read("admin.index_properties", index=name)
        if rows and prop not in (rows[0]["properties"] or []):
            store.write("admin.drop_index", index=name)
            replaced.append(name)
    return replaced


def init_schema(store: GraphStore, embedder: Embedder) -> dict[str, Any]:
    meta = stored_meta(store)
    if meta is not None:
        _same_embedder(meta, embedder)
    replaced = _replace_grown_indexes(store)
    applied = schema_statements()
    for name in applied:
        params = {"dim": embedder.dim} if name.startswith("schema.vector.") else {}
        store.write(name, **params)
    store.write("admin.await_indexes", timeout_s=300)
    store.write(
        "meta.put",
        key=_META_KEY,
        schema_version=SCHEMA_VERSION,
        embedder=embedder.name,
        dim=embedder.dim,
    )
    return {
        "schema_version": SCHEMA_VERSION,
        "statements": len(applied),
        "embedder": embedder.name,
        "dim": embedder.dim,
        "created": meta is None,
        "replaced_indexes": replaced,
    }
