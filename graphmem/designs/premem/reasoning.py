"""Step 2 offline: cross-session insights by rules, for the patterns a rule can honestly find.

For a connected pair (p earlier, c new) the rules compare fragments of the same speaker whose
topics (key phrases, lemmatised) match: equal, or one ends with the other ("support group" /
"LGBTQ support group"):

- accumulation: a topic said about in both clusters; the insight counts the mentions and lists
  their dates ("Caroline: support group, 3 mentions: 7 May 2023, 25 May 2023, ...");
- transformation: a state (factual or subjective) said again with its polarity flipped
  ("likes" / "doesn't like"), or a later statement that itself says something changed
  ("quit", "no longer", "moved", "switched", "used to"): "X (d1) -> Y (d2)";
- specification: a later fragment whose content words strictly contain an earlier one's:
  it says the same thing in more detail.

Extension/generalisation and connection/implication need inference beyond the words (a
broader category, a cause): no rule finds them, so the offline backend writes none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.designs.premem import dates
from graphmem.designs.premem.models import Fragment, Insight, Pattern

# Topics that match everywhere and so connect nothing.
_GENERIC_TOPICS = frozenset({"photo", "time", "thing", "day", "way", "lot", "people", "one"})
_STATES = frozenset({"factual", "subjective"})
_CHANGE_CUES = re.compile(
    r"\b(?:no longer|(?:not|n't) \w+ anymore|used to|stopped|quit|switched|changed|moved|"
    r"became|turned into|instead)\b",
    re.IGNORECASE,
)


def _usable(fragment: Fragment) -> bool:
    return bool(fragment.topic) and fragment.topic not in _GENERIC_TOPICS


def topics_match(a: str, b: str) -> bool:
    """Equal, or the shorter is the tail (head noun and its modifiers) of the longer."""
    if a == b:
        return True
    short, long = sorted((a.split(), b.split()), key=len)
    return len(" ".join(short)) >= 4 and long[-len(short) :] == short


def _bare(fragment: Fragment) -> str:
    """The value without a leading "Speaker: " (the insight names the speaker once)."""
    prefix = f"{fragment.speaker}: "
    return fragment.value[len(prefix) :] if fragment.value.startswith(prefix) else fragment.value


def _said(fragment: Fragment) -> str:
    return dates.in_words(fragment.date) if fragment.date else "undated"


def _passages(fragments: Sequence[Fragment]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(pid for f in fragments for pid in f.passage_ids))


def _accumulation(
    earlier: list[Fragment], later: list[Fragment], ids: tuple[str, str], max_dates: int
) -> Insight:
    mentions = sorted(earlier + later, key=lambda f: (f.order, f.value))
    key = later[0].key
    listed = list(dict.fromkeys(_said(f) for f in mentions))
    shown = ", ".join(listed[:max_dates]) + (", ..." if len(listed) > max_dates else "")
    speaker = later[0].speaker
    return Insight(
        pattern="accumulation",
        key=key,
        value=f"{speaker}: {key}, {len(mentions)} mentions: {shown}",
        date=dates.date_range([f.date for f in mentions if f.date]),
        earlier=ids[0],
        later=ids[1],
        passage_ids=_passages(mentions),
    )


def _changed(old: Fragment, new: Fragment) -> bool:
    """A state said again with its polarity flipped ("likes" / "doesn't like"), or a later
    statement that says itself that something changed ("quit", "no longer", "moved")."""
    if {old.category, new.category} - _STATES and not _CHANGE_CUES.search(new.value):
        return False
    if old.predicate == new.predicate and old.negated != new.negated:
        return True
    return _CHANGE_CUES.search(new.value) is not None


def _refines(old: Fragment, new: Fragment) -> bool:
    return len(old.lemmas) >= 2 and set(old.lemmas) < set(new.lemmas)


def _pairwise(
    earlier: list[Fragment], later: list[Fragment], ids: tuple[str, str]
) -> list[Insight]:
    out: list[Insight] = []
    pattern: Pattern
    latest_first = sorted(earlier, key=lambda f: f.order, reverse=True)
    for new in later:
        for old in latest_first:
            if _changed(old, new):
                value = f"{_bare(old)} ({_said(old)}) -> {_bare(new)} ({_said(new)})"
                pattern = "transformation"
            elif _refines(old, new):
                value = f"{_bare(old)} ({_said(old)}); in detail: {_bare(new)} ({_said(new)})"
                pattern = "specification"
            else:
                continue
            out.append(
                Insight(
                    pattern=pattern,
                    key=new.key,
                    value=f"{new.speaker}: {value}",
                    date=dates.date_range([d for d in (old.date, new.date) if d]),
                    earlier=ids[0],
                    later=ids[1],
                    passage_ids=_passages([old, new]),
                )
            )
            break  # one per later fragment: the most recent earlier statement it answers
    return out


def reason_offline(
    earlier: Sequence[Fragment],
    later: Sequence[Fragment],
    ids: tuple[str, str],
    max_dates: int,
) -> list[Insight]:
    """Insights of one connected pair (pooled cluster id, new cluster id)."""
    out: dict[str, Insight] = {}
    seen_topics: set[tuple[str, str]] = set()
    for anchor in later:
        if not _usable(anchor) or (anchor.speaker, anchor.topic) in seen_topics:
            continue
        seen_topics.add((anchor.speaker, anchor.topic))
        same = [
            f
            for f in later
            if f.speaker == anchor.speaker and _usable(f) and topics_match(f.topic, anchor.topic)
        ]
        old = [
            f
            for f in earlier
            if f.speaker == anchor.speaker and _usable(f) and topics_match(f.topic, anchor.topic)
        ]
        seen_topics.update((f.speaker, f.topic) for f in same)
        if not old:
            continue
        found = [_accumulation(old, same, ids, max_dates), *_pairwise(old, same, ids)]
        for insight in found:
            out.setdefault(insight.id, insight)
    return list(out.values())
