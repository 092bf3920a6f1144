"""``graphmem ingest | query | ask | forget | stats``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click

from graphmem.cli.common import (
    _plain,
    app,
    budget_param,
    builders_param,
    emit,
    handle_errors,
    json_option,
    preset_option,
    space_param,
    strategy_param,
    strict_option,
)
from graphmem.cli.import_options import format_option, import_options, options_of
from graphmem.cli.plain import nonzero, plural
from graphmem.cli.progress import IngestProgress, ReadProgress
from graphmem.graph.digest import space_digest
from graphmem.graph.readiness import check_stored
from graphmem.graph.stats import space_list, space_stats
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Skipped
from graphmem.ingest.summary import summarize
from graphmem.ingest.validate import check_space
from graphmem.memory import QueryResult
from graphmem.retrieval.registry import DEFAULT_STRATEGY
from graphmem.serving.limits import BUDGET_HELP, BUILDERS_HELP, DEFAULT_BUDGET, DEFAULT_BUILDERS
from graphmem.serving.render import render_query
from graphmem.validity.history import as_of_moment

F = TypeVar("F", bound=Callable[..., Any])

space_option = click.option(
    "--space",
    required=True,
    envvar="GRAPHMEM_SPACE",
    show_envvar=True,
    callback=space_param,
    help="The memory space (tenant): a user, agent or dataset.",
)
budget_option = click.option(
    "--budget",
    default=DEFAULT_BUDGET,
    show_default=True,
    type=int,
    callback=budget_param,
    help=BUDGET_HELP,
)
builders_option = click.option(
    "--builders",
    default=DEFAULT_BUILDERS,
    show_default=True,
    callback=builders_param,
    help=BUILDERS_HELP,
)


as_of_option = click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]),
    help="Answer as of this date (YYYY-MM-DD: the end of that day): only what was said by "
    "then, and a memory superseded later shown as it stood then.",
)


def strategy_option(default: str = DEFAULT_STRATEGY) -> Callable[[F], F]:
    return click.option(
        "--strategy",
        default=default,
        show_default=True,
        callback=strategy_param,
        help="Retrieval strategy (a design's retriever or a baseline; see `graphmem designs`).",
    )


@click.command("ingest")
@click.argument("path", type=click.Path(exists=True, allow_dash=True, path_type=Path))
@space_option
@format_option("Input format: auto detects it; chat apps' exports are listed in docs/import.md.")
@import_options
@builders_option
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option(
    "--dry-run",
    is_flag=True,
    help="Read and check PATH and say what it holds (conversations, sessions, turns, "
    "speakers, dates, what is left out); write nothing.",
)
@strict_option
@preset_option
@json_option
@click.pass_context
@handle_errors
def ingest(
    ctx: click.Context,
    path: Path,
    space: str,
    fmt: str,
    builders: list[str],
    no_progress: bool,
    dry_run: bool,
    strict: bool,
    as_json: bool,
    timezone: str | None,
    session_gap: int | None,
    columns: dict[str, str],
    timestamp_format: str | None,
    date_order: str,
) -> None:
    """Ingest conversations from PATH (- for standard input) into a space. PATH is a
    graphmem JSONL or JSON file, LoCoMo, LongMemEval, or a chat app's export: the file,
    its zip or its folder (docs/import.md). Idempotent and resumable: stored sessions are
    skipped; a failure never leaves half a session behind. Turns with no text and repeated
    copies of a session are left out and counted, and so is what an export holds besides its
    messages."""
    settings = app(ctx).settings
    limits = ReadLimits.of(settings, strict)
    how = options_of(settings, timezone, session_gap, columns, timestamp_format, date_order)
    with ReadProgress(path, hidden=no_progress or as_json) as reading:
        dataset = load(path, fmt, limits, how, reading.read)  # type: ignore[arg-type]  # validated by click.Choice
    if dry_run:
        emit(summarize(dataset), as_json, _render_summary)
        return
    with (
        app(ctx).memory() as memory,
        IngestProgress(dataset, builders, hidden=no_progress or as_json) as shown,
    ):
        done = memory.ingest_dataset(
            dataset, space, builders, shown.turns, build_progress=shown.built
        )
    emit(done.as_dict(), as_json, _render_ingest)


def _render_summary(data: dict[str, Any]) -> str:
    """``--dry-run``'s few lines: what would be written, then what is left out."""
    span = f", {data['first']} to {data['last']}" if data["first"] else ", undated"
    undated = (
        f" ({data['undated_turns']} undated)" if data["first"] and data["undated_turns"] else ""
    )
    top = ", ".join(f"{s['speaker']} {s['turns']}" for s in data["top_speakers"])
    lines = [
        f"{', '.join(data['formats'])}: {plural(data['conversations'], 'conversation')}, "
        f"{plural(data['sessions'], 'session')}, {plural(data['turns'], 'turn')}{undated}{span}",
        f"{plural(data['speakers'], 'speaker')}: {top}",
    ]
    lines += _input_lines(Skipped(**data["skipped"]))
    return "\n".join([*lines, "nothing written (--dry-run)"])


def _input_lines(skipped: Skipped) -> list[str]:
    """What the load left out, then what it decided for the user."""
    said = [f"input: {skipped.describe()}"] if skipped.total or skipped.left_out else []
    return said + [f"note: {note}" for note in skipped.notes]


