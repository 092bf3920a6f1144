"""``graphmem eval precision``: the offline extractors' precision against hand labels."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.eval.precision import PrecisionRow, load_labels, measure, todo_lines
from graphmem.eval.private_files import write_private

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
F = TypeVar("F", bound=Callable[..., Any])


def _table(rows: list[PrecisionRow]) -> str:
    lines = [
        "| kind | judged | correct | precision | target | unlabelled | gone |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        shown = "-" if r.precision is None else f"{r.precision:.3f}"
        lines.append(
            f"| {r.group} | {r.judged} | {r.correct} | {shown} | {r.target:.2f} "
            f"| {r.unlabelled} | {r.gone} |"
        )
    return "\n".join(lines)


def labelled_run_options(labels_help: str, prefix: str, todo_help: str) -> Callable[[F], F]:
    """The options of a command that scores hand labels on dev conversations it builds
    (``eval precision``, ``eval validity``)."""

    def wrap(command: F) -> F:
        for option in reversed(
            [
                click.option(
                    "--labels",
                    "labels_dir",
                    type=click.Path(exists=True, file_okay=False, path_type=Path),
                    required=True,
                    help=labels_help,
                ),
                click.option(
                    "--locomo", type=_FILE, help="The LoCoMo file the locomo labels come from."
                ),
                click.option(
                    "--longmemeval",
                    type=_FILE,
                    help="LongMemEval_S (`graphmem eval fetch longmemeval`); only its dev half "
                    "is read.",
                ),
                click.option(
                    "--space-prefix",
                    default=prefix,
                    show_default=True,
                    help="Spaces <prefix>-<conversation>: built with every builder, reused "
                    "when built.",
                ),
                click.option(
                    "--todo", type=click.Path(dir_okay=False, path_type=Path), help=todo_help
                ),
            ]
        ):
            command = option(command)
        return command

    return wrap


@click.command("precision")
@labelled_run_options(
    "Folder of *.jsonl hand labels (tests/fixtures/precision).",
    "precision",
    "Write the extractions no label covers to this JSON Lines file, to label.",
)
@json_option
@click.pass_context
@handle_errors
def precision(
    ctx: click.Context,
    /,
    labels_dir: Path,
    locomo: Path | None,
    longmemeval: Path | None,
    space_prefix: str,
    todo: Path | None,
    as_json: bool,
) -> None:
    """Precision of the offline extractors per kind (entities, characters, each design's
    statement nodes) against hand labels: each labelled conversation is built into its own
    space, then what the graph holds is matched to the labels by turn and text. `unlabelled`:
    extractions no label covers; `gone`: labels whose text is no longer extracted. Printed
    for every label, then for each part of the split by conversation: `dev`, whose errors
    rules may be written from, and `frozen`, never read, where a rule must not lose."""
    labels = load_labels(labels_dir)
    sources = {k: v for k, v in (("locomo", locomo), ("longmemeval", longmemeval)) if v}
    with app(ctx).memory() as memory:
        rows, unlabelled, parts = measure(
            memory, labels, sources, space_prefix, lambda space: click.echo(space, err=True)
        )
    if todo is not None:
        lines = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in todo_lines(unlabelled))
        write_private(todo, lines)
        click.echo(f"wrote {len(unlabelled)} unlabelled extractions to {todo}", err=True)
    data: dict[str, Any] = {
        "all": [r.model_dump() for r in rows],
        **{part: [r.model_dump() for r in found] for part, found in parts.items()},
    }
    tables = [f"all labels:\n\n{_table(rows)}"]
    tables += [f"{part}:\n\n{_table(found)}" for part, found in parts.items()]
    emit(data, as_json, lambda _: "\n\n".join(tables))
