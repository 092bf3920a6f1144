"""``graphmem eval dates``: a date resolver against the hand labels of date expressions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from graphmem.cli.common import emit, handle_errors, json_option, usage_error
from graphmem.errors import InputError

if TYPE_CHECKING:  # the scoring module is imported when the command runs
    from graphmem.eval.dates import ErrorLine, PartChoice, PartScore, Resolver

_PARTS = ("dev", "frozen", "all")


def _shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(score: PartScore) -> str:
    lines = [
        f"{score.part}:",
        "",
        "| kind | labels | judged | correct | precision | recall |",
        "|---|---|---|---|---|---|",
    ]
    for r in [*score.rows, score.durations]:
        lines.append(
            f"| {r.kind} | {r.labels} | {r.judged} | {r.correct} | {_shown(r.precision)} "
            f"| {_shown(r.recall)} |"
        )
    return "\n".join(lines)


def _error_text(errors: list[ErrorLine], part: str) -> str:
    said = "wrong or missed lines" + (" (dev lines only)" if part == "all" else "")
    lines = [f"{said}: {len(errors)}"]
    for e in errors:
        got = ", ".join(e.got) or "nothing"
        lines.append(
            f"- {e.id} [{e.kind}] said {e.said_at}: {e.expression!r} meant {e.meant}, got {got}"
        )
        lines.append(f"    {' '.join(e.text.split())[:300]}")
    return "\n".join(lines)


@click.command("dates")
@click.option(
    "--resolver",
    "resolver_name",
    default="current",
    show_default=True,
    help="The date resolver to score, by its name in graphmem.eval.dates.RESOLVERS (current: "
    "what the designs read, graphmem.nlp.temporal.normalise_temporal; grounding: "
    "graphmem.nlp.grounding.ground alone, durations included).",
)
@click.option(
    "--part",
    type=click.Choice(_PARTS),
    default="all",
    show_default=True,
    help="Which labels: dev, frozen, or all (a table for each part and one for both).",
)
@click.option(
    "--labels",
    "labels_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The labels file (default: tests/fixtures/dates/labels.jsonl of the source checkout).",
)
@click.option(
    "--errors",
    type=click.IntRange(min=1),
    help="Also print up to N wrong or missed DEV lines (never frozen ones).",
)
@json_option
@handle_errors
def dates(
    resolver_name: str,
    part: str,
    labels_path: Path | None,
    errors: int | None,
    as_json: bool,
) -> None:
    """Precision and recall of a date resolver against hand labels of date expressions, by
    kind and part (dev, frozen). Judged: the resolver's mentions that overlap a labelled
    expression; correct: the first and last day equal the label's (docs/eval.md, "Dates")."""
    if errors is not None and part == "frozen":
        raise click.UsageError(
            "--errors shows dev lines only; it cannot be used with --part frozen"
        )
    from graphmem.eval import dates as scoring

    try:  # a name the registry does not hold is a usage error, said before any work
        resolve: Resolver = scoring.resolver(resolver_name)
    except InputError as exc:
        bad = usage_error(exc)
        bad.param_hint = "'--resolver'"
        raise bad from None
    chosen = cast("PartChoice", part)
    labels = scoring.load_labels(labels_path or scoring.DEFAULT_LABELS, chosen)
    outcomes = scoring.score(labels, resolve)
    parts = ["dev", "frozen", "all"] if chosen == "all" else [chosen]
    scores = [scoring.summarise(outcomes, cast("PartChoice", p)) for p in parts]
    wrong = scoring.dev_errors(outcomes, errors) if errors is not None else None
    if as_json:
        data: dict[str, Any] = {
            "resolver": resolver_name,
            "parts": [s.model_dump() for s in scores],
        }
        if wrong is not None:
            data["errors"] = [e.model_dump() for e in wrong]
        emit(data, True)
        return
    text = "\n\n".join(_table(s) for s in scores)
    if wrong is not None:
        text += "\n\n" + _error_text(wrong, part)
    click.echo(text)
