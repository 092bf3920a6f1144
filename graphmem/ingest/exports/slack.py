"""Slack workspace exports: the folder Slack's export writes, or its zip as downloaded.

The export holds ``users.json`` and ``channels.json`` (with private data ``groups.json``,
``dms.json`` and ``mpims.json``) at its root or one folder down, and one folder per
conversation (a channel's or group DM's name, a DM's id) of ``YYYY-MM-DD.json`` day files,
each a JSON list of messages, read one message at a time.

Kept: members' messages, thread replies, thread broadcasts, ``/me`` messages, file
comments, and messages that share files with words (the files named in the caption,
"shared: report.pdf, photo.jpg"). Left out and counted: "join and leave messages"
(channel_join, channel_leave and their private-channel forms), "channel events" (topic,
purpose, name, pins, integrations added, archive; any subtype not kept above),
"bot messages" (bot_message, and messages of users.json's bots or of a bot id with no
user), "deleted messages" (tombstone, message_deleted), "edit events" (message_changed:
the message itself already holds its edited text), "hidden messages", and
"media-only messages" (files or attachments with no words).

Decisions:

- One conversation per channel, its id the channel's name, titled ``#name``. A DM is
  named by the other member's name and a group DM by its members' names joined with
  ", ". The other member is known when one person is in every DM and group DM of the
  export (its owner); otherwise a DM, too, is named by both members' names. A
  conversation whose id another already has gets `` (<channel id>)`` appended. A folder
  no list names still imports, named by the folder.
- Conversations in list order: channels, private channels, DMs, group DMs, then unlisted
  folders by name. Each conversation's messages from all its day files, sorted by ``ts``
  (a stable sort, exact: ``ts`` compared as a decimal, not as a local time, which a
  daylight-saving change folds back). Thread replies stay where their time puts them in
  the channel, unmarked: the export repeats no parent text to mark them with, and a
  reply usually follows its parent within minutes.
- Speakers: users.json's real name, then display name, then handle, then the message's
  own ``user_profile`` or ``username``, then the user id. Real names first because a
  workspace's display names are often handles ("jd") while a question names the person.
- Text: Slack's markup made readable: ``<@U123>`` -> "@Ana Lima", ``<#C123|general>`` ->
  "#general", ``<!here>`` -> "@here", ``<https://x.y|label>`` -> "label (https://x.y)"
  (the bare URL when the label is the URL, or the label when it is the URL as typed
  without its scheme), ``&amp; &lt; &gt;`` unescaped. Emoji codes stay as written.
- Times: ``ts`` is an instant, shown in the user's zone (``--timezone``), to the second
  (its fraction orders messages within a second; it is no time of day).
- Old exports' file shares (a single ``file``, generated text "uploaded a file") keep
  only the uploader's initial comment; file comments keep the comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import PurePosixPath
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.base import Context, Importer, Message, json_items
from graphmem.ingest.exports.bundle import Bundle

_USERS = "users.json"
# Each list of conversations, in the order they are imported, and how its folder is named.
_LISTS = (
    ("channels.json", "channel"),
    ("groups.json", "channel"),
    ("dms.json", "dm"),
    ("mpims.json", "mpim"),
)
_MARKERS = ("channels.json", "dms.json")  # one of them sits next to users.json
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}\.json")
_KEPT = frozenset(
    {"thread_broadcast", "reply_broadcast", "me_message", "file_share", "file_comment"}
)
_JOINS = frozenset({"channel_join", "channel_leave", "group_join", "group_leave"})
_DELETED = frozenset({"tombstone", "message_deleted"})
_BOT, _EDIT = "bot_message", "message_changed"
_SPECIAL = frozenset({"here", "channel", "everyone"})
_TOKEN = re.compile(r"<([^<>]*)>")
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))  # &amp; last: "&amp;lt;" is "&lt;"
_NAME_KEYS = ("real_name", "display_name")
_ACCEPTED = "a Slack export: users.json, channels.json and a folder of day files per channel"


@dataclass
class _Workspace:
    """What the lists say: people by id, bots, channel names by id."""

    root: str
    names: dict[str, str] = field(default_factory=dict)
    bots: set[str] = field(default_factory=set)
    channels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Conversation:
    folder: str
    cid: str
    title: str


def _root(bundle: Bundle) -> str | None:
    """The folder (``""`` or ``"name/"``) holding users.json and channels.json or dms.json."""
    members = set(bundle.members)
    for member in bundle.named(_USERS):
        folder = str(PurePosixPath(member).parent)
        prefix = "" if folder == "." else folder + "/"
        if prefix.count("/") > 1 or not any(prefix + m in members for m in _MARKERS):
            continue
        head = bundle.head(member)
        if head.startswith(b"[") and (b'"id"' in head or head.rstrip() == b"[]"):
            return prefix
    return None


def _claims(bundle: Bundle) -> bool:
    return not bundle.single and _root(bundle) is not None


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    root = _root(bundle)
    if root is None:
        raise InputError(f"not a Slack export: expected {_ACCEPTED}", path=bundle.name)
    space = _Workspace(root)
    _load_users(bundle, space)
    days = _days(bundle, root)
    for conv in _conversations(bundle, space, days):
        yield from _messages(bundle, ctx, space, conv, days[conv.folder])


def _load_users(bundle: Bundle, space: _Workspace) -> None:
    member = space.root + _USERS
    with bundle.open(member) as source:
        for index, user in enumerate(json_items(source, "item"), 1):
            uid = _field(user, "id", bundle.where(member), f"user {index}")
            profile = user.get("profile") if isinstance(user.get("profile"), dict) else {}
            space.names[uid] = _name_of(profile, user) or _text(user.get("name")) or uid
            if user.get("is_bot") is True:
                space.bots.add(uid)


def _name_of(*holders: dict[str, Any]) -> str | None:
    for key in _NAME_KEYS:
        for holder in holders:
            if name := _text(holder.get(key)):
                return name
    return None


def _text(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _field(item: object, key: str, where: str, record: str) -> str:
    """A required, non-empty string of a JSON object; InputError naming it otherwise."""
    if not isinstance(item, dict):
        raise InputError("not a JSON object", path=where, record=record)
    value = item.get(key)
    if not isinstance(value, str) or not value:
        raise InputError(
            f"missing or not a string: expected {_ACCEPTED}", path=where, record=record, field=key
        )
    return value


def _days(bundle: Bundle, root: str) -> dict[str, list[str]]:
    """Each conversation folder's day files, in date order."""
    days: dict[str, list[str]] = {}
    for member in bundle.members:
        parts = member[len(root) :].split("/") if member.startswith(root) else []
        if len(parts) == 2 and _DAY.fullmatch(parts[1]):
            days.setdefault(parts[0], []).append(member)
    return days


