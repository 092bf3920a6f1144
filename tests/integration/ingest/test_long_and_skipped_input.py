"""End to end on the real server: a 40,000-character turn goes through every builder, is
stored whole and found by BM25 (the end of its text) and by the default strategy; empty
turns and repeated turn ids are left out and counted in what ``graphmem ingest`` and
``Memory.ingest`` report; ``--strict`` refuses them before anything is written."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory

pytestmark = pytest.mark.integration

MARKER = "quokkazanzibar"  # one word, said only at the very end of the long turn
SENTENCE = "The quarterly report covers budgets, hiring plans and the office move. "
LONG = (SENTENCE * 600)[:39_976] + f" Finally {MARKER}."


def _messages() -> list[dict[str, Any]]:
    said = [
        ("Ana", "I am pasting the whole report for you to keep.", "m1"),
        ("Ana", LONG, "m2"),
        ("Ben", "  ", "m3"),  # nothing said: skipped
        ("Ben", "Thanks, I will read it on the train tomorrow.", "m4"),
        ("Ana", "I am pasting the whole report for you to keep.", "m1"),  # a copy: skipped
    ]
    return [
        {
            "conversation": "report",
            "session": 1,
            "speaker": speaker,
            "text": text,
            "id": mid,
            "timestamp": "2024-03-14T09:30:00",
        }
        for speaker, text, mid in said
    ]


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "report.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in _messages()) + "\n", encoding="utf-8")
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_long_turn_goes_through_every_builder_whole(
    store: GraphStore, settings: Settings, spaces: list[str], tmp_path: Path
) -> None:
    spaces.append(space := f"wt-load-long-{uuid.uuid4().hex[:8]}")
    path = _file(tmp_path)
    strict = _run("ingest", str(path), "--space", space, "--strict", "--json")
    assert strict.exit_code == 3
    assert "record line 3, field 'text': text is empty or whitespace only" in strict.output
    assert store.read("core.space_counts", space=space) == []  # nothing written

    done = _run("ingest", str(path), "--space", space, "--builders", "all", "--json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["passages_written"] == 3
    assert {b["builder"] for b in report["builders"]} >= {"semantic", "seem", "cast"}
    skipped = report["skipped"]
    assert (skipped["empty_turns"], skipped["repeated_turns"]) == (1, 1)
    assert skipped["places"] == ["line 3: no visible text", "line 5: repeats an earlier turn"]

    found = _run(
        "query", MARKER, "--space", space, "--strategy", "fulltext", "--budget", "20000", "--json"
    )
    assert found.exit_code == 0, found.output
    items = json.loads(found.output)["items"]
    assert items[0]["source_id"] == "m2"
    assert len(LONG) == 40_000 and LONG in items[0]["text"]  # the whole turn, cited as one
    default = json.loads(
        _run(
            "query", "the quarterly report", "--space", space, "--budget", "20000", "--json"
        ).output
    )
    assert any(turn.endswith("/m2") for turn in default["citations"])


def test_ingest_reports_what_it_skipped(
    settings: Settings, spaces: list[str], tmp_path: Path
) -> None:
    spaces.append(space := f"wt-load-skipped-{uuid.uuid4().hex[:8]}")
    path = tmp_path / "chat.jsonl"
    path.write_text(
        "\n".join(json.dumps(m) for m in _messages() if m["text"] != LONG) + "\n",
        encoding="utf-8",
    )
    text = _run("ingest", str(path), "--space", space, "--builders", "none", "--no-progress")
    assert text.exit_code == 0, text.output
    assert (
        "input: skipped 1 empty turn, 0 repeated sessions, 1 repeated turn "
        "(first: line 2: no visible text; line 4: repeats an earlier turn)"
    ) in text.output
    with Memory(settings) as memory:
        result = memory.ingest(path, space, builders=[])
        assert (result.skipped.empty_turns, result.skipped.repeated_turns) == (1, 1)
        assert result.report.sessions_skipped == 1  # stored by the CLI run
        with pytest.raises(InputError, match="text is empty or whitespace only"):
            memory.ingest(path, space, strict=True, builders=[])
