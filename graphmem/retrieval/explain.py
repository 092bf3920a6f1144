"""``--explain`` in plain words: what found each item, and why it stands where it does.

Every retriever records how it found a hit as the hit's ``path``: steps such as "exact
cosine over the space's passages rank 1 score 0.932", or graphmem's fusion ("graphmem rrf:
turn rank 1, score 0.1439 (k 25); found by 5 of 6: amory #3, ..." followed by each member's
own first step). The path stays as it is (``--explain --json``'s ``path``); this module
reads it into its numbers (``explain_item``: each step's rank and score, the fusion's k,
score and every member's rank and weight) and one line a person reads ("found by 5 of 6
searches (best: CAST 1st, PREMem 1st); fused rank 1"). A step it does not know is kept
as written, so a new design's explanation still shows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

Step = dict[str, Any]

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RANKED = re.compile(rf"^(?P<how>.+?) rank (?P<rank>\d+) score (?P<score>{_NUMBER})$")
_COSINE = re.compile(rf"^(?P<how>.+?) cosine (?P<cosine>{_NUMBER})$")
_SEEDS = re.compile(r"^PPR from entities \[(?P<seeds>.*)\]$")
_SEED = re.compile(rf"(?P<entity>.+?) (?P<weight>{_NUMBER})(?:, |$)")
_MEMBERS = re.compile(r"^members: (?P<members>.*)$")
_WEIGHT = re.compile(rf"^(?P<member>\S+) x(?P<weight>{_NUMBER})$")
_FUSED = re.compile(
    rf"^graphmem (?P<method>\w+): turn rank (?P<turn_rank>\d+), score (?P<score>{_NUMBER})"
    rf" \(k (?P<k>\d+)\); found by (?P<found>\d+) of (?P<members>\d+): (?P<votes>.*?)"
    rf"(?:; (?P<state>promoted|not promoted) \((?P<agreed>{_NUMBER}) votes in the members'"
    r" top (?P<top>\d+)\))?$"
)
_VOTE = re.compile(r"^(?P<member>\S+) #(?P<rank>\d+)$")
_DERIVED = re.compile(
    r"^graphmem: (?P<label>\w+) from (?P<members>.+?), ranked as its cited turns on average:"
    rf" place (?P<place>.+?), score (?P<score>{_NUMBER}); shown as its own text, citing"
    r" (?P<cites>.*)$"
)
_CITE = re.compile(r"^(?P<turn>.+?) \((?:turn rank (?P<rank>\d+)|unranked)\)$")

# Strategies that are no design of their own, as a reader would call them.
_NAMES = {
    "fulltext": "keyword search",
    "dense": "meaning search",
    "hybrid": "meaning + keyword search",
    "hipporag": "HippoRAG",
}

# What a first step says, in words: (pattern of its ``how``, the words; {0}.. its groups).
_HOW: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (
            r"^(exact cosine over the space's passages|vector index passage_embedding)$",
            "closest in meaning to the question",
        ),
        (r"^BM25 over the space's turns$", "best keyword match for the question"),
        (
            r"^(exact cosine over the space's facts|vector index atomic_fact_embedding)$",
            "found through a fact close in meaning to the question",
        ),
        (
            r"^(exact cosine over the space's events|vector index assoc_event_embedding)$",
            "found through an event close in meaning to the question",
        ),
        (r"^exact cosine over fragments", "close in meaning to the question"),
        (
            r"^dense \(no seed\)$",
            "closest in meaning (the question names nothing in the entity graph)",
        ),
        (r"^reverse provenance expansion: frame of (.+)$", "part of the same event as {0}"),
        (
            r"^(fact search|fact vector index)",
            "found through a fact close in meaning to the question",
        ),
        (r"^event frame of (.+)$", "the summary of the event of {0}"),
        (r"^offline coherence", "from a story that fits the question"),
        (r"^LLM coherence prompt$", "from a story the LLM judged to fit the question"),
        (r"^next-best excerpt", "a further excerpt that matches the question"),
        (r"^fewer than T turns", "the space is small: its whole history is shown"),
        (r"^slot-3 injection", "the best turn of the scene that fits the question best"),
        (r"^semantic: generated Cypher", "found by a graph query the LLM wrote"),
        (r"^semantic: .*entity-matched facts", "a fact about a name in the question"),
    )
)
# What a later step adds, in words; a step not named here is left to the JSON.
_DETAIL: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"^story: (.+?)(?: \[[^\]]*\])?(?: > subplot: .*)?$", "story '{0}'"),
        (
            r"^promoted: scene \S+ of (.+?) \(\w+, (.+?)\), episodic rank",
            "moved up: a scene of {0} ({1}) fits the question",
        ),
        (r"^supersedes$", "replaces an earlier memory"),
    )
)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def display_name(strategy: str) -> str:
    """A strategy as a reader calls it: a design by its title's name (PREMem), a search
    by what it does (keyword search); the name itself when the registry does not know it."""
    if strategy in _NAMES:
        return _NAMES[strategy]
    from graphmem.errors import ConfigError
    from graphmem.plugin.registry import strategy_owner  # loaded by the query already

    try:
        owner, _ = strategy_owner(strategy)
    except (ConfigError, ImportError):
        return strategy
    return owner.title.split(":")[0].strip() or strategy


def member_weights(notes: Sequence[str]) -> dict[str, float]:
    """graphmem's members and their weights, from its ``members: amory x1, ...`` note."""
    for note in notes:
        found = _MEMBERS.match(note)
        if found:
            pairs = (_WEIGHT.match(p.strip()) for p in found["members"].split(","))
            return {m["member"]: float(m["weight"]) for m in pairs if m}
    return {}


