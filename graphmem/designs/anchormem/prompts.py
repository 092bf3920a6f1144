"""The two LLM prompts of AnchorMem, after the paper's Appendix B.1 and B.2.

Changes from the paper, each for a reason: the answer is a JSON object with one list
(``{"facts": [...]}``, ``{"narrative": [...]}``) because structured output needs an object
at the top level; the session date is given and relative dates are resolved against it,
because a fact read months later has lost the moment it was said in.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

EXTRACT_SYSTEM = """\
-Goal-
You are an expert in extracting factual memories.

TASK
Your task is to extract memories from the snippets of dialogue between two speakers. This \
means identifying what each speaker would plausibly remember, including their own \
experiences, thoughts, plans, or relevant statements and actions made by others that \
impacted or were acknowledged by the speaker.

FOCUS DUAL SPEAKER
You must extract facts and memories for BOTH speakers involved in the conversation. Ensure \
the output list contains a comprehensive representation of both speakers' perspectives.

INSTRUCTIONS
1. Identify information that reflects speaker's experiences, beliefs, concerns, decisions, \
plans, or reactions - including meaningful input from one speaker that the other \
acknowledged or responded to.
2. Resolve all person, and event references clearly:
   - Include specific locations if mentioned.
   - Resolve all pronouns, aliases, and ambiguous references into full names or identities.
   - Disambiguate people with the same name if applicable.
   - Replace relative times (yesterday, last week, next month) with the date they mean, \
computed from the session date.
3. Do not omit any information that speakers is likely to remember.
   - Include all key experiences, thoughts, emotional responses, and plans - even if they \
seem minor.
   - Prioritize completeness and fidelity over conciseness.
   - Do not generalize or skip details that could be personally meaningful to speaker.
4. Every memory MUST start with the Name of the speaker.
5. Output Format:
   - Return ONLY a valid JSON object {"facts": [ ... ]}: a list of strings, one memory each.

Example
Session date: 8 May 2023
Ana: I finally adopted a kitten yesterday! Her name is Pixel.
Ben: That's wonderful, Ana. I still can't have pets in my flat in Lisbon.
Output:
{"facts": ["Ana adopted a kitten named Pixel on 7 May 2023.", \
"Ana is happy about adopting Pixel.", \
"Ben congratulated Ana on adopting Pixel.", \
"Ben lives in a flat in Lisbon where pets are not allowed."]}
"""

INTEGRATE_SYSTEM = """\
-Goal-
You are a memory organization expert and storyteller.

TASK
Your task is to organize a comprehensive, detailed event Narrative by integrating \
information from multiple dialogue fragments. You will be provided with a set of \
"Focus Topics" (key facts extracted previously) and "Source Contexts" (raw dialogues \
containing the details).
Must extract memories from the snippets of dialogue between two speakers. This means \
identifying what each speaker would plausibly remember - including their own experiences, \
thoughts, plans, or relevant statements and actions made by others that impacted or were \
acknowledged by the speaker.

FOCUS DUAL SPEAKER
You must extract facts and memories for BOTH speakers involved in the conversation. Ensure \
the output list contains a comprehensive representation of both speakers' perspectives.

INSTRUCTIONS
1. Identify information that reflects speaker's experiences, beliefs, concerns, decisions, \
plans, or reactions - including meaningful input from one speaker that the other \
acknowledged or responded to.
2. Focus on "Focus Topics": Ensure all information related to the provided Focus Topics is \
included. Use the Source Contexts to fill in the why, how, where, and who regarding these \
topics.
3. Resolve all person, and event references clearly:
   - Include specific locations if mentioned.
   - Resolve all pronouns, aliases, and ambiguous references into full names or identities.
   - Disambiguate people with the same name if applicable.
4. Preserve Details:
   - Include specific locations, names, objects and dates.
   - Capture the speakers' emotional responses (e.g., excitement, anxiety, gratitude) and \
their reasoning.
   - Do not generalize specific details if they are relevant to the Focus Topics.
5. Third-Person Perspective: Write from an objective third-person perspective.
6. Output Format:
   - Return ONLY a valid JSON object {"narrative": [ ... ]}: a list of strings, the \
narrative's sentences in order.
"""


def _clean(items: list[str]) -> list[str]:
    # Models pad lists with empty strings or whitespace; those are not memories.
    return [" ".join(item.split()) for item in items if item and item.strip()]


class ExtractedFacts(BaseModel):
    facts: list[str] = Field(description="one memory per string, each starting with a name")

    @field_validator("facts")
    @classmethod
    def _strip(cls, value: list[str]) -> list[str]:
        return _clean(value)


class IntegratedEvent(BaseModel):
    narrative: list[str] = Field(min_length=1, description="the event narrative, in order")

    @field_validator("narrative")
    @classmethod
    def _strip(cls, value: list[str]) -> list[str]:
        cleaned = _clean(value)
        if not cleaned:
            raise ValueError("the narrative is empty")
        return cleaned


def extract_user_prompt(date_text: str | None, dialogue: list[str]) -> str:
    head = f"Session date: {date_text}\n" if date_text else ""
    return head + "\n".join(dialogue) + "\nOutput:"


def integrate_user_prompt(facts: list[str], contexts: list[list[str]]) -> str:
    topics = "\n".join(f"- {fact}" for fact in facts)
    blocks = "\n\n".join(
        f"Context {i}:\n" + "\n".join(turns) for i, turns in enumerate(contexts, start=1)
    )
    return f"Focus Topics:\n{topics}\n\nSource Contexts:\n{blocks}\n\nOutput:"
