"""What the LLM client tests share: answer schemas, settings and clients pointed at a fake
server, and the fixtures (a module re-exports them as ``server = llm_support.server``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from graphmem.config import Settings
from graphmem.llm import Message
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from tests.fakes.openai_server import FakeOpenAIServer


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


@pytest.fixture(autouse=True, name="no_proxy")
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A developer's HTTP(S)_PROXY must not swallow requests meant for 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture(name="server")
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
