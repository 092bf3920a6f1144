"""``graphmem server compact``: a new store built from the spaces' conversations, the old
store and transaction logs erased, so Neo4j's files keep nothing that was deleted.

The steps, each safe to repeat after a crash (the files under ``GRAPHMEM_HOME/compact``
say how far it got): export every space (its conversations, each one's builders, its
digest and embedder; ``manifest.json`` last, written whole); stop the server; set the
database's folders aside (``old/``); start a new store on spare ports, so that no client
writes into it; build every space again and compare digests; all equal: stop, erase the
old folders and the exports, start on the usual ports. Anything else puts the old store
back (``putting-back`` marks that under way).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click

from graphmem.cli.common import AppContext, emit
from graphmem.config import Settings
from graphmem.errors import ServerError
from graphmem.graph.digest import space_digest
from graphmem.graph.schema import space_embedder
from graphmem.graph.stats import space_list
from graphmem.ingest.export import export_space, write_jsonl
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.forget import built_by, by_builders
from graphmem.ingest.formats import ReadLimits, load
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.server import process
from graphmem.server.store_files import erase, put_back, set_aside

MANIFEST = "manifest.json"
PUTTING_BACK = "putting-back"


def compact(state: AppContext, yes: bool, as_json: bool) -> None:
    """``graphmem server compact`` (its help is the command's, in server_cmds)."""
    settings = state.settings
    if settings.external:
        raise ServerError("NEO4J_URI is set: compact that server with its own tools")
    with _alone(settings.home / "compact.lock"):
        _compact(state, yes, as_json)


@contextmanager
def _alone(lock: Path) -> Iterator[None]:
    """One compaction at a time per home (two would stop and start each other's server)."""
    lock.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerError("another graphmem server compact is running") from None
        yield
    finally:
        os.close(fd)  # releases the lock


def _compact(state: AppContext, yes: bool, as_json: bool) -> None:
    settings = state.settings
    work = settings.home / "compact"
    quiet = _spare_ports(settings)
    if (work / PUTTING_BACK).exists():
        _put_back(settings, quiet, work)
        raise ServerError("an earlier compaction failed: the database is as it was")
    started = time.perf_counter()
    if not (work / MANIFEST).is_file():
        erase(work)  # what an interrupted end left: nothing of it is needed
        if process.running_pid(settings) is None:
            raise ServerError("the server is not running", hint="graphmem server start")
        if not yes:
            click.confirm(
                "Stop the server, build every space again and erase the old files?", abort=True
            )
        _export(state, work)
    spaces = json.loads((work / MANIFEST).read_text())["spaces"]
    process.stop(settings)
    set_aside(settings, work / "old")
    process.start(quiet)
    try:
        rebuilt = _rebuild(state, quiet, work, spaces)
    except Exception:
        _put_back(settings, quiet, work)
        raise
    wrong = [r["space"] for r in rebuilt if not r["same"]]
    if wrong:
        _put_back(settings, quiet, work)
        raise ServerError(
            f"a rebuilt space differs from the stored one ({', '.join(wrong)}): the database "
            "is as it was",
            hint="graphmem stats --space S --digest; the settings a space was built with "
            "(graphmem designs) may have changed since",
        )
    process.stop(quiet)
    (work / MANIFEST).unlink()  # first: a rerun never resumes from half-erased exports
    erased = erase(work)
    process.start(settings)
    report = {"spaces": rebuilt, "erased_bytes": erased, "seconds": time.perf_counter() - started}
    emit(report, as_json, _text)


def _spare_ports(settings: Settings) -> Settings:
    """The settings with Bolt and HTTP on ports nothing listens on: the new store is built
    where no client finds it."""
    ports = []
    for _ in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            ports.append(sock.getsockname()[1])
    return settings.model_copy(update={"bolt_port": ports[0], "http_port": ports[1]})


def _put_back(settings: Settings, quiet: Settings, work: Path) -> None:
    (work / PUTTING_BACK).touch()
    process.stop(quiet)
    put_back(settings, work / "old")
    process.start(settings)
    (work / MANIFEST).unlink(missing_ok=True)
    erase(work)


def _export(state: AppContext, work: Path) -> None:
    """Each space's conversations, each one's builders, its digest and embedder, written
    before anything changes; a space that changes meanwhile stops it (another process is
    writing)."""
    work.mkdir(parents=True, exist_ok=True, mode=0o700)
    with state.memory() as memory:
        store = memory.store
        open_forgets = store.read("core.forget_requests_open")
        if open_forgets:
            names = ", ".join(r["space"] for r in open_forgets)
            raise ServerError(
                f"a forget is under way in {names}",
                hint="run that forget again to finish it, then compact",
            )
        rows = [_exported(memory, work, row["space"]) for row in space_list(store)]
        now = {row["space"]: space_digest(store, row["space"]).sha256 for row in space_list(store)}
        if now != {row["space"]: row["digest"] for row in rows}:
            erase(work)
            raise ServerError(
                "a space changed while it was exported: another process is writing",
                hint="stop graphmem serve, mcp and ingests, then compact",
            )
    manifest = work / f"{MANIFEST}.new"
    manifest.touch(mode=0o600)
    manifest.write_text(json.dumps({"spaces": rows}, indent=1))
    os.replace(manifest, work / MANIFEST)


def _exported(memory: Memory, work: Path, space: str) -> dict[str, Any]:
    store = memory.store
    embedder = space_embedder(store, space)
    if embedder is not None and embedder != memory.embedder.name:
        raise ServerError(
            f"space {space!r} is built with {embedder}, this graphmem embeds with "
            f"{memory.embedder.name}: it would be built again with another",
            hint=f"set GRAPHMEM_EMBEDDER to the space's ({embedder}), then compact",
        )
    target = work / f"{quote(space, safe='')}.jsonl"
    write_jsonl(target, export_space(store, space))
    order = [r["conversation"] for r in store.read("core.export_conversations", space=space)]
    return {
        "space": space,
        "file": target.name,
        "conversations": list(built_by(store, space, order).items()),
        "digest": space_digest(store, space).sha256,
    }


def _rebuild(
    state: AppContext, quiet: Settings, work: Path, spaces: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every space built again in order, each conversation with the builders it had."""
    out = []
    with Memory(quiet, configs=state.configs(), tune_process=True) as memory:
        memory.init()
        for row in spaces:
            began = time.perf_counter()
            path = work / row["file"]
            dataset = load(path, "jsonl", ReadLimits.of(quiet), ImportOptions.of(quiet))
            builders = {conv: names for conv, names in row["conversations"]}
            for names, group in by_builders(dataset.conversations, builders):
                done = Dataset(conversations=group, qa={})
                memory.ingest_dataset(done, row["space"], names, others=False)
            same = space_digest(memory.store, row["space"]).sha256 == row["digest"]
            every = sorted({b for _, names in row["conversations"] for b in names})
            out.append(
                {
                    "space": row["space"],
                    "builders": every,
                    "same": same,
                    "seconds": round(time.perf_counter() - began, 1),
                }
            )
    return out


def _text(report: dict[str, Any]) -> str:
    lines = [
        f"rebuilt {r['space']} ({', '.join(r['builders']) or 'turns only'}): "
        f"same digest, {r['seconds']:.1f} s"
        for r in report["spaces"]
    ]
    lines.append(
        f"erased the old store and logs ({report['erased_bytes'] / 2**20:.1f} MiB overwritten); "
        f"{report['seconds']:.1f} s in all"
    )
    return "\n".join(lines)
