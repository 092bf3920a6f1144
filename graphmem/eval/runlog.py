"""What an evaluation keeps in its ``--out`` directory while it runs, so that nothing
finished is lost and a rerun resumes (docs/eval.md, "Resume and failures").

- ``run.json``: what the run evaluates (dataset kind and file hash, strategies, budgets,
  questions per conversation, space prefix, presets, settings, LLM model). A rerun with
  the same ``--out`` resumes only when these are equal, and refuses otherwise (exit 2):
  mixing scores of two set-ups would give numbers of neither.
- ``conversations.jsonl``: one line per finished conversation (LongMemEval: per question
  haystack), appended and flushed as it finishes: its scores per strategy and budget and
  the figures its part of ``meta`` is summed from. A line cut short by a crash is ignored.
- ``failures.log``: the traceback of each conversation that failed (it is evaluated again
  by the next rerun).
- ``results.json`` and ``report.md``: rewritten after every conversation from everything
  finished so far.

The code identity is not part of the match: a rerun after a fix must resume.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphmem.errors import (
    CatalogError,
    ConfigError,
    EvaluationIncomplete,
    GraphmemError,
    LLMError,
    LLMItemError,
    SchemaError,
    ServerError,
)
from graphmem.eval.aggregate import Scored
from graphmem.eval.private_files import append_private, private_dir, write_private
from graphmem.eval.report import render_markdown

RUN_FILE = "run.json"
DONE_FILE = "conversations.jsonl"
FAILURES_FILE = "failures.log"
FORMAT = 1


@dataclass
class ConversationResult:
    """One conversation's share of a run: its scores and the figures of ``meta``."""

    conversation: str
    records: list[tuple[str, int, Scored]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    prepare_ms: dict[str, float] = field(default_factory=dict)
    usage: dict[str, dict[str, Any]] = field(default_factory=dict)  # part -> LLMUsage fields
    build_cost: dict[str, dict[str, float]] = field(default_factory=dict)
    groups: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "conversation": self.conversation,
            "records": [[s, b, r.group, r.latency_ms, dict(r.values)] for s, b, r in self.records],
            "counts": self.counts,
            "prepare_ms": self.prepare_ms,
            "usage": self.usage,
            "build_cost": self.build_cost,
            "groups": self.groups,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ConversationResult:
        return cls(
            conversation=str(data["conversation"]),
            records=[
                (str(s), int(b), Scored(str(g), float(ms), values))
                for s, b, g, ms, values in data["records"]
            ],
            counts={k: int(v) for k, v in data["counts"].items()},
            prepare_ms={k: float(v) for k, v in data["prepare_ms"].items()},
            usage=data["usage"],
            build_cost=data["build_cost"],
            groups=[str(g) for g in data["groups"]],
        )


@dataclass(frozen=True)
class Attempt:
    """What evaluating one conversation gave: its result, or (``result`` None) the failure
    as ``meta.failed`` names it and its traceback for ``failures.log``."""

    conversation: str
    result: ConversationResult | None
    error: str = ""
    trace: str = ""


# Errors no other conversation of the run could escape: they end the run (what finished
# is kept in ``out``). Anything else fails one conversation only.
_FATAL = (ServerError, SchemaError, CatalogError, ConfigError)


def fatal(exc: Exception) -> bool:
    return isinstance(exc, _FATAL) or (
        isinstance(exc, LLMError) and not isinstance(exc, LLMItemError)
    )


def described(exc: Exception) -> str:
    """``KeyError: ''``, ``InputError: <message>``: what a failed conversation reports."""
    text = exc.message if isinstance(exc, GraphmemError) else str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def incomplete(
    failed: list[dict[str, str]], results: list[dict[str, Any]], out: Path | None
) -> EvaluationIncomplete:
    named = "; ".join(f"{f['conversation']} ({f['error']})" for f in failed)
    where = f" (tracebacks in {out / FAILURES_FILE})" if out is not None else ""
    return EvaluationIncomplete(
        f"{len(failed)} conversation(s) failed and are missing from the results: {named}",
        results=results,
        hint=f"the others were evaluated{where}; rerun the same command with --out DIR "
        "to evaluate only what is missing",
    )


class RunLog:
    """The ``--out`` directory of one evaluation; without one, keeps nothing."""

    def __init__(self, out: Path | None, identity: dict[str, Any]) -> None:
        self.out = out
        self.identity = {"format": FORMAT, **json.loads(json.dumps(identity, default=str))}

    def open(self) -> dict[str, ConversationResult]:
        """The conversations a former run with this identity finished (none for a new
        directory); refuses a directory that holds another set-up's results."""
        if self.out is None:
            return {}
        run_file, done_file = self.out / RUN_FILE, self.out / DONE_FILE
        if run_file.exists():
            self._check(run_file)
        elif done_file.exists():
            raise ConfigError(
                f"{self.out} holds evaluated conversations but no {RUN_FILE}",
                hint="pass another --out, or delete the directory to start again",
            )
        else:
            private_dir(self.out)
            write_private(run_file, json.dumps(self.identity, indent=2, sort_keys=True) + "\n")
        return self._finished(done_file)

    def _check(self, run_file: Path) -> None:
        try:
            stored = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read {run_file}: {exc}") from None
        if stored == self.identity:
            return
        keys = sorted(k for k in {*stored, *self.identity} if stored.get(k) != self.identity.get(k))
        raise ConfigError(
            f"{self.out} holds an evaluation with other settings (differs in: "
            f"{', '.join(keys)}); a rerun resumes only the same dataset, strategies, "
            "budgets, questions, space prefix, presets and settings",
            hint="pass another --out, or delete the directory to start again",
        )

    @staticmethod
    def _finished(done_file: Path) -> dict[str, ConversationResult]:
        out: dict[str, ConversationResult] = {}
        if not done_file.exists():
            return out
        for line in done_file.read_text(encoding="utf-8").splitlines():
            try:
                result = ConversationResult.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue  # the last line of a run killed while writing it
            out[result.conversation] = result
        return out

    def finished(self, result: ConversationResult) -> None:
        """Append one finished conversation, on disk before the next one starts."""
        if self.out is None:
            return
        line = json.dumps(result.as_json(), default=str, ensure_ascii=False)
        with append_private(self.out / DONE_FILE) as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def failed(self, conversation: str, trace: str) -> None:
        if self.out is None:
            return
        with append_private(self.out / FAILURES_FILE) as handle:
            handle.write(f"--- {conversation}\n{trace}\n")

    def results(self, results: list[dict[str, Any]]) -> None:
        if self.out is not None:
            write_outputs(self.out, results)


def write_outputs(out: Path, results: list[dict[str, Any]]) -> list[Path]:
    """``results.json`` (every result) and ``report.md`` (the Markdown tables) in ``out``,
    each replaced whole (a reader never sees half a file)."""
    private_dir(out)
    data_file, report_file = out / "results.json", out / "report.md"
    write_private(data_file, json.dumps(results, indent=2, default=str) + "\n")
    write_private(report_file, render_markdown(results))
    return [data_file, report_file]


def summed(results: Iterable[ConversationResult]) -> dict[str, Any]:
    """The part of ``meta`` the conversations' figures sum to."""
    counts: dict[str, int] = {}
    prepare: dict[str, float] = {}
    usage: dict[str, dict[str, Any]] = {}
    ledger: dict[str, dict[str, float]] = {}
    for result in results:
        for key, value in result.counts.items():
            counts[key] = counts.get(key, 0) + value
        for name, ms in result.prepare_ms.items():
            prepare[name] = prepare.get(name, 0.0) + ms
        _add_nested(usage, result.usage)
        _add_nested(ledger, result.build_cost)
    out: dict[str, Any] = dict(counts)
    if prepare:
        out["prepare_ms"] = prepare
    if usage:
        out["llm_usage"] = {part: usage[part] for part in sorted(usage)}
    if ledger:
        out["build_cost"] = ledger
    return out


def _add_nested(into: dict[str, dict[str, Any]], more: dict[str, dict[str, Any]]) -> None:
    for name, figures in more.items():
        mine = into.setdefault(name, {})
        for key, value in figures.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                mine[key] = round(mine.get(key, 0) + value, 2)
