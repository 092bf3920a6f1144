"""``graphmem profile``, CAST's command (``Design.commands``): a character's profile, the
scenes of their stream in time order, with role, dates and summary."""

from __future__ import annotations

import click

from graphmem.designs.cast.profile import Profile, character_profile
from graphmem.plugin import GraphStore, app, emit, handle_errors, json_option


@click.command("profile")
@click.option(
    "--space",
    required=True,
    envvar="GRAPHMEM_SPACE",
    show_envvar=True,
    help="The space (tenant) to read.",
)
@click.option("--character", "name", required=True, help="Character name (case-insensitive).")
@json_option
@click.pass_context
@handle_errors
def profile(ctx: click.Context, space: str, name: str, as_json: bool) -> None:
    """A character profile built by `--builders cast`: scenes, roles (MC/SC), dates, summaries."""
    with GraphStore(app(ctx).settings) as store:
        found = character_profile(store, space, name)
    emit(found.model_dump(), as_json, lambda _: Profile.model_validate(found).render())
