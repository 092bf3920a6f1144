"""graphmem as a Model Context Protocol server (``graphmem mcp``, stdio).

Read tools (``query``, ``ask``, ``stats``, ``spaces``) are always offered. The write tools
(``ingest_messages``, ``forget_space``) exist only when the server is started with
``--allow-writes``: an agent host that was not asked to let the model change memory never
sees them. ``--spaces a,b`` limits every tool to those spaces.

``query`` and ``ask`` answer with two contents: the text one, which most hosts hand the
model, is the rendered context (within the budget) or the answer; the structured one keeps
the items and citations for a program. A bad argument is one plain sentence, never the
validation library's report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar, cast

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphmem import __version__
from graphmem.errors import GraphmemError, UnknownSpaceError, shown
from graphmem.ingest.forget import REDACTED
from graphmem.mcp.stdio import AnsweringReader, claimed_stdio, screened_lines
from graphmem.retrieval.registry import DEFAULT_STRATEGY, strategy_names
from graphmem.serving import MemoryService
from graphmem.serving.limits import (
    BUDGET_HELP,
    BUILDERS_FIELD_HELP,
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    MAX_BUDGET,
    MAX_QUESTION_CHARS,
    MIN_BUDGET,
    QUESTION_HELP,
    SUBJECT_HELP,
    IsoDateOrMoment,
    IsoMoment,
    MessageMoment,
    StrictBudget,
    StrictFlag,
    StrictText,
)
from graphmem.serving.render import render_history, render_query

T = TypeVar("T")

INSTRUCTIONS = (
    "Long-term conversational memory on a Neo4j graph. Every tool takes a `space` (one user, "
    "agent or data set). `query` returns a cited, chronological context for a question within "
    "a token budget; `ask` answers with the server's LLM when one is configured (otherwise it "
    "returns the same context and answer=null). Citations are the turn ids of the stored "
    "conversation. A memory a later one replaced is marked with its interval ('until DATE'); "
    "`as_of` answers as things stood on a date; `history` lists a subject's changes."
)


class MessageIn(BaseModel):
    """One turn of a conversation."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, as over HTTP

    speaker: StrictText = Field(description="Who said it, e.g. the user's name or 'assistant'.")
    text: StrictText = Field(description="What was said.")
    timestamp: MessageMoment = Field(
        default=None,
        description="ISO-8601 time of the turn, or epoch seconds or milliseconds (default: "
        "the session's).",
    )
    id: StrictText | None = Field(
        default=None, description="Stable id of the turn, if the host has one."
    )
    caption: StrictText | None = Field(default=None, description="Caption of a shared image.")


