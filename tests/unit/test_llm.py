"""The real OpenAI client code against a scripted fake server: no network, no real model."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, SecretStr

from graphmem.config import Settings
from graphmem.errors import LLMError
from graphmem.llm import Message, ResponseCache, Usage, build_llm, cache_key
from graphmem.llm.openai_llm import OpenAIStructuredLLM, _retry_after_s
from tests.fakes.openai_server import EMBEDDINGS_PATH, FakeOpenAIServer, Reply, fake_embedding


class Person(BaseModel):
    name: str
    age: int


class Topic(BaseModel):
    label: str


ADA = {"name": "Ada", "age": 36}
ADA_PERSON = Person(name="Ada", age=36)
ASK = [
    Message(role="system", content="You extract people from text."),
    Message(role="user", content="Ada Lovelace was 36."),
]


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A developer's HTTP(S)_PROXY must not swallow requests meant for 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def make_settings(tmp_path: Path, server: FakeOpenAIServer, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_base_url": server.base_url,
        "llm_model": "fake-model",
        "llm_timeout_s": 5.0,
        "llm_max_retries": 3,
        "llm_concurrency": 4,
        "llm_cache": False,
        "cache_dir": tmp_path / "cache",
        "home": tmp_path / "home",
        **overrides,
    }
    # llm_api_key is only settable through its env-style alias, so set it after the fact.
    return Settings(**values).model_copy(update={"llm_api_key": SecretStr("test-key")})


class Sleeps(list[float]):
    """Records the backoff delays the client asks for, and really sleeps them."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
        time.sleep(seconds)


def make_client(settings: Settings, sleeps: Sleeps | None = None, **kw: Any) -> OpenAIStructuredLLM:
    kw.setdefault("backoff_base_s", 0.001)
    kw.setdefault("backoff_max_s", 0.01)
    return OpenAIStructuredLLM(settings, sleep=sleeps if sleeps is not None else Sleeps(), **kw)


# --- the happy path --------------------------------------------------------------------------


def test_valid_output_is_parsed_and_request_is_well_formed(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.json(ADA))
    with make_client(make_settings(tmp_path, server)) as llm:
        person = llm.generate(ASK, Person)

    assert person == Person(name="Ada", age=36)
    [request] = server.requests
    assert request.headers["authorization"] == "Bearer test-key"
    body = request.body
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0
    assert body["messages"] == [m.model_dump() for m in ASK]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Person", "schema": Person.model_json_schema(), "strict": False},
    }
    assert llm.response_format_mode == "json_schema"
    usage = llm.usage.snapshot()
    assert (usage.calls, usage.retries, usage.repairs, usage.cached_calls) == (1, 0, 0, 0)
    assert usage.prompt_tokens == server.served_prompt_tokens > 0
    assert usage.completion_tokens == server.served_completion_tokens > 0


def test_code_fenced_json_is_accepted_without_repair(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.text(f"```json\n{json.dumps(ADA)}\n```"))
    llm = make_client(make_settings(tmp_path, server))
    assert llm.generate(ASK, Person).age == 36
    assert server.request_count() == 1
    assert llm.usage.repairs == 0


def test_constructor_does_no_io_and_build_llm_follows_settings(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    assert build_llm(make_settings(tmp_path, server, llm_model=None)) is None

    settings = make_settings(tmp_path, server, llm_cache=True)
    llm = build_llm(settings)
    assert isinstance(llm, OpenAIStructuredLLM)
    assert llm.model_name == "fake-model"
    assert server.requests == []
    assert not (settings.cache_dir / "llm-cache.sqlite").exists()


# --- structured-output fallback and repair ---------------------------------------------------


def test_json_schema_rejected_falls_back_to_json_object_for_the_client(tmp_path: Path) -> None:
    with FakeOpenAIServer(reject_json_schema=True) as server:
        server.enqueue(Reply.json(ADA), Reply.json({"label": "history"}))
        llm = make_client(make_settings(tmp_path, server))
        assert llm.generate(ASK, Person) == ADA_PERSON
        assert llm.generate(ASK, Topic) == Topic(label="history")
        bodies = server.bodies()

    # One rejected probe, then json_object for every later request.
    assert [b["response_format"]["type"] for b in bodies] == [
        "json_schema",
        "json_object",
        "json_object",
    ]
    assert llm.response_format_mode == "json_object"
    assert llm.usage.retries == 0
    # The schema travels in the (single, merged) system message instead.
    fallback = bodies[1]["messages"]
    assert [m["role"] for m in fallback] == ["system", "user"]
    assert fallback[0]["content"].startswith("You extract people from text.")
    assert json.dumps(Person.model_json_schema()) in fallback[0]["content"]
    assert json.dumps(Topic.model_json_schema()) in bodies[2]["messages"][0]["content"]


def test_malformed_json_gets_one_repair_turn(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.text('{"name": "Ada", "age": '), Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server))

    assert llm.generate(ASK, Person) == ADA_PERSON
    first, repair = server.bodies()
    assert first["messages"] == [m.model_dump() for m in ASK]
    assert repair["messages"][:2] == first["messages"]
    assert repair["messages"][2] == {"role": "assistant", "content": '{"name": "Ada", "age": '}
    assert repair["messages"][3]["role"] == "user"
    assert "not valid" in repair["messages"][3]["content"]
    assert (llm.usage.calls, llm.usage.repairs, llm.usage.retries) == (2, 1, 0)


