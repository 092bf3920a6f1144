"""``graphmem browser``: where the Neo4j Browser is, how to log in, and the graphmem guide
and style, served from this machine."""

from __future__ import annotations

from typing import Any

import click

from graphmem.browser import (
    GUIDE_PATHS,
    QUESTION_BUDGET,
    STYLE_PATH,
    GuideExamples,
    browser_url,
    guide_base,
    make_server,
    space_examples,
)
from graphmem.browser.style import write_style
from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.errors import GraphmemError, ServerError
from graphmem.graph.store import GraphStore


def _info(space: str, port: int, ctx: click.Context) -> dict[str, Any]:
    settings = app(ctx).settings
    base = guide_base(settings, port)
    external = settings.external
    return {
        "browser": f"http://127.0.0.1:{settings.http_port}/browser/"
        if not external
        else "the HTTP address of the server behind NEO4J_URI, path /browser/",
        "user": settings.neo4j_user if external else "neo4j",
        # where the password is, never the password itself
        "password_from": "NEO4J_PASSWORD" if external else str(settings.password_file),
        "space": space,
        "open_with_guide": browser_url(settings, base) if not external else None,
        "guide": base + GUIDE_PATHS[0],
        "style": base + STYLE_PATH,
        "style_file": str(write_style(settings)),
    }


def _text(d: dict[str, Any]) -> str:
    lines = [
        f"Neo4j Browser  {d['browser']}",
        f"  log in as {d['user']}; the password is in {d['password_from']}",
    ]
    if d["open_with_guide"]:
        lines.append(f"  open with the guide  {d['open_with_guide']}")
    lines += [
        "",
        f"Guide (space {d['space']})  run in the Browser  :play {d['guide']}",
        "  (or `:play graphmem` on a server started by `graphmem server start`)",
        f"Style  run  :style {d['style']}",
        f"  or drag {d['style_file']} onto the Browser window",
    ]
    return "\n".join(lines)


def _examples(ctx: click.Context, space: str) -> GuideExamples | None:
    """The space's own character, entity, question and the turns a query of the question
    cites, for the guide's slides; the sample's when the server cannot say (the guide
    still serves)."""
    from graphmem.memory import Memory

    settings = app(ctx).settings
    try:
        with GraphStore(settings) as store:
            memory = Memory(settings, store=store)

            def cite(question: str) -> list[str]:
                found = memory.query(question, space, budget=QUESTION_BUDGET)
                # The guide finds the turns by their source id in the space's one sample.
                return [turn.source_id for turn in found.context.cited_turns]

            return space_examples(store, space, cite)
    except GraphmemError as exc:
        click.echo(f"note: the guide keeps the sample's examples ({exc.message})", err=True)
        return None


@click.command("browser")
@click.option("--space", default="demo", show_default=True, help="Space the guide starts with.")
@click.option(
    "--port",
    type=int,
    default=None,
    help="Port of the guide server (default: the Browser's HTTP port + 2, i.e. 7476).",
)
@click.option(
    "--serve/--no-serve",
    default=True,
    show_default=True,
    help="Serve the guide and the style on 127.0.0.1 until Ctrl-C (--no-serve: only print).",
)
@json_option
@click.pass_context
@handle_errors
def browser(ctx: click.Context, space: str, port: int | None, serve: bool, as_json: bool) -> None:
    """Print the Neo4j Browser's address and login, and serve the graphmem guide and graph
    style so the Browser can load them (`:play`, `:style`)."""
    from graphmem.browser import guide_port

    port = port or guide_port(app(ctx).settings)
    emit(_info(space, port, ctx), as_json, _text)
    if not serve:
        return
    try:
        server = make_server("127.0.0.1", port, space, _examples(ctx, space))
    except OSError as exc:
        raise ServerError(
            f"cannot serve the guide on 127.0.0.1:{port}: {exc.strerror}",
            hint="pass --port, or --no-serve if another `graphmem browser` is running",
        ) from exc
    click.echo(
        f"\nserving the guide and style on {guide_base(app(ctx).settings, port)} (Ctrl-C stops)"
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
