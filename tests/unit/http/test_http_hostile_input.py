"""Issue 62, the HTTP API under a hostile client: every body it cannot read, every value of
the wrong type and every string the docs refuse is a 400 ``input`` (exit code 3) that repeats
at most a short prefix of what was sent. Each is refused before ``Memory`` does any I/O, so
the real app runs on starlette's test client (as tests/unit/http/test_http_guard.py does)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from graphmem.config import Settings
from graphmem.http.app import QueryOptions, build_app
from graphmem.memory import Memory
from graphmem.serving import MemoryService

TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
GOOD = {"question": "What is the dog called?", "space": "mine"}


def _client(writes: bool = False, spaces: tuple[str, ...] = ("mine",)) -> TestClient:
    service = MemoryService(Memory(Settings()), list(spaces), writes)
    app = build_app(service, token=TOKEN, rate=1000.0, burst=1000, max_body=4 * 2**20)
    return TestClient(app, raise_server_exceptions=False)


def _input_error(response: Any, field: str | None = None) -> str:
    assert response.status_code == 400, response.text[:300]
    body = response.json()
    assert body["error"] == "input" and body["exit_code"] == 3, body
    assert len(response.content) < 1000  # nothing sent is echoed whole
    if field is not None:
        assert f"'{field}'" in body["message"], body
    return str(body["message"])


@pytest.mark.parametrize(
    "raw",
    [
        b'{"question": "\xff\xfe", "space": "mine"}',  # not UTF-8
        b"[" * 1000 + b"]" * 1000,  # past the parser's recursion limit
        b'{"question": "q", "space": "mine", "budget": ' + b"9" * 5000 + b"}",
        gzip.compress(json.dumps(GOOD).encode()),
    ],
    ids=["invalid-utf8", "nested-1000", "5000-digits", "gzip"],
)
def test_an_unreadable_body_is_input_3(raw: bytes) -> None:
    response = _client().post("/v1/query", content=raw, headers=AUTH)
    assert "JSON" in _input_error(response)


def test_a_huge_space_name_is_refused_by_its_length_not_echoed() -> None:
    client = _client()
    for route in ("/v1/query", "/v1/ask"):
        response = client.post(route, json={**GOOD, "space": "s" * 1_000_000}, headers=AUTH)
        assert "1,000,000 characters" in _input_error(response, "space")
    response = client.get("/v1/stats", params={"space": "s" * 10_000}, headers=AUTH)
    _input_error(response, "space")
    response = client.post("/v1/forget", json={"space": "\x1b[31m"}, headers=AUTH)
    assert response.status_code == 403  # read-only: refused before the space is looked at


def test_unknown_builders_and_strategies_are_input_and_not_echoed_whole() -> None:
    client = _client(writes=True)
    write = {"space": "mine", "conversation": "c", "session": "s", "messages": []}
    for builders in (["nope"], "nope", ["x" * 100_000]):
        response = client.post("/v1/messages", json={**write, "builders": builders}, headers=AUTH)
        _input_error(response, "builders")
    response = client.post("/v1/query", json={**GOOD, "strategy": "y" * 100_000}, headers=AUTH)
    _input_error(response, "strategy")


@pytest.mark.parametrize("question", ["\u0000", "dog\u0000name", "\u0001\u0002\u001b[31m"])
def test_control_characters_in_a_question_are_refused(question: str) -> None:
    client = _client()
    for route in ("/v1/query", "/v1/ask"):
        response = client.post(route, json={**GOOD, "question": question}, headers=AUTH)
        assert "control character" in _input_error(response, "question")


@pytest.mark.parametrize("subject", ["", "   ", "a\u0000b", "x" * 10_000, "\u001b[2J"])
# (the test client caps a URL near 64 KiB, as servers do: 10,000 characters stand for more)
def test_a_bad_history_subject_is_refused(subject: str) -> None:
    params = {"space": "mine", "subject": subject}
    response = _client().get("/v1/history", params=params, headers=AUTH)
    _input_error(response, "subject")


@pytest.mark.parametrize(
    ("field", "value"),
    [("budget", "100"), ("budget", 100.0), ("explain", "yes"), ("explain", 1), ("as_of", -1)],
)
def test_no_value_is_coerced(field: str, value: object) -> None:
    response = _client().post("/v1/query", json={**GOOD, field: value}, headers=AUTH)
    _input_error(response, field)


def test_an_iso_date_or_moment_is_still_accepted() -> None:
    for as_of in ("2024-03-01", "2024-03-01T10:00:00"):
        assert QueryOptions.model_validate({**GOOD, "as_of": as_of}).as_of is not None
