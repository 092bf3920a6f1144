"""``graphmem init``: apply ``schema/`` idempotently and pin the embedder in a meta node.

Two pins, because vector indexes are per label and shared by every space, and an index has
one dimension while vectors of one dimension may come from different models:

- the database pins the dimension (``GraphmemMeta.dim``): every space's vectors have it,
  and only ``graphmem reembed --all`` changes it (dropping and rebuilding the indexes);
- each space pins its embedder (``Space.embedder``, the model's name with ``:int8`` for a
  quantised graph), set by its first ingest and changed by ``graphmem reembed``. A space
  written before spaces were pinned one by one has no pin and counts as built with the
  database's ``GraphmemMeta.embedder`` (the embedder ``init`` first saw).

A space's vectors are compared only with its own queries (every search filters by space),
so two spaces of one database may use two 384-d models.
"""

from __future__ import annotations

from typing import Any

from graphmem.embed import Embedder
from graphmem.errors import SchemaError
from graphmem.graph.catalog import schema_statements
from graphmem.graph.store import GraphStore
from graphmem.plugin.registry import registry

# 2: range indexes on space (schema/indexes/), passage_search also indexes space.
SCHEMA_VERSION = 2
META_KEY = "schema"


def stored_meta(store: GraphStore) -> dict[str, Any] | None:
    rows = store.read("meta.get", key=META_KEY)
    return rows[0] if rows else None


def check_embedder(store: GraphStore, embedder: Embedder) -> None:
    """Before reading or writing: the database has this code's schema version (else the
    full-text query, which requires the space field, would silently find nothing against
    the older index) and vector indexes of the configured embedder's dimension."""
    meta = stored_meta(store)
    if meta is None:
        raise SchemaError("the database has no graphmem schema yet", hint="run `graphmem init`")
    if int(meta.get("schema_version") or 0) < SCHEMA_VERSION:
        raise SchemaError(
            f"the database has graphmem schema version {meta.get('schema_version')}, this "
            f"graphmem needs {SCHEMA_VERSION}",
            hint="run `graphmem init` (it upgrades the indexes in place; data is kept)",
        )
    _same_dim(meta, embedder)


def _same_dim(meta: dict[str, Any], embedder: Embedder) -> None:
    """An index holds one dimension: refuse an embedder of another instead of mixing."""
    if meta.get("reembed_dim") is not None:
        raise SchemaError(
            f"the database is being re-embedded to dimension {meta['reembed_dim']} "
            f"({meta.get('reembed_to')})",
            hint="finish it: run the same `graphmem reembed --all` again",
        )
    if meta["dim"] != embedder.dim:
        raise SchemaError(
            f"the database is indexed with {meta['embedder']} (dim {meta['dim']}) but "
            f"{embedder.name} (dim {embedder.dim}) is configured",
            hint=f"configure an embedder of dimension {meta['dim']}, or switch every space "
            f"with `graphmem reembed --all --embedder ...`",
        )


def space_embedder(store: GraphStore, space: str) -> str | None:
    """The embedder ``space`` was built with; None for a space with nothing in it."""
    row = store.read("core.space_embedder", space=space)[0]
    if row["embedder"]:
        return str(row["embedder"])
    if not row["exists"] or not row["passages"]:
        return None
    meta = stored_meta(store)
    return str(meta["embedder"]) if meta else None


def check_space_embedder(store: GraphStore, space: str, embedder: Embedder) -> None:
    """Before reading or writing ``space``: it was built with the configured embedder."""
    row = store.read("core.space_embedder", space=space)[0]
    if row["reembed_to"]:
        raise SchemaError(
            f"space {space!r} is being re-embedded with {row['reembed_to']}",
            hint=f"finish it: run `graphmem reembed --space {space}` again with that embedder",
        )
    built = space_embedder(store, space)
    if built is not None and built != embedder.name:
        from graphmem.embed.models import settings_for

        env = settings_for(built) or "GRAPHMEM_EMBEDDER, GRAPHMEM_EMBEDDING_PRECISION"
        raise SchemaError(
            f"space {space!r} is embedded with {built} but {embedder.name} is configured",
            hint=f"configure that embedder ({env}), or switch the space: "
            f"graphmem reembed --space {space} --embedder ...",
        )


def pin_space_embedder(store: GraphStore, space: str, embedder: Embedder) -> None:
    """Pin the embedder of a space that has none (its first write, or an unpinned one)."""
    store.write("core.pin_space_embedder", space=space, embedder=embedder.name)


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
        _same_dim(meta, embedder)
    replaced = _replace_grown_indexes(store)
    registry()  # every design's schema folder joins the catalog when it is registered
    applied = schema_statements()
    for name in applied:
        params = {"dim": embedder.dim} if name.startswith("schema.vector.") else {}
        store.write(name, **params)
    store.write("admin.await_indexes", timeout_s=300)
    # The database's embedder stays the first one: spaces without a pin of their own were
    # built with it.
    pinned = meta["embedder"] if meta is not None else embedder.name
    store.write(
        "meta.put",
        key=META_KEY,
        schema_version=SCHEMA_VERSION,
        embedder=pinned,
        dim=embedder.dim,
    )
    return {
        "schema_version": SCHEMA_VERSION,
        "statements": len(applied),
        "embedder": pinned,
        "dim": embedder.dim,
        "created": meta is None,
        "replaced_indexes": replaced,
    }
