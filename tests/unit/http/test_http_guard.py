"""The HTTP API's edge without a database: token, rate, body size, confinement, read-only
writes and the error bodies. Each request here is refused before ``Memory`` does any I/O
(constructing one does none), so the real app runs on starlette's test client."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.exceptions import RequestValidationError
from starlette.testclient import TestClient

from graphmem.config import Settings
from graphmem.errors import (
    ConfigError,
    GraphmemError,
    InputError,
    LLMItemError,
    ServerLostError,
)
from graphmem.http.app import build_app
from graphmem.http.errors import graphmem_response, validation_sentence
from graphmem.http.guard import RateLimiter
from graphmem.memory import Memory
from graphmem.server.credentials import api_token
from graphmem.serving import MemoryService

TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _client(
    *,
    writes: bool = False,
    spaces: tuple[str, ...] = ("mine",),
    rate: float = 1000.0,
    burst: int = 1000,
    max_body: int = 4096,
) -> TestClient:
    service = MemoryService(Memory(Settings()), list(spaces), writes)
    app = build_app(service, token=TOKEN, rate=rate, burst=burst, max_body=max_body)
    return TestClient(app, raise_server_exceptions=False)


def _query(**over: object) -> dict[str, object]:
    return {"question": "What is the dog called?", "space": "mine", **over}


def test_health_is_open_and_everything_else_needs_the_token() -> None:
    client = _client()
    assert client.get("/health").json()["status"] == "ok"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
        response = client.get("/v1/spaces", headers=headers)
        assert response.status_code == 401
        assert response.json()["error"] == "unauthorized"
        assert response.headers["www-authenticate"] == "Bearer"
    assert client.get("/openapi.json").status_code == 401
    document = client.get("/openapi.json", headers=AUTH).json()
    assert {"/health", "/v1/query", "/v1/ask", "/v1/messages", "/v1/forget", "/v1/stats"} <= set(
        document["paths"]
    )
    assert "403" in document["paths"]["/v1/query"]["post"]["responses"]
    assert client.get("/docs", headers=AUTH).status_code == 404  # no page loading scripts


def test_rate_limit_answers_429_with_retry_after() -> None:
    client = _client(rate=0.01, burst=2)
    codes = [client.get("/health").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    refused = client.get("/health")
    assert refused.json()["error"] == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1


def test_rate_limiter_refills_at_its_rate() -> None:
    limiter = RateLimiter(rate=1000.0, burst=1)
    assert limiter.wait("a") == 0.0
    assert 0 < limiter.wait("a") <= 0.001  # the bucket is empty: wait one token's time
    assert limiter.wait("b") == 0.0  # another client has its own bucket


def test_body_over_the_limit_is_413_declared_or_streamed() -> None:
    client = _client(max_body=1024)
    big = json.dumps(_query(question="x" * 2000))
    declared = client.post(
        "/v1/query", content=big, headers={**AUTH, "content-type": "application/json"}
    )
    assert declared.status_code == 413
    assert declared.json()["error"] == "too_large"

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(4):
            yield b"x" * 400

    streamed = client.post("/v1/query", content=chunks(), headers=AUTH)
    assert streamed.status_code == 413


def test_writes_need_allow_writes_and_spaces_are_confined() -> None:
    client = _client()
    body = {"space": "mine", "conversation": "c", "session": "s", "messages": []}
    refused = client.post("/v1/messages", json=body, headers=AUTH)
    assert refused.status_code == 403
    assert "--allow-writes" in refused.json()["hint"]
    assert client.post("/v1/forget", json={"space": "mine"}, headers=AUTH).status_code == 403
    outside = client.post("/v1/query", json=_query(space="theirs"), headers=AUTH)
    assert outside.status_code == 403
    assert "not served here" in outside.json()["message"]
    writable = _client(writes=True)
    elsewhere = writable.post("/v1/forget", json={"space": "theirs"}, headers=AUTH)
    assert elsewhere.status_code == 403


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (_query(budget=10), "field 'budget': must be from 50 to 32,000 tokens, got 10"),
        ({"space": "mine"}, "field 'question': is required."),
        (_query(strategy="nope"), "field 'strategy': unknown strategy 'nope'"),
        (_query(colour="red"), "field 'colour': extra inputs are not permitted."),
    ],
)
def test_bad_requests_are_one_plain_sentence(body: dict[str, object], expected: str) -> None:
    response = _client().post("/v1/query", json=body, headers=AUTH)
    assert response.status_code == 400
    data = response.json()
    assert data["error"] == "input" and data["exit_code"] == 3
    assert data["message"].startswith(expected)
    assert "pydantic" not in data["message"] and "http" not in data["message"]
    assert "\n" not in data["message"]


def test_broken_json_and_unknown_routes() -> None:
    client = _client()
    broken = client.post(
        "/v1/query", content=b"{bad", headers={**AUTH, "content-type": "application/json"}
    )
    assert broken.status_code == 400
    assert "must be a JSON object" in broken.json()["message"]
    form = client.post("/v1/query", content=b"a=b", headers=AUTH)  # not sent as JSON
    assert "Content-Type: application/json" in form.json()["message"]
    missing = client.get("/v1/nothing", headers=AUTH)
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    wrong = client.get("/v1/query", headers=AUTH)
    assert wrong.status_code == 405 and wrong.json()["error"] == "method_not_allowed"


@pytest.mark.parametrize(
    ("error", "status", "kind"),
    [
        (InputError("bad", field="x"), 400, "input"),
        (ConfigError("bad"), 500, "config"),
        (ServerLostError("gone", rerun="again"), 503, "server"),
        (LLMItemError("no answer"), 502, "llm"),
        (GraphmemError("other"), 500, "error"),
    ],
)
def test_each_error_class_has_its_status(error: GraphmemError, status: int, kind: str) -> None:
    response = graphmem_response(error)
    assert response.status_code == status
    body = json.loads(response.body)
    assert body["error"] == kind and body["exit_code"] == error.exit_code


def test_validation_sentence_joins_several_errors() -> None:
    exc = RequestValidationError(
        [
            {
                "loc": ("body", "budget"),
                "msg": "Input should be a valid integer",
                "type": "int_type",
            },
            {"loc": ("body", "space"), "msg": "Field required", "type": "missing"},
        ]
    )
    assert validation_sentence(exc) == (
        "field 'budget': input should be a valid integer; field 'space': is required."
    )


def test_api_token_is_a_private_file_made_once(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    first = api_token(settings)
    assert len(first) >= 24 and api_token(settings) == first
    mode = stat.S_IMODE(os.stat(settings.api_token_file).st_mode)
    assert mode == 0o600
    assert stat.S_IMODE(os.stat(settings.api_token_file.parent).st_mode) == 0o700
    settings.api_token_file.write_text("")
    with pytest.raises(ConfigError, match="holds no token"):
        api_token(settings)
