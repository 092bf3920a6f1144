"""benchmarks.http_load_check, the http-load benchmark's pure parts: the replay orders, the
answers' outcomes, the digest difference and the table."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from benchmarks.http_load_check import (
    KINDS,
    Sample,
    Write,
    builders_field,
    client_by_client,
    digest_difference,
    in_sequence,
    outcome_of,
    outcomes,
    render,
    retry_after,
)


def _write(sequence: int, client: int, order: int) -> Write:
    return Write(sequence, client, order, {"session": f"{client}/{order}"})


# Two clients whose writes the server accepted interleaved: 0/0, 1/0, 1/1, 0/1, 1/2.
ACCEPTED = [
    _write(13, 0, 0),
    _write(14, 1, 0),
    _write(15, 1, 1),
    _write(17, 0, 1),
    _write(18, 1, 2),
]


def test_the_sequence_replay_follows_the_servers_order_whatever_the_list_order() -> None:
    shuffled = [ACCEPTED[3], ACCEPTED[0], ACCEPTED[4], ACCEPTED[2], ACCEPTED[1]]
    assert [w.sequence for w in in_sequence(shuffled)] == [13, 14, 15, 17, 18]


def test_the_client_replay_takes_each_clients_writes_in_its_own_order() -> None:
    order = [(w.client, w.order) for w in client_by_client(reversed(ACCEPTED))]
    assert order == [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    assert order != [(w.client, w.order) for w in in_sequence(ACCEPTED)]  # the orders differ


def test_two_writes_with_one_sequence_are_an_error_not_a_tie() -> None:
    with pytest.raises(ValueError, match="same sequence"):
        in_sequence([_write(13, 0, 0), _write(13, 1, 0)])


def test_the_builders_option_becomes_the_writes_field() -> None:
    assert builders_field(None) == {}  # the server's default: what a write without it runs
    assert builders_field("none") == {"builders": []}
    assert builders_field("semantic, seem") == {"builders": ["semantic", "seem"]}


def test_only_the_servers_busy_answer_is_busy() -> None:
    busy = httpx.Response(503, json={"error": "busy"}, headers={"Retry-After": "2"})
    assert outcome_of(busy) == "busy"
    assert retry_after(busy) == 2.0
    assert outcome_of(httpx.Response(503, json={"error": "server"})) == "503"
    assert outcome_of(httpx.Response(503, text="no json")) == "503"
    assert retry_after(httpx.Response(503, headers={"Retry-After": "soon"})) == 1.0


def test_outcomes_count_the_retries_after_busy_apart() -> None:
    samples = [Sample("write", 1.0, "busy"), Sample("write", 1.0, "200", retry=True)]
    samples += [Sample("write", 1.0, "200"), Sample("write", 1.0, "500")]
    assert outcomes(samples) == {"200": 1, "200 (retry)": 1, "500": 1, "busy": 1}


def _digest(sha: str, labels: dict[str, int], types: dict[str, int]) -> dict[str, Any]:
    return {
        "sha256": sha,
        "nodes": sum(labels.values()),
        "relationships": sum(types.values()),
        "labels": labels,
        "types": types,
    }


def test_the_digest_difference_names_what_is_counted_differently() -> None:
    a = _digest("a", {"Event": 25, "Passage": 9}, {"FROM": 3})
    b = _digest("b", {"Event": 26, "Passage": 9, "AssocEvent": 1}, {"FROM": 3})
    assert digest_difference(a, b) == {"AssocEvent": [0, 1], "Event": [25, 26]}
    assert digest_difference(a, a) == {}


def test_the_table_says_whether_each_replay_equals_the_load_space() -> None:
    latency = {
        kind: {"n": 2, "p50": 10.0, "p95": 20.0, "p99": 30.0, "writing": 0.5}
        for kind in ["all", *KINDS]
    }
    same = _digest("f" * 64, {"Passage": 9}, {"FROM": 3})
    other = _digest("0" * 64, {"Passage": 9}, {"FROM": 3})
    result = {
        "clients": 2,
        "seconds": 5.0,
        "write_share": 0.25,
        "builders": "default (all)",
        "turns": 4,
        "max_waiting": "default",
        "requests": 4,
        "throughput_rps": 1.0,
        "failed": 0,
        "latency_ms": latency,
        "outcomes": {kind: {"200": 2} for kind in ["all", *KINDS]},
        "replays": {
            "load": {"writes": 1, "digest": same},
            "sequence": {"writes": 1, "seconds": 0.1, "equal": True, "digest": same, "counts": {}},
            "clients": {
                "writes": 1,
                "seconds": 0.1,
                "equal": False,
                "digest": other,
                "counts": {},
                "nodes": {"Event": {"only": [1, 2], "first": [[], []]}},
            },
        },
        "machine": {"cpus": 2, "load_avg_1m": 1.0, "load_avg_1m_after": 1.5, "commit": "abc1234"},
    }
    text = render(result)
    assert "| in `sequence` order | 1 | 0.1 | ffffffffffff | yes | - |" in text
    assert (
        "| client by client | 1 | 0.1 | 000000000000 | **no** | nodes only in each Event 1/2 |"
        in text
    )
    assert "| /health | 2 | 200: 2 | 10.0 | 20.0 | 30.0 | 1.00x | 1.00x | 2.00x | 50% |" in text
