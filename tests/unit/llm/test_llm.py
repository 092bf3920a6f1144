"""The real OpenAI client code against a scripted fake server: no network, no real model.

Transport: request shape, repairs, retries, which failures are final, cache, concurrency.
Structured-output negotiation and per-item fallback: tests/unit/llm/test_llm_structured.py.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from graphmem.errors import LLMError, LLMItemError
from graphmem.llm import Message, ResponseCache, Usage, build_llm, cache_key
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.llm.wire import retry_after_s
from tests.fakes import llm_support
from tests.fakes.llm_support import (
    ADA,
    ADA_PERSON,
    ASK,
    Person,
    Sleeps,
    Topic,
    make_client,
    make_settings,
)
from tests.fakes.openai_server import (
    EMBEDDINGS_PATH,
    FakeOpenAIServer,
    Reply,
    fake_embedding,
    format_mode,
)

server = llm_support.server
no_proxy = llm_support.no_proxy

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
    assert body["max_tokens"] == 1024
    assert body["messages"] == [m.model_dump() for m in ASK]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "Person", "schema": Person.model_json_schema(), "strict": False},
    }
    assert llm.response_format_mode == "json_schema"
    usage = llm.usage.snapshot()
    assert (usage.calls, usage.retries, usage.repairs, usage.cache_hits) == (1, 0, 0, 0)
    assert usage.errors == usage.fallbacks == 0 and usage.seconds > 0
    assert usage.prompt_tokens == server.served_prompt_tokens > 0
    assert usage.completion_tokens == server.served_completion_tokens > 0


def test_fenced_or_chatty_json_is_accepted_without_repair(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(
        Reply.text(f"```json\n{json.dumps(ADA)}\n```"),
        Reply.text(f"Here you go: {json.dumps(ADA)} Anything else?"),
    )
    llm = make_client(make_settings(tmp_path, server))
    assert llm.generate(ASK, Person) == ADA_PERSON
    assert llm.generate(ASK, Person) == ADA_PERSON
    assert server.request_count() == 2
    assert llm.usage.snapshot().repairs == 0


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


# --- repair ----------------------------------------------------------------------------------


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
    usage = llm.usage.snapshot()
    assert (usage.calls, usage.repairs, usage.retries) == (2, 1, 0)


def test_output_still_invalid_after_repair_raises_item_error(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.text("Sure! Here is the JSON you asked for"), Reply.json({"name": "Ada"}))
    llm = make_client(make_settings(tmp_path, server))

    with pytest.raises(LLMItemError) as caught:
        llm.generate(ASK, Person)
    message = str(caught.value)
    assert "Person" in message
    assert "age" in message  # the validation problem
    assert '{"name": "Ada"}' in message  # a snippet of the bad output
    assert server.request_count() == 2  # exactly one repair, no more
    repair = server.bodies()[1]["messages"][-1]["content"]
    assert "Invalid JSON" in repair  # the first validation error...
    assert json.dumps(Person.model_json_schema()) in repair  # ...and the schema


def test_repairs_are_bounded_by_settings(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(*[Reply.text("no")] * 3, Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server, llm_max_repairs=2))
    with pytest.raises(LLMItemError, match="after 2 repair"):
        llm.generate(ASK, Person)
    assert server.request_count() == 3 and server.remaining() == 1


def test_cut_off_answer_is_told_to_be_shorter(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply(content='{"name": "Ada", "age"', finish_reason="length"), Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server))
    assert llm.generate(ASK, Person) == ADA_PERSON
    assert "cut off" in server.bodies()[1]["messages"][-1]["content"]


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
    usage = llm.usage.snapshot()
    # every request the server saw is a call; the refused one is also an error
    assert (usage.retries, usage.calls, usage.errors) == (1, 2, 1)


def test_retry_after_is_capped(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.err(429, retry_after=3600), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(make_settings(tmp_path, server), sleeps, retry_after_max_s=0.05)
    assert llm.generate(ASK, Person).name == "Ada"
    assert sleeps == [0.05]


def test_retry_after_header_forms() -> None:
    assert retry_after_s({"retry-after-ms": "250"}) == 0.25
    assert retry_after_s({"retry-after": "3"}) == 3.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 < (retry_after_s({"retry-after": later}) or 0) <= 30
    assert retry_after_s({"retry-after": "soon"}) is None
    assert retry_after_s({}) is None


def test_server_errors_back_off_exponentially_then_succeed(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.err(500), Reply.err(503), Reply.json(ADA))
    sleeps = Sleeps()
    llm = make_client(
        make_settings(tmp_path, server), sleeps, backoff_base_s=0.01, backoff_max_s=1.0
    )

    assert llm.generate(ASK, Person) == ADA_PERSON
    assert server.request_count() == 3 == llm.usage.snapshot().calls
    assert llm.usage.snapshot().retries == 2
    # Equal jitter: attempt n waits between half and all of base * 2**n.
    assert 0.005 <= sleeps[0] <= 0.01
    assert 0.01 <= sleeps[1] <= 0.02


def test_timeouts_are_retried_then_give_up_on_the_item(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(*[Reply.slow(3.0, ADA)] * 3)
    settings = make_settings(tmp_path, server, llm_timeout_s=0.25, llm_max_retries=2)
    llm = make_client(settings)

    started = time.monotonic()
    with pytest.raises(LLMItemError) as caught:  # this request may be too slow: degrade it
        llm.generate(ASK, Person)
    assert time.monotonic() - started < 2.5  # gave up on each slow reply, did not wait it out
    assert "timed out after 3 attempts" in str(caught.value)
    assert caught.value.hint is not None and "TIMEOUT" in caught.value.hint
    assert server.request_count() == 3
    usage = llm.usage.snapshot()
    assert (usage.retries, usage.calls, usage.errors) == (2, 3, 3)


def test_connection_refused_is_retried_then_stops_the_run(tmp_path: Path) -> None:
    with FakeOpenAIServer() as gone:
        settings = make_settings(tmp_path, gone, llm_max_retries=1)
    sleeps = Sleeps()
    llm = make_client(settings, sleeps)  # the server is stopped: nothing listens any more

    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    assert not isinstance(caught.value, LLMItemError)  # every item would fail the same way
    assert "connection failed" in str(caught.value)
    assert len(sleeps) == 1
    assert llm.usage.snapshot().retries == 1


@pytest.mark.parametrize(
    ("status", "per_item"), [(401, False), (403, False), (404, False), (422, True), (413, True)]
)
def test_other_client_errors_are_not_retried(
    tmp_path: Path, server: FakeOpenAIServer, status: int, per_item: bool
) -> None:
    server.enqueue(Reply.err(status, "nope"), Reply.json(ADA))
    sleeps = Sleeps()
    settings = make_settings(tmp_path, server, llm_response_format="json_schema")
    llm = make_client(settings, sleeps)

    with pytest.raises(LLMError) as caught:
        llm.generate(ASK, Person)
    # credentials and unknown models stop the run; an invalid request degrades its item
    assert isinstance(caught.value, LLMItemError) is per_item
    assert f"HTTP {status}: nope" in str(caught.value)
    assert server.request_count() == 1
    assert sleeps == []
    assert server.remaining() == 1


def test_bad_request_is_never_sent_twice(tmp_path: Path, server: FakeOpenAIServer) -> None:
    # While the format is unsettled, each rejection tries the next weaker mode once...
    server.enqueue(*[Reply.err(400, "context too long")] * 4)
    llm = make_client(make_settings(tmp_path, server))
    with pytest.raises(LLMItemError, match="HTTP 400: context too long"):
        llm.generate(ASK, Person)
    modes = [format_mode(b) for b in server.bodies()]
    assert modes == ["json_schema", "json_object_schema", "json_object", "prompt"]
    assert llm.response_format_mode is None  # no mode worked: the request was the problem

    # ...the next request starts over at json_schema, and once a mode has worked a
    # rejection is final straight away.
    server.enqueue(Reply.json(ADA), Reply.err(400, "context too long"))
    llm.generate(ASK, Person)
    assert llm.response_format_mode == "json_schema"
    with pytest.raises(LLMItemError):
        llm.generate([*ASK, Message(role="user", content="more")], Person)
    assert server.request_count() == 6 == llm.usage.snapshot().calls
    assert llm.usage.snapshot().retries == 0


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
        assert (first.usage.snapshot().calls, first.usage.snapshot().cache_hits) == (1, 1)
    assert (settings.cache_dir / "llm-cache.sqlite").is_file()

    with make_client(settings) as second:
        assert second.generate(ASK, Person) == ADA_PERSON
        assert server.request_count() == 1
        assert (second.usage.snapshot().calls, second.usage.snapshot().cache_hits) == (0, 1)
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
    assert cache.get(cache_key("fake-model", ASK, Topic)) is None
    cache.close()


def test_the_cache_is_readable_by_this_user_only(tmp_path: Path) -> None:
    """It holds prompts made from the conversations: 0600 in a 0700 folder whatever the
    umask, and a file made before that rule is tightened when opened."""
    old_umask = os.umask(0o022)
    try:
        fresh = ResponseCache(tmp_path / "new" / "answers.sqlite")
        fresh.put(cache_key("m", ASK, Person), json.dumps(ADA))
        fresh.close()
        older = tmp_path / "older.sqlite"
        older.touch(mode=0o644)
        reopened = ResponseCache(older)
        assert reopened.get("anything") is None
        reopened.close()
        frozen = tmp_path / "frozen.sqlite"  # a cache its owner made read-only: still read
        shutil.copy(tmp_path / "new" / "answers.sqlite", frozen)
        frozen.chmod(0o444)
        kept = ResponseCache(frozen)
        assert json.loads(kept.get(cache_key("m", ASK, Person)) or "null") == ADA
        kept.close()
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "new" / "answers.sqlite").stat().st_mode) == 0o600
    assert stat.S_IMODE(older.stat().st_mode) == 0o600
    assert stat.S_IMODE(frozen.stat().st_mode) == 0o400


def test_cache_entry_the_schema_rejects_is_asked_again(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    path = tmp_path / "cache" / "llm-cache.sqlite"
    stale = ResponseCache(path)
    stale.put(cache_key("fake-model", ASK, Person), '{"name": "Ada"}')
    stale.close()
    server.enqueue(Reply.json(ADA))
    with make_client(make_settings(tmp_path, server, llm_cache=True)) as llm:
        assert llm.generate(ASK, Person) == ADA_PERSON
        assert llm.usage.snapshot().cache_hits == 0
    assert server.request_count() == 1


def test_cache_disabled_calls_every_time(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json(ADA), Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server, llm_cache=False))
    assert llm.cache is None
    llm.generate(ASK, Person)
    llm.generate(ASK, Person)
    assert server.request_count() == 2
    assert llm.usage.snapshot().cache_hits == 0


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
        # waits of concurrent requests add up: about 12 x 0.1 s although ~0.4 s passed
        assert usage.seconds >= 1.0


def test_generate_many_raises_llm_error_from_any_request(tmp_path: Path) -> None:
    with FakeOpenAIServer(default=_echo_name) as server:
        llm = make_client(make_settings(tmp_path, server, llm_concurrency=2))
        requests = [([Message(role="user", content=n)], Person) for n in ("a", "forbidden", "b")]
        with pytest.raises(LLMError, match="HTTP 401"):
            llm.generate_many(requests)
        assert llm.generate_many([]) == []


def test_usage_totals_subtract_and_add() -> None:
    usage = Usage()
    usage.add(calls=2, prompt_tokens=10, completion_tokens=5)
    snap = usage.snapshot()
    usage.add(calls=1, seconds=0.5)
    later = usage.snapshot()
    assert (snap.calls, snap.total_tokens, later.calls) == (2, 15, 3)
    spent = later - snap
    assert (spent.calls, spent.total_tokens, spent.seconds) == (1, 0, 0.5)
    assert snap + spent == later
    flat = spent.as_dict()
    assert (flat["llm_calls"], flat["llm_tokens"], flat["llm_cache_hits"]) == (1, 0, 0)


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
