"""The Browser style is generated from the designs' declared styles: it parses the way the
Browser's grass parser reads it, covers every label a design declares (and the schema's),
gives no two labels colours that are hard to tell apart, and the legend says the same."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from graphmem.browser.style import StyledLabel, grass, legend_html, styled_labels
from graphmem.errors import ConfigError
from graphmem.plugin.captions import short_caption
from graphmem.plugin.design import Design, Label
from graphmem.plugin.registry import register, registry, unregister
from graphmem.plugin.style import NodeStyle
from tests.example_design.design import DESIGN as EXAMPLE
from tests.paths import ROOT

# Colours closer than this (the "redmean" weighted RGB distance, 0-765) read as one colour
# on a drawing: about what separates light blue from sky blue.
MIN_COLOUR_DISTANCE = 90.0


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """The Neo4j Browser's grass parser (graphStyle ``parse``), character by character:
    quotes toggle a string (and are dropped), braces outside strings open and close a
    rule, then each declaration is split on ``:`` and only its first two parts kept, so a
    colon inside a value cuts it short; here that is an error instead."""
    rules: dict[str, str] = {}
    keyword, props, in_string, in_props = "", "", False, False
    for c in text:
        if c == "'":
            in_string = not in_string
            continue
        if c == "{" and not in_string:
            in_props = True
            continue
        if c == "}" and not in_string:
            rules[keyword], keyword, props, in_props = props, "", "", False
            continue
        if in_props:
            props += c
        elif not c.isspace():
            keyword += c
    out: dict[str, dict[str, str]] = {}
    for selector, body in rules.items():
        out[selector] = {}
        for declaration in body.split(";"):
            parts = declaration.split(":")
            assert len(parts) <= 2, f"{selector}: a colon inside {declaration.strip()!r}"
            if len(parts) == 2 and parts[0].strip() and parts[1].strip():
                out[selector][parts[0].strip()] = parts[1].strip()
    return out


def _package_labels() -> list[StyledLabel]:
    return [
        s for s in styled_labels() if s.owner in {d.name for d in registry().values()} | {"core"}
    ]


def redmean(a: str, b: str) -> float:
    (r1, g1, b1), (r2, g2, b2) = (tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (a, b))
    r = (r1 + r2) / 2
    return math.sqrt(
        (2 + r / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2 + (2 + (255 - r) / 256) * (b1 - b2) ** 2
    )


def test_the_generated_grass_parses_and_covers_every_declared_label() -> None:
    rules = parse_grass(grass())
    # Designs graphmem ships (a test may register a plug-in without styles: the Browser
    # then draws its label in the default style).
    shipped = [
        d
        for d in registry().values()
        if any(
            getattr(f, "__module__", "").startswith("graphmem.")
            for f in [d.builder, *d.retrievers.values()]
            if f is not None
        )
    ]
    declared = {label for d in shipped for label in d.labels} | {"BuildCost"}
    schema = {
        "".join(part.title() for part in f.stem.split("_"))
        for f in (ROOT / "schema" / "constraints").glob("*.cypher")
    } - {"Meta"}
    styled = {selector.removeprefix("node.") for selector in rules if selector.startswith("node.")}
    assert declared | schema <= styled, f"no style for {sorted((declared | schema) - styled)}"
    # Superseded statements are faded: a rule of colours only, after every label's.
    assert list(rules)[-1] == "node.Superseded"
    assert set(rules["node.Superseded"]) == {"color", "border-color", "text-color-internal"}
    for selector, props in rules.items():
        if selector.startswith("node.") and selector != "node.Superseded":
            assert {"color", "border-color", "text-color-internal", "diameter", "caption"} <= set(
                props
            ), selector
            assert re.fullmatch(r"[^{}]*(\{\w+\}[^{}]*)+", props["caption"]), props["caption"]
            assert re.fullmatch(r"\d+px", props["diameter"]), props["diameter"]


def test_no_two_labels_share_a_colour_or_come_close() -> None:
    colours = {s.label: s.style.color.upper() for s in _package_labels()}
    close = [
        (a, b, round(redmean(colours[a], colours[b])))
        for a, b in itertools.combinations(colours, 2)
        if redmean(colours[a], colours[b]) < MIN_COLOUR_DISTANCE
    ]
    assert not close, f"labels too close in colour: {close}"
    # Fact and AtomicFact were two near greens: now far apart.
    assert redmean(colours["Fact"], colours["AtomicFact"]) > 2 * MIN_COLOUR_DISTANCE


def test_the_legend_lists_every_style_with_its_colour() -> None:
    legend = legend_html()
    for item in styled_labels():
        assert f">{item.label}</code>" in legend and item.style.color in legend


def test_a_plugins_style_joins_the_grass_and_a_second_style_for_a_label_is_refused() -> None:
    register(EXAMPLE)
    try:
        assert "node.Keyword {" in grass() and ">Keyword</code>" in legend_html()
        twice = Design(
            name="twice",
            title="t",
            summary="t",
            labels={
                "Keyword": Label(style=NodeStyle(color="#000000", caption="{word}", meaning="m"))
            },
        )
        with pytest.raises(ConfigError, match="'Keyword' is styled by both keywords and twice"):
            register(twice)
    finally:
        unregister("twice")
        unregister(EXAMPLE.name)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"color": "red"}, "#RRGGBB"),
        ({"caption": "{speaker}: {text}"}, "caption"),
        ({"caption": "plain"}, "names no property"),
        ({"diameter": 500}, "diameter"),
        ({"meaning": " "}, "meaning"),
    ],
)
def test_a_bad_style_is_refused(kwargs: dict[str, object], message: str) -> None:
    good: dict[str, object] = {"color": "#123456", "caption": "{name}", "meaning": "m"}
    with pytest.raises(ValueError, match=message):
        NodeStyle(**{**good, **kwargs})  # type: ignore[arg-type]


def test_a_design_styles_only_its_own_labels() -> None:
    """A style is part of a label's declaration (``Label.style``), so it styles that label."""
    style = NodeStyle(color="#123456", caption="{name}", meaning="m")
    design = Design(name="good", title="g", summary="g", labels={"A": Label(style=style)})
    assert design.styles == {"A": style}
    with pytest.raises(TypeError, match="a NodeStyle expected"):
        Label(style="#123456")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "caption"),
    [
        ("(2024-03-02 18:10) Maya: Hey Tom!", "Maya: Hey Tom!"),
        ("(1:56 pm on 8 May, 2023) Melanie: Hey", "Melanie: Hey"),
        ("On 2 March 2024 to 11 April 2024, Tom sold bowls.", "Tom sold bowls."),
        ("On the other hand, Tom", "On the other hand, Tom"),
        ("one two three four five", "one two three ..."),
    ],
)
def test_a_short_caption_drops_a_leading_date_and_keeps_a_few_words(
    text: str, caption: str
) -> None:
    assert short_caption(text, words=3 if "five" in text else 12) == caption
