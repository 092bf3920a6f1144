"""``graphmem reembed``: switch a space to another embedder in place.

Each passage's vector is computed again from the text an ingest embeds (``render_turn`` of
its stored speaker, text, date and caption), in id order, a batch per transaction that also
moves the space's cursor (``Space.reembed_cursor``). ``Space.reembed_to`` marks the switch
under way: meanwhile the space is refused for reading and writing, a rerun resumes after
the last batch written (after kill -9 too), and the last step pins the new embedder
(``Space.embedder``) and clears the marker. Nothing but vectors and those markers is
written, and the digest leaves out both, so ``graphmem stats --digest`` is unchanged.

The vectors are those a fresh ingest with the new embedder stores: the same text, the same
side (passage), and a vector that depends on its text alone (batch composition moves a
float32 vector by less than 1e-6; int8 graphs embed one text per run).

Vectors a design derives (its notes, centroids, headlines) are recomputed by that design's
own code, its ``Design.reembed`` hook, after the passages (run again whole on a resume: it
is idempotent). A space holding vectors of a label no design's hook recomputes is refused
before any write, naming the labels (re-ingest it with its builders under the new embedder
instead). Only vectors change: what a build decided by cosine (synonym edges, merges,
clusters) stays as the old embedder decided it. A new dimension needs every space switched
and the vector indexes rebuilt around it (``graphmem.embed.reembed_dim``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphmem.embed import Embedder
from graphmem.embed.windows import embed_passages
from graphmem.errors import ConfigError
from graphmem.graph.schema import space_embedder
from graphmem.graph.store import GraphStore
from graphmem.ingest.render import render_turn
from graphmem.plugin.design import Design
from graphmem.plugin.registry import registry
from graphmem.process import uses

_BATCH = 256


def plan_spaces(store: GraphStore, spaces: list[str] | None) -> list[dict[str, Any]]:
    """The spaces to switch (every space when ``spaces`` is None), checked before any write:
    each exists and holds only passage vectors."""
    rows = store.read("reembed.spaces")
    known = {r["space"]: r for r in rows}
    if spaces is not None:
        missing = [s for s in spaces if s not in known]
        if missing:
            raise ConfigError(f"no such space: {', '.join(missing)}")
        rows = [known[s] for s in spaces]
    covered = {label for d in _hooked() for label in d.reembed.labels}  # type: ignore[union-attr]
    planned = []
    for row in rows:
        derived = {
            d["label"]: d["count"]
            for d in store.read("reembed.derived_vectors", space=row["space"])
        }
        left = {label: n for label, n in derived.items() if label not in covered}
        if left:
            labels = ", ".join(f"{label} ({n})" for label, n in sorted(left.items()))
            raise ConfigError(
                f"space {row['space']!r} holds vectors no design can recompute: {labels}",
                hint="ingest the conversations again into a new space with the new embedder "
                "and the same --builders",
            )
        planned.append({**row, "derived": derived})
    return planned


def _hooked() -> list[Design]:
    """The registered designs that recompute their vectors, in name order."""
    return [d for _, d in sorted(registry().items()) if d.reembed is not None]


def reembed_space(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    progress: Callable[[int], None] | None = None,
    batch: int = _BATCH,
) -> dict[str, Any]:
    """Switch one space to ``embedder``; resumes a switch to the same embedder that was
    interrupted. Returns what it did. The vectors it caches are the space's
    (``graphmem.process.uses``: a forget sweeps them)."""
    with uses.scope(space):
        return _reembed_space(store, embedder, space, progress, batch)


def _reembed_space(
    store: GraphStore,
    embedder: Embedder,
    space: str,
    progress: Callable[[int], None] | None,
    batch: int,
) -> dict[str, Any]:
    before = space_embedder(store, space)
    if (
        before == embedder.name
        and not store.read("core.space_embedder", space=space)[0]["reembed_to"]
    ):
        return {
            "space": space,
            "embedder": embedder.name,
            "from": before,
            "passages": 0,
            "derived": {},
        }
    cursor = store.write("reembed.start", space=space, embedder=embedder.name)[0]["cursor"]
    done = 0
    after = cursor or ""
    while True:
        rows = store.read("reembed.passages", space=space, after=after, batch=batch)
        if not rows:
            break
        texts = [
            render_turn(r["speaker"], r["text"], date_text=r["date_text"], caption=r["caption"])
            for r in rows
        ]
        vectors = embed_passages(embedder, texts)
        out = [
            {"id": r["id"], "embedding": [float(x) for x in v]}
            for r, v in zip(rows, vectors, strict=True)
        ]
        after = rows[-1]["id"]
        store.write("reembed.write_passages", space=space, rows=out, cursor=after)
        done += len(rows)
        if progress is not None:
            progress(len(rows))
    derived = _derived(store, embedder, space, progress)
    store.write("reembed.finish", space=space, embedder=embedder.name)
    return {
        "space": space,
        "embedder": embedder.name,
        "from": before,
        "passages": done,
        "derived": derived,
        "resumed_after": cursor,
    }


def _derived(
    store: GraphStore, embedder: Embedder, space: str, progress: Callable[[int], None] | None
) -> dict[str, int]:
    """Each design's own vectors, by its hook, where the space holds any of them."""
    present = {d["label"] for d in store.read("reembed.derived_vectors", space=space)}
    out: dict[str, int] = {}
    for design in _hooked():
        hook = design.reembed
        assert hook is not None
        if present & set(hook.labels):
            out[design.name] = hook.run(store, embedder, space)
            if progress is not None:
                progress(out[design.name])
    return out
