"""``graphmem eval ... --jobs N``: conversations evaluated in worker processes give the same
records and results as one after the other (latency apart), and the parent's ``--out`` log
resumes as a serial run's does."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.common import AppContext
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.eval.runlog import DONE_FILE
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

LONGMEMEVAL = FIXTURES / "longmemeval_eval.json"
HAYSTACKS = ("q-single", "q-multi", "q-temporal_abs")


def _invoke(settings: Settings, args: list[str]) -> Any:
    context = AppContext()
    context.settings = settings
    return CliRunner().invoke(cli, args, obj={"app": context})


@pytest.fixture
def prefixes(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[list[str]]:
    names = [f"test-{uuid.uuid4().hex[:10]}" for _ in range(2)]
    yield names
    memory = Memory(settings, store=store, embedder=embedder)
    for name in names:
        for haystack in HAYSTACKS:
            memory.forget(f"{name}-{haystack}", missing_ok=True)


def _records(out: Path) -> dict[str, Any]:
    """Each finished conversation's log line, latencies and timings left out."""
    lines = (out / DONE_FILE).read_text(encoding="utf-8").splitlines()
    found = {}
    for line in lines:
        done = json.loads(line)
        done["records"] = [[s, b, g, values] for s, b, g, _ms, values in done["records"]]
        del done["prepare_ms"], done["build_cost"]
        found[done["conversation"]] = done
    return found


def _scores(results: list[dict[str, Any]]) -> list[Any]:
    """The results without latency, the run's timings, code identity and resumed count."""

    def strip(summary: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in summary.items() if k != "latency_ms"}

    apart = {"prepare_ms", "build_cost", "code", "resumed"}
    return [
        (
            r["strategy"],
            r["budget"],
            strip(r["overall"]),
            {group: strip(s) for group, s in r["by_question_type"].items()},
            {k: v for k, v in r["meta"].items() if k not in apart},
        )
        for r in results
    ]


def _ingested_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The conversations this process ingests (a worker process does not see the patch)."""
    seen: list[str] = []
    original = Memory.ingest_dataset

    def ingest(self: Memory, dataset: Dataset, *args: Any, **kw: Any) -> Any:
        seen.append(dataset.conversations[0].conversation_id)
        return original(self, dataset, *args, **kw)

    monkeypatch.setattr(Memory, "ingest_dataset", ingest)
    return seen


def test_jobs_2_equals_jobs_1_and_resumes(
    settings: Settings, prefixes: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["eval", "longmemeval", str(LONGMEMEVAL), "--strategy", "fulltext,dense"]
    args += ["--budget", "100", "--budget", "300", "--no-progress", "--json"]
    seen = _ingested_here(monkeypatch)
    runs = {}
    for jobs, prefix in zip((2, 1), prefixes, strict=True):
        out = tmp_path / f"jobs{jobs}"
        options = ["--space-prefix", prefix, "--out", str(out), "--jobs", str(jobs)]
        result = _invoke(settings, [*args, *options])
        assert result.exit_code == 0, result.output
        runs[jobs] = out, json.loads(result.stdout)
    assert seen == list(HAYSTACKS)  # --jobs 1 only: --jobs 2 ingested in its workers
    (parallel, in_workers), (serial, one_by_one) = runs[2], runs[1]
    assert set(_records(parallel)) == set(HAYSTACKS)
    assert _records(parallel) == _records(serial)
    assert _scores(in_workers) == _scores(one_by_one)
    assert in_workers[0]["meta"]["n_questions"] == 3
    assert json.loads((parallel / "results.json").read_text(encoding="utf-8")) == in_workers

    # Two haystacks lost from the log (as if the run had stopped before them): the rerun
    # evaluates those two, in workers, and resumes the third.
    log = parallel / DONE_FILE
    kept = [line for line in log.read_text(encoding="utf-8").splitlines() if "q-multi" in line]
    log.write_text(kept[0] + "\n", encoding="utf-8")
    rerun = [*args, "--space-prefix", prefixes[0], "--out", str(parallel), "--jobs", "2"]
    seen.clear()
    resumed = _invoke(settings, rerun)
    assert resumed.exit_code == 0, resumed.output
    assert seen == []
    assert "resumed 1 finished conversations" in resumed.stderr
    assert json.loads(resumed.stdout)[0]["meta"]["resumed"] == 1
    assert _records(parallel) == _records(serial)
    assert _scores(json.loads(resumed.stdout)) == _scores(one_by_one)

    # Nothing left: a third run starts no worker and evaluates nothing.
    again = _invoke(settings, rerun)
    assert again.exit_code == 0, again.output
    assert seen == []
    assert "resumed 3 finished conversations" in again.stderr
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3
