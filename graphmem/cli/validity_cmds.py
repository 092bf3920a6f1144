"""``graphmem eval validity``: the offline change detector against hand-labelled pairs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.precision_cmds import labelled_run_options
from graphmem.eval.changes import ChangeScore, load_pair_labels, measure, todo_lines
from graphmem.eval.private_files import write_private


def _shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(found: ChangeScore) -> str:
    lines = [
        "| judged | labelled changes | detected | right | precision | recall | target "
        "| unlabelled | gone |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {found.judged} | {found.labelled_positive} | {found.detected_positive} "
        f"| {found.true_positive} | {_shown(found.precision)} | {_shown(found.recall)} "
        f"| {found.target:.2f} | {found.unlabelled} | {found.gone} |",
        "",
        "| label \\ detector | " + " | ".join(_VERDICTS) + " |",
        "|---|" + "---|" * len(_VERDICTS),
    ]
    for label in _VERDICTS:
        row = found.by_verdict.get(label, {})
        lines.append(f"| {label} | " + " | ".join(str(row.get(v, 0)) for v in _VERDICTS) + " |")
    return "\n".join(lines)


_VERDICTS = ("same", "update", "contradiction", "unrelated")


@click.command("validity")
@labelled_run_options(
    "Folder of *.jsonl labelled pairs (tests/fixtures/validity).",
    "validity",
    "Write the candidate pairs no label covers to this JSON Lines file, to label.",
)
@json_option
@click.pass_context
@handle_errors
def validity(
    ctx: click.Context,
    /,
    labels_dir: Path,
    locomo: Path | None,
    longmemeval: Path | None,
    space_prefix: str,
    todo: Path | None,
    as_json: bool,
) -> None:
    """Precision and recall of the offline change detector (docs/validity.md) against
    hand-labelled candidate pairs: each labelled conversation is built into its own space,
    its candidate pairs and their verdicts are matched to the labels by turns and texts.
    A pair is a change when it is an update or a contradiction; recall is over candidate
    pairs. `unlabelled`: pairs no label covers; `gone`: labels no longer a candidate."""
    labels = load_pair_labels(labels_dir)
    sources = {k: v for k, v in (("locomo", locomo), ("longmemeval", longmemeval)) if v}
    with app(ctx).memory() as memory:
        found, unlabelled = measure(
            memory, labels, sources, space_prefix, lambda space: click.echo(space, err=True)
        )
    if todo is not None:
        lines = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in todo_lines(unlabelled))
        write_private(todo, lines)
        click.echo(f"wrote {len(unlabelled)} unlabelled pairs to {todo}", err=True)
    emit(found.model_dump(), as_json, lambda _: _table(found))
