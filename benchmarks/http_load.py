"""Load on ``graphmem serve``: concurrent clients mixing queries and writes with builders,
the graph checked against the same writes replayed in ``sequence`` order.

    python -m benchmarks http-load [--seconds 120] [--clients 16] [--write-share 0.25]
        [--builders NAMES|none] [--turns 4] [--max-waiting N] [--out DIR]

Starts ``graphmem serve --allow-writes`` on a free 127.0.0.1 port (rate limit raised: the
clients share 127.0.0.1's bucket) and seeds four spaces ``bench-http-<id>-<role>`` with the
sample conversation: ``load`` (the clients'), ``sequence`` and ``clients`` (the replays'),
``other`` (only read). ``--clients`` threads run for ``--seconds``: each request a write
with probability ``--write-share``, else a query of ``load`` (budget 500). Client ``i``
streams conversation ``client-i``: each write sends its session so far, one turn longer,
and a new session starts every ``--turns`` writes. Every write sends ``--builders``
(default: no field, the server's default, every builder; ``none``: turns only). Two probes
run beside them, one request per 0.2 s each: ``GET /health`` and a query of ``other``,
which need no turn of a write's lines (graphmem/serving/turns.py); 20 of each before the
load give the latencies their ratios divide by. A 503 ``busy`` (more requests waiting
than ``--max-waiting``, the server's GRAPHMEM_API_MAX_WAITING) is counted apart and retried
once after its Retry-After.

Then the successful writes (200; failed ones are not replayed) are replayed one request at
a time over the same API, in ``sequence`` order (the number each answer carries: the order
of acceptance, the order applied) into ``sequence`` and client by client into ``clients``.
Over the API, not ``Memory.add_messages`` here: the replay runs the write path it checks,
in the same server with its settings and loaded models. Digests (``graphmem stats
--digest``) are compared with ``load``'s: ``sequence`` must equal it (the documented
guarantee); ``clients`` may differ with builders (a session's memories depend on what the
space held before: AnchorMem's associations, SEEM's frames), which is why ``sequence``
order is the documented one. Labels whose nodes differ are printed. Every space is deleted
at the end, whatever happens. Exits 1 when ``sequence`` differs or a request failed other
than busy; no timing is checked.
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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common import machine
from benchmarks.http_load_check import (
    BUSY,
    Sample,
    Write,
    builders_field,
    client_by_client,
    differing_nodes,
    digest_difference,
    in_sequence,
    outcome_of,
    render,
    retry_after,
    summary,
)
from graphmem.config import Settings
from graphmem.graph.digest import space_digest
from graphmem.graph.forget import delete_space_nodes
from graphmem.graph.projections import drop_space_graphs
from graphmem.graph.store import GraphStore
from graphmem.server.credentials import api_token

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


TIMEOUT = 600  # s: a write waits behind every write accepted before it, and a write that
# timed out here may still be applied, which the replays would miss
PROBE_PAUSE_S = 0.2  # between two probes: they measure the server, they add no load
ALONE = 20  # probes of each kind before the load
ROLES = ("load", "sequence", "clients", "other")


@dataclass
class Load:
    """What the run's threads share."""

    served: Served
    spaces: dict[str, str]  # role -> space
    write_share: float
    builders: dict[str, Any]
    until: float = 0.0
    samples: list[Sample] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    in_flight: int = 0  # writes sent and not answered
    lock: threading.Lock = field(default_factory=threading.Lock)
    threads: list[threading.Thread] = field(default_factory=list)

    def stop(self) -> None:
        """Ends the load (at each thread's next request) and waits for its threads: no write
        may come after the spaces are deleted and make one again."""
        self.until = 0.0
        for thread in self.threads:
            thread.join()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.served.base, headers=self.served.headers, timeout=TIMEOUT)

    def send(
        self, http: httpx.Client, kind: str, path: str, body: dict[str, Any] | None = None
    ) -> httpx.Response | None:
        """One request (POST ``body``, or GET), and once more after its Retry-After when
        the server answers busy; None when no answer came."""
        response = self._once(http, kind, path, body, retry=False)
        if response is not None and outcome_of(response) == BUSY:
            time.sleep(retry_after(response))
            response = self._once(http, kind, path, body, retry=True)
        return response

    def _once(
        self, http: httpx.Client, kind: str, path: str, body: dict[str, Any] | None, retry: bool
    ) -> httpx.Response | None:
        writing, response = self.in_flight > 0, None
        started = time.perf_counter()
        with suppress(httpx.HTTPError):  # no answer: outcome "0"
            response = http.get(path) if body is None else http.post(path, json=body)
        ms = (time.perf_counter() - started) * 1000
        outcome = "0" if response is None else outcome_of(response)
        self.samples.append(Sample(kind, ms, outcome, retry, writing))
        return response

    def write(self, http: httpx.Client, client: int, order: int, body: dict[str, Any]) -> bool:
        """A write, kept for the replays when it succeeded."""
        with self.lock:
            self.in_flight += 1
        try:
            response = self.send(http, "write", "/v1/messages", body)
        finally:
            with self.lock:
                self.in_flight -= 1
        if response is None or response.status_code != 200:
            return False
        self.writes.append(Write(int(response.json()["sequence"]), client, order, body))
        return True


