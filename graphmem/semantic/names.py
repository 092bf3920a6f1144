"""Entity names: the normalised key that decides identity, the head noun that guards merges,
and human-readable dates for the text a reader sees. Pure functions, no I/O."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime

from graphmem.ingest.writer import content_id

_DETERMINER_WORDS = "the a an this that these those some any my your his her its our their"
_DETERMINERS = frozenset(_DETERMINER_WORDS.split())
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_EDGE_PUNCT = " \t\n\"'.,;:!?()[]{}-–—*_"
_NON_ALNUM = re.compile(r"[^0-9a-z]")


def normalise_name(name: str) -> str:
    """Identity of a phrase: lower case, straight quotes, single spaces, no surrounding
    punctuation, no leading determiners, and a common-noun head in the singular ("the grey
    kittens" -> "grey kitten"; "James" keeps its s). Equal keys are one entity."""
    text = " ".join(name.translate(_QUOTES).split()).strip(_EDGE_PUNCT)
    common_head = text.split(" ")[-1].islower()
    words = text.lower().split(" ")
    while len(words) > 1 and words[0] in _DETERMINERS:
        words.pop(0)
    if common_head:
        words[-1] = _singular(words[-1])
    return " ".join(words).strip(_EDGE_PUNCT)


def is_name(name: str) -> bool:
    """Whether ``name`` names anything: its normalised key holds a letter or a digit, of any
    script ("Zoë", "東京", "42"). Punctuation, emoji, whitespace and lone symbols ("-", "🙂",
    "...") normalise to nothing that names. The one rule every design applies: such a
    phrase never becomes an entity, a character or the end of a fact."""
    return any(ch.isalnum() for ch in normalise_name(name))


def names_only(names: Iterable[str]) -> list[str]:
    """``names`` without the ones that name nothing (``is_name``), in order."""
    return [name for name in names if is_name(name)]


def entity_id(key: str) -> str:
    return content_id("entity", key)


def alnum_length(text: str) -> int:
    return len(_NON_ALNUM.sub("", text.lower()))


_NOT_PLURAL = frozenset({"news", "series", "species", "yes", "bus", "gas", "lens", "physics"})


def _singular(word: str) -> str:
    """English plural -> singular by suffix rules: crude, but the same phrase always maps
    to the same key, which is all identity needs."""
    if len(word) <= 3 or word in _NOT_PLURAL or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def head_noun(key: str) -> str:
    """The last word of a normalised phrase, singular: "grey kittens" -> "kitten"."""
    words = key.split()
    return _singular(words[-1]) if words else ""


def human_date(value: str) -> str:
    """A normalised time ("2023-05-07", "2023-05", "week of 2023-05-01", "Before 2023-05-08",
    "2023-05-10 to 2023-05-12") the way people write it ("7 May 2023", "May 2023", "the week
    of 1 May 2023", "before 8 May 2023", "10 May 2023 to 12 May 2023"); anything else is
    returned unchanged."""
    prefix = ""
    body = value.strip()
    ends = re.fullmatch(r"(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})", body)
    if ends:
        return f"{human_date(ends[1])} to {human_date(ends[2])}"
    for lead in ("Before ", "After "):
        if body.startswith(lead):
            prefix, body = lead.lower(), body[len(lead) :]
    if body.startswith("week of "):
        prefix, body = prefix + "the week of ", body[len("week of ") :]
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", body):
            day = date.fromisoformat(body)
            return f"{prefix}{day.day} {day.strftime('%B %Y')}"
        if re.fullmatch(r"\d{4}-\d{2}", body):
            return prefix + datetime.strptime(body, "%Y-%m").strftime("%B %Y")
    except ValueError:
        return value
    return prefix + body if re.fullmatch(r"\d{4}", body) else value


def human_datetime(when: datetime | None) -> str | None:
    return None if when is None else human_date(when.date().isoformat())
