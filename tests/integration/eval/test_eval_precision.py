"""`graphmem eval precision` end to end on the tiny LoCoMo file against the real database
and the real extractors: the space is built once with every builder, labels are matched by
turn and text, the extractions no label covers go to --todo, and labelling them closes the
loop (nothing unlabelled, precision of those labels)."""

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


@pytest.fixture
def prefix(settings: Settings) -> Iterator[str]:
    name = f"test-prec-{uuid.uuid4().hex[:6]}"
    yield name
    with Memory(settings) as memory:
        memory.forget(f"{name}-conv-a", missing_ok=True)


def _run(labels: Path, prefix: str, todo: Path) -> list[dict[str, object]]:
    args = ["eval", "precision", "--labels", str(labels), "--locomo", str(TINY)]
    out = CliRunner().invoke(cli, [*args, "--space-prefix", prefix, "--todo", str(todo), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    # conv-a's sha256 is odd: its labels are the frozen part's, and the dev part has none.
    assert data["frozen"] == data["all"] and all(r["judged"] == 0 for r in data["dev"])
    rows: list[dict[str, object]] = data["all"]
    return rows


def _line(**fields: object) -> str:
    return json.dumps({"dataset": "locomo", "conversation": "conv-a", **fields})


def test_labels_todo_and_precision(tmp_path: Path, prefix: str) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "seed.jsonl").write_text(
        "\n".join(
            [
                _line(kind="character", value="Ada", label=1),
                _line(kind="entity", turn="D1:1", value="no such phrase", label=0),
                _line(
                    kind="fact", turn="D1:1", value="no such fact", label=0, label_name="Fragment"
                ),
            ]
        )
        + "\n"
    )
    todo = tmp_path / "todo.jsonl"
    rows = {r["group"]: r for r in _run(labels, prefix, todo)}
    assert rows["character"]["judged"] == 1 and rows["character"]["precision"] == 1.0
    assert rows["entity"]["gone"] == 1 and rows["fact:Fragment"]["gone"] == 1
    pending = [json.loads(x) for x in todo.read_text().splitlines()]
    kinds = {x["kind"] for x in pending}
    assert {"entity", "fact", "character"} <= kinds  # "Bo", D1:1's entities and fragment
    assert all(x["turn"] == "D1:1" for x in pending if x["kind"] != "character")
    assert todo.stat().st_mode & 0o777 == 0o600

    # Label every pending extraction wrong: judged now, nothing unlabelled.
    (labels / "more.jsonl").write_text(
        "".join(json.dumps({**x, "label": 0}) + "\n" for x in pending)
    )
    again = {r["group"]: r for r in _run(labels, prefix, todo)}
    assert all(r["unlabelled"] == 0 for r in again.values())
    assert again["entity"]["precision"] == 0.0 and again["entity"]["judged"] >= 1
    assert again["character"]["judged"] == 1 + sum(x["kind"] == "character" for x in pending)
    assert todo.read_text() == ""


def test_labels_need_their_data_and_never_the_test_half(tmp_path: Path) -> None:
    lme = _line(kind="character", value="user", label=1).replace('"locomo"', '"longmemeval"')
    (tmp_path / "l.jsonl").write_text(lme.replace("conv-a", "q-002_abs") + "\n")
    out = CliRunner().invoke(cli, ["eval", "precision", "--labels", str(tmp_path)])
    assert out.exit_code == 3 and "--longmemeval" in out.output and "Traceback" not in out.output
    # q-002_abs is the second item of the file: the test half, never read for labels.
    tiny = TINY.with_name("longmemeval_tiny.json")
    args = ["eval", "precision", "--labels", str(tmp_path), "--longmemeval", str(tiny)]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 3 and "dev half" in out.output and "q-002_abs" in out.output