@dataclass
class Client:
    number: int
    turns_per_session: int
    _turn: int = 0

    def next_write(self, space: str, builders: dict[str, Any]) -> dict[str, Any]:
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
        conversation = {"conversation": f"client-{self.number}", "session": f"s{session}"}
        return {"space": space, **conversation, "messages": messages, **builders}

    def run(self, load: Load) -> None:
        pick = random.Random(self.number)  # the same mix of requests on every run
        space, written = load.spaces["load"], 0
        with load.http() as http:
            while time.monotonic() < load.until:
                if pick.random() < load.write_share:
                    body = self.next_write(space, load.builders)
                    written += load.write(http, self.number, written, body)
                else:
                    question = {"question": pick.choice(QUESTIONS), "space": space, "budget": 500}
                    load.send(http, "query", "/v1/query", question)


def _probe(load: Load, kind: str, count: int = 0) -> None:
    """``/health`` or a query of the read-only space every PROBE_PAUSE_S: ``count`` times
    (as ``<kind> alone``), or until the load ends."""
    question = {"question": QUESTIONS[1], "space": load.spaces["other"], "budget": 500}
    path, body = ("/health", None) if kind == "health" else ("/v1/query", question)
    done = 0
    with load.http() as http:
        while (done < count) if count else (time.monotonic() < load.until):
            load.send(http, f"{kind} alone" if count else kind, path, body)
            done += 1
            time.sleep(PROBE_PAUSE_S)


def _seed(http: httpx.Client, spaces: Iterable[str], builders: dict[str, Any]) -> None:
    for name in spaces:
        for session, messages in sample_sessions().items():
            body = {"space": name, "conversation": "maya-and-tom", "session": session}
            answer = http.post("/v1/messages", json={**body, "messages": messages, **builders})
            answer.raise_for_status()


def _replay(http: httpx.Client, writes: list[Write], space: str) -> float:
    """The writes into ``space``, one request at a time in the given order; seconds."""
    started = time.perf_counter()
    for write in writes:
        http.post("/v1/messages", json={**write.body, "space": space}).raise_for_status()
    return round(time.perf_counter() - started, 1)


def _forget(http: httpx.Client, spaces: Iterable[str]) -> None:
    """Every space of the run, over the API; straight in the store where the server could
    not (it died; 404: it never made the space)."""
    left = []
    for name in spaces:
        try:
            if http.post("/v1/forget", json={"space": name}).status_code in (200, 404):
                continue
        except httpx.HTTPError:
            pass
        left.append(name)
    if left:
        with GraphStore(Settings()) as store:
            for name in left:
                drop_space_graphs(store, name)
                delete_space_nodes(store, name)


