"""Issue 57: one set of defaults and limits (graphmem/serving/limits.py) on every surface. The same
budget, question, strategy or builder is refused with the same words by the CLI, the
Python API, the HTTP API, the MCP tools and the framework adapters, and their help texts
and schemas show the same bounds. No server: each value is refused before any I/O."""

from __future__ import annotations

import inspect
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.memory import Memory
from graphmem.plugin.registry import build_order, builder_names
from graphmem.serving.limits import (
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    MAX_BUDGET,
    MAX_QUESTION_CHARS,
    MIN_BUDGET,
    check_budget,
    check_question,
    check_strategy,
    parse_builders,
    strategy_names,
)

pytest.importorskip("fastapi")
pytest.importorskip("mcp")
from starlette.testclient import TestClient

from graphmem.http.app import build_app
from graphmem.mcp.server import build_server
from graphmem.serving import MemoryService

TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
NOWHERE = Settings(neo4j_uri="bolt://127.0.0.1:1")  # nothing listens: no call may connect
SAMPLE = "examples/sample_conversation.jsonl"
OUT_OF_RANGE = [0, MIN_BUDGET - 1, MAX_BUDGET + 1, 100_000_000]
MESSAGES = [{"speaker": "Ana", "text": "I adopted a dog."}]


def _memory() -> Memory:
    return Memory(NOWHERE)