def explain_notes(notes: Sequence[str]) -> list[str]:
    """The result's notes in words: the members' note says who votes and how much."""
    out = []
    for note in notes:
        weights = member_weights([note])
        out.append(_voters(weights) if weights else note)
    return out


def _voters(weights: Mapping[str, float]) -> str:
    full = [display_name(m) for m, w in weights.items() if w >= 1]
    parts = [f"{_listed(full)} at full weight"] if full else []
    for weight in sorted({w for w in weights.values() if w < 1}, reverse=True):
        names = [display_name(m) for m, w in weights.items() if w == weight]
        share = "half" if weight == 0.5 else f"{weight:.2g}"
        parts.append(f"{_listed(names)} at {share} weight (they re-order the same ranking)")
    return f"{len(weights)} searches vote for the turns they find: {'; '.join(parts)}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def parse_step(text: str, members: Sequence[str] = ()) -> Step:
    """One path entry's parts: who (``member``, a fused member's step), how, and its
    ``rank``, ``score`` or ``cosine``; ``seeds`` for a PageRank's entities."""
    step: Step = {}
    head, sep, rest = text.partition(": ")
    if sep and head in members:
        step["member"], text = head, rest
    found = _RANKED.match(text) or _COSINE.match(text)
    how = found["how"] if found else text
    step["how"] = how
    if found:
        step.update({k: _number(v) for k, v in found.groupdict().items() if k != "how"})
    seeds = _SEEDS.match(how)
    if seeds:
        step["seeds"] = [
            {"entity": s["entity"], "weight": float(s["weight"])}
            for s in _SEED.finditer(seeds["seeds"])
        ]
    return step


def _number(value: str) -> int | float:
    return int(value) if value.isdigit() else float(value)


def _how_words(step: Step) -> str:
    seeds = step.get("seeds")
    if seeds is not None:
        names = [s["entity"] for s in seeds[:3]]
        return f"reached in the entity graph from {_listed(names) if names else 'no entity'}"
    for pattern, words in _HOW:
        found = pattern.match(step["how"])
        if found:
            return words.format(*found.groups())
    return str(step["how"])


def _short(step: Step) -> str:
    """A search of a fused list by what it compares: "by meaning", "by keywords"."""
    words = _how_words(step)
    for phrase, short in (("in meaning", "by meaning"), ("keyword", "by keywords")):
        if phrase in words:
            return short
    return words


def _details(steps: Sequence[Step]) -> list[str]:
    out = []
    for step in steps:
        for pattern, words in _DETAIL:
            found = pattern.match(step["how"])
            if found:
                out.append(words.format(*found.groups()))
                break
    return out


def explain_item(
    strategy: str, path: Sequence[str], rank: int, weights: Mapping[str, float] | None = None
) -> dict[str, Any]:
    """An item's structured explanation: ``text`` (one plain line), ``rank`` (its place
    in the strategy's list, from 1), ``steps`` (each path entry's parts) and, for
    graphmem, ``fusion`` and ``votes`` (a turn) or ``derived`` (a memory)."""
    weights = dict(weights or {})
    head = path[0] if path else ""
    for pattern, read in ((_FUSED, _fused), (_DERIVED, _derived)):
        found = pattern.match(head)
        if found:
            return read(found, path[1:], rank, weights)
    steps = [parse_step(p) for p in path]
    return {"text": _plain(steps, rank), "rank": rank, "steps": steps}


