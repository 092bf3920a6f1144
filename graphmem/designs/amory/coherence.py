"""The LLM side of retrieval: the paper's coherence prompt picks k leaves by their headlines
and characters; choices are matched back to leaves by topic (and owner when two leaves
share a topic). Unmatched choices are ignored: the offline ranking fills in."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.designs.amory import prompts
from graphmem.designs.amory.leaves import Leaf, leaf_titles
from graphmem.llm import Message, StructuredLLM


def choose(llm: StructuredLLM, question: str, leaves: Sequence[Leaf], k: int) -> list[int]:
    prompt = prompts.COHERENCE.format(k=k, question=question, headlines=leaf_titles(leaves))
    out = llm.generate([Message(role="user", content=prompt)], prompts.CoherenceOut)
    chosen: list[int] = []
    for choice in out.choices:
        topic, owner = choice.topic.strip().lower(), choice.owner.strip().lower()
        matches = [i for i, leaf in enumerate(leaves) if leaf.headline.strip().lower() == topic]
        if len(matches) > 1:
            matches = [i for i in matches if leaves[i].owner.lower() == owner] or matches
        if matches and matches[0] not in chosen:
            chosen.append(matches[0])
        if len(chosen) == k:
            break
    return chosen
