"""The evaluation's run log (``graphmem.eval.runlog``): what a rerun resumes from."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from graphmem.errors import ConfigError, InputError, LLMError, LLMItemError, ServerError
from graphmem.eval.aggregate import Scored
from graphmem.eval.runlog import (
    DONE_FILE,
    FAILURES_FILE,
    RUN_FILE,
    ConversationResult,
    RunLog,
    described,
    fatal,
    summed,
    write_outputs,
)

IDENTITY = {"dataset": "locomo", "strategies": ["fulltext"], "budgets": [300]}


def _result(cid: str, latency: float = 1.5) -> ConversationResult:
    return ConversationResult(
        cid,
        records=[("fulltext", 300, Scored("temporal", latency, {"evidence_recall_at_5": 0.5}))],
        counts={"n_questions": 1, "skipped_no_evidence": 0},
        prepare_ms={"fulltext": 2.0},
        usage={"build.seem": {"calls": 2, "seconds": 0.5}},
        build_cost={"seem": {"builds": 1, "seconds": 3.25}},
        groups=["temporal"],
    )


def test_finished_conversations_are_read_back(tmp_path: Path) -> None:
    log = RunLog(tmp_path / "out", IDENTITY)
    assert log.open() == {}
    log.finished(_result("a"))
    log.finished(_result("b", 2.5))
    # a run killed while writing its third line leaves half of it
    with (tmp_path / "out" / DONE_FILE).open("a", encoding="utf-8") as handle:
        handle.write('{"conversation": "c", "records": [["fulltext", 30')
    again = RunLog(tmp_path / "out", IDENTITY).open()
    assert list(again) == ["a", "b"]
    assert again["b"] == _result("b", 2.5)


def test_another_set_up_is_refused(tmp_path: Path) -> None:
    RunLog(tmp_path, IDENTITY).open()
    with pytest.raises(ConfigError, match=r"differs in: budgets, strategies"):
        RunLog(tmp_path, {**IDENTITY, "budgets": [500], "strategies": ["dense"]}).open()


def test_a_directory_of_scores_without_its_identity_is_refused(tmp_path: Path) -> None:
    (tmp_path / DONE_FILE).write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"no run\.json"):
        RunLog(tmp_path, IDENTITY).open()


def test_without_out_nothing_is_kept() -> None:
    log = RunLog(None, IDENTITY)
    assert log.open() == {}
    log.finished(_result("a"))  # no error, nowhere to write
    assert log.open() == {}


def test_meta_figures_are_summed_over_conversations() -> None:
    meta = summed([_result("a"), _result("b")])
    assert meta["n_questions"] == 2 and meta["skipped_no_evidence"] == 0
    assert meta["prepare_ms"] == {"fulltext": 4.0}
    assert meta["llm_usage"] == {"build.seem": {"calls": 4, "seconds": 1.0}}
    assert meta["build_cost"] == {"seem": {"builds": 2, "seconds": 6.5}}


def test_which_errors_end_the_run() -> None:
    assert fatal(ServerError("gone")) and fatal(LLMError("unreachable"))
    assert not fatal(LLMItemError("one item")) and not fatal(InputError("bad"))
    assert not fatal(KeyError(""))
    assert described(KeyError("")) == "KeyError: ''"
    assert described(InputError("bad", field="text")) == "InputError: field 'text': bad"


def test_the_run_folder_and_its_files_are_the_owners_only(tmp_path: Path) -> None:
    # reports quote the questions and cite turns: private whatever the umask
    old = os.umask(0o022)
    try:
        out = tmp_path / "reports" / "run"
        log = RunLog(out, IDENTITY)
        log.open()
        log.finished(_result("a"))
        log.failed("b", "Traceback ...")
        write_outputs(out, [])
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted([RUN_FILE, DONE_FILE, FAILURES_FILE, "results.json", "report.md"])
    assert {stat.S_IMODE(p.stat().st_mode) for p in out.iterdir()} == {0o600}