def _result(text: str, data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def query_text(data: dict[str, Any], explain: bool) -> str:
    """What the model reads: the context as ``graphmem query`` prints it (with ``explain``,
    its header and every item's path too), within the budget without."""
    text = render_query(data, explain) if explain else data["context"]
    return str(text) or "(nothing in this space answers the question)"


def ask_text(data: dict[str, Any]) -> str:
    """The answer and its cited turns, or, with no answer, the context."""
    if data["answer"] is not None:
        return f"{data['answer']}\n\ncited turns: {', '.join(map(str, data['citations']))}"
    why = f"{data['llm']} gave no valid answer" if data["llm"] else "no LLM is configured"
    return f"No answer ({why}); the context from memory:\n\n{data['context']}"


def history_text(changes: list[dict[str, Any]], subject: str) -> str:
    """The changes as ``graphmem history`` prints them."""
    return render_history(changes, subject)


def plain_validation_message(tool: str, exc: ValidationError) -> str:
    """One sentence naming each bad argument, from pydantic's per-field messages (its own
    report spans lines, repeats the value and links to its website)."""
    parts = []
    for error in exc.errors(include_url=False):
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        if error["type"] == "missing":
            parts.append(f"{field} is required")
        else:
            message = error["msg"]
            parts.append(f"{field}: {message[:1].lower()}{message[1:]}")
    return f"Error executing tool {tool}: {'; '.join(parts)}."


class GraphmemMCPServer(MCPServer):
    """The SDK's server, with argument errors as one plain sentence, unknown arguments
    refused and every unreadable request answered (graphmem.mcp.stdio)."""

    async def run_stdio_async(self) -> None:
        # The SDK's own run, over lines screened for unusable ids and with the reader that
        # answers what its transport cannot read (graphmem/mcp/stdio.py).
        with claimed_stdio() as (stdin, stdout):
            lines = screened_lines(anyio.wrap_file(stdin))
            await self._serve(
                cast("anyio.AsyncFile[str]", cast(object, lines)), anyio.wrap_file(stdout)
            )

    async def _serve(self, stdin: anyio.AsyncFile[str], stdout: anyio.AsyncFile[str]) -> None:
        async with stdio_server(stdin, stdout) as (read_stream, write_stream):
            await self._lowlevel_server.run(
                AnsweringReader(read_stream, write_stream),
                write_stream,
                self._lowlevel_server.create_initialization_options(),
            )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        self._known_arguments(name, arguments)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            # ``from cause``: the SDK logs the rejected field names from it, not the values
            raise ToolError(plain_validation_message(name, cause)) from cause

    def _known_arguments(self, name: str, arguments: dict[str, Any]) -> None:
        """An argument the tool does not take is refused, as HTTP refuses an unknown field:
        the SDK would drop it, and a misspelt ``budget`` would quietly become the default."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return  # the SDK's own error names the unknown tool
        taken = tool.parameters.get("properties", {})
        unknown = [key for key in arguments if key not in taken]
        if unknown:
            names = ", ".join(shown(key) for key in unknown[:5])
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            raise ToolError(
                f"Error executing tool {name}: unknown argument {names}{more} (it takes "
                f"{', '.join(taken) or 'no argument'})."
            )


def _guarded(call: Callable[[], T], served: Sequence[str] = ()) -> T:
    """graphmem's own errors reach the client as a tool error with the message and hint;
    a space that does not exist is compared only with the ``served`` ones (when listed)."""
    try:
        return call()
    except UnknownSpaceError as exc:
        raise ToolError(str(exc.among(served) if served else exc)) from exc
    except GraphmemError as exc:
        raise ToolError(str(exc)) from exc


SpaceArg = Annotated[
    StrictText, Field(description="The memory space (tenant): a user, agent or data set.")
]
StrategyArg = Annotated[
    StrictText,
    # the names in the schema for hosts; checked by the tool, whose error is plainer
    Field(description="Retrieval strategy.", json_schema_extra={"enum": strategy_names()}),
]
ExplainArg = Annotated[
    StrictFlag,
    Field(description="Also give the strategy and retrieval path of each item (longer)."),
]
# The bounds are in the schema for hosts; the values are checked by graphmem.serving.limits, whose
# message is the same on every surface.
BudgetArg = Annotated[
    StrictBudget,
    Field(
        description=BUDGET_HELP,
        json_schema_extra={"minimum": MIN_BUDGET, "maximum": MAX_BUDGET},
    ),
]
QuestionArg = Annotated[
    StrictText,
    Field(
        description=QUESTION_HELP,
        json_schema_extra={"minLength": 1, "maxLength": MAX_QUESTION_CHARS},
    ),
]
AsOfArg = Annotated[
    IsoDateOrMoment,
    Field(
        description="Answer as of this date (YYYY-MM-DD: the end of that day): only what was "
        "said by then, superseded memories as they stood then. Default: now."
    ),
]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(tools: MemoryService) -> MCPServer:
    """The MCP server over the service ``graphmem serve`` uses too (graphmem/serving): read
    tools always, write tools with ``allow_writes``."""
    server = GraphmemMCPServer("graphmem", version=__version__, instructions=INSTRUCTIONS)
    _add_retrieval_tools(server, tools)
    _add_inventory_tools(server, tools)
    if tools.allow_writes:
        _add_write_tools(server, tools)
    return server


def _add_retrieval_tools(server: MCPServer, tools: MemoryService) -> None:
    def query(
        question: QuestionArg,
        space: SpaceArg,
        strategy: StrategyArg = DEFAULT_STRATEGY,
        budget: BudgetArg = DEFAULT_BUDGET,
        explain: ExplainArg = False,
        as_of: AsOfArg = None,
    ) -> CallToolResult:
        data = _guarded(
            lambda: tools.query(question, space, strategy, budget, explain, as_of),
            tools.spaces,
        )
        return _result(query_text(data, explain), data)

    server.add_tool(
        query,
        annotations=READ_ONLY,
        description="Retrieve a cited, chronological context from memory for a question, "
        f"within a token budget. Strategies: {', '.join(strategy_names())}. The text is the "
        "context; the structured result adds the cited turn ids and each item (with "
        "explain: the strategy and path that found it).",
    )

    def ask(
        question: QuestionArg,
        space: SpaceArg,
        strategy: StrategyArg = DEFAULT_STRATEGY,
        budget: BudgetArg = DEFAULT_BUDGET,
        as_of: AsOfArg = None,
    ) -> CallToolResult:
        data = _guarded(lambda: tools.ask(question, space, strategy, budget, as_of), tools.spaces)
        return _result(ask_text(data), data)

    server.add_tool(
        ask,
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=True),
        description="Answer a question from memory with the server's LLM, citing turns. "
        "Without an LLM configured, answer is null and the context is returned instead.",
    )


def _add_inventory_tools(server: MCPServer, tools: MemoryService) -> None:
    def stats(space: SpaceArg) -> dict[str, Any]:
        return _guarded(lambda: tools.stats(space), tools.spaces)

    server.add_tool(
        stats, annotations=READ_ONLY, description="Counts of every kind of memory in a space."
    )

    def spaces() -> dict[str, Any]:
        return {"spaces": _guarded(tools.list_spaces)}

    def history(
        space: SpaceArg,
        subject: Annotated[StrictText, Field(description=SUBJECT_HELP)],
    ) -> CallToolResult:
        changes = _guarded(lambda: tools.history(space, subject), tools.spaces)
        return _result(history_text(changes, subject), {"changes": changes})

    server.add_tool(
        history,
        annotations=READ_ONLY,
        description="A subject's changes over time: each statement a later one superseded, "
        "when it held, what replaced it, and the turns both cite.",
    )

    server.add_tool(
        spaces,
        annotations=READ_ONLY,
        description="The spaces this server can see, with conversations, sessions and turns.",
    )


def _add_write_tools(server: MCPServer, tools: MemoryService) -> None:
    def ingest_messages(
        space: SpaceArg,
        conversation: Annotated[StrictText, Field(description="Conversation id, e.g. a chat id.")],
        session: Annotated[StrictText, Field(description="Session id within the conversation.")],
        messages: list[MessageIn],
        started_at: Annotated[
            IsoMoment, Field(description="ISO-8601 start of the session.")
        ] = None,
        builders: Annotated[
            list[StrictText] | StrictText | None,
            Field(description=BUILDERS_FIELD_HELP),
        ] = DEFAULT_BUILDERS,
    ) -> dict[str, Any]:
        rows = [m.model_dump(exclude_none=True) for m in messages]  # as HTTP hands them
        return _guarded(
            lambda: tools.add_messages(space, conversation, session, rows, started_at, builders),
            tools.spaces,
        )

    server.add_tool(
        ingest_messages,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False),
        description="Store the turns of one session (all of it so far: calling again with "
        "more turns of the same session rewrites it) and build memory from them.",
    )

    def forget_space(space: SpaceArg) -> dict[str, Any]:
        return _guarded(lambda: tools.forget(space), tools.spaces)

    server.add_tool(
        forget_space,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
        description="Delete every memory of a space. Cannot be undone.",
    )

    def forget_part(
        space: SpaceArg,
        turns: list[str] | None = None,
        session: str | None = None,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return _guarded(
            lambda: tools.forget(space, turns or (), session, conversation, dry_run), tools.spaces
        )

    def redact_turns(
        space: SpaceArg,
        turns: list[str],
        text: str = REDACTED,
        conversation: str | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return _guarded(
            lambda: tools.redact(space, turns, text, conversation, dry_run), tools.spaces
        )

    server.add_tool(
        redact_turns,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
        description="Replace what some turns (their ids) say, keeping their ids, speakers and "
        "times: what they fed is built again from the new text. Cannot be undone; dry_run "
        "only counts.",
    )

    server.add_tool(
        forget_part,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
        description="Forget some turns (their ids), a session or a conversation of a space as "
        "if it had never been stored: what they fed is built again without them. Cannot be "
        "undone; dry_run only counts what would go.",
    )
