"""``graphmem doctor`` without a server: what it reports when the server check fails."""

from __future__ import annotations

import click
import pytest

from graphmem.cli import admin_cmds
from graphmem.config import Settings
from graphmem.graph.store import GraphStore


def test_checks_that_ask_the_server_are_skipped_once_it_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[str] = []

    def refuse() -> str:
        raise RuntimeError("Neo4j is not reachable")

    def answer(name: str) -> str:
        asked.append(name)
        return "fine"

    def checks(settings: Settings, store: GraphStore) -> list[admin_cmds.Check]:
        names = ["gds", "pagerank", "vector_index", "embedder", "spacy"]
        found = [(n, lambda n=n: answer(n), f"fix {n}") for n in names]
        return [("server", refuse, "start it"), *found]

    monkeypatch.setattr(admin_cmds, "_checks", checks)
    results = admin_cmds.run_checks(Settings(neo4j_uri="bolt://127.0.0.1:1"))
    assert asked == ["embedder", "spacy"]  # no login with a password that may be wrong
    by_name = {r["check"]: r for r in results}
    assert by_name["server"]["fix"] == "start it" and not by_name["server"]["ok"]
    skipped = [r for r in results if r.get("skipped")]
    assert [r["check"] for r in skipped] == ["gds", "pagerank", "vector_index"]
    assert all("fix" not in r for r in skipped)  # the server's fix is the one that applies
    assert "skip gds " in click.unstyle(admin_cmds._render(results))
