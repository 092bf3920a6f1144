"""``graphmem reembed``: switch spaces to another embedder in place (graphmem/embed/reembed.py)."""

from __future__ import annotations

from typing import Any, get_args

import click
from tqdm import tqdm

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.plain import plural
from graphmem.config import Settings
from graphmem.errors import ConfigError

_EMBEDDERS = list(get_args(Settings.model_fields["embedder"].annotation))
_PRECISIONS = list(get_args(Settings.model_fields["embedding_precision"].annotation))


@click.command("reembed")
@click.option("--space", "spaces", multiple=True, help="A space to switch; repeatable.")
@click.option("--all", "every", is_flag=True, help="Every space of the database.")
@click.option("--embedder", type=click.Choice(_EMBEDDERS), required=True)
@click.option(
    "--precision",
    type=click.Choice(_PRECISIONS),
    default="auto",
    show_default=True,
    help="int8: the model's quantised ONNX graph; auto: int8 for e5-small-v2 and "
    "bge-small-en-v1.5, float32 for minilm and openai.",
)
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@json_option
@click.pass_context
@handle_errors
def reembed(
    ctx: click.Context,
    spaces: tuple[str, ...],
    every: bool,
    embedder: str,
    precision: str,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Re-embed the passages of spaces with another embedder, in place: resumable (run it
    again after an interruption), and the space's digest is unchanged. An embedder of
    another dimension needs --all: the vector indexes are rebuilt at its dimension."""
    from graphmem.embed import build_embedder
    from graphmem.embed.reembed import plan_spaces, reembed_space
    from graphmem.embed.reembed_dim import begin, finish, new_dimension
    from graphmem.graph.store import GraphStore

    if bool(spaces) == every:
        raise ConfigError("reembed needs --space NAME (repeatable) or --all, not both")
    base = app(ctx).settings
    target = build_embedder(
        base.model_copy(update={"embedder": embedder, "embedding_precision": precision})
    )
    with GraphStore(base) as store:
        dimension = new_dimension(store, target, every)
        plan = plan_spaces(store, None if every else list(spaces))
        # A new dimension: the database is marked and its vector indexes dropped before the
        # first vector of the new size is written, and rebuilt after the last.
        dropped = begin(store, target) if dimension else []
        total = sum(int(row["passages"]) + sum(row["derived"].values()) for row in plan)
        done: list[dict[str, Any]] = []
        with tqdm(total=total, unit="turn", disable=no_progress or as_json) as bar:

            def advance(turns: int) -> None:
                bar.update(turns)

            for row in plan:
                done.append(reembed_space(store, target, row["space"], advance))
        rebuilt = {**finish(store, target), "dropped": dropped} if dimension else None
    emit({"embedder": target.name, "spaces": done, "dimension": rebuilt}, as_json, _render)


def _vectors(n: int) -> str:
    return "vector" if n == 1 else "vectors"


def _render(data: dict[str, Any]) -> str:
    lines = [f"embedder {data['embedder']}"]
    for row in data["spaces"]:
        was = row["from"] or "(empty)"
        derived = "".join(f", {n} {name} {_vectors(n)}" for name, n in row["derived"].items())
        passages = plural(row["passages"], "passage")
        lines.append(f"{row['space']}: {passages}{derived} re-embedded (was {was})")
    if data["dimension"]:
        dim = data["dimension"]
        lines.append(
            f"vector indexes rebuilt at dimension {dim['dim']} "
            f"({plural(dim['indexes'], 'index', 'indexes')}, "
            f"{len(dim['dropped'])} dropped)"
        )
    return "\n".join(lines)