def _render_ingest(data: dict[str, Any]) -> str:
    """The turns written, then one row per builder: its own time is not in the turns'."""
    lines = [
        f"{plural(data['conversations'], 'conversation')}: "
        f"{plural(data['sessions_written'], 'session')} written, "
        f"{data['sessions_skipped']} already stored; "
        f"{plural(data['passages_written'], 'turn')} in {_where_the_time_went(data)}"
    ]
    lines += _input_lines(Skipped(**data.get("skipped", {})))
    if not data["builders"]:
        return "\n".join([*lines, "builders: none"])
    head = ("builder", "sessions", "seconds", "LLM calls", "cache hits", "fallbacks")
    rows = [
        (
            b["builder"],
            b["sessions"],
            b["seconds"],
            b["llm_calls"],
            b["llm_cache_hits"],
            b["llm_fallbacks"],
        )
        for b in data["builders"]
    ]
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    for row in (head, *rows):
        cells = [
            str(v).ljust(w) if i == 0 else str(v).rjust(w)
            for i, (v, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _where_the_time_went(data: dict[str, Any]) -> str:
    """The call's wall time and its parts: "23.1 s (passages 2.6 s, builders 20.5 s,
    other 0.4 s)"; other is mostly loading the models."""
    turns = float(data["seconds"])
    built = sum(float(b["seconds"]) for b in data["builders"])
    wall = max(float(data.get("wall_seconds", 0.0)), turns + built)
    parts = [f"passages {turns:.1f} s"]
    parts += [f"builders {built:.1f} s"] if data["builders"] else []
    other = wall - turns - built
    if other >= 0.1:
        parts.append(f"other {other:.1f} s")
    return f"{wall:.1f} s ({', '.join(parts)})"


@click.command("query")
@click.argument("question")
@space_option
@strategy_option()
@budget_option
@click.option("--explain", is_flag=True, help="Show which strategy and path gave each item.")
@as_of_option
@preset_option
@json_option
@click.pass_context
@handle_errors
def query(
    ctx: click.Context,
    question: str,
    space: str,
    strategy: str,
    budget: int,
    explain: bool,
    as_of: datetime | None,
    as_json: bool,
) -> None:
    """Retrieve a cited, chronological context for QUESTION within a token budget. A memory
    a later one superseded is marked "(until DATE)" (docs/validity.md)."""
    with app(ctx).memory() as memory:
        found: QueryResult = memory.query(
            question, space, strategy, budget, as_of=as_of_moment(as_of)
        )
    data = found.as_dict(explain)
    emit(data, as_json, lambda d: render_query(d, explain))


@click.command("ask")
@click.argument("question")
@space_option
@strategy_option()
@budget_option
@as_of_option
@preset_option
@json_option
@click.pass_context
@handle_errors
def ask(
    ctx: click.Context,
    question: str,
    space: str,
    strategy: str,
    budget: int,
    as_of: datetime | None,
    as_json: bool,
) -> None:
    """Answer QUESTION from memory with the configured LLM. Without an LLM, prints the
    context an LLM would get and says so."""
    with app(ctx).memory() as memory:
        asked = memory.ask(question, space, strategy, budget, as_of=as_of_moment(as_of))
    data = {**asked.as_dict(), "llm": memory.settings.llm_model}

    def text(d: dict[str, Any]) -> str:
        if d["answer"] is None and d["llm"]:
            return f"{d['llm']} gave no valid answer; the context it got:\n\n{d['context']}"
        if d["answer"] is None:
            return (
                "no LLM configured (set GRAPHMEM_LLM_MODEL / GRAPHMEM_LLM_BASE_URL); "
                f"this is the context it would get:\n\n{d['context']}"
            )
        return f"{d['answer']}\n\ncited turns: {', '.join(map(str, d['citations']))}"

    emit(data, as_json, text)


@click.command("spaces")
@json_option
@click.pass_context
@handle_errors
def spaces(ctx: click.Context, as_json: bool) -> None:
    """The spaces in the database, with their conversations, sessions and turns."""
    with app(ctx).memory() as memory:
        rows = space_list(memory.store)
    emit({"spaces": rows} if as_json else rows, as_json, _spaces_table)


def _spaces_table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no spaces yet: graphmem ingest FILE --space NAME"
    width = max(len("space"), *(len(r["space"]) for r in rows))
    head = f"{'space':<{width}}  conversations  sessions  turns"
    body = [
        f"{r['space']:<{width}}  {r['conversations']:>13}  {r['sessions']:>8}  {r['turns']:>5}"
        for r in rows
    ]
    return "\n".join([head, *body])


@click.command("stats")
@space_option
@click.option(
    "--digest",
    is_flag=True,
    help="Print the space's canonical digest (counts per label and type, sha256 over ids, "
    "key properties and relationships) instead: equal digests mean equal graphs.",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Show every figure, zeros included (an offline build's LLM counts); --json always does.",
)
@json_option
@click.pass_context
@handle_errors
def stats(ctx: click.Context, space: str, digest: bool, show_all: bool, as_json: bool) -> None:
    """Counts of every kind of memory in a space, and each design's own ratios. Figures of
    0 are left out (an offline build's LLM counts); --all shows them."""
    with app(ctx).memory() as memory:
        check_stored(memory.store, check_space(space))
        if digest:
            emit(space_digest(memory.store, space).model_dump(), as_json)
            return
        found = space_stats(memory.store, space)
    emit(found, as_json, None if show_all else _nonzero_stats)


def _nonzero_stats(data: dict[str, Any]) -> str:
    shown, left_out = nonzero(data)
    text = _plain(shown)
    if left_out:
        text += f"\n({plural(left_out, 'figure')} of 0 not shown; --all shows them)"
    return text
