"""Who is who in a conversation: people talking to each other, or a person talking to an AI
assistant.

Memory designs were written for chats between people (every speaker is a character whose
life the memory is about). In a chat with an assistant the memory is about the person; the
assistant answers, suggests and explains, and what it says of "you" is advice, not a fact.
A conversation is a **user-assistant** one when one of its speakers is named by a word of
``Settings.assistant_speakers`` ("assistant", "AI", "bot", ...; case-insensitive, the whole
name): speaker names are all there is to go by in every input format. Its other speakers are
its users. A conversation without such a speaker is between people and every design treats
it exactly as before (``SpeakerRoles.user_assistant`` is False), so nothing about chats between
people depends on this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def assistant_names(setting: str) -> frozenset[str]:
    """The comma-separated setting as lower-cased names (blank entries ignored)."""
    return frozenset(n.strip().lower() for n in setting.split(",") if n.strip())


@dataclass(frozen=True)
class SpeakerRoles:
    """The speakers of one conversation, split into assistants and users (the people)."""

    assistants: tuple[str, ...]
    users: tuple[str, ...]

    @classmethod
    def of(cls, speakers: Iterable[str], assistants: str | frozenset[str]) -> SpeakerRoles:
        names = assistant_names(assistants) if isinstance(assistants, str) else assistants
        ordered = list(dict.fromkeys(speakers))
        return cls(
            assistants=tuple(s for s in ordered if s.strip().lower() in names),
            users=tuple(s for s in ordered if s.strip().lower() not in names),
        )

    @property
    def user_assistant(self) -> bool:
        """A person (or several) talking to an assistant."""
        return bool(self.assistants) and bool(self.users)

    def is_assistant(self, speaker: str) -> bool:
        return speaker in self.assistants

    @property
    def user(self) -> str | None:
        """The one person of a user-assistant conversation (None otherwise)."""
        return self.users[0] if self.user_assistant and len(self.users) == 1 else None

    def addressee(self, speaker: str) -> str | None:
        """Who "you" means in ``speaker``'s turns of a user-assistant conversation with one
        user and one assistant: the other side (None otherwise)."""
        if self.user is None or len(self.assistants) != 1:
            return None
        if speaker == self.user:
            return self.assistants[0]
        return self.user if speaker == self.assistants[0] else None