def _conversations(
    bundle: Bundle, space: _Workspace, days: dict[str, list[str]]
) -> list[_Conversation]:
    listed: list[tuple[str, str, str, list[str]]] = []  # kind, id, folder, member ids
    for name, kind in _LISTS:
        member = space.root + name
        if member not in bundle.members:
            continue
        with bundle.open(member) as source:
            for index, item in enumerate(json_items(source, "item"), 1):
                where, record = bundle.where(member), f"{kind} {index}"
                ident = _field(item, "id", where, record)
                folder = ident if kind == "dm" else _field(item, "name", where, record)
                space.channels[ident] = folder
                listed.append((kind, ident, folder, _ids(item.get("members"))))
    owner = _owner([m for kind, _, _, m in listed if kind in ("dm", "mpim")])
    found: list[_Conversation] = []
    used: set[str] = set()
    for kind, ident, folder, members in listed:
        if folder in days:
            cid, title = _named(kind, folder, members, owner, space)
            found.append(_Conversation(folder, _unique(cid, ident, used), title))
    seen = {c.folder for c in found}
    for folder in sorted(set(days) - seen):
        found.append(_Conversation(folder, _unique(folder, folder, used), f"#{folder}"))
    return found


def _ids(value: object) -> list[str]:
    return [m for m in value if isinstance(m, str)] if isinstance(value, list) else []


def _owner(groups: list[list[str]]) -> str | None:
    """The one member of every DM and group DM: whose export it is (None: not known)."""
    if len(groups) < 2:
        return None
    common = set.intersection(*(set(g) for g in groups))
    return next(iter(common)) if len(common) == 1 else None


def _named(
    kind: str, folder: str, members: list[str], owner: str | None, space: _Workspace
) -> tuple[str, str]:
    if kind == "channel":
        return folder, f"#{folder}"
    names = [space.names.get(m, m) for m in members]
    if kind == "dm" and owner in members and len(members) > 1:
        cid = ", ".join(space.names.get(m, m) for m in members if m != owner)
        return cid, f"DM with {cid}"
    cid = ", ".join(names) or folder
    return cid, f"{'DM' if kind == 'dm' else 'Group DM'}: {cid}"


def _unique(cid: str, ident: str, used: set[str]) -> str:
    chosen = cid if cid not in used else f"{cid} ({ident})"
    used.add(chosen)
    return chosen


def _messages(
    bundle: Bundle, ctx: Context, space: _Workspace, conv: _Conversation, days: list[str]
) -> Iterator[Message]:
    found: list[tuple[Decimal, Message]] = []
    for member in days:
        where, name = bundle.where(member), member[len(space.root) :]
        with bundle.open(member) as source:
            for index, item in enumerate(json_items(source, "item"), 1):
                kept = _message(item, ctx, space, conv, where, f"{name} message {index}")
                if kept is not None:
                    found.append(kept)
    found.sort(key=lambda pair: pair[0])
    for _, message in found:
        yield message


