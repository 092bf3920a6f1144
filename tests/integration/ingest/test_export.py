"""Issue 59 item 6: ``graphmem export`` writes a space as graphmem JSONL, every field kept;
ingesting the file into a fresh space builds the same graph (equal digests), for turns
from JSONL (titles, gaps of empty messages), LoCoMo (its session dates) and a space a
forget changed."""

from __future__ import annotations

import json
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.plugin.registry import builder_names
from tests.conftest import delete_space
from tests.integration.helpers import tiny_conversation
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

LOCOMO = FIXTURES / "locomo_tiny.json"


@pytest.fixture
def restored(store: GraphStore) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    delete_space(store, name)


def _round_trip(
    memory: Memory, space: str, restored: str, tmp_path: Path
) -> list[dict[str, object]]:
    out = tmp_path / "export.jsonl"
    done = CliRunner().invoke(cli, ["export", "--space", space, "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    memory.ingest(out, restored, builders=list(builder_names()))
    found, want = space_digest(memory.store, restored), space_digest(memory.store, space)
    assert found.labels == want.labels and found.types == want.types
    assert found.sha256 == want.sha256
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_a_jsonl_space_with_a_title_and_an_empty_message_comes_back_the_same(
    memory: Memory, space: str, restored: str, tmp_path: Path
) -> None:
    source = tmp_path / "chat.jsonl"
    rows = [
        {
            "conversation": "c",
            "session": "s1",
            "speaker": "Ana",
            "text": "We land in Lisbon.",
            "timestamp": "2024-03-14T09:30:00",
            "title": "Trip",
        },
        {"conversation": "c", "session": "s1", "speaker": "Ben", "text": "  "},
        {
            "conversation": "c",
            "session": "s1",
            "speaker": "Ben",
            "text": "Photo!",
            "caption": "a tram",
        },
        {"conversation": "d", "session": "s1", "speaker": "Ana", "text": "No date here."},
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    memory.ingest(source, space, builders=list(builder_names()))
    lines = _round_trip(memory, space, restored, tmp_path)
    assert lines[0]["title"] == "Trip" and lines[1]["text"] == ""  # the gap kept
    assert lines[2]["id"] == "s1:2" and lines[2]["caption"] == "a tram"


def test_a_locomo_space_keeps_its_session_dates(
    memory: Memory, space: str, restored: str, tmp_path: Path
) -> None:
    memory.ingest(LOCOMO, space, builders=list(builder_names()))
    lines = _round_trip(memory, space, restored, tmp_path)
    assert any("session_date" in line for line in lines)


def test_a_space_a_forget_changed_comes_back_the_same(
    memory: Memory, space: str, restored: str, tmp_path: Path
) -> None:
    convs = [tiny_conversation("conv-a", sessions=3), tiny_conversation("conv-b", sessions=1)]
    memory.ingest_dataset(Dataset(conversations=convs, qa={}), space, list(builder_names()))
    memory.forget(space, turns=["D2:3"], conversation="conv-a")
    memory.forget(space, session="session_1", conversation="conv-a")
    _round_trip(memory, space, restored, tmp_path)


def test_every_space_goes_to_a_file_of_its_own(memory: Memory, space: str, tmp_path: Path) -> None:
    memory.ingest_dataset(Dataset(conversations=[tiny_conversation()], qa={}), space, [])
    out = tmp_path / "all"
    done = CliRunner().invoke(cli, ["export", "--all", "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    files = {Path(s["file"]).name: s["turns"] for s in json.loads(done.output)["spaces"]}
    assert files[f"{space}.jsonl"] == 12
    missing = CliRunner().invoke(cli, ["export", "--all"])
    assert missing.exit_code == 2 and "--out" in missing.output
