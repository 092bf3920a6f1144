"""Placeholder: the chatgpt importer is being written."""

from __future__ import annotations

from collections.abc import Iterator

from graphmem.ingest.exports.base import Context, Importer, Message
from graphmem.ingest.exports.bundle import Bundle


def _claims(bundle: Bundle) -> bool:
    return False


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    raise NotImplementedError
    yield


IMPORTER = Importer("chatgpt", "chatgpt", _claims, _read)