def _left(item: dict[str, Any], space: _Workspace) -> str | None:
    """What kind of left-out message ``item`` is; None when it is kept."""
    sub = item.get("subtype")
    if sub in _JOINS:
        return "join and leave messages"
    if sub in _DELETED:
        return "deleted messages"
    if sub == _EDIT:
        return "edit events"
    if sub == _BOT:
        return "bot messages"
    if (sub is not None and sub not in _KEPT) or item.get("type", "message") != "message":
        return "channel events"
    if item.get("user") in space.bots or (item.get("bot_id") and not item.get("user")):
        return "bot messages"
    if item.get("hidden") is True:
        return "hidden messages"
    return None


def _message(
    item: object, ctx: Context, space: _Workspace, conv: _Conversation, where: str, record: str
) -> tuple[Decimal, Message] | None:
    if not isinstance(item, dict):
        raise InputError(
            f"a message is not a JSON object: expected {_ACCEPTED}", path=where, record=record
        )
    kind = _left(item, space)
    if kind is not None:
        ctx.leave(kind)
        return None
    ts = item.get("ts")
    # The fraction of a ts is Slack's counter within the second, not a time of day.
    when = ctx.stamp(ts, where, record, "ts").replace(microsecond=0)
    try:  # the order is the exact ts: local times fold back at a daylight-saving change
        order = Decimal(str(ts))
    except InvalidOperation:
        raise InputError(
            f'not a Slack time: {ts!r} (epoch seconds such as "1709370902.000200")',
            path=where,
            record=record,
            field="ts",
        ) from None
    words = _render(_words(item, where, record), space)
    caption = _caption(item)
    if not words.strip() and (caption or item.get("attachments")):
        ctx.leave("media-only messages")
        return None
    message = Message(
        conversation=conv.cid,
        speaker=_speaker(item, space, where, record),
        text=words,
        timestamp=when,
        record=record,
        title=conv.title,
        note=caption,
    )
    return order, message


def _files(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The files a message shares: ``files`` now, a single ``file`` in old exports."""
    files = item.get("files")
    if not isinstance(files, list):
        files = (
            [item["file"]]
            if isinstance(item.get("file"), dict) and item.get("subtype") == "file_share"
            else []
        )
    return [f for f in files if isinstance(f, dict)]


def _words(item: dict[str, Any], where: str, record: str) -> str:
    sub = item.get("subtype")
    comment = item.get("comment")
    if (
        sub == "file_comment"
        and isinstance(comment, dict)
        and isinstance(comment.get("comment"), str)
    ):
        return str(comment["comment"])
    if sub == "file_share" and "files" not in item and isinstance(item.get("file"), dict):
        # The old export's text is generated ("uploaded a file"); the words are the comment.
        initial = item["file"].get("initial_comment")
        said = initial.get("comment") if isinstance(initial, dict) else None
        return said if isinstance(said, str) else ""
    text = item.get("text", "")
    if not isinstance(text, str):
        raise InputError(
            f"not a string: expected {_ACCEPTED}", path=where, record=record, field="text"
        )
    return text


def _caption(item: dict[str, Any]) -> str | None:
    files = _files(item)
    if not files:
        return None
    names = [_text(f.get("name")) or _text(f.get("title")) for f in files]
    shown = [n for n in names if n]
    return "shared: " + ", ".join(shown) if shown else "shared: a file"


def _speaker(item: dict[str, Any], space: _Workspace, where: str, record: str) -> str:
    uid = item.get("user")
    for holder in ("comment", "file"):  # old file comments and shares name the user there
        inner = item.get(holder)
        if not isinstance(uid, str) and isinstance(inner, dict):
            uid = inner.get("user")
    if isinstance(uid, str) and uid in space.names:
        return space.names[uid]
    profile = item.get("user_profile")
    named = _name_of(profile) if isinstance(profile, dict) else None
    found = named or _text(item.get("username")) or (uid if isinstance(uid, str) else None)
    if not found:
        raise InputError(
            f"a message with no user: expected {_ACCEPTED}", path=where, record=record, field="user"
        )
    return found


def _unescape(text: str) -> str:
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    return text


def _render(text: str, space: _Workspace) -> str:
    """Slack's markup as a reader sees it; entities unescaped outside and inside links."""
    out: list[str] = []
    last = 0
    for match in _TOKEN.finditer(text):
        out.append(_unescape(text[last : match.start()]))
        out.append(_token(match.group(1), space))
        last = match.end()
    out.append(_unescape(text[last:]))
    return "".join(out)


def _token(inner: str, space: _Workspace) -> str:
    target, _, raw_label = inner.partition("|")
    label = _unescape(raw_label)
    if target.startswith("@"):
        return "@" + space.names.get(target[1:], label.lstrip("@") or target[1:])
    if target.startswith("#"):
        return "#" + (label or space.channels.get(target[1:], target[1:]))
    if target.startswith("!"):
        special = target[1:].split("^")[0]
        return f"@{special}" if special in _SPECIAL else label or f"@{special}"
    url = _unescape(target)
    bare = url.split(":", 1)[1].lstrip("/") if ":" in url else url
    if not label or label == url:
        return url
    return label if label == bare else f"{label} ({url})"


IMPORTER = Importer("slack", "Slack export", _claims, _read)