def test_output_still_invalid_after_repair_raises_llm_error(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.text("Sure! Here is the JSON you asked for"), Reply.json({"name": "Ada"}))
    llm = make_client(make_settings(tmp_path, server))

    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    message = str(caught.value)
    assert "Person" in message
    assert "age" in message  # the validation problem
    assert '{"name": "Ada"}' in message  # a snippet of the bad output
    assert server.request_count() == 2  # exactly one repair, no more
    # The repair prompt carried the first validation error to the model.
    assert "Invalid JSON" in server.bodies()[1]["messages"][-1]["content"]


# --- retries ---------------------------------------------------------------------------------


def test_rate_limit_honours_retry_after_then_succeeds(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.err(429, "slow down", retry_after=0.2), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(make_settings(tmp_path, server), sleeps)

    assert llm.generate(ASK, Person) == ADA_PERSON
    assert server.request_count() == 2
    assert len(sleeps) == 1
    assert sleeps[0] == pytest.approx(0.2)
    assert (llm.usage.retries, llm.usage.calls) == (1, 1)


def test_retry_after_is_capped(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.err(429, retry_after=3600), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(make_settings(tmp_path, server), sleeps, retry_after_max_s=0.05)
    assert llm.generate(ASK, Person).name == "Ada"
    assert sleeps == [0.05]


def test_retry_after_header_forms() -> None:
    assert _retry_after_s({"retry-after-ms": "250"}) == 0.25
    assert _retry_after_s({"retry-after": "3"}) == 3.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (_retry_after_s({"retry-after": later}) or 0) <= 30
    assert _retry_after_s({"retry-after": "soon"}) is None
    assert _retry_after_s({}) is None


def test_server_errors_back_off_exponentially_then_succeed(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.err(500), Reply.err(503), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(
        make_settings(tmp_path, server), sleeps, backoff_base_s=0.01, backoff_max_s=1.0
    )

    assert llm.generate(ASK, Person) == ADA_PERSON
    assert server.request_count() == 3
    assert llm.usage.retries == 2
    # Equal jitter: attempt n waits between half and all of base * 2**n.
    assert 0.005 <= sleeps[0] <= 0.01
    assert 0.01 <= sleeps[1] <= 0.02


def test_timeouts_are_retried_then_raise(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(*[Reply.slow(3.0, ADA)] * 3)
    settings = make_settings(tmp_path, server, llm_timeout_s=0.25, llm_max_retries=2)
    llm = make_client(settings)

    started = time.monotonic()
    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    assert time.monotonic() - started < 2.5  # gave up on each slow reply, did not wait it out
    assert "timed out after 3 attempts" in str(caught.value)
    assert caught.value.hint is not None and "TIMEOUT" in caught.value.hint
    assert server.request_count() == 3
    assert (llm.usage.retries, llm.usage.calls) == (2, 0)


def test_connection_refused_is_retried_then_raises(tmp_path: Path) -> None:
    with FakeOpenAIServer() as gone:
        settings = make_settings(tmp_path, gone, llm_max_retries=1)
    sleeps = Sleeps()
    llm = make_client(settings, sleeps)  # the server is stopped: nothing listens any more

    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    assert "connection failed" in str(caught.value)
    assert len(sleeps) == 1
    assert llm.usage.retries == 1


@pytest.mark.parametrize("status", [401, 403, 404, 422])
def test_other_client_errors_are_not_retried(
    tmp_path: Path, server: FakeOpenAIServer, status: int
) -> None:
    server.enqueue(Reply.err(status, "nope"), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(make_settings(tmp_path, server), sleeps)

    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    assert f"HTTP {status}: nope" in str(caught.value)
    assert server.request_count() == 1
    assert sleeps == []
    assert server.remaining() == 1


def test_bad_request_is_not_retried(tmp_path: Path, server: FakeOpenAIServer) -> None:
    # While json_schema support is unknown, a 400 earns exactly one json_object probe...
    server.enqueue(Reply.err(400, "context too long"), Reply.err(400, "context too long"))
    llm = make_client(make_settings(tmp_path, server))
    with pytest.raises(LLMError, match="HTTP 400: context too long"):
        llm.generate(ASK, Person)
    assert server.request_count() == 2
    assert llm.response_format_mode == "unknown"  # the 400 was not about response_format

    # ...and once json_schema is known to work, a 400 is final straight away.
    server.enqueue(Reply.json(ADA), Reply.err(400, "context too long"))
    llm.generate(ASK, Person)
    with pytest.raises(LLMError):
        llm.generate([*ASK, Message(role="user", content="more")], Person)
    assert server.request_count() == 4
    assert llm.usage.retries == 0


# --- cache -----------------------------------------------------------------------------------


def test_cache_hit_makes_no_request_and_survives_a_new_client(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.json(ADA), Reply.json({"label": "math"}))
    settings = make_settings(tmp_path, server, llm_cache=True)

    with make_client(settings) as first:
        assert first.generate(ASK, Person) == ADA_PERSON
        assert first.generate(ASK, Person) == ADA_PERSON
        assert server.request_count() == 1
        assert (first.usage.calls, first.usage.cached_calls) == (1, 1)
    assert (settings.cache_dir / "llm-cache.sqlite").is_file()

    with make_client(settings) as second:
        assert second.generate(ASK, Person) == ADA_PERSON
        assert server.request_count() == 1
        assert (second.usage.calls, second.usage.cached_calls) == (0, 1)
        # Another schema is another key, even for the same conversation.
        assert second.generate(ASK, Topic) == Topic(label="math")
        assert server.request_count() == 2


def test_cache_key_and_override_path(tmp_path: Path, server: FakeOpenAIServer) -> None:
    other = [*ASK[:1], Message(role="user", content="Grace Hopper was 85.")]
    assert cache_key("m", ASK, Person) == cache_key("m", list(ASK), Person)
    assert cache_key("m", ASK, Person) != cache_key("m2", ASK, Person)
    assert cache_key("m", ASK, Person) != cache_key("m", other, Person)

    custom = tmp_path / "elsewhere" / "answers.sqlite"
    server.enqueue(Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server, llm_cache=True), cache_path=custom)
    llm.generate(ASK, Person)
    llm.close()
    cache = ResponseCache(custom)
    assert json.loads(cache.get(cache_key("fake-model", ASK, Person)) or "null") == ADA
    assert len(cache) == 1
    cache.close()


def test_cache_disabled_calls_every_time(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json(ADA), Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server, llm_cache=False))
    assert llm.cache is None
    llm.generate(ASK, Person)
    llm.generate(ASK, Person)
    assert server.request_count() == 2
    assert llm.usage.cached_calls == 0


# --- concurrency and accounting --------------------------------------------------------------


def _echo_name(body: dict[str, Any]) -> Reply:
    """Answers with the user's text as the name, so ordering can be checked."""
    name = body["messages"][-1]["content"]
    if name == "forbidden":
        return Reply.err(401, "bad key")
    return Reply.json({"name": name, "age": len(name)}, delay_s=0.1)


def test_generate_many_keeps_order_and_bounds_concurrency(tmp_path: Path) -> None:
    with FakeOpenAIServer(default=_echo_name) as server:
        llm = make_client(make_settings(tmp_path, server, llm_concurrency=3))
        names = [f"person-{i}" for i in range(12)]
        requests = [([Message(role="user", content=n)], Person) for n in names]
        people = llm.generate_many(requests)

        assert [p.name for p in people] == names
        assert server.max_in_flight == 3
        usage = llm.usage.snapshot()
        assert usage.calls == 12
        assert usage.prompt_tokens == server.served_prompt_tokens
        assert usage.completion_tokens == server.served_completion_tokens
        assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens > 12


def test_generate_many_raises_llm_error_from_any_request(tmp_path: Path) -> None:
    with FakeOpenAIServer(default=_echo_name) as server:
        llm = make_client(make_settings(tmp_path, server, llm_concurrency=2))
        requests = [([Message(role="user", content=n)], Person) for n in ("a", "forbidden", "b")]
        with pytest.raises(LLMError, match="HTTP 401"):
            llm.generate_many(requests)
        assert llm.generate_many([]) == []


def test_usage_snapshot_is_a_detached_copy() -> None:
    usage = Usage()
    usage.add(calls=2, prompt_tokens=10, completion_tokens=5)
    snap = usage.snapshot()
    usage.add(calls=1)
    assert (snap.calls, snap.total_tokens, usage.calls) == (2, 15, 3)


# --- the fake server itself (later used by the embedder's tests) ------------------------------


def test_fake_embeddings_are_deterministic(server: FakeOpenAIServer) -> None:
    url = f"{server.base_url}/embeddings"
    payload = {"model": "fake-embed", "input": ["hello", "world"]}
    first = httpx.post(url, json=payload).json()
    second = httpx.post(url, json=payload).json()
    vectors = [item["embedding"] for item in first["data"]]
    assert vectors == [item["embedding"] for item in second["data"]]
    assert vectors[0] == fake_embedding("hello", server.embedding_dim)
    assert len(vectors[0]) == 8 and vectors[0] != vectors[1]
    assert server.request_count(EMBEDDINGS_PATH) == 2
