"""``graphmem reembed --all`` to an embedder of another dimension.

A vector index has one dimension and is shared by every space, so a new dimension belongs
to the whole database: ``--space`` alone is refused, ``--all`` switches every space. The
steps, each safe to run again after kill -9 at any point:

1. ``GraphmemMeta.reembed_to`` / ``reembed_dim`` mark the switch under way; from then on
   ``schema.check_embedder`` refuses every ingest and query, whatever embedder it has,
   and ``graphmem init`` too, until the switch is finished;
2. the vector indexes of another dimension are dropped (vectors of the new dimension
   cannot be written under them, and a half-switched index would rank two models' vectors
   together);
3. every space is re-embedded as for a same-dimension switch (``graphmem.embed.reembed``, with
   its own per-space marker and cursor);
4. the vector indexes are created again from ``schema/vector/`` at the new dimension and
   awaited online; then ``GraphmemMeta`` pins the new embedder and dimension and the
   marker goes.

A rerun with the marker set resumes: it needs the same embedder (another is refused,
naming the one under way), drops only indexes not yet at the new dimension and skips the
spaces already switched.
"""

from __future__ import annotations

from typing import Any

from graphmem.embed import Embedder
from graphmem.errors import ConfigError, SchemaError
from graphmem.graph.catalog import schema_statements
from graphmem.graph.schema import META_KEY, SCHEMA_VERSION, check_embedder, stored_meta
from graphmem.graph.store import GraphStore

_VECTOR_SCHEMA = "schema.vector."
_AWAIT_S = 600


def new_dimension(store: GraphStore, embedder: Embedder, every: bool) -> bool:
    """Whether switching to ``embedder`` changes the database's dimension (or resumes such a
    switch); checked before any write. A same-dimension switch is checked as before."""
    meta = stored_meta(store)
    if meta is None:
        raise SchemaError("the database has no graphmem schema yet", hint="run `graphmem init`")
    under_way = meta.get("reembed_to")
    if under_way is not None and under_way != embedder.name:
        raise ConfigError(
            f"the database is being re-embedded with {under_way} (dim {meta['reembed_dim']})",
            hint=f"finish it first: graphmem reembed --all --embedder ... for {under_way}",
        )
    if under_way is None and meta["dim"] == embedder.dim:
        check_embedder(store, embedder)
        return False
    if int(meta.get("schema_version") or 0) < SCHEMA_VERSION:
        check_embedder(store, embedder)  # raises: upgrade the schema first
    if not every:
        raise ConfigError(
            f"{embedder.name} has dimension {embedder.dim}, the database {meta['dim']}: a "
            "dimension belongs to the whole database (its vector indexes are shared by "
            "every space)",
            hint=f"switch every space: graphmem reembed --all --embedder ... for {embedder.name}",
        )
    return True


def begin(store: GraphStore, embedder: Embedder) -> list[str]:
    """Mark the switch and drop the vector indexes not at the new dimension; returns their
    names."""
    store.write("reembed.begin_dimension", key=META_KEY, embedder=embedder.name, dim=embedder.dim)
    dropped = []
    for index in store.read("admin.vector_indexes"):
        if index["dim"] != embedder.dim:
            store.write("admin.drop_index", index=index["name"])
            dropped.append(str(index["name"]))
    return dropped


def finish(store: GraphStore, embedder: Embedder) -> dict[str, Any]:
    """Create the vector indexes at the new dimension (``IF NOT EXISTS``: a resumed run
    keeps those already made), wait until they are online, then pin the database."""
    made = [n for n in schema_statements() if n.startswith(_VECTOR_SCHEMA)]
    for name in made:
        store.write(name, dim=embedder.dim)
    store.write("admin.await_indexes", timeout_s=_AWAIT_S)
    store.write("reembed.finish_dimension", key=META_KEY, embedder=embedder.name, dim=embedder.dim)
    return {"dim": embedder.dim, "indexes": len(made)}
