"""Speaker roles (graphmem/nlp/roles.py): which conversations are a person talking to an AI
assistant, and who "you" is in them. Chats between people have no roles at all."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.nlp.roles import SpeakerRoles, assistant_names

DEFAULT = Settings().assistant_speakers


def test_an_assistant_speaker_makes_a_user_assistant_conversation() -> None:
    roles = SpeakerRoles.of(["user", "assistant"], DEFAULT)
    assert roles.user_assistant
    assert roles.assistants == ("assistant",) and roles.users == ("user",)
    assert roles.user == "user"
    assert roles.addressee("user") == "assistant"
    assert roles.addressee("assistant") == "user"


def test_names_match_whole_and_case_insensitive() -> None:
    assert SpeakerRoles.of(["Ana", "AI"], DEFAULT).assistants == ("AI",)
    assert SpeakerRoles.of(["Ana", " Bot "], DEFAULT).assistants == (" Bot ",)
    # A person whose name contains a role word is a person.
    assert not SpeakerRoles.of(["Aiden", "Botond"], DEFAULT).user_assistant


def test_people_talking_have_no_roles() -> None:
    roles = SpeakerRoles.of(["Caroline", "Melanie"], DEFAULT)
    assert not roles.user_assistant
    assert roles.user is None
    assert roles.addressee("Caroline") is None


def test_an_assistant_alone_or_several_users() -> None:
    alone = SpeakerRoles.of(["assistant"], DEFAULT)
    assert not alone.user_assistant and alone.addressee("assistant") is None
    group = SpeakerRoles.of(["Ana", "Ben", "assistant"], DEFAULT)
    assert group.user_assistant and group.user is None
    assert group.addressee("Ana") is None  # "you" is ambiguous with two people


def test_the_setting_is_a_comma_separated_list() -> None:
    assert assistant_names(" Helper , ,Jarvis") == frozenset({"helper", "jarvis"})
    assert SpeakerRoles.of(["Ana", "Jarvis"], "jarvis").assistants == ("Jarvis",)
    assert not SpeakerRoles.of(["user", "assistant"], "").user_assistant
