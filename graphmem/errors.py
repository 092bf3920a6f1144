"""One error hierarchy. The CLI maps each class to a clean message and an exit code."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

# What an error message repeats of a refused value: a short prefix, never a whole
# 1,000,000-character field.
MAX_SHOWN_CHARS = 60


def shown(value: object) -> str:
    """``value`` for an error message: its repr, cut to MAX_SHOWN_CHARS characters."""
    if isinstance(value, str) and len(value) > MAX_SHOWN_CHARS:
        return f"{value[:MAX_SHOWN_CHARS]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else f"{text[:MAX_SHOWN_CHARS]}..."


class GraphmemError(Exception):
    """Root of every error graphmem raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class ConfigError(GraphmemError):
    """Settings are missing, contradictory or point at something that does not exist."""

    exit_code = 2


class UnknownSpaceError(ConfigError):
    """A command that reads or deletes a space named one that does not exist (a misspelt
    name would otherwise read as an empty space). ``space`` is the name asked for,
    ``known`` the names that exist (the message suggests the closest)."""

    def __init__(self, space: str, known: Sequence[str]) -> None:
        self.space = space
        self.known = list(known)
        close = difflib.get_close_matches(space, self.known, n=1, cutoff=0.6)
        said = f"no space {space!r}" + (f"; did you mean {close[0]!r}?" if close else "")
        hint = None if close else _space_hint(space, self.known)
        super().__init__(said, hint=hint)

    def among(self, served: Sequence[str]) -> UnknownSpaceError:
        """The same error comparing the name only with ``served`` (a server confined to
        some spaces names no other)."""
        return UnknownSpaceError(self.space, [s for s in self.known if s in served])


class UnknownIdError(ConfigError):
    """A forget or a redaction named turn, session or conversation ids the space does not
    hold, or ids that name more than one (nothing is written)."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)


def _space_hint(space: str, known: Sequence[str]) -> str:
    if not known:  # nothing to mistake it for: a space to make, most likely
        return f"ingest into it first: graphmem ingest FILE --space {space}"
    return "graphmem spaces lists the spaces"


class InputError(GraphmemError):
    """Bad user data: names the file, record and field that is wrong."""

    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        record: str | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = ", ".join(
            part
            for part in (
                f"file {path}" if path else "",
                f"record {record}" if record else "",
                f"field {field!r}" if field else "",
            )
            if part
        )
        super().__init__(f"{where}: {message}" if where else message, hint=hint)
        self.path = path
        self.record = record
        self.field = field


class ServerError(GraphmemError):
    """The local Neo4j could not be fetched, started, stopped or reached."""

    exit_code = 4


class ServerLostError(ServerError):
    """The server went away, or stayed busy, in the middle of a command. Nothing is half
    written, so running it again is safe; ``rerun`` says what a rerun does (the CLI puts
    its command's own words there: a query only reads, an ingest resumes)."""

    def __init__(self, message: str, *, check: str | None = None, rerun: str) -> None:
        super().__init__(message, hint="; ".join(p for p in (check, rerun) if p))
        self.check = check
        self.rerun = rerun

    def rerun_as(self, rerun: str) -> ServerLostError:
        """The same error with another account of what a rerun does."""
        return ServerLostError(self.message, check=self.check, rerun=rerun)


class SchemaError(GraphmemError):
    """The stored schema disagrees with the configuration (e.g. another embedder)."""

    exit_code = 5


class CatalogError(GraphmemError):
    """A Cypher statement is missing from the catalog or its file is malformed."""

    exit_code = 6


class LLMError(GraphmemError):
    """The LLM backend cannot be used: unreachable, refused the credentials or the model."""

    exit_code = 7


class LLMItemError(LLMError):
    """One request could not be answered usefully (output invalid after repair, request
    rejected as invalid, too slow): the caller degrades that item to its offline path."""


class ModelLoadError(GraphmemError):
    """A local model (embedder, spaCy pipeline) is not installed or cannot be loaded offline."""

    exit_code = 8


class FetchError(GraphmemError):
    """A file fetched for graphmem (a benchmark's data) could not be downloaded, or it is
    not the pinned one."""

    exit_code = 10


class EvaluationIncomplete(GraphmemError):
    """An evaluation finished, but some conversations failed: their scores are missing from
    ``results`` (the others' scores; each failure is named in their ``meta.failed``)."""

    exit_code = 9

    def __init__(self, message: str, *, results: list[dict[str, Any]], hint: str | None = None):
        super().__init__(message, hint=hint)
        self.results = results


class RefusedError(GraphmemError):
    """A request ``graphmem serve`` or ``graphmem mcp`` turns down before any work: the
    servers' own limits, which no CLI command has (``kind`` and ``status`` are the HTTP
    API's, docs/http.md; the JSON's exit code is 0, as for every HTTP-only error)."""

    exit_code = 2
    kind = "refused"
    status = 400

    def __init__(self, message: str, *, hint: str | None = None, retry_after: int = 0) -> None:
        super().__init__(message, hint=hint)
        self.retry_after = retry_after


class ForbiddenError(RefusedError):
    """A space outside ``--spaces``, or a write without ``--allow-writes``."""

    kind = "forbidden"
    status = 403


class TooManyMessagesError(RefusedError):
    """A write with more messages than ``api_max_write_messages``."""

    kind = "too_large"
    status = 413


class BusyError(RefusedError):
    """More requests wait for their turn than ``api_max_waiting``; retrying later is safe."""

    kind = "busy"
    status = 503
