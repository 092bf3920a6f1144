"""The FastAPI application of ``graphmem serve`` (docs/http.md).

Routes mirror the MCP tools: ``GET /health``, ``GET /v1/spaces``, ``GET /v1/stats``,
``POST /v1/query``, ``POST /v1/ask``, ``POST /v1/messages`` and ``POST /v1/forget`` (the
last two only with ``--allow-writes``: 403 otherwise). Handlers are plain functions, run
on the server's thread pool, because ``Memory`` is synchronous.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query
from pydantic import BaseModel, ConfigDict, Field

from graphmem import __version__
from graphmem.http.errors import HANDLERS, KINDS
from graphmem.http.guard import Guard, RateLimiter
from graphmem.ingest.forget import REDACTED
from graphmem.ingest.validate import MAX_SPACE_CHARS
from graphmem.serving import MemoryService
from graphmem.serving.limits import (
    BUDGET_HELP,
    BUILDERS_FIELD_HELP,
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    DEFAULT_STRATEGY,
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
    strategy_names,
)

Space = Annotated[
    StrictText,
    Field(
        description="The memory space (tenant): a user, agent or data set.",
        json_schema_extra={"minLength": 1, "maxLength": MAX_SPACE_CHARS},
    ),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not ignored


class QueryIn(Strict):
    # The bounds are in the schema; the values are checked by graphmem.serving.limits, as on every
    # other surface (the same words in the 400 as in the Python API's InputError).
    question: StrictText = Field(
        description=QUESTION_HELP,
        json_schema_extra={"minLength": 1, "maxLength": MAX_QUESTION_CHARS},
    )
    space: Space
    strategy: StrictText = Field(
        default=DEFAULT_STRATEGY,
        description="Retrieval strategy.",
        json_schema_extra={"enum": [*strategy_names()]},
    )
    budget: StrictBudget = Field(
        default=DEFAULT_BUDGET,
        description=BUDGET_HELP,
        json_schema_extra={"minimum": MIN_BUDGET, "maximum": MAX_BUDGET},
    )
    as_of: IsoDateOrMoment = Field(
        default=None,
        description="Answer as of this date or moment (a date: the end of that day): only "
        "what was said by then, superseded memories as they stood then.",
    )


class QueryOptions(QueryIn):
    explain: StrictFlag = Field(
        default=False, description="Each item's strategy and retrieval path."
    )


class MessageIn(Strict):
    speaker: StrictText = Field(description="Who said it, e.g. the user's name or 'assistant'.")
    text: StrictText = Field(description="What was said.")
    timestamp: MessageMoment = Field(
        default=None, description="ISO-8601 time of the turn, or epoch seconds or milliseconds."
    )
    id: StrictText | None = Field(default=None, description="Stable id of the turn.")
    caption: StrictText | None = Field(default=None, description="Caption of a shared image.")


class MessagesIn(Strict):
    space: Space
    conversation: StrictText = Field(description="Conversation id, e.g. a chat id.")
    session: StrictText = Field(description="Session id within the conversation.")
    messages: list[MessageIn] = Field(
        description="The session's turns so far: sending more turns of a stored session "
        "rewrites it."
    )
    started_at: IsoMoment = Field(default=None, description="ISO-8601 session start.")
    builders: list[StrictText] | StrictText | None = Field(
        default=DEFAULT_BUILDERS,
        description=BUILDERS_FIELD_HELP,
    )


class SpaceIn(Strict):
    space: Space


class ForgetIn(Strict):
    space: Space
    turns: list[StrictText] = Field(
        default=[], description="Turns to forget, by their ids as the input gave them."
    )
    session: StrictText | None = Field(
        default=None, description="A session to forget, by its id in the input."
    )
    conversation: StrictText | None = Field(
        default=None,
        description="A conversation to forget whole; with turns or a session, the one they "
        "are in. With none of the three, the whole space is forgotten.",
    )
    dry_run: bool = Field(
        default=False, description="Count what would go, per label; change nothing."
    )


class RedactIn(Strict):
    space: Space
    turns: list[StrictText] = Field(description="Turns to redact, by their ids in the input.")
    text: StrictText = Field(default=REDACTED, description="What the turns say instead.")
    conversation: StrictText | None = Field(
        default=None, description="The conversation of the turns, when ids repeat."
    )
    dry_run: bool = Field(default=False, description="Count what would change; change nothing.")


class ErrorOut(BaseModel):
    error: str = Field(description=", ".join(KINDS))
    exit_code: int = Field(description="What the CLI exits with for this error; 0: HTTP only.")
    message: str
    hint: str | None = None


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in (
        (
            400,
            "Bad input (InputError, exit code 3), including a malformed request; bad_host: "
            "a Host header that does not name this server.",
        ),
        (401, "Missing or wrong bearer token."),
        (403, "A space outside --spaces, or a write without --allow-writes."),
        (
            413,
            "The request body is larger than GRAPHMEM_API_MAX_BODY_BYTES, or a write "
            "holds more messages than GRAPHMEM_API_MAX_WRITE_MESSAGES.",
        ),
        (429, "Over the client's rate; Retry-After says when to come back."),
        (500, "The server's configuration, schema, catalog or models (exit codes 1, 2, 5, 6, 8)."),
        (502, "The LLM backend failed (exit code 7)."),
        (
            503,
            "Neo4j is unreachable or went away (exit code 4), or busy: more requests "
            "wait than GRAPHMEM_API_MAX_WAITING (Retry-After); retrying is safe.",
        ),
    )
}


def build_app(
    service: MemoryService, *, token: str, rate: float, burst: int, max_body: int
) -> Guard:
    """The application behind its guard (token, rate, body size)."""
    api = FastAPI(
        title="graphmem",
        version=__version__,
        summary="Graph-native episodic memory for conversational agents.",
        docs_url=None,  # the interactive pages load scripts from elsewhere; the document stays
        redoc_url=None,
        redirect_slashes=False,  # "/health/" would redirect to the Host header's name: a 404
        exception_handlers=HANDLERS,
        responses=_ERRORS,
    )
    _routes(api, service)
    return Guard(api, token=token, limiter=RateLimiter(rate, burst), max_body=max_body)


def _routes(api: FastAPI, service: MemoryService) -> None:
    @api.get("/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness, without the token: the process answers (on its event loop, never
        behind requests waiting for a thread)."""
        return {"status": "ok", "version": __version__, "writes": service.allow_writes}

    @api.get("/v1/spaces", tags=["read"])
    def spaces() -> dict[str, Any]:
        """The spaces this server serves, with conversations, sessions and turns."""
        return {"spaces": service.list_spaces()}

    @api.get("/v1/stats", tags=["read"])
    def stats(space: Annotated[str, Query(description="The space.")]) -> dict[str, Any]:
        """Counts of every kind of memory in a space."""
        return service.stats(space)

    @api.get("/v1/history", tags=["read"])
    def history(
        space: Annotated[str, Query(description="The space.")],
        subject: Annotated[str, Query(description=SUBJECT_HELP)],
    ) -> dict[str, Any]:
        """A subject's changes: each superseded statement, what replaced it, citations."""
        return {"changes": service.history(space, subject)}

    @api.post("/v1/query", tags=["read"])
    def query(body: QueryOptions) -> dict[str, Any]:
        """A cited, chronological context for a question within a token budget."""
        return service.query(
            body.question, body.space, body.strategy, body.budget, body.explain, body.as_of
        )

    @api.post("/v1/ask", tags=["read"])
    def ask(body: QueryIn) -> dict[str, Any]:
        """An answer from the server's LLM (null without one) and the context it read."""
        return service.ask(body.question, body.space, body.strategy, body.budget, body.as_of)

    @api.post("/v1/messages", tags=["write"])
    def messages(body: MessagesIn) -> dict[str, Any]:
        """Store the turns of one session and build memory from them (--allow-writes)."""
        rows = [m.model_dump(exclude_none=True) for m in body.messages]
        return service.add_messages(
            body.space, body.conversation, body.session, rows, body.started_at, body.builders
        )

    @api.post("/v1/redact", tags=["write"])
    def redact(body: RedactIn) -> dict[str, Any]:
        """Replace what some turns say, keeping their ids, speakers and times; what they
        fed is built again (--allow-writes). Cannot be undone; ``dry_run`` only counts."""
        return service.redact(body.space, body.turns, body.text, body.conversation, body.dry_run)

    @api.post("/v1/forget", tags=["write"])
    def forget(body: ForgetIn) -> dict[str, Any]:
        """Forget a whole space, or some turns, a session or a conversation of it, as if
        never ingested (--allow-writes). Cannot be undone; ``dry_run`` only counts."""
        return service.forget(body.space, body.turns, body.session, body.conversation, body.dry_run)
