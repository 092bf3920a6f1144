"""Structured-output negotiation per server, and per-item fallback to the offline path."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import LLMError, LLMItemError
from graphmem.llm import Message, map_attempts, map_with_fallback, with_fallback
from tests.fakes import llm_support
from tests.fakes.llm_support import ADA, ADA_PERSON, ASK, Person, make_client, make_settings
from tests.fakes.openai_server import LLAMA_CPP_REJECTION, FakeOpenAIServer, Reply, format_mode

server = llm_support.server
no_proxy = llm_support.no_proxy


# --- negotiation -----------------------------------------------------------------------------


def test_llama_cpp_500_on_json_schema_settles_on_json_object_with_schema(
    tmp_path: Path,
) -> None:
    with FakeOpenAIServer(reject_formats={"json_schema"}, reject_reply=LLAMA_CPP_REJECTION) as srv:
        srv.enqueue(Reply.json(ADA), Reply.json(ADA))
        llm = make_client(make_settings(tmp_path, srv))
        assert llm.generate(ASK, Person) == ADA_PERSON
        assert llm.generate(ASK, Person) == ADA_PERSON
        bodies = srv.bodies()

    # the 500 names the request as invalid: stepped down at once, never repeated
    assert [format_mode(b) for b in bodies] == [
        "json_schema",
        "json_object_schema",
        "json_object_schema",
    ]
    assert llm.response_format_mode == "json_object_schema"
    assert bodies[1]["response_format"]["schema"] == Person.model_json_schema()
    assert bodies[1]["messages"] == [m.model_dump() for m in ASK]  # the server holds the schema
    usage = llm.usage.snapshot()
    assert (usage.calls, usage.errors, usage.retries) == (3, 1, 0)


def test_json_object_mode_carries_the_schema_in_one_system_message(tmp_path: Path) -> None:
    rejected = {"json_schema", "json_object_schema"}
    with FakeOpenAIServer(reject_formats=rejected) as srv:
        srv.enqueue(Reply.json(ADA))
        llm = make_client(make_settings(tmp_path, srv))
        assert llm.generate(ASK, Person) == ADA_PERSON
        last = srv.bodies()[-1]

    assert llm.response_format_mode == "json_object"
    assert last["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in last["messages"]] == ["system", "user"]
    assert last["messages"][0]["content"].startswith("You extract people from text.")
    assert json.dumps(Person.model_json_schema()) in last["messages"][0]["content"]


def test_server_without_json_modes_gets_a_plain_prompt(tmp_path: Path) -> None:
    rejected = {"json_schema", "json_object_schema", "json_object"}
    with FakeOpenAIServer(reject_formats=rejected) as srv:
        srv.enqueue(Reply.text(f"Sure: {json.dumps(ADA)}"))
        llm = make_client(make_settings(tmp_path, srv))
        assert llm.generate(ASK, Person) == ADA_PERSON
        last = srv.bodies()[-1]
    assert llm.response_format_mode == "prompt"
    assert "response_format" not in last
    assert json.dumps(Person.model_json_schema()) in last["messages"][0]["content"]


def test_concurrent_first_requests_negotiate_once(tmp_path: Path) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        return Reply.json({"name": body["messages"][-1]["content"], "age": 1}, delay_s=0.05)

    with FakeOpenAIServer(
        reject_formats={"json_schema"}, reject_reply=LLAMA_CPP_REJECTION, default=answer
    ) as srv:
        llm = make_client(make_settings(tmp_path, srv, llm_concurrency=4))
        names = [f"p{i}" for i in range(8)]
        people = llm.generate_many([([Message(role="user", content=n)], Person) for n in names])
        modes = [format_mode(b) for b in srv.bodies()]

    assert [p.name for p in people] == names
    assert modes.count("json_schema") == 1 and modes.count("json_object_schema") == 8


def test_configured_mode_skips_negotiation(tmp_path: Path, server: FakeOpenAIServer) -> None:
    server.enqueue(Reply.json(ADA))
    llm = make_client(make_settings(tmp_path, server, llm_response_format="json_object"))
    assert llm.response_format_mode == "json_object"
    llm.generate(ASK, Person)
    assert [format_mode(b) for b in server.bodies()] == ["json_object"]


def test_answer_that_stays_invalid_is_cached_as_such(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.text("no idea"), Reply.text("still no idea"))
    settings = make_settings(tmp_path, server, llm_cache=True)
    with make_client(settings) as llm, pytest.raises(LLMItemError):
        llm.generate(ASK, Person)
    with make_client(settings) as again:
        with pytest.raises(LLMItemError, match="cached"):
            again.generate(ASK, Person)
        assert again.usage.snapshot().calls == 0
        assert again.usage.snapshot().cache_hits == 1
    assert server.request_count() == 2


# --- per-item fallback -----------------------------------------------------------------------


def test_with_fallback_degrades_one_item_logs_and_counts_it(
    tmp_path: Path, server: FakeOpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    server.enqueue(Reply.text("no"), Reply.text("no"))
    llm = make_client(make_settings(tmp_path, server))
    with caplog.at_level(logging.WARNING, logger="graphmem.llm.fallback"):
        name = with_fallback(
            llm,
            lambda text: llm.generate([Message(role="user", content=text)], Person).name,
            lambda text: f"offline:{text}",
            "Ada was 36",
            what="people",
        )
    assert name == "offline:Ada was 36"
    assert llm.usage.snapshot().fallbacks == 1
    assert "people: LLM gave up on one item" in caplog.text


def test_with_fallback_lets_a_run_level_error_through(
    tmp_path: Path, server: FakeOpenAIServer
) -> None:
    server.enqueue(Reply.err(401, "bad key"))
    llm = make_client(make_settings(tmp_path, server))
    offline_calls: list[str] = []
    with pytest.raises(LLMError, match="HTTP 401") as caught:
        with_fallback(
            llm,
            lambda text: llm.generate([Message(role="user", content=text)], Person),
            lambda text: offline_calls.append(text) or ADA_PERSON,
            "x",
            what="people",
        )
    assert not isinstance(caught.value, LLMItemError)
    assert offline_calls == [] and llm.usage.snapshot().fallbacks == 0


def test_map_with_fallback_keeps_order_bounds_concurrency_and_degrades_items(
    tmp_path: Path,
) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        text = body["messages"][-1]["content"]
        if "bad" in text or "not valid" in text:
            return Reply.text("not JSON", delay_s=0.05)
        return Reply.json({"name": text, "age": 1}, delay_s=0.05)

    with FakeOpenAIServer(default=answer) as srv:
        llm = make_client(make_settings(tmp_path, srv, llm_concurrency=3))
        items = ["a", "bad-1", "b", "c", "bad-2", "d", "e"]
        lock = threading.Lock()
        threads: set[str] = set()

        def ask(text: str) -> str:
            with lock:
                threads.add(threading.current_thread().name)
            return llm.generate([Message(role="user", content=text)], Person).name

        out = map_with_fallback(llm, ask, str.upper, items, what="names")
        assert srv.max_in_flight == 3

    assert out == ["a", "BAD-1", "b", "c", "BAD-2", "d", "e"]
    assert len(threads) == 3
    usage = llm.usage.snapshot()
    assert (usage.fallbacks, usage.repairs, usage.calls) == (2, 2, 9)


def test_map_attempts_says_which_items_fell_back(tmp_path: Path) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        text = body["messages"][-1]["content"]
        if "bad" in text or "not valid" in text:
            return Reply.text("not JSON")
        return Reply.json({"name": text, "age": 1})

    with FakeOpenAIServer(default=answer) as srv:
        llm = make_client(make_settings(tmp_path, srv, llm_concurrency=2))
        out = map_attempts(
            llm,
            lambda text: llm.generate([Message(role="user", content=text)], Person).name,
            str.upper,
            ["a", "bad", "b"],
            what="names",
        )
    assert [(o.value, o.fallback) for o in out] == [("a", False), ("BAD", True), ("b", False)]
    assert llm.usage.snapshot().fallbacks == 1
