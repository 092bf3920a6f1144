"""The figure check the notebook test relies on finds each problem on a figure made bad on
purpose, and nothing on the same figure made right."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tests.figure_check import problems


def _figure(width: float = 4, height: float = 3) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def test_a_readable_figure_has_no_problem() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.scatter([0, 1], [10, 20], c=["#6FB7F0", "#D6337F"], label="points")
    ax.scatter([0.5], [15], c="#D6337F", label="other")
    ax.bar([2, 3], [40.0, 87.5], color="#6FB7F0", label="bars")
    ax.set_ylabel("recall (%)")
    ax.text(0.05, 0.9, "a note", transform=ax.transAxes)
    ax.legend(loc="center right")
    fig.tight_layout()
    assert problems(fig) == []


def test_overlapping_labels_fail() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.text(0.3, 0.5, "Maya said I'm moving to Porto")
    ax.text(0.35, 0.5, "Tom said will Biscuit come")
    found = problems(fig)
    assert any(p.startswith("texts overlap") and "Porto" in p for p in found), found


def test_a_label_past_the_figure_edge_fails() -> None:
    fig = _figure()
    fig.text(-0.05, 0.5, "cut on the left")
    found = problems(fig)
    assert found == ["text cut at the figure edge: 'cut on the left'"], found


def test_a_label_clipped_by_its_axes_fails() -> None:
    # What networkx does: labels clipped to the axes, so a long one loses its start.
    fig = _figure()
    ax = fig.add_subplot()
    ax.set_xlim(0, 1)
    ax.text(0.0, 0.5, "a long caption centred on the edge", ha="center", clip_on=True)
    found = problems(fig)
    assert any(p.startswith("text cut by its axes") for p in found), found


def test_a_node_past_the_axes_fails() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.scatter([0, 1], [0, 1], s=400, color="#6FB7F0")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    found = problems(fig)
    assert any(p.startswith("PathCollection cut") for p in found), found


def test_several_colours_without_a_legend_fail() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.scatter([0, 1], [0, 1], c=["#6FB7F0", "#D6337F"])
    assert problems(fig) == ["2 colours of data and no legend"]


def test_a_legend_missing_a_colour_fails() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.bar([0], [1.0], color="#6FB7F0", label="named")
    ax.bar([1], [2.0], color="#D6337F")
    ax.legend()
    found = problems(fig)
    assert found == ["colours without a legend entry: ['#d6337f']"], found


def test_a_percent_axis_over_fractions_fails() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.bar([0, 1], [0.5, 0.875], color="#6FB7F0")
    ax.set_ylabel("ER@B (%)")
    fig.tight_layout()
    found = problems(fig)
    assert found == ["an axes: the axis says 'ER@B (%)' over values within 0-1"], found


def test_a_hidden_legend_does_not_count_its_texts() -> None:
    fig = _figure()
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], label="a line")
    legend = ax.legend(loc="center")
    ax.text(0.5, 0.5, "under the legend", ha="center", transform=ax.transAxes)
    assert any(p.startswith("texts overlap") for p in problems(fig))
    legend.set_visible(False)
    assert problems(fig) == []