def _plain(steps: Sequence[Step], rank: int) -> str:
    if not steps:
        return f"ranked {ordinal(rank)}"
    ranked = [s for s in steps if "rank" in s]
    if len(ranked) > 1:  # one list fused from several searches (hybrid)
        found = ", ".join(f"{_short(s)} {ordinal(s['rank'])}" for s in ranked)
        return f"ranked {ordinal(rank)}, fusing {len(ranked)} searches: {found}"
    words = [_how_words(steps[0]), *_details(steps[1:])]
    return f"ranked {ordinal(rank)}: {'; '.join(words)}"


def _fused(
    found: re.Match[str], rest: Sequence[str], rank: int, weights: dict[str, float]
) -> dict[str, Any]:
    votes: list[Step] = [
        {"member": v["member"], "rank": int(v["rank"]), "weight": weights.get(v["member"])}
        for v in (_VOTE.match(p.strip()) for p in found["votes"].split(","))
        if v
    ]
    steps = [parse_step(p, [str(v["member"]) for v in votes]) for p in rest]
    for vote in votes:  # the member's own first step beside its vote
        vote["step"] = next((s for s in steps if s.get("member") == vote["member"]), None)
    fusion: dict[str, Any] = {
        "method": found["method"],
        "turn_rank": int(found["turn_rank"]),
        "score": float(found["score"]),
        "k": int(found["k"]),
        "found_by": int(found["found"]),
        "members": int(found["members"]),
        "weights": weights,
    }
    text = (
        f"found by {found['found']} of {found['members']} searches (best: {_best(votes)}); "
        f"fused rank {found['turn_rank']}"
    )
    if found["state"]:
        fusion["agreement"] = {
            "promoted": found["state"] == "promoted",
            "votes": float(found["agreed"]),
            "top": int(found["top"]),
        }
        moved = "moved up" if found["state"] == "promoted" else "not moved up"
        text += f"; {moved}: {found['agreed']} votes within the searches' top {found['top']}"
    return {"text": text, "rank": rank, "fusion": fusion, "votes": votes, "steps": steps}


def _best(votes: Sequence[Step], at_least: int = 2) -> str:
    """The best ranks and who gave them: "PREMem 1st, SEEM 2nd", "CAST and SEEM 1st"."""
    groups: list[tuple[int, list[str]]] = []
    for vote in sorted(votes, key=lambda v: int(v["rank"])):
        if sum(len(names) for _, names in groups) >= at_least and vote["rank"] != groups[-1][0]:
            break
        if groups and groups[-1][0] == vote["rank"]:
            groups[-1][1].append(display_name(vote["member"]))
        else:
            groups.append((vote["rank"], [display_name(vote["member"])]))
    return ", ".join(f"{_listed(names)} {ordinal(r)}" for r, names in groups)


def _derived(
    found: re.Match[str], rest: Sequence[str], rank: int, weights: dict[str, float]
) -> dict[str, Any]:
    members = [m.strip() for m in found["members"].split(",")]
    cites: list[Step] = []
    for part in found["cites"].split(", "):
        cite = _CITE.match(part)
        if cite:
            turn_rank = int(cite["rank"]) if cite["rank"] else None
            cites.append({"turn": cite["turn"], "turn_rank": turn_rank})
    place = None if found["place"] == "after every turn" else float(found["place"])
    derived = {
        "label": found["label"],
        "members": members,
        "place": place,
        "score": float(found["score"]),
        "cites": cites,
    }
    steps = [parse_step(p, members) for p in rest]
    kind = _words_of(found["label"])
    turns = _listed([str(c["turn"]) for c in cites]) if cites else "no turn"
    where = (
        f"placed where its turns rank on average ({ordinal(round(place))})"
        if place is not None
        else "placed after every turn (none of its turns is ranked)"
    )
    by = _listed([display_name(m) for m in members])
    text = f"{_article(kind)} {kind} from {by} standing for {turns}; {where}"
    return {"text": text, "rank": rank, "derived": derived, "steps": steps}


def _words_of(label: str) -> str:
    """A node label in words: AtomicFact -> atomic fact, EventFrame -> event summary."""
    if label == "EventFrame":
        return "event summary"
    return re.sub(r"(?<!^)(?=[A-Z])", " ", label).lower()


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
