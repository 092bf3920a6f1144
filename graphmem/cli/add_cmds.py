"""``graphmem add``: one message into the current session of a conversation, for scripts.

The current session is the conversation's latest (highest index) while its last turn is
less than ``GRAPHMEM_SESSION_IDLE_MINUTES`` old (30 by default); after that idle gap, or in
a conversation with no session yet, the message opens a new session named by the local
time (``2026-11-26T17:05:00``). ``--session`` names the session instead. The session's
stored turns and the new one go to ``Memory.add_messages``, which rewrites the session in
one transaction (stored vectors are reused: only the new turn is embedded).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import click

from graphmem.cli.common import app, emit, handle_errors, json_option, preset_option
from graphmem.cli.memory_cmds import builders_option, space_option
from graphmem.cli.plain import plural
from graphmem.ingest.models import SessionIn
from graphmem.ingest.stored import stored_sessions
from graphmem.ingest.validate import STAMP_HINT, parse_timestamp
from graphmem.memory import Memory


@click.command("add")
@click.argument("text")
@space_option
@click.option("--speaker", required=True, help="Who said it.")
@click.option(
    "--conversation", default="main", show_default=True, help="Conversation id within the space."
)
@click.option("--session", default=None, help="Add to this session (default: the current one).")
@click.option(
    "--timestamp",
    default=None,
    callback=lambda _ctx, _param, value: _timestamp(value),
    metavar="ISO",
    help="When it was said (ISO-8601, e.g. 2024-03-14T09:30:00; an offset is dropped: local "
    "time). Default: now. It also decides the current session and names a new one.",
)
@builders_option
@preset_option
@json_option
@click.pass_context
@handle_errors
def add(
    ctx: click.Context,
    text: str,
    space: str,
    speaker: str,
    conversation: str,
    session: str | None,
    timestamp: datetime | None,
    builders: list[str],
    as_json: bool,
) -> None:
    """Add one message to the current session of a conversation (a new session after an
    idle gap)."""
    context = app(ctx)
    idle = timedelta(minutes=context.settings.session_idle_minutes)
    # Local: how people read their own dates.
    now = timestamp or datetime.now().replace(microsecond=0)
    with context.memory() as memory:
        stored = _stored(memory, space, conversation, session)
        current = _current(stored, session, now, idle)
        if current is None and session is None:  # a new session, unless the clock went back
            current = _stored(memory, space, conversation, now.isoformat())
        turns = current.turns if current is not None else []
        name = current.source_id if current is not None else session or now.isoformat()
        messages: list[dict[str, Any]] = [
            {"id": t.source_id, "speaker": t.speaker, "text": t.text, "timestamp": t.timestamp}
            | ({"caption": t.caption} if t.caption else {})
            for t in turns
        ]
        messages.append({"speaker": speaker, "text": text, "timestamp": now})
        started = current.started_at if current is not None else now
        done = memory.add_messages(
            space, conversation, name, messages, started_at=started, builders=builders
        )
    data = {
        "space": space,
        "conversation": conversation,
        "session": name,
        "new_session": current is None,
        "turn": f"{name}:{len(turns)}",
        "turns_in_session": len(messages),
        **done.as_dict(),
    }
    emit(data, as_json, _render)


def _timestamp(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is no timestamp; {STAMP_HINT}") from None


def _stored(memory: Memory, space: str, conversation: str, session: str | None) -> SessionIn | None:
    rows = memory.store.read(
        "core.current_session", space=space, conversation_id=conversation, source_id=session
    )
    if not rows:
        return None
    found = stored_sessions(memory.store, space, [rows[0]["id"]])
    return found[0] if found else None


def _current(
    stored: SessionIn | None, named: str | None, now: datetime, idle: timedelta
) -> SessionIn | None:
    """The session the message joins; None for a new one."""
    if stored is None:
        return None
    if named is not None:
        return stored  # named: joined whatever its age
    stamps = [t.timestamp for t in stored.turns if t.timestamp is not None]
    last = max(stamps, default=stored.started_at)
    return stored if last is not None and now - last < idle else None


def _render(data: dict[str, Any]) -> str:
    opened = "new session" if data["new_session"] else "session"
    return (
        f"added {data['turn']} to {opened} {data['session']!r} of {data['conversation']!r} "
        f"in {data['space']!r} ({plural(data['turns_in_session'], 'turn')}; "
        f"{data.get('wall_seconds', data['seconds'])} s)"
    )