def _refusal(call: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        call()
    return caught.value


def _bare(error: InputError) -> str:
    """The message without its field, as the CLI shows it after the option's name."""
    return error.message.removeprefix(f"field {error.field!r}: ")


def _cli(*args: str) -> Any:
    return CliRunner().invoke(
        cli, list(args), prog_name="graphmem", env={"NEO4J_URI": "bolt://127.0.0.1:1"}
    )


def _http() -> TestClient:
    service = MemoryService(_memory(), ["mine"], allow_writes=True)
    app = build_app(service, token=TOKEN, rate=1000.0, burst=1000, max_body=1 << 20)
    return TestClient(app, raise_server_exceptions=False)


def _tools() -> Any:
    return build_server(MemoryService.lazily(_memory, ["mine"], allow_writes=True))


def _mcp_error(tool: str, args: dict[str, Any]) -> str:
    async def call() -> str:
        try:
            await _tools().call_tool(tool, args)
        except Exception as exc:  # the SDK's ToolError, whose text the client gets
            return str(exc)
        raise AssertionError(f"{tool} accepted {args}")

    return anyio.run(call)


def _mcp_schema(tool: str) -> dict[str, Any]:
    async def listed() -> dict[str, Any]:
        found = {t.name: t for t in await _tools().list_tools()}
        schema: dict[str, Any] = found[tool].input_schema
        return schema

    return anyio.run(listed)


# ------------------------------------------------------------------------- the budget


@pytest.mark.parametrize("budget", OUT_OF_RANGE)
def test_a_budget_out_of_range_is_refused_the_same_way_everywhere(budget: int) -> None:
    said = _refusal(lambda: check_budget(budget))
    assert said.field == "budget" and f"{MIN_BUDGET} to {MAX_BUDGET:,}" in said.message
    # Python
    python = _refusal(lambda: _memory().query("Who adopted a dog?", "mine", budget=budget))
    assert python.message == said.message
    asked = _refusal(lambda: _memory().ask("Who adopted a dog?", "mine", budget=budget))
    assert asked.message == said.message
    # CLI: a bad option value (exit 2) in the same words
    for command in ("query", "ask"):
        shown = _cli(command, "Who?", "--space", "mine", "--budget", str(budget))
        assert shown.exit_code == 2, shown.output
        assert f"Invalid value for '--budget': {_bare(said)}" in shown.output
    evaluated = _cli("eval", "locomo", "tests/fixtures/locomo_eval.json", "--budget", str(budget))
    assert evaluated.exit_code == 2 and _bare(said) in evaluated.output
    # HTTP: 400, kind input, exit code 3, the same message
    for route in ("/v1/query", "/v1/ask"):
        answer = _http().post(
            route, json={"question": "q", "space": "mine", "budget": budget}, headers=AUTH
        )
        assert answer.status_code == 400
        assert answer.json() == {
            "error": "input",
            "exit_code": 3,
            "message": said.message,
            "hint": None,
        }
    # MCP: a tool error with the same message
    for tool in ("query", "ask"):
        assert said.message in _mcp_error(
            tool, {"question": "q", "space": "mine", "budget": budget}
        )


@pytest.mark.parametrize("budget", OUT_OF_RANGE)
def test_the_adapters_refuse_the_same_budget(budget: int) -> None:
    langchain = pytest.importorskip("graphmem.integrations.langchain")
    llamaindex = pytest.importorskip("graphmem.integrations.llamaindex")
    said = _refusal(lambda: check_budget(budget)).message
    for make in (
        lambda: langchain.GraphmemRetriever(memory=_memory(), space="mine", budget=budget),
        lambda: llamaindex.GraphmemRetriever(_memory(), "mine", budget=budget),
        lambda: llamaindex.GraphmemMemoryBlock(
            memory=_memory(), space="mine", conversation="c", session="s", budget=budget
        ),
    ):
        assert _refusal(make).message == said


def test_the_bounds_themselves_are_accepted_and_shown_alike() -> None:
    assert check_budget(MIN_BUDGET) == MIN_BUDGET and check_budget(MAX_BUDGET) == MAX_BUDGET
    assert MIN_BUDGET <= DEFAULT_BUDGET <= MAX_BUDGET
    shown = f"{MIN_BUDGET} to {MAX_BUDGET:,}"
    for command in (["query"], ["ask"], ["eval", "locomo"]):
        text = " ".join(_cli(*command, "--help").output.split())
        assert f"Context budget in tokens, {shown}." in text, command
        assert f"[default: {DEFAULT_BUDGET}]" in text
    document = _http().get("/openapi.json", headers=AUTH).json()
    schemas = document["components"]["schemas"]
    for model in ("QueryIn", "QueryOptions"):
        budget = schemas[model]["properties"]["budget"]
        assert (budget["minimum"], budget["maximum"], budget["default"]) == (
            MIN_BUDGET,
            MAX_BUDGET,
            DEFAULT_BUDGET,
        )
        question = schemas[model]["properties"]["question"]
        assert question["maxLength"] == MAX_QUESTION_CHARS
        enum = schemas[model]["properties"]["strategy"]["enum"]
        # the names when the module was imported (a design registered later is accepted too)
        assert {"graphmem", "hybrid", "seem"} <= set(enum) <= set(strategy_names())
    for tool in ("query", "ask"):
        properties = _mcp_schema(tool)["properties"]
        budget = properties["budget"]
        assert (budget["minimum"], budget["maximum"], budget["default"]) == (
            MIN_BUDGET,
            MAX_BUDGET,
            DEFAULT_BUDGET,
        )
        assert properties["question"]["maxLength"] == MAX_QUESTION_CHARS
        assert properties["strategy"]["enum"] == enum  # the same names as the OpenAPI's


# ----------------------------------------------------------------------- the question


def test_a_question_over_the_limit_is_refused_the_same_way_everywhere() -> None:
    long = "q" * (MAX_QUESTION_CHARS + 1)
    check_question("q" * MAX_QUESTION_CHARS)
    said = _refusal(lambda: check_question(long)).message
    assert said == (
        f"field 'question': has {MAX_QUESTION_CHARS + 1:,} characters, more than the "
        f"{MAX_QUESTION_CHARS:,} allowed"
    )
    assert _refusal(lambda: _memory().query(long, "mine")).message == said
    answer = _http().post("/v1/query", json={"question": long, "space": "mine"}, headers=AUTH)
    assert answer.status_code == 400 and answer.json()["message"] == said
    assert said in _mcp_error("query", {"question": long, "space": "mine"})
    shown = _cli("query", long, "--space", "mine")
    assert shown.exit_code == 3 and said in shown.output  # an argument: the API's own error


# ---------------------------------------------------------------------- the strategy


def test_an_unknown_strategy_is_one_input_error_everywhere() -> None:
    said = _refusal(lambda: check_strategy("nope"))
    assert said.field == "strategy" and said.message == "field 'strategy': unknown strategy 'nope'"
    assert said.hint == f"choose one of {', '.join(strategy_names())}"
    for call in (
        lambda: _memory().query("q", "mine", strategy="nope"),
        lambda: _memory().ask("q", "mine", strategy="nope"),
        lambda: _memory().prepare("mine", strategy="nope"),
    ):
        refused = _refusal(call)
        assert (refused.message, refused.hint) == (said.message, said.hint)
    # HTTP: a 4xx (it was a 500 as a ConfigError would be), the same message and hint
    answer = _http().post(
        "/v1/query", json={"question": "q", "space": "mine", "strategy": "nope"}, headers=AUTH
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "input",
        "exit_code": 3,
        "message": said.message,
        "hint": said.hint,
    }
    # MCP: the same error (it was a settings error there)
    assert str(said) in _mcp_error("query", {"question": "q", "space": "mine", "strategy": "nope"})
    # CLI: a bad option value of query, ask and eval
    for args in (
        ["query", "q", "--space", "mine", "--strategy", "nope"],
        ["ask", "q", "--space", "mine", "--strategy", "nope"],
        ["eval", "locomo", "tests/fixtures/locomo_eval.json", "--strategy", "dense,nope"],
    ):
        shown = _cli(*args)
        assert (
            shown.exit_code == 2
            and "Invalid value for '--strategy': unknown strategy 'nope'" in shown.output
        )
    # the adapters, when made
    langchain = pytest.importorskip("graphmem.integrations.langchain")
    llamaindex = pytest.importorskip("graphmem.integrations.llamaindex")
    for make in (
        lambda: langchain.GraphmemRetriever(memory=_memory(), space="mine", strategy="nope"),
        lambda: llamaindex.GraphmemRetriever(_memory(), "mine", strategy="nope"),
    ):
        assert _refusal(make).message == said.message


# ---------------------------------------------------------------------- the builders


def test_one_parser_of_builders() -> None:
    every = build_order(builder_names())
    assert parse_builders("all") == parse_builders(["all"]) == parse_builders(None) == every
    assert parse_builders() == every and DEFAULT_BUILDERS == "all"
    assert parse_builders("none") == parse_builders(["none"]) == parse_builders([]) == []
    assert parse_builders("") == []
    assert parse_builders("seem") == parse_builders(["seem"]) == ["semantic", "seem"]
    assert parse_builders(" cast , anchormem ") == ["semantic", "cast", "anchormem"]
    with pytest.raises(InputError, match="cannot be combined"):
        parse_builders("none,seem")
    with pytest.raises(InputError, match="expected 'all', 'none'"):
        parse_builders([1, 2])  # type: ignore[list-item]


def test_builders_default_to_all_on_every_write() -> None:
    for method in (Memory.ingest, Memory.ingest_dataset, Memory.add_messages):
        assert inspect.signature(method).parameters["builders"].default == DEFAULT_BUILDERS
    for command in ("ingest", "add"):
        text = " ".join(_cli(command, "--help").output.split())
        assert (
            "'all' (the default), 'none' (store the turns only" in text and "[default: all]" in text
        )
    schema = _http().get("/openapi.json", headers=AUTH).json()["components"]["schemas"]
    assert schema["MessagesIn"]["properties"]["builders"]["default"] == "all"
    assert _mcp_schema("ingest_messages")["properties"]["builders"]["default"] == "all"
    langchain = pytest.importorskip("graphmem.integrations.langchain")
    history = langchain.GraphmemChatHistory(_memory(), "mine", "c", "s")
    assert history.builders == build_order(builder_names())


def test_an_unknown_builder_is_one_input_error_everywhere() -> None:
    said = _refusal(lambda: parse_builders("semantc"))
    assert said.message == "field 'builders': unknown builder 'semantc'"
    refused = _refusal(
        lambda: _memory().add_messages("mine", "c", "s", MESSAGES, builders=["semantc"])
    )
    assert (refused.message, refused.hint) == (said.message, said.hint)
    refused = _refusal(lambda: _memory().ingest(SAMPLE, "mine", builders="semantc"))
    assert refused.message == said.message  # before the file is read or the server asked
    body = {"space": "mine", "conversation": "c", "session": "s", "messages": MESSAGES}
    answer = _http().post("/v1/messages", json={**body, "builders": ["semantc"]}, headers=AUTH)
    assert answer.status_code == 400  # it was a 500: build_order's ConfigError
    assert answer.json() == {
        "error": "input",
        "exit_code": 3,
        "message": said.message,
        "hint": said.hint,
    }
    assert str(said) in _mcp_error("ingest_messages", {**body, "builders": ["semantc"]})
    for args in (
        ["ingest", SAMPLE, "--space", "mine", "--builders", "semantc"],
        ["add", "hi", "--space", "mine", "--speaker", "Ana", "--builders", "semantc"],
    ):
        shown = _cli(*args)
        assert (
            shown.exit_code == 2
            and "Invalid value for '--builders': unknown builder 'semantc'" in shown.output
        )
    langchain = pytest.importorskip("graphmem.integrations.langchain")
    llamaindex = pytest.importorskip("graphmem.integrations.llamaindex")
    for make in (
        lambda: langchain.GraphmemChatHistory(_memory(), "mine", "c", "s", builders="semantc"),
        lambda: llamaindex.GraphmemMemoryBlock(
            memory=_memory(), space="mine", conversation="c", session="s", builders=["semantc"]
        ),
    ):
        assert _refusal(make).message == said.message


def test_a_builders_string_and_list_are_accepted_over_http_and_mcp() -> None:
    """'all', 'none' and comma strings pass the schemas (then the write needs a server)."""
    body = {"space": "mine", "conversation": "c", "session": "s", "messages": MESSAGES}
    for builders in ("all", "none", "semantic,seem", ["all"], [], None):
        answer = _http().post("/v1/messages", json={**body, "builders": builders}, headers=AUTH)
        assert answer.json()["error"] == "server", (builders, answer.json())  # past the checks
