"""``graphmem ingest | query | ask | forget | stats``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from tqdm import tqdm

from graphmem.cli.common import (
    app,
    emit,
    handle_errors,
    json_option,
    preset_option,
    space_param,
    strict_option,
)
from graphmem.designs.registry import build_order, builder_names
from graphmem.digest import space_digest
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Skipped
from graphmem.ingest.validate import check_space
from graphmem.memory import QueryResult
from graphmem.readiness import check_stored
from graphmem.retrieval.registry import DEFAULT_STRATEGY, strategy_names
from graphmem.stats import space_list, space_stats
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
    default=1000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Context budget in tokens.",
)


as_of_option = click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]),
    help="Answer as of this date (YYYY-MM-DD: the end of that day): only what was said by "
    "then, and a memory superseded later shown as it stood then.",
)


def _known_strategy(_: click.Context, __: click.Parameter, value: str) -> str:
    # Checked here rather than with click.Choice so that `--help` does not import every
    # design; the list comes from the registry (`graphmem designs`).
    known = strategy_names()
    if value not in known:
        raise click.BadParameter(f"{value!r} is not one of {', '.join(known)}")
    return value


def strategy_option(default: str = DEFAULT_STRATEGY) -> Callable[[F], F]:
    return click.option(
        "--strategy",
        default=default,
        show_default=True,
        callback=_known_strategy,
        help="Retrieval strategy (a design's retriever or a baseline; see `graphmem designs`).",
    )


def _builders(value: str) -> list[str]:
    if value == "all":
        return builder_names()
    return [v.strip() for v in value.split(",") if v.strip() and v.strip() != "none"]


@click.command("ingest")
@click.argument(
    "path", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
)
@space_option
@click.option(
    "--format",
    "fmt",
    default="auto",
    show_default=True,
    type=click.Choice(["auto", "locomo", "longmemeval", "jsonl"]),
    help="Input format (auto detects it).",
)
@click.option(
    "--builders",
    default="all",
    show_default=True,
    help="Comma-separated memory builders to run after the core passages ('none' for core only).",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
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
    builders: str,
    no_progress: bool,
    strict: bool,
    as_json: bool,
) -> None:
    """Ingest conversations from PATH (- for standard input) into a space. Idempotent and
    resumable: stored sessions are skipped; a failure never leaves half a session behind.
    Turns with no text and repeated copies of a session are left out and counted."""
    limits = ReadLimits.of(app(ctx).settings, strict)
    dataset = load(path, fmt, limits)  # type: ignore[arg-type]  # validated by click.Choice
    chosen = _builders(builders)
    build_order(chosen)  # a misspelt builder is said before any progress bar or write
    total = sum(len(s.turns) for c in dataset.conversations for s in c.sessions)
    with (
        app(ctx).memory() as memory,
        tqdm(total=total, unit="turn", disable=no_progress or as_json) as bar,
    ):

        def advance(turns: int) -> None:
            bar.update(turns)

        done = memory.ingest_dataset(dataset, space, chosen, advance)
    emit(done.as_dict(), as_json, _render_ingest)


def _render_ingest(data: dict[str, Any]) -> str:
    """The turns written, then one row per builder: its own time is not in the turns'."""
    n = data["conversations"]
    lines = [
        f"{n} conversation{'s' if n != 1 else ''}: {data['sessions_written']} sessions "
        f"written, {data['sessions_skipped']} already stored; {data['passages_written']} turns "
        f"in {data['seconds']} s ({data['turns_per_second']} turns/s)"
    ]
    skipped = Skipped(**data.get("skipped", {}))
    if skipped.total:
        lines.append(f"input: {skipped.describe()}")
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


def _render_query(data: dict[str, Any], explain: bool) -> str:
    head = (
        f"# {data['strategy']} | {data['tokens']}/{data['budget']} tokens | "
        f"{len(data['items'])} items | {data['latency_ms']} ms"
    )
    lines = [head, data["context"]]
    if explain:
        lines.append("\n# explain")
        lines.extend(f"note: {note}" for note in data.get("notes", []))
        for item in data["items"]:
            # A memory is named by its kind, the turns it stands for and its opening words,
            # so each line can be matched to its bullet above.
            where = item["source_id"] or (
                f'{item["kind"]} [{", ".join(item["turns"])}] "{_opening(item["text"])}"'
            )
            lines.append(f"{where}: {item['strategy']} via {'; '.join(item['path'])}")
    return "\n".join(lines)


def _opening(text: str, words: int = 6) -> str:
    head = text.split()
    return " ".join(head[:words]) + (" ..." if len(head) > words else "")


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
    emit(data, as_json, lambda d: _render_query(d, explain))


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


@click.command("forget")
@space_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@json_option
@click.pass_context
@handle_errors
def forget(ctx: click.Context, space: str, yes: bool, as_json: bool) -> None:
    """Delete everything stored in a space."""
    if not yes:
        click.confirm(f"Delete every memory of space {space!r}?", abort=True)
    with app(ctx).memory() as memory:
        deleted = memory.forget(space)
    emit({"space": space, "deleted_nodes": deleted}, as_json)


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
@json_option
@click.pass_context
@handle_errors
def stats(ctx: click.Context, space: str, digest: bool, as_json: bool) -> None:
    """Counts of every kind of memory in a space, and each design's own ratios."""
    with app(ctx).memory() as memory:
        check_stored(memory.store, check_space(space))
        if digest:
            emit(space_digest(memory.store, space).model_dump(), as_json)
            return
        emit(space_stats(memory.store, space), as_json)
