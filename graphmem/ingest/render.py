"""How one turn reads as text: the one renderer for the embedder, the packer, the builders
and the LLM prompts, so that every reader sees a turn the same way."""

from __future__ import annotations


def render_turn(
    speaker: str,
    text: str,
    *,
    date_text: str | None = None,
    caption: str | None = None,
    source_id: str | None = None,
) -> str:
    """``[<source_id>] (<date>) <speaker>: <text> [shares a photo of <caption>]``; the parts
    that are ``None`` are left out."""
    cite = f"[{source_id}] " if source_id else ""
    date = f"({date_text}) " if date_text else ""
    photo = f" [shares a photo of {caption}]" if caption else ""
    return f"{cite}{date}{speaker}: {text}{photo}"
