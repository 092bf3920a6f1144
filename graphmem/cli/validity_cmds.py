"""``graphmem eval validity``: the offline change detector against hand-labelled pairs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.precision_cmds import labelled_run_options
from graphmem.eval.changes import (
    ChangeScore,
    Reach,
    judge_labels,
    load_pair_labels,
    measure,
    reach,
    todo_lines,
)
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


def _reach_table(rows: list[Reach]) -> str:
    lines = ["", "| part | haystacks | change marked in | calls |", "|---|---|---|---|"]
    lines += [f"| {r.part} | {r.haystacks} | {r.reached} | {r.calls} |" for r in rows]
    return "\n".join(lines)


@click.command("validity")
@labelled_run_options(
    "Folder of *.jsonl labelled pairs (tests/fixtures/validity).",
    "validity",
    "Write the candidate pairs no label covers to this JSON Lines file, to label.",
)
@click.option(
    "--from-labels",
    is_flag=True,
    help="Judge the labelled pairs as the labels write them (claims read from their texts "
    "and their turns' speakers and dates), building nothing.",
)
@click.option(
    "--reach",
    "reach_too",
    is_flag=True,
    help="Also count the dev knowledge-update haystacks of --longmemeval with a change "
    "marked, per part (dev and frozen: graphmem.eval.parts's split of the question id), "
    "each built in <prefix>-<id>.",
)
@click.option(
    "--calls",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --reach: write the changes marked to this JSON Lines file, to check by hand.",
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
    from_labels: bool,
    reach_too: bool,
    calls: Path | None,
    as_json: bool,
) -> None:
    """Precision and recall of the offline change detector (docs/validity.md) against
    hand-labelled candidate pairs: each labelled conversation is built into its own space,
    its candidate pairs and their verdicts are matched to the labels by turns and texts.
    A pair is a change when it is an update or a contradiction; recall is over candidate
    pairs. `unlabelled`: pairs no label covers; `gone`: labels no longer a candidate."""
    labels = load_pair_labels(labels_dir)
    sources = {k: v for k, v in (("locomo", locomo), ("longmemeval", longmemeval)) if v}
    if reach_too and longmemeval is None:
        raise click.UsageError("--reach needs --longmemeval")
    shown = lambda space: click.echo(space, err=True)  # noqa: E731
    rows: list[Reach] = []
    with app(ctx).memory() as memory:
        if from_labels:
            found, unlabelled = judge_labels(labels, sources, memory)
        else:
            found, unlabelled = measure(memory, labels, sources, space_prefix, shown)
        if reach_too and longmemeval is not None:
            rows, marked = reach(memory, longmemeval, space_prefix, progress=shown)
            if calls is not None:
                _write_lines(calls, [p.model_dump() for p in marked])
    if todo is not None:
        _write_lines(todo, todo_lines(unlabelled))
    result = {**found.model_dump(), "reach": [r.model_dump() for r in rows]}
    emit(result, as_json, lambda _: _table(found) + (_reach_table(rows) if rows else ""))


def _write_lines(path: Path, records: list[dict[str, object]]) -> None:
    write_private(path, "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in records))
    click.echo(f"wrote {len(records)} pairs to {path}", err=True)
