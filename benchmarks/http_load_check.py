"""The http-load benchmark's pure parts (benchmarks/http_load.py runs the load): the two
replay orders, the answers' outcomes, what two digests disagree on, the summary and the
table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import httpx

from benchmarks.common import latency_summary, table
from graphmem.graph.digest import HISTORY_LABELS, VOLATILE, node_line
from graphmem.graph.store import GraphStore

BUSY = "busy"
KINDS = {  # kind of request -> its row
    "query": "query (load space)",
    "write": "write",
    "health": "/health",
    "other": "query (read-only space)",
    "health alone": "/health, before the load",
    "other alone": "query (read-only space), before the load",
}


def builders_field(option: str | None) -> dict[str, Any]:
    """The ``builders`` field of every write: none for the server's default (what a write
    without the field runs), ``[]`` for ``none``, else the comma list's names."""
    if option is None:
        return {}
    names = [name.strip() for name in option.split(",") if name.strip()]
    return {"builders": [] if names == ["none"] else names}


@dataclass(frozen=True)
class Write:
    """A successful write: its ``sequence`` and its place in its client's own order."""

    sequence: int
    client: int
    order: int
    body: dict[str, Any]


def in_sequence(writes: Iterable[Write]) -> list[Write]:
    """The writes in the order the server applied them. Two writes answered with one
    sequence would break the documented guarantee: an error, not a tie to break."""
    ordered = sorted(writes, key=lambda w: w.sequence)
    if len({w.sequence for w in ordered}) < len(ordered):
        raise ValueError("two writes were answered with the same sequence")
    return ordered


def client_by_client(writes: Iterable[Write]) -> list[Write]:
    """Client 0's writes in its order, then client 1's, ...: the interleaving ignored."""
    return sorted(writes, key=lambda w: (w.client, w.order))


class Sample(NamedTuple):
    kind: str  # a key of KINDS
    ms: float
    outcome: str  # the status ("200", "404", ...), "busy" (503 busy) or "0" (no answer)
    retry: bool = False  # the second try, after a busy answer
    writing: bool = False  # a write was in flight (sent, not answered) when it started


def outcome_of(response: httpx.Response) -> str:
    if response.status_code == 503:
        try:
            if response.json().get("error") == BUSY:
                return BUSY
        except ValueError:  # no JSON body: not the server's busy answer
            pass
    return str(response.status_code)


def retry_after(response: httpx.Response) -> float:
    try:
        return max(0.0, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


def outcomes(samples: Iterable[Sample]) -> dict[str, int]:
    """How many requests ended each way, the retries after busy apart."""
    counted = Counter(f"{s.outcome} (retry)" if s.retry else s.outcome for s in samples)
    return dict(sorted(counted.items()))


def digest_difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, list[int]]:
    """The labels and relationship types two digests count differently: ``[a's, b's]``."""
    out = {}
    for part in ("labels", "types"):
        for key in sorted(set(a[part]) | set(b[part])):
            if a[part].get(key, 0) != b[part].get(key, 0):
                out[key] = [a[part].get(key, 0), b[part].get(key, 0)]
    return out


def _node_lines(store: GraphStore, space: str) -> dict[str, set[str]]:
    """The lines ``space_digest`` hashes for nodes, by label."""
    out: dict[str, set[str]] = {}
    for row in store.read("core.digest_nodes", space=space, skip=list(VOLATILE)):
        for label in set(row["labels"]) - HISTORY_LABELS:
            out.setdefault(label, set()).add(node_line(row, space))
    return out


def differing_nodes(store: GraphStore, a: str, b: str) -> dict[str, Any]:
    """Per label whose nodes differ: how many only ``a`` holds and only ``b``, and the
    first of each (in the JSON: where to look)."""
    ours, theirs = _node_lines(store, a), _node_lines(store, b)
    out: dict[str, Any] = {}
    for label in sorted(set(ours) | set(theirs)):
        only_a = sorted(ours.get(label, set()) - theirs.get(label, set()))
        only_b = sorted(theirs.get(label, set()) - ours.get(label, set()))
        if only_a or only_b:
            out[label] = {"only": [len(only_a), len(only_b)], "first": [only_a[:1], only_b[:1]]}
    return out


