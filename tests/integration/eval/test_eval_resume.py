"""Issue 36 item 9: an evaluation writes each conversation's results as it finishes, a
rerun with the same ``--out`` resumes from them (and refuses other settings), and one
failing conversation is reported (exit 9) without costing the others their results."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.common import AppContext
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.eval.runlog import DONE_FILE, FAILURES_FILE, RUN_FILE
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

LOCOMO = FIXTURES / "locomo_eval.json"
LONGMEMEVAL = FIXTURES / "longmemeval_eval.json"


def _invoke(settings: Settings, args: list[str]) -> Any:
    context = AppContext()
    context.settings = settings
    return CliRunner().invoke(cli, args, obj={"app": context})


@pytest.fixture
def prefix(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    memory = Memory(settings, store=store, embedder=embedder)
    for space in ("conv-x", "conv-y", "q-single", "q-multi", "q-temporal_abs"):
        memory.forget(f"{name}-{space}", missing_ok=True)


def _failing(monkeypatch: pytest.MonkeyPatch, conversation: str) -> list[str]:
    """Ingesting ``conversation`` raises what the real bug raised (KeyError ''); returns
    the conversations ingested so far, in order."""
    seen: list[str] = []
    original = Memory.ingest_dataset

    def ingest(self: Memory, dataset: Dataset, space: str, *args: Any, **kw: Any) -> Any:
        cid = dataset.conversations[0].conversation_id
        seen.append(cid)
        if cid == conversation:
            raise KeyError("")
        return original(self, dataset, space, *args, **kw)

    monkeypatch.setattr(Memory, "ingest_dataset", ingest)
    return seen


def _scores(results: Sequence[dict[str, Any]]) -> list[Any]:
    """Every number of the results but the latencies (and meta)."""

    def strip(summary: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in summary.items() if k != "latency_ms"}

    return [
        (
            r["strategy"],
            r["budget"],
            strip(r["overall"]),
            {g: strip(s) for g, s in r[next(k for k in r if k.startswith("by_"))].items()},
        )
        for r in results
    ]


def test_locomo_failure_is_reported_and_the_rerun_resumes(
    settings: Settings, prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, clean = tmp_path / "run", tmp_path / "clean"
    args = ["eval", "locomo", str(LOCOMO), "--strategy", "fulltext,dense", "--budget", "300"]
    args += ["--space-prefix", prefix, "--no-progress", "--json"]
    with monkeypatch.context() as patch:
        seen = _failing(patch, "conv-y")
        first = _invoke(settings, [*args, "--out", str(out)])
    assert first.exit_code == 9, first.output
    assert seen == ["conv-x", "conv-y"]
    assert "1 conversation(s) failed" in first.stderr and "conv-y (KeyError: '')" in first.stderr
    partial = json.loads(first.stdout)
    assert partial[0]["meta"]["failed"] == [{"conversation": "conv-y", "error": "KeyError: ''"}]
    assert partial[0]["meta"]["n_conversations"] == 1
    assert partial[0]["overall"]["n"] == 5  # conv-x's questions only (2 of 7 in conv-y)
    assert "conv-y (KeyError: '')" in (out / "report.md").read_text(encoding="utf-8")
    assert "KeyError" in (out / FAILURES_FILE).read_text(encoding="utf-8")
    assert len((out / DONE_FILE).read_text(encoding="utf-8").splitlines()) == 1
    assert json.loads((out / "results.json").read_text(encoding="utf-8")) == partial

    with monkeypatch.context() as patch:
        seen = _failing(patch, "none")
        resumed = _invoke(settings, [*args, "--out", str(out)])
    assert resumed.exit_code == 0, resumed.output
    assert seen == ["conv-y"]  # conv-x came from the first run's output
    assert "resumed 1 finished conversations" in resumed.stderr
    done = json.loads(resumed.stdout)
    assert done[0]["meta"]["failed"] == [] and done[0]["meta"]["resumed"] == 1
    assert done[0]["meta"]["n_conversations"] == 2

    whole = _invoke(settings, [*args, "--out", str(clean)])
    assert whole.exit_code == 0, whole.output
    assert _scores(done) == _scores(json.loads(whole.stdout))
    assert json.loads(whole.stdout)[0]["meta"]["resumed"] == 0

    # Nothing left to do: a third run reads both and evaluates nothing.
    with monkeypatch.context() as patch:
        seen = _failing(patch, "none")
        again = _invoke(settings, [*args, "--out", str(out)])
    assert again.exit_code == 0 and seen == []
    assert _scores(json.loads(again.stdout)) == _scores(done)


def test_resume_refuses_other_settings(settings: Settings, prefix: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["eval", "locomo", str(LOCOMO), "--strategy", "fulltext", "--space-prefix", prefix]
    args += ["--no-progress", "--out", str(out)]
    assert _invoke(settings, [*args, "--budget", "300"]).exit_code == 0
    stored = (out / RUN_FILE).read_text(encoding="utf-8")
    other = _invoke(settings, [*args, "--budget", "500"])
    assert other.exit_code == 2, other.output
    assert "other settings (differs in: budgets)" in other.stderr
    assert (out / RUN_FILE).read_text(encoding="utf-8") == stored  # untouched


def test_longmemeval_failure_is_reported_and_the_rerun_resumes(
    settings: Settings, prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    args = ["eval", "longmemeval", str(LONGMEMEVAL), "--strategy", "fulltext", "--budget", "300"]
    args += ["--space-prefix", prefix, "--no-progress", "--json", "--out", str(out)]
    with monkeypatch.context() as patch:
        _failing(patch, "q-multi")
        first = _invoke(settings, args)
    assert first.exit_code == 9, first.output
    meta = json.loads(first.stdout)["meta"]
    assert meta["failed"] == [{"conversation": "q-multi", "error": "KeyError: ''"}]
    # q-single scored; q-temporal_abs scored too, in the abstention group outside overall
    first_result = json.loads(first.stdout)
    assert first_result["overall"]["n"] == 1
    assert first_result["by_question_type"]["abstention"]["n"] == 1
    with monkeypatch.context() as patch:
        seen = _failing(patch, "none")
        second = _invoke(settings, args)
    assert second.exit_code == 0, second.output
    assert seen == ["q-multi"]
    result = json.loads(second.stdout)
    assert result["overall"]["n"] == 2 and result["meta"]["resumed"] == 2
    assert result["by_question_type"]["multi-session"]["recall_all_at_5"] == 1.0
