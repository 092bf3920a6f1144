"""Load on ``graphmem serve``: concurrent clients mixing queries and message writes.

    python -m benchmarks http-load [--seconds 120] [--clients 16] [--write-share 0.25] [--out DIR]

Starts ``graphmem serve --allow-writes`` on a free 127.0.0.1 port (the rate limit raised:
every client shares 127.0.0.1's bucket, and the run measures the server), seeds a fresh
space ``bench-http-<id>`` with the sample conversation over the API, then runs
``--clients`` threads for ``--seconds``. Each request is a write with probability
``--write-share``, else a query (default strategy, budget 500). Client ``i`` writes to its
own conversation ``client-i``: its sessions grow one turn per write (every write sends the
session so far, as an agent streaming a chat does) and a new session starts every
``--turns`` writes; turns only (no builders). Afterwards every successful write is
replayed, client by client in its order, into a second space, one request at a time, and
the two spaces' digests (``graphmem stats --digest``) are compared: equal digests mean the
concurrent writes left the graph the same writes done serially leave. Both spaces are
deleted at the end, whatever happens.

Prints throughput, p50/p95/p99 per kind and overall, the error count and the digest check.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common import latency_summary, machine, table
from graphmem.config import Settings
from graphmem.credentials import api_token
from graphmem.digest import space_digest
from graphmem.store import GraphStore

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"
QUESTIONS = [
    "What is the dog's name?",
    "Where is Maya moving?",
    "What class did Tom start?",
    "What breed is Biscuit?",
    "When did Maya adopt the dog?",
]
LINES = [
    "I went hiking near the lake and saw a heron.",
    "My sister called about the wedding plans for June.",
    "The new espresso machine at work finally arrived.",
    "I finished reading the novel about the lighthouse keeper.",
    "We repainted the kitchen a pale green over the weekend.",
    "The pottery class made bowls glazed in deep blue.",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    base: str
    headers: dict[str, str]
    process: subprocess.Popen[str]


@contextmanager
def serve(*args: str, env: dict[str, str] | None = None, timeout: float = 180) -> Iterator[Served]:
    """``graphmem serve ARGS`` as a subprocess on a free port, until /health answers; the
    process is stopped (SIGTERM, then SIGKILL) on exit."""
    port = free_port()
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", **(env or {})}
    command = [sys.executable, "-c", "from graphmem.cli.main import main; main()", "serve"]
    process = subprocess.Popen(
        [*command, "--port", str(port), *args],
        env=full_env,
        cwd=str(ROOT),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"graphmem serve exited: {process.stdout.read()}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("graphmem serve did not answer /health in time")
            time.sleep(0.25)
        token = api_token(Settings())
        yield Served(base, {"Authorization": f"Bearer {token}"}, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def sample_sessions() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for line in SAMPLE.read_text().splitlines():
        row = json.loads(line)
        keep = ("speaker", "text", "timestamp", "id")
        out.setdefault(row["session"], []).append({k: row[k] for k in keep})
    return out


@dataclass
class Client:
    number: int
    turns_per_session: int
    writes: list[dict[str, Any]] = field(default_factory=list)  # the successful ones, in order
    samples: list[tuple[str, float, int]] = field(default_factory=list)  # kind, ms, status
    _turn: int = 0

    def next_write(self, space: str) -> dict[str, Any]:
        session, turn = divmod(self._turn, self.turns_per_session)
        self._turn += 1
        messages = [
            {
                "speaker": "Maya" if t % 2 == 0 else "Tom",
                "text": f"(client {self.number}, session {session}, turn {t}) "
                f"{LINES[(self.number + session + t) % len(LINES)]}",
                "timestamp": f"2025-01-{1 + session % 28:02d}T{self.number % 24:02d}:{t:02d}:00",
            }
            for t in range(turn + 1)
        ]
        return {
            "space": space,
            "conversation": f"client-{self.number}",
            "session": f"s{session}",
            "messages": messages,
            "builders": [],
        }


def _run_client(
    client: Client, served: Served, space: str, until: float, write_share: float
) -> None:
    pick = random.Random(client.number)  # the same mix of requests on every run
    with httpx.Client(base_url=served.base, headers=served.headers, timeout=120) as http:
        while time.monotonic() < until:
            write = pick.random() < write_share
            if write:
                body = client.next_write(space)
                path = "/v1/messages"
            else:
                body = {"question": pick.choice(QUESTIONS), "space": space, "budget": 500}
                path = "/v1/query"
            started = time.perf_counter()
            try:
                status = http.post(path, json=body).status_code
            except httpx.HTTPError:
                status = 0
            client.samples.append(
                ("write" if write else "query", (time.perf_counter() - started) * 1000, status)
            )
            if write and status == 200:
                client.writes.append(body)


def run_load(seconds: float, clients: int, write_share: float, turns: int) -> dict[str, Any]:
    tag = uuid.uuid4().hex[:8]
    space, serial = f"bench-http-{tag}", f"bench-http-{tag}-serial"
    before = machine()
    # 16 clients on 127.0.0.1 share one rate bucket: raised so the run measures the server
    unlimited = {"GRAPHMEM_API_RATE_PER_SECOND": "100000", "GRAPHMEM_API_RATE_BURST": "100000"}
    with serve("--allow-writes", "--spaces", f"{space},{serial}", env=unlimited) as served:
        http = httpx.Client(base_url=served.base, headers=served.headers, timeout=300)
        try:
            for name in (space, serial):
                for session, messages in sample_sessions().items():
                    body = {
                        "space": name,
                        "conversation": "maya-and-tom",
                        "session": session,
                        "messages": messages,
                        "builders": [],
                    }
                    http.post("/v1/messages", json=body).raise_for_status()
            q = {"question": QUESTIONS[0], "space": space, "budget": 500}
            http.post("/v1/query", json=q).raise_for_status()  # the space's first query prepares
            workers = [Client(i, turns) for i in range(clients)]
            until = time.monotonic() + seconds
            threads = [
                threading.Thread(target=_run_client, args=(c, served, space, until, write_share))
                for c in workers
            ]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - started
            replay_started = time.perf_counter()
            for c in workers:
                for body in c.writes:
                    http.post("/v1/messages", json={**body, "space": serial}).raise_for_status()
            replay_s = time.perf_counter() - replay_started
            with GraphStore(Settings()) as store:
                digests = [space_digest(store, s).model_dump() for s in (space, serial)]
        finally:
            for name in (space, serial):
                http.post("/v1/forget", json={"space": name})
            http.close()
    return _summary(workers, wall, replay_s, digests, before, clients, write_share, seconds)


def _summary(
    workers: list[Client],
    wall: float,
    replay_s: float,
    digests: list[dict[str, Any]],
    before: dict[str, Any],
    clients: int,
    write_share: float,
    seconds: float,
) -> dict[str, Any]:
    samples = [s for c in workers for s in c.samples]
    ok = [s for s in samples if s[2] == 200]
    by_kind = {
        kind: latency_summary([ms for k, ms, _ in ok if k == kind])
        if any(k == kind for k, _, _ in ok)
        else {}
        for kind in ("query", "write")
    }
    statuses: dict[str, int] = {}
    for _, _, status in samples:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    equal = digests[0]["sha256"] == digests[1]["sha256"]
    return {
        "clients": clients,
        "seconds": seconds,
        "write_share": write_share,
        "requests": len(samples),
        "queries": sum(1 for k, _, _ in samples if k == "query"),
        "writes": sum(1 for k, _, _ in samples if k == "write"),
        "errors": len(samples) - len(ok),
        "statuses": statuses,
        "throughput_rps": round(len(ok) / wall, 2),
        "latency_ms": {"all": latency_summary([ms for _, ms, _ in ok]), **by_kind},
        "serial_replay_s": round(replay_s, 1),
        "digest_equal": equal,
        "digests": digests,
        "machine": {**before, "load_avg_1m_after": round(os.getloadavg()[0], 2)},
    }


def render(r: dict[str, Any]) -> str:
    rows = []
    for kind in ("all", "query", "write"):
        lat = r["latency_ms"].get(kind) or {}
        rows.append([kind, lat.get("p50", "-"), lat.get("p95", "-"), lat.get("p99", "-")])
    m = r["machine"]
    lines = [
        f"{r['clients']} clients for {r['seconds']:g} s, {r['write_share']:.0%} writes: "
        f"{r['requests']} requests ({r['queries']} queries, {r['writes']} writes), "
        f"{r['throughput_rps']} requests/s, {r['errors']} errors (statuses {r['statuses']}).",
        "",
        *table(["requests", "p50 ms", "p95 ms", "p99 ms"], rows),
        "",
        f"Digest of the space after the concurrent writes "
        f"{'equals' if r['digest_equal'] else 'DIFFERS FROM'} the digest after the same "
        f"writes replayed serially ({r['serial_replay_s']} s): {r['digests'][0]['sha256'][:16]}"
        f" / {r['digests'][1]['sha256'][:16]}, {r['digests'][0]['nodes']} nodes.",
        "",
        f"{m['cpus']} CPUs, load average {m['load_avg_1m']} before / {m['load_avg_1m_after']} "
        f"after, commit {m['commit'][:7]}.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--write-share", type=float, default=0.25)
    parser.add_argument("--turns", type=int, default=4, help="turns per client session")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    results = run_load(args.seconds, args.clients, args.write_share, args.turns)
    text = render(results)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "http_load.json").write_text(json.dumps(results, indent=2) + "\n")
        (args.out / "http_load.md").write_text(text)
    if results["errors"] or not results["digest_equal"]:
        sys.exit(1)
