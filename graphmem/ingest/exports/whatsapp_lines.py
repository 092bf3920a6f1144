"""The shapes of a WhatsApp chat export's lines, and the phrases the app writes in them.

Kept apart from the reader (``whatsapp.py``) so that a locale's words can be added here
without touching how a file is read. Only English phrases are recognised for system lines
and media placeholders (the words WhatsApp writes depend on the phone's language); a
placeholder of another language stays in the text as written.
"""

from __future__ import annotations

import re

# Blanks the apps write: U+00A0 and U+202F (narrow no-break space) before AM/PM.
_BLANK = r"[ \u00a0\u202f]"
# Bidirectional formatting characters the apps add around names, numbers and placeholders:
# LRM/RLM (iOS puts LRM before system lines and attachments), embeddings (U+202A..U+202E,
# around phone numbers) and isolates (U+2066..U+2069, around @mentions). Invisible.
FORMATTING = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
LRM = "\u200e"

# The stamp that starts a message: Android ``12/31/20, 9:15 PM - ``, ``31.12.20, 21:15 - ``;
# iOS ``[31/12/2020, 21:15:02] ``, ``[12/31/20 21:15]``. Dates in any order with ``/``,
# ``.`` or ``-``; times with or without seconds, 24 h or with a marker (``PM``, ``pm``,
# ``p.m.``, ``p. m.``). The bracket decides the separator: ``] `` after one, `` - `` else.
HEADER = re.compile(
    r"(?P<open>\[)?"
    r"(?P<a>\d{1,4})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<c>\d{1,4})"
    rf",?{_BLANK}+"
    r"(?P<h>\d{1,2})[:.](?P<m>\d{2})(?:[:.](?P<s>\d{2}))?"
    rf"(?:{_BLANK}?(?P<mark>[AaPp]\.?{_BLANK}?[Mm]\.?))?"
    rf"(?(open)\]{_BLANK}|{_BLANK}[-\u2013]{_BLANK})"
)
# "Name: text" (the text may start on the next line, or be empty: "Name:" alone).
SPOKEN = re.compile(r"(?P<name>[^:\n]+?):(?:[ \n](?P<text>.*)|$)", re.DOTALL)

# Words a system line carries before a colon of its own ('Ana created group "Trip: May"'),
# so such a line is not read as a message of a speaker named 'Ana created group "Trip'.
SYSTEM_IN_NAME = re.compile(
    r" (?:created group|changed the subject|changed the group|changed this group"
    r"|changed the settings|changed their phone number|pinned a message)",
    re.IGNORECASE,
)
# Texts after a speaker's name that are the app's, not the speaker's (iOS writes some
# system lines after the chat's name; calls are noted under the caller's).
SYSTEM_TEXT = re.compile(
    r"(?:Messages and calls are end-to-end encrypted|Messages to this group are now secured"
    r"|Your security code with .* changed|.*'s security code changed"
    r"|Missed (?:voice|video|group voice|group video) call"
    r"|(?:Voice|Video) call(?:, .*)?"
    r"|Waiting for this message\. This may take a while\."
    r"|You joined using this group's invite link).*",
    re.IGNORECASE | re.DOTALL,
)
# A message's whole text saying it was deleted.
DELETED = re.compile(r"(?:This message was deleted|You deleted this message)\.?", re.IGNORECASE)
# The marker of an edited message, written after its text.
EDITED = re.compile(rf"[ {LRM}]*<This message was edited>", re.IGNORECASE)

# Media placeholders. ``<attached: NAME>`` (iOS, exported with media) may stand anywhere
# in a text; the others are a whole line of the message.
ATTACHED = re.compile(rf"{LRM}?<attached: (?P<file>[^<>]+)>")
# Android, exported with media: "IMG-20240302-WA0001.jpg (file attached)".
FILE_ATTACHED = re.compile(r"(?P<file>.+?) \(file attached\)")
# iOS document without media: "report.pdf • 3 pages document omitted".
DOCUMENT_OMITTED = re.compile(rf"(?P<file>.+?)(?: • .*?)?[ {LRM}]*document omitted")
# A whole line saying what was shared without the media, and how a caption names it.
OMITTED: dict[str, str] = {
    "<media omitted>": "a media file",
    "image omitted": "an image",
    "video omitted": "a video",
    "audio omitted": "an audio message",
    "sticker omitted": "a sticker",
    "gif omitted": "a GIF",
    "document omitted": "a document",
    "contact card omitted": "a contact card",
    "live location shared": "a live location",
    "null": "a view-once media file",  # Android writes ``null`` for a view-once message
}
# Android's other "<... omitted>" placeholders ("<View once voice message omitted>").
ANGLED_OMITTED = re.compile(r"<[^<>]* omitted>", re.IGNORECASE)

# The chat's name in an export's file name ("WhatsApp Chat with Ana.txt", "WhatsApp Chat -
# Ana.zip"); a download's repeat mark (" (1)") is dropped so a re-export keeps the id.
CHAT_NAME = re.compile(
    r"(?:WhatsApp Chat(?: with| mit| met| avec| con| com| -)|Chat de WhatsApp con"
    r"|Conversa do WhatsApp com) (?P<name>.+?)(?: \(\d+\))?",
    re.IGNORECASE,
)
# WhatsApp's mark before a name that is not in the phone's contacts ("~ Ana").
NOT_A_CONTACT = re.compile(r"^~[ \u00a0\u202f]*")
# Phone numbers (U+202A..U+202C) and mentions (U+2068..U+2069) the app wraps in marks.
WRAPPED = re.compile(
    r"[\u202a\u202b\u202d\u202e\u2066\u2067\u2068](?P<inner>[^\u202a-\u202e\u2066-\u2069]*)"
    r"[\u202c\u2069]"
)
# iOS texts that start with U+200E yet are the speaker's: polls and shared places.
KEPT_AFTER_LRM = re.compile(r"(?:POLL:|location: )", re.IGNORECASE)
