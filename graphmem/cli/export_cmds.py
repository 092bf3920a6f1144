"""``graphmem export``: a space's conversations (or every space's) as graphmem JSONL."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.errors import ConfigError
from graphmem.graph.readiness import check_exists
from graphmem.graph.stats import space_list
from graphmem.ingest.export import export_space, write_jsonl
from graphmem.ingest.validate import check_space


@click.command("export")
@click.option("--space", help="The space to export (or --all).")
@click.option("--all", "every", is_flag=True, help="Every space, one <space>.jsonl each.")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="The file to write (a folder with --all); standard output when left out.",
)
@json_option
@click.pass_context
@handle_errors
def export(
    ctx: click.Context, space: str | None, every: bool, out: Path | None, as_json: bool
) -> None:
    """Write a space's conversations as graphmem JSONL, every field kept (ids, speakers,
    texts, timestamps, captions, session dates, titles): `graphmem ingest FILE --space NEW`
    builds the same graph from it. Files are readable by their owner only."""
    if every == (space is not None):
        raise ConfigError("give --space NAME or --all")
    if every and out is None:
        raise ConfigError("--all writes a file per space: give --out FOLDER")
    with app(ctx).memory() as memory:
        store = memory.store
        if space is not None:
            check_space(space)
            check_exists(store, space)
            if out is None:
                for message in export_space(store, space):
                    sys.stdout.write(_line(message))
                return
            emit(_written(out, export_space(store, space), space), as_json)
            return
        assert out is not None
        out.mkdir(parents=True, exist_ok=True, mode=0o700)
        written = []
        for row in space_list(store):
            # A space's name as a file name: nothing in it leaves the folder ("/", "..").
            target = out / f"{quote(row['space'], safe='')}.jsonl"
            written.append(_written(target, export_space(store, row["space"]), row["space"]))
    emit({"spaces": written}, as_json)


def _written(path: Path, messages: Iterator[dict[str, Any]], space: str) -> dict[str, Any]:
    """Write ``messages`` to ``path``; what it holds: turns, and the empty messages that
    keep the positions of forgotten or empty ones (``gaps``)."""
    gaps = 0

    def counted() -> Iterator[dict[str, Any]]:
        nonlocal gaps
        for message in messages:
            gaps += message["text"] == ""
            yield message

    lines = write_jsonl(path, counted())
    return {"space": space, "file": str(path), "turns": lines - gaps, "gaps": gaps}


def _line(message: dict[str, object]) -> str:
    return json.dumps(message, ensure_ascii=False) + "\n"
