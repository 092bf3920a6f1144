"""``graphmem init``: apply ``schema/`` idempotently and pin the embedder in a meta node."""

from __future__ import annotations

from typing import Any

from graphmem.catalog import schema_statements
from graphmem.embed import Embedder
from graphmem.errors import SchemaError
from graphmem.store import GraphStore

SCHEMA_VERSION = 1
_META_KEY = "schema"


def stored_meta(store: GraphStore) -> dict[str, Any] | None:
    rows = store.read("meta.get", key=_META_KEY)
    return rows[0] if rows else None


def check_embedder(store: GraphStore, embedder: Embedder) -> None:
    """Vectors of two embedders can't share an index: refuse instead of mixing them."""
    meta = stored_meta(store)
    if meta is None:
        raise SchemaError("the database has no graphmem schema yet", hint="run `graphmem init`")
    if meta["embedder"] != embedder.name or meta["dim"] != embedder.dim:
        raise SchemaError(
            f"the database is indexed with {meta['embedder']} (dim {meta['dim']}) but "
            f"{embedder.name} (dim {embedder.dim}) is configured",
            hint="configure the same embedder, or use a fresh database",
        )


def init_schema(store: GraphStore, embedder: Embedder) -> dict[str, Any]:
    meta = stored_meta(store)
    if meta is not None:
        check_embedder(store, embedder)
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
    }
