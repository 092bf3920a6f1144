"""Issue 60: chat apps' exports imported into a real Neo4j, end to end through the CLI as
a user runs it. Every shipped or written export under tests/fixtures/exports loads, writes
the turns the load holds, cites them, keeps its titles, and a second import writes nothing
(the same digest); a malformed export writes nothing and exits 3."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.formats import ReadLimits, load
from graphmem.memory import Memory
from tests import paths

pytestmark = pytest.mark.integration

FIXTURES = paths.FIXTURES / "exports"
# One export per app, the written ones (each follows its app's published shape).
EXPORTS = {
    "chatgpt": FIXTURES / "chatgpt" / "written-export.zip",
    "claude": FIXTURES / "claude" / "written-conversations.json",
    "whatsapp": FIXTURES / "whatsapp" / "pustur-example-2024_chat.txt",
    "telegram": FIXTURES / "telegram" / "chatminer-test_batch_export.json",
    "slack": FIXTURES / "slack" / "written-workspace.zip",
    "discord": FIXTURES / "discord" / "written-channel.json",
    "csv": FIXTURES / "csv" / "written-chat.csv",
}


def _ingest(path: Path, space: str, *extra: str) -> dict[str, object]:
    done = CliRunner().invoke(
        cli,
        ["ingest", str(path), "--space", space, "--timezone", "UTC", "--json", *extra],
    )
    assert done.exit_code == 0, done.output
    result: dict[str, object] = json.loads(done.output)
    return result


@pytest.mark.parametrize("app", sorted(EXPORTS))
def test_an_export_is_stored_cited_and_imported_again_unchanged(
    app: str, memory: Memory, store: GraphStore, space: str
) -> None:
    path = EXPORTS[app]
    held = load(path, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    assert {c.meta["format"] for c in held.conversations} == {app}
    first = _ingest(path, space, "--builders", "none")
    assert first["passages_written"] == held.turn_count()
    titles = {c.conversation_id: c.meta.get("title") for c in held.conversations}
    rows, _, _ = store.driver.execute_query(
        "MATCH (c:Conversation {space: $space}) RETURN c.id AS id, c.title AS title",
        space=space,
        database_=store.database,
    )
    assert {r["id"]: r["title"] for r in rows} == titles
    digest = space_digest(store, space)
    again = _ingest(path, space, "--builders", "none")
    assert again["sessions_written"] == 0
    assert space_digest(store, space) == digest
    some = held.conversations[0].sessions[0].turns[0]
    found = memory.query(some.text[:200], space, strategy="dense", budget=2000)
    cited = {p.turn_id for p in found.context.passages}
    assert f"{held.conversations[0].conversation_id}/{some.source_id}" in cited


@pytest.mark.parametrize(
    ("export", "question"),
    [
        (EXPORTS["chatgpt"], "What did the assistant suggest?"),  # long answers, many conversations
        (FIXTURES / "telegram" / "written-export.zip", "Who is coming on Friday?"),  # a group
    ],
)
def test_every_design_builds_an_export_and_answers_from_it(
    export: Path, question: str, memory: Memory, space: str
) -> None:
    done = _ingest(export, space)
    assert done["builders"], done
    for strategy in ("graphmem", "cast", "premem", "seem", "amory", "anchormem", "hipporag"):
        found = memory.query(question, space, strategy=strategy, budget=800)
        assert found.context.passages, strategy


def test_a_truncated_export_writes_nothing_and_exits_3(
    tmp_path: Path, store: GraphStore, space: str
) -> None:
    whole = (FIXTURES / "chatgpt" / "written-conversations.json").read_bytes()
    broken = tmp_path / "conversations.json"
    broken.write_bytes(whole[: len(whole) * 2 // 3])
    done = CliRunner().invoke(cli, ["ingest", str(broken), "--space", space])
    assert done.exit_code == 3, done.output
    assert "conversations.json" in done.output and "Traceback" not in done.output
    assert not store.read("core.space_exists", space=space)[0]["exists"]


def test_an_unpacked_export_folder_loads_as_its_zip(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    shutil.unpack_archive(EXPORTS["slack"], folder)
    as_zip = load(EXPORTS["slack"], "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    as_folder = load(folder, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    assert as_folder.conversations == as_zip.conversations
