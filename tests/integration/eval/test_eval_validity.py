"""`graphmem eval validity` end to end on the tiny LoCoMo file against the real database:
the space is built with every builder, labelled pairs are matched by turns and texts (a
pair that is no candidate is gone), the candidates no label covers go to --todo (0600),
and a bad label line is refused naming its file and line."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.memory import Memory
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration
TINY = FIXTURES / "locomo_tiny.json"
PAIR = {
    "dataset": "locomo",
    "conversation": "conv-a",
    "label_name": "Fragment",
    "earlier_turn": "D1:1",
    "earlier": "no such statement",
    "later_turn": "D2:1",
    "later": "nor this one",
    "verdict": "update",
}


@pytest.fixture
def prefix(settings: Settings) -> Iterator[str]:
    name = f"test-valid-{uuid.uuid4().hex[:6]}"
    yield name
    with Memory(settings) as memory:
        memory.forget(f"{name}-conv-a", missing_ok=True)


def test_pairs_are_scored_and_the_rest_written_to_label(tmp_path: Path, prefix: str) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "pairs.jsonl").write_text(json.dumps(PAIR) + "\n")
    todo = tmp_path / "todo.jsonl"
    args = ["eval", "validity", "--labels", str(labels), "--locomo", str(TINY)]
    out = CliRunner().invoke(cli, [*args, "--space-prefix", prefix, "--todo", str(todo), "--json"])
    assert out.exit_code == 0, out.output
    found = json.loads(out.stdout)
    assert found["gone"] == 1 and found["judged"] == 0 and found["target"] == 0.9
    assert found["precision"] is None and found["recall"] is None
    assert todo.stat().st_mode & 0o777 == 0o600
    pending = [json.loads(x) for x in todo.read_text().splitlines()]
    assert all("verdict" not in x and x["conversation"] == "conv-a" for x in pending)


def test_a_bad_label_line_names_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "pairs.jsonl").write_text(json.dumps(PAIR) + "\n" + '{"verdict": "maybe"}\n')
    out = CliRunner().invoke(cli, ["eval", "validity", "--labels", str(tmp_path)])
    assert out.exit_code == 3 and "pairs.jsonl" in out.output and "line 2" in out.output
    assert "Traceback" not in out.output
