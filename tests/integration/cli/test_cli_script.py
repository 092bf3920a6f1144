"""The CLI as a script drives it, in real processes on the real database: the space from
GRAPHMEM_SPACE, `graphmem ingest -` from a pipe, and `graphmem add` joining the current
session, then opening a new one after the idle gap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any

import pytest

from graphmem.graph.store import GraphStore
from tests.paths import ROOT

pytestmark = pytest.mark.integration
SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"


def _graphmem(*args: str, stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", **env}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()", *args]
    return subprocess.run(
        command, input=stdin, env=full, cwd=str(ROOT), capture_output=True, timeout=300, check=False
    )


def _json(done: subprocess.CompletedProcess[bytes]) -> Any:
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_a_script_adds_and_ingests_without_naming_the_space(store: GraphStore) -> None:
    space = f"test-script-{uuid.uuid4().hex[:8]}"
    try:
        piped = _graphmem(
            "ingest",
            "-",
            "--builders",
            "none",
            "--json",
            stdin=SAMPLE.read_bytes(),
            GRAPHMEM_SPACE=space,
        )
        assert _json(piped)["passages_written"] == 19
        add = ("add", "--builders", "none", "--json", "--conversation", "notes")
        first = _json(
            _graphmem(*add, "--speaker", "Maya", "Biscuit ate my shoe.", GRAPHMEM_SPACE=space)
        )
        assert first["new_session"] and first["turns_in_session"] == 1
        second = _json(_graphmem(*add, "--speaker", "Tom", "Poor shoe!", GRAPHMEM_SPACE=space))
        assert not second["new_session"] and second["session"] == first["session"]
        assert second["turns_in_session"] == 2 and second["turn"] == f"{first['session']}:1"
        later = _json(
            _graphmem(
                *add,
                "--speaker",
                "Maya",
                "New day.",
                GRAPHMEM_SPACE=space,
                GRAPHMEM_SESSION_IDLE_MINUTES="0.001",
            )
        )
        assert later["new_session"] and later["session"] != first["session"]
        stats = _json(_graphmem("stats", "--json", GRAPHMEM_SPACE=space))
        assert stats["nodes"]["Passage"] == 22 and stats["nodes"]["Session"] == 5
        found = _json(
            _graphmem(
                "query",
                "What did Biscuit eat?",
                "--json",
                "--strategy",
                "fulltext",
                GRAPHMEM_SPACE=space,
            )
        )
        assert f"{first['conversation']}/{first['session']}:0" in found["citations"]
    finally:
        while store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
            pass
