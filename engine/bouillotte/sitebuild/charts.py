"""SVG bar charts drawn at build time (no script), each with a text alternative."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

ROW = 22
LABEL_WIDTH = 120
BAR_WIDTH = 300
VALUE_WIDTH = 110


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    """The bar's length, in any unit (scaled to the largest bar)."""
    text: str
    """The value as the reader should read it (shown at the bar's end)."""


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def bar_chart(chart_id: str, title: str, bars: Sequence[Bar]) -> Markup:
    """A horizontal bar chart; the ``<title>`` and ``<desc>`` carry every value as text."""
    top = max((b.value for b in bars), default=0.0) or 1.0
    height = ROW * len(bars) + 8
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    desc = "; ".join(f"{b.label}: {b.text}" for b in bars)
    parts = [
        f'<svg class="chart" id="{chart_id}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
    ]
    for i, bar in enumerate(bars):
        y = 4 + i * ROW
        length = BAR_WIDTH * bar.value / top
        parts.append(
            f'<text class="chart-label" x="{LABEL_WIDTH - 6}" y="{_num(y + 15)}" '
            f'text-anchor="end">{escape(bar.label)}</text>'
        )
        parts.append(
            f'<rect class="chart-bar" x="{LABEL_WIDTH}" y="{_num(y + 3)}" '
            f'width="{_num(max(length, 1.0))}" height="{ROW - 6}"></rect>'
        )
        parts.append(
            f'<text class="chart-value" x="{_num(LABEL_WIDTH + length + 6)}" '
            f'y="{_num(y + 15)}">{escape(bar.text)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