def summary(samples: list[Sample], wall: float) -> dict[str, Any]:
    """Latencies, answers by outcome and throughput per kind of request."""
    groups = {"all": [s for s in samples if s.kind in ("query", "write")]}
    groups |= {kind: [s for s in samples if s.kind == kind] for kind in KINDS}
    latency: dict[str, Any] = {}
    for kind, mine in groups.items():
        ok = [s.ms for s in mine if s.outcome == "200"]
        latency[kind] = {"n": len(mine), **(latency_summary(ok) if ok else {})}
        latency[kind]["writing"] = sum(s.writing for s in mine) / len(mine) if mine else 0.0
    failed = sum(n for key, n in outcomes(samples).items() if key.split()[0] not in ("200", BUSY))
    answered = sum(s.outcome == "200" for s in groups["all"])
    return {
        "requests": len(groups["all"]),
        "throughput_rps": round(answered / wall, 2),
        "latency_ms": latency,
        "outcomes": {kind: outcomes(mine) for kind, mine in groups.items()},
        "failed": failed,
    }


def _ratio(value: float | None, by: float | None) -> str:
    return f"{value / by:.2f}x" if value and by else ""


def _latency_rows(r: dict[str, Any]) -> list[list[object]]:
    """One row per kind of request; the ratios and the share of requests started while a
    write was in flight only for the reads that ran during writes."""
    lat, rows = r["latency_ms"], []
    write_p50 = lat["write"].get("p50")
    for kind, name in [("all", "all (load space)"), *KINDS.items()]:
        got, alone = lat[kind], lat.get(f"{kind} alone", {})
        answers = ", ".join(f"{k}: {n}" for k, n in r["outcomes"][kind].items())
        cells = [got.get(p, "-") for p in ("p50", "p95", "p99")]
        ratios = [_ratio(got.get(p), alone.get(p)) for p in ("p50", "p95")]
        rows.append([name, got["n"], answers or "-", *cells, *ratios])
        if kind in ("query", "health", "other"):
            rows[-1] += [_ratio(got.get("p95"), write_p50), f"{got['writing']:.0%}"]
        else:
            rows[-1] += ["", ""]
    return rows


def _differs(replay: dict[str, Any]) -> str:
    counts = ", ".join(f"{k} {a}/{b}" for k, (a, b) in replay["counts"].items())
    nodes = replay.get("nodes", {})
    differing = ", ".join(f"{k} {v['only'][0]}/{v['only'][1]}" for k, v in nodes.items())
    parts = [
        f"counts {counts}" if counts else "",
        f"nodes only in each {differing}" if differing else "",
    ]
    return "; ".join(p for p in parts if p) or "-"


def render(r: dict[str, Any]) -> str:
    header = ["requests", "n", "answers", "p50 ms", "p95 ms", "p99 ms", "p50 / alone"]
    header += ["p95 / alone", "p95 / write p50", "started during a write"]
    checks = []
    for name, role in (("in `sequence` order", "sequence"), ("client by client", "clients")):
        rep = r["replays"][role]
        equal = "yes" if rep["equal"] else "**no**"
        checks.append([name, rep["writes"], rep["seconds"], rep["digest"]["sha256"][:12]])
        checks[-1] += [equal, _differs(rep)]
    load, m = r["replays"]["load"]["digest"], r["machine"]
    lines = [
        f"{r['clients']} clients for {r['seconds']:g} s, {r['write_share']:.0%} writes, builders "
        f"{r['builders']}, {r['turns']} turns per session, max waiting {r['max_waiting']}: "
        f"{r['requests']} requests, "
        f"{r['throughput_rps']} answered/s; {r['failed']} failed other than busy.",
        "",
        *table(header, _latency_rows(r)),
        "",
        *table(
            ["replay", "writes", "seconds", "digest", "= load space", "differs (load/replay)"],
            checks,
        ),
        "",
        f"Load space after the run: digest {load['sha256'][:12]}, {load['nodes']} nodes, "
        f"{load['relationships']} relationships. {m['cpus']} CPUs, load average "
        f"{m['load_avg_1m']} before / {m['load_avg_1m_after']} after, commit {m['commit'][:7]}.",
    ]
    return "\n".join(lines) + "\n"
