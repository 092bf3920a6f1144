"""``graphmem server compact``: a new store built from the spaces' conversations, the old
store and transaction logs erased, so Neo4j's files keep nothing that was deleted."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click

from graphmem.cli.common import AppContext, emit
from graphmem.errors import ServerError
from graphmem.graph.digest import space_digest
from graphmem.graph.stats import space_list
from graphmem.ingest.export import export_space, write_jsonl
from graphmem.server import process
from graphmem.server.store_files import erase, put_back, set_aside

MANIFEST = "manifest.json"


def compact(state: AppContext, yes: bool, as_json: bool) -> None:
    """``graphmem server compact`` (its help is the command's, in server_cmds)."""
    settings = state.settings
    if settings.external:
        raise ServerError("NEO4J_URI is set: compact that server with its own tools")
    work = settings.home / "compact"
    started = time.perf_counter()
    if not (work / MANIFEST).is_file():
        if process.running_pid(settings) is None:
            raise ServerError("the server is not running", hint="graphmem server start")
        if not yes:
            click.confirm(
                "Stop the server, build every space again and erase the old files?", abort=True
            )
        _export(state, work)
    manifest = json.loads((work / MANIFEST).read_text())
    process.stop(settings)
    set_aside(settings, work / "old")
    process.start(settings)
    rebuilt = _rebuild(state, work, manifest["spaces"])
    wrong = [r["space"] for r in rebuilt if not r["same"]]
    if wrong:
        process.stop(settings)
        put_back(settings, work / "old")
        process.start(settings)
        erase(work)
        raise ServerError(
            f"a rebuilt space differs from the stored one ({', '.join(wrong)}): the database "
            "is as it was",
            hint="graphmem stats --space S --digest; the settings a space was built with "
            "(graphmem designs) may have changed since",
        )
    erased = erase(work)
    report = {"spaces": rebuilt, "erased_bytes": erased, "seconds": time.perf_counter() - started}
    emit(report, as_json, _text)


def _export(state: AppContext, work: Path) -> None:
    """Each space's conversations, builders and digest, written before anything changes
    (the manifest last: its presence says the export is whole)."""
    work.mkdir(parents=True, exist_ok=True, mode=0o700)
    rows = []
    with state.memory() as memory:
        store = memory.store
        open_forgets = store.read("core.forget_requests_open")
        if open_forgets:
            names = ", ".join(r["space"] for r in open_forgets)
            raise ServerError(
                f"a forget is under way in {names}",
                hint="run that forget again to finish it, then compact",
            )
        for row in space_list(store):
            space = row["space"]
            target = work / f"{quote(space, safe='')}.jsonl"
            write_jsonl(target, export_space(store, space))
            built = store.read("core.space_built_by", space=space)
            rows.append(
                {
                    "space": space,
                    "file": target.name,
                    "builders": sorted(built[0]["builders"]) if built else [],
                    "digest": space_digest(store, space).sha256,
                }
            )
    manifest = work / MANIFEST
    manifest.touch(mode=0o600)
    manifest.write_text(json.dumps({"spaces": rows}, indent=1))


def _rebuild(state: AppContext, work: Path, spaces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    with state.memory() as memory:
        memory.init()
        for row in spaces:
            began = time.perf_counter()
            builders = row["builders"] or "none"
            memory.ingest(work / row["file"], row["space"], fmt="jsonl", builders=builders)
            same = space_digest(memory.store, row["space"]).sha256 == row["digest"]
            out.append(
                {
                    "space": row["space"],
                    "builders": row["builders"],
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
