"""The contract every registered design keeps, run over each of them on the sample
conversation (a new design gets all of it by registering; nothing here names one):

- its builder builds, and a re-ingest adds nothing;
- every derived node points with FROM at passages of its own space, and only those;
- `forget` removes the space entirely and touches no other space;
- each of its strategies returns cited hits that pack inside the budget;
- its stats section has non-zero figures;
- sessions added one by one (`add_messages`) give the same graph as one batch;
- every statement it owns plans (`EXPLAIN`);
- every label it declares indexed has a vector or full-text index, and every indexed label
  of the schema is declared (else the over-fetch would count it 0), and the generated
  label totals count it;
- every command it adds is a `graphmem` command.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import click
import pytest
from click.testing import CliRunner

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.catalog import load_catalog
from graphmem.graph.digest import space_digest
from graphmem.graph.overfetch import label_totals
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.memory import Memory
from graphmem.plugin.design import Design
from graphmem.plugin.registry import register, registry, unregister
from tests.example_design.design import DESIGN as EXAMPLE
from tests.example_vector_design.design import DESIGN as VECTOR_EXAMPLE
from tests.paths import ROOT

pytestmark = pytest.mark.integration

SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"
QUESTION = "When did Maya adopt her dog and what is its name?"

# The example designs of docs/adding-a-design.md (one with a vector index and a command)
# join the suite like any plug-in would, before the session's `graphmem init` (conftest).
register(EXAMPLE)
register(VECTOR_EXAMPLE)
BUILT = [d for d in registry().values() if d.builder is not None]
STRATEGIES = [(d.name, s) for d in registry().values() for s in d.retrievers]


@pytest.fixture
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[Memory]:
    register(EXAMPLE)  # idempotent; keeps the registry as collected
    register(VECTOR_EXAMPLE)
    yield Memory(settings, store=store, embedder=embedder)


def _space(spaces: list[str]) -> str:
    name = f"contract-{uuid.uuid4().hex[:10]}"
    spaces.append(name)
    return name


def _built(memory: Memory, design: Design, spaces: list[str]) -> str:
    space = _space(spaces)
    reports = memory.ingest(SAMPLE, space, builders=[design.name]).builds
    by_name = {r.builder: r for r in reports}
    assert by_name[design.name].sessions == 3, by_name
    return space


def _numbers(section: Any) -> list[float]:
    if isinstance(section, bool):
        return []
    if isinstance(section, int | float):
        return [float(section)]
    if isinstance(section, dict):
        return [n for value in section.values() for n in _numbers(value)]
    return []


@pytest.mark.parametrize("design", BUILT, ids=lambda d: d.name)
def test_build_then_reingest_adds_nothing(
    memory: Memory, store: GraphStore, design: Design, spaces: list[str]
) -> None:
    space = _built(memory, design, spaces)
    first = space_digest(store, space)
    assert any(first.labels.get(label, 0) for label in design.labels), first.labels
    again = memory.ingest(SAMPLE, space, builders=[design.name]).builds
    assert all(r.sessions == 0 for r in again)
    assert space_digest(store, space) == first


@pytest.mark.parametrize("design", BUILT, ids=lambda d: d.name)
def test_derived_nodes_point_at_their_own_turns(
    memory: Memory, store: GraphStore, design: Design, spaces: list[str]
) -> None:
    space = _built(memory, design, spaces)
    rows = store.read("core.provenance_audit", space=space, labels=list(design.derived_labels))
    audit = {row["label"]: row for row in rows if row["nodes"]}
    # The sample is small: a design need not write every derived label on it, but some.
    assert audit or not design.derived_labels, f"{design.name} wrote no derived node"
    for label, row in audit.items():
        assert row["without_from"] == 0, f"{row['without_from']} {label} nodes lack FROM"
        assert row["foreign"] == 0, f"{row['foreign']} {label} nodes cite another space"


@pytest.mark.parametrize("design", BUILT, ids=lambda d: d.name)
def test_forget_removes_the_space_and_only_it(
    memory: Memory, store: GraphStore, design: Design, spaces: list[str]
) -> None:
    kept = _built(memory, design, spaces)
    gone = _built(memory, design, spaces)
    before = space_digest(store, kept)
    assert memory.forget(gone) > 0
    assert space_digest(store, gone).nodes == 0
    assert space_digest(store, kept) == before


@pytest.mark.parametrize(("design_name", "strategy"), STRATEGIES, ids=lambda v: str(v))
def test_strategy_returns_cited_hits_inside_the_budget(
    memory: Memory, design_name: str, strategy: str, spaces: list[str]
) -> None:
    design = registry()[design_name]
    builders = [design.name] if design.builder else list(design.requires)
    space = _space(spaces)
    memory.ingest(SAMPLE, space, builders=builders)
    found = memory.query(QUESTION, space, strategy=strategy, budget=300)
    assert found.result.hits, f"{strategy} found nothing"
    assert 0 < found.context.tokens <= 300
    stored = {t.source_id for c in load(SAMPLE).conversations for s in c.sessions for t in s.turns}
    assert found.context.source_ids and found.context.source_ids <= stored
    for hit in found.result.hits:
        assert hit.passages, f"{strategy} hit {hit.node_id} ({hit.label}) cites no turn"


@pytest.mark.parametrize("design", [d for d in BUILT if d.stats], ids=lambda d: d.name)
def test_stats_are_non_zero(
    memory: Memory, store: GraphStore, design: Design, spaces: list[str]
) -> None:
    space = _built(memory, design, spaces)
    assert design.stats is not None
    section = design.stats(store, space)
    assert any(n > 0 for n in _numbers(section)), section


@pytest.mark.parametrize("design", BUILT, ids=lambda d: d.name)
def test_incremental_add_messages_equals_one_batch(
    memory: Memory, store: GraphStore, design: Design, spaces: list[str]
) -> None:
    batch = _built(memory, design, spaces)
    streamed = _space(spaces)
    (conversation,) = load(SAMPLE).conversations
    for session in conversation.sessions:
        messages = [
            {"id": t.source_id, "speaker": t.speaker, "text": t.text, "timestamp": t.timestamp}
            for t in session.turns
        ]
        memory.add_messages(
            streamed,
            conversation.conversation_id,
            session.source_id,
            messages,
            started_at=session.started_at,
            builders=[design.name],
        )
    a, b = space_digest(store, batch), space_digest(store, streamed)
    assert (a.labels, a.types) == (b.labels, b.types)
    assert a.sha256 == b.sha256


@pytest.mark.parametrize("design", list(registry().values()), ids=lambda d: d.name)
def test_every_statement_of_the_design_plans(store: GraphStore, design: Design) -> None:
    prefixes = design.cypher or ((design.name,) if design.cypher_dir else ())
    names = [n for n in load_catalog() if n.split(".", 1)[0] in prefixes]
    assert names or not prefixes, f"{design.name} owns no statement"
    for name in names:
        store.explain(name)


_INDEX_LABEL = re.compile(r"CREATE (?:VECTOR|FULLTEXT) INDEX \w+ IF NOT EXISTS FOR \(n:(\w+)\)")


def test_indexed_labels_are_the_schema_s_vector_and_fulltext_labels() -> None:
    declared = {label for d in registry().values() for label in d.indexed_labels}
    indexed = {
        match.group(1)
        for name, stmt in load_catalog().items()
        if name.startswith(("schema.vector.", "schema.fulltext."))
        for match in [_INDEX_LABEL.search(stmt.text)]
        if match
    }
    assert declared == indexed
    assert "Gist" in declared  # the vector example's, from its own schema folder


def test_label_totals_count_every_indexed_label(
    memory: Memory, store: GraphStore, spaces: list[str]
) -> None:
    space = _space(spaces)
    memory.ingest(SAMPLE, space, builders=[VECTOR_EXAMPLE.name])
    counts = label_totals(store, space)
    assert set(counts) == {label for d in registry().values() for label in d.indexed_labels}
    assert counts["Gist"].in_space == counts["Passage"].in_space > 0


def test_every_command_of_a_design_is_a_graphmem_command(memory: Memory, spaces: list[str]) -> None:
    from graphmem.cli.main import cli

    added = {name: c for d in registry().values() for name, c in d.commands.items()}
    assert {"profile", "gists"} <= set(added)
    for name, declared in added.items():
        command = cli.get_command(click.Context(cli), name)
        assert command is not None and command.name == name, name
        # ... with the help line the record declares, for `graphmem --help` to list.
        assert declared.help == command.get_short_help_str(limit=1_000), name
    space = _space(spaces)
    memory.ingest(SAMPLE, space, builders=[VECTOR_EXAMPLE.name])
    run = CliRunner().invoke(cli, ["gists", "--space", space, "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["gists"] > 0


def test_example_design_is_found_through_an_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """A third party's design registers through the `graphmem.designs` entry point group."""
    from importlib.metadata import EntryPoint

    import graphmem.plugin.registry as reg

    point = EntryPoint("keywords", "tests.example_design.design:DESIGN", reg.ENTRY_POINT_GROUP)
    monkeypatch.setattr(reg, "entry_points", lambda group: [point] if group == point.group else [])
    unregister("keywords")
    reg._discovered.cache_clear()
    try:
        assert registry()["keywords"] is EXAMPLE
        assert "keywords" in reg.strategy_names()
    finally:
        monkeypatch.undo()
        reg._discovered.cache_clear()
        register(EXAMPLE)
        register(VECTOR_EXAMPLE)
