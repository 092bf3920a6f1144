"""``graphmem server start|stop|status|logs|dump|load|compact``: the local Neo4j 5.26 + GDS."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.config import Settings
from graphmem.errors import GraphmemError, ServerError
from graphmem.graph.store import GraphStore
from graphmem.server import process
from graphmem.server.runtime import Runtime, fetch_runtime


@click.group("server")
def server() -> None:
    """Run a local Neo4j 5.26 with GDS (fetched with mvn; no Docker needed).

    When NEO4J_URI is set, graphmem uses that server and never starts its own."""


@server.command("fetch")
@json_option
@click.pass_context
@handle_errors
def fetch_cmd(ctx: click.Context, as_json: bool) -> None:
    """Download the Neo4j + GDS jars with mvn into the cache (reused when present)."""
    settings = app(ctx).settings
    runtime, seconds = fetch_runtime(settings)
    emit({"runtime": str(runtime.root), "fetch_seconds": round(seconds, 1)}, as_json)


@server.command("start")
@json_option
@click.pass_context
@handle_errors
def start_cmd(ctx: click.Context, as_json: bool) -> None:
    """Start the server (no-op when it already runs) and wait until Bolt answers."""
    settings = app(ctx).settings
    work = settings.home / "compact"
    if not settings.external and any((work / f).exists() for f in ("manifest.json", "old")):
        # Stopped part-way, a compaction has set the old store aside (or is putting it
        # back): a server started now would serve a half-built store.
        raise ServerError(
            "a compaction is under way (the spaces are set aside)",
            hint="run `graphmem server compact` to finish it",
        )
    if not as_json and not settings.external and process.running_pid(settings) is None:
        fetching = not Runtime(settings.runtime_dir).is_complete()
        note = " (fetching ~160 MB of jars with mvn first)" if fetching else ""
        click.echo(f"starting Neo4j{note}...", err=True)
    result = process.start(settings)
    if result.get("external"):
        msg = f"NEO4J_URI is set ({settings.neo4j_uri}): using that server, not starting one"
        emit(result, as_json, lambda _: msg)
        return
    emit({**result, **_status(settings)}, as_json)


@server.command("stop")
@json_option
@click.pass_context
@handle_errors
def stop_cmd(ctx: click.Context, as_json: bool) -> None:
    """Stop the local server cleanly."""
    stopped = process.stop(app(ctx).settings)
    emit({"stopped": stopped}, as_json, lambda d: "stopped" if d["stopped"] else "not running")


def _status(settings: Settings) -> dict[str, Any]:
    lay = process.layout(settings)
    pid = None if settings.external else process.running_pid(settings)
    info: dict[str, Any] = {
        "mode": "external" if settings.external else "local",
        "running": bool(pid) or settings.external,
        "pid": pid,
        "bolt": settings.neo4j_uri or f"bolt://127.0.0.1:{settings.bolt_port}",
        "http": None if settings.external else f"http://127.0.0.1:{settings.http_port}/browser/",
        "data_dir": None if settings.external else str(lay.data),
        "password_file": None if settings.external else str(settings.password_file),
    }
    if pid:
        rss = process.rss_bytes(pid)
        info["rss_mb"] = round(rss / 2**20) if rss else None
    if info["running"]:
        info.update(_probe(settings))
    return info


def _probe(settings: Settings) -> dict[str, Any]:
    """Ask the server itself: a pid (or an external URI) does not prove Bolt answers."""
    found: dict[str, Any] = {"reachable": False}
    try:
        with GraphStore(settings) as store:
            comp = store.read("admin.components")[0]
            found.update(reachable=True, neo4j=f"{comp['versions'][0]} {comp['edition']}")
            found["gds"] = store.read("admin.gds_version")[0]["version"]
    except GraphmemError as exc:
        found["error"] = exc.message
        if settings.external:
            found["running"] = False  # nothing answers at NEO4J_URI
    except Exception as exc:  # GDS missing shows up as a Cypher error
        found["gds"] = f"unavailable ({type(exc).__name__})"
    return found


@server.command("dump")
@click.option(
    "--to",
    "folder",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder the dump goes into (<database>.dump; made private).",
)
@json_option
@click.pass_context
@handle_errors
def dump_cmd(ctx: click.Context, folder: Path, as_json: bool) -> None:
    """Copy the whole database into a dump with Neo4j's own tool (a backup, or a copy
    without deleted records: docs/privacy.md). The server must be stopped."""
    done = process.copy_database(app(ctx).settings, "dump", folder)
    emit({"dump": str(done)}, as_json, lambda d: f"wrote {d['dump']}")


@server.command("load")
@click.option(
    "--from",
    "folder",
    required=True,
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="The folder holding a dump (<database>.dump).",
)
@click.option("--yes", is_flag=True, help="Replace the database without asking.")
@json_option
@click.pass_context
@handle_errors
def load_cmd(ctx: click.Context, folder: Path, yes: bool, as_json: bool) -> None:
    """Replace the whole database by a dump (graphmem server dump). The server must be
    stopped; everything stored now is replaced."""
    settings = app(ctx).settings
    if not yes:
        click.confirm("Replace every space of the database by the dump?", abort=True)
    done = process.copy_database(settings, "load", folder)
    emit({"loaded": str(done)}, as_json, lambda d: f"loaded {d['loaded']}")


@server.command("status")
@json_option
@click.pass_context
@handle_errors
def status_cmd(ctx: click.Context, as_json: bool) -> None:
    """Versions of Neo4j and GDS, ports, data dir, pid and memory."""
    emit(_status(app(ctx).settings), as_json)


@server.command("logs")
@click.option("-n", "--lines", default=40, show_default=True, help="Lines to show.")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines.")
@click.pass_context
@handle_errors
def logs_cmd(ctx: click.Context, lines: int, follow: bool) -> None:
    """The tail of the server's console and debug logs."""
    settings = app(ctx).settings
    click.echo(process.log_tail(settings, lines))
    if not follow:
        return
    path = process.layout(settings).console_log
    with path.open(errors="replace") as fh:
        fh.seek(0, 2)
        while True:
            line = fh.readline()
            if line:
                click.echo(line, nl=False)
            else:
                time.sleep(0.5)


@server.command("compact")
@click.option("--yes", is_flag=True, help="Compact without asking.")
@json_option
@click.pass_context
@handle_errors
def compact_cmd(ctx: click.Context, yes: bool, as_json: bool) -> None:
    """Rebuild the database from its spaces' conversations and erase the old files, so
    that Neo4j's store and transaction logs keep nothing deleted (forgotten turns, deleted
    spaces): docs/privacy.md. Every space is built again with its builders and must give
    the same digest, else the old database is put back. Run again after a crash, it
    finishes."""
    from graphmem.cli.compact_cmds import compact  # the ingest path: only when compacting

    compact(app(ctx), yes, as_json)
