"""``graphmem history``: a subject's changes, each with the turns it cites."""

from __future__ import annotations

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.memory_cmds import space_option
from graphmem.serving.render import render_history


@click.command("history")
@space_option
@click.option(
    "--subject",
    required=True,
    help="Whose changes (a speaker or a person, e.g. user, Maya), or a thing they are about "
    "(e.g. 'online shop'); case is ignored.",
)
@json_option
@click.pass_context
@handle_errors
def history(ctx: click.Context, space: str, subject: str, as_json: bool) -> None:
    """List a subject's changes: each statement a later one superseded, when it held
    (valid from .. until), what replaced it, and the turns both cite."""
    with app(ctx).memory() as memory:
        found = memory.history(space, subject)
    rows = [c.model_dump(mode="json") for c in found]
    emit(rows, as_json, lambda data: render_history(data, subject))