def run_load(
    seconds: float,
    clients: int,
    write_share: float,
    turns: int,
    builders: str | None,
    max_waiting: int | None = None,
) -> dict[str, Any]:
    tag = uuid.uuid4().hex[:8]
    spaces = {role: f"bench-http-{tag}-{role}" for role in ROLES}
    before = machine()
    # the clients on 127.0.0.1 share one rate bucket: raised so the run measures the server
    unlimited = {"GRAPHMEM_API_RATE_PER_SECOND": "100000", "GRAPHMEM_API_RATE_BURST": "100000"}
    if max_waiting is not None:  # a small bound: a small run meets busy answers too
        unlimited["GRAPHMEM_API_MAX_WAITING"] = str(max_waiting)
    with serve("--allow-writes", "--spaces", ",".join(spaces.values()), env=unlimited) as served:
        load = Load(served, spaces, write_share, builders_field(builders))
        http = load.http()
        try:
            wall = _run(http, load, seconds, clients, turns)
            replays = _check(http, load)
        finally:
            load.stop()  # an interrupted run's clients first
            _forget(http, spaces.values())
            http.close()
    config: dict[str, Any] = {"clients": clients, "seconds": seconds, "turns": turns}
    config |= {"write_share": write_share, "builders": builders or "default (all)"}
    config["max_waiting"] = max_waiting or "default"
    after = {**before, "load_avg_1m_after": round(os.getloadavg()[0], 2)}
    return {**config, **summary(list(load.samples), wall), "replays": replays, "machine": after}


def _run(http: httpx.Client, load: Load, seconds: float, clients: int, turns: int) -> float:
    """Seeds, the probes alone, then the clients and the probes together; wall seconds."""
    _seed(http, load.spaces.values(), load.builders)
    for role in ("load", "other"):  # a space's first query prepares it
        q = {"question": QUESTIONS[0], "space": load.spaces[role], "budget": 500}
        http.post("/v1/query", json=q).raise_for_status()
    for kind in ("health", "other"):
        _probe(load, kind, ALONE)
    load.until = time.monotonic() + seconds
    threads = [threading.Thread(target=Client(i, turns).run, args=(load,)) for i in range(clients)]
    threads += [threading.Thread(target=_probe, args=(load, k)) for k in ("health", "other")]
    started = time.perf_counter()
    for t in threads:
        load.threads.append(t)
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def _check(http: httpx.Client, load: Load) -> dict[str, Any]:
    """The successful writes replayed in each order into their space, and each replay's
    digest against the load space's."""
    orders = {"sequence": in_sequence(load.writes), "clients": client_by_client(load.writes)}
    seconds = {role: _replay(http, writes, load.spaces[role]) for role, writes in orders.items()}
    with GraphStore(Settings()) as store:
        concurrent = space_digest(store, load.spaces["load"]).model_dump()
        out: dict[str, Any] = {"load": {"writes": len(load.writes), "digest": concurrent}}
        for role in orders:
            digest = space_digest(store, load.spaces[role]).model_dump()
            equal = digest["sha256"] == concurrent["sha256"]
            out[role] = {"writes": len(orders[role]), "seconds": seconds[role], "equal": equal}
            out[role] |= {"digest": digest, "counts": digest_difference(concurrent, digest)}
            if not equal:
                out[role]["nodes"] = differing_nodes(store, load.spaces["load"], load.spaces[role])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--write-share", type=float, default=0.25)
    parser.add_argument("--turns", type=int, default=4, help="turns per client session")
    parser.add_argument(
        "--builders", help="of every write: a comma list or none (default: the server's default)"
    )
    parser.add_argument(
        "--max-waiting", type=int, help="the server's GRAPHMEM_API_MAX_WAITING (default: its own)"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    options = (args.write_share, args.turns, args.builders, args.max_waiting)
    results = run_load(args.seconds, args.clients, *options)
    text = render(results)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "http_load.json").write_text(json.dumps(results, indent=2) + "\n")
        (args.out / "http_load.md").write_text(text)
    if results["failed"] or not results["replays"]["sequence"]["equal"]:
        sys.exit(1)
