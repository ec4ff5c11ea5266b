"""SVG bar charts drawn at build time (no script), each with a text alternative.

Each chart carries its title as visible text, a label above each bar (so that long labels
are never clipped and the chart stays narrow enough to read on a phone without shrinking
its type much), the value at the bar's end and, when the value is a sample, its 95 %
interval drawn as a line with end ticks across the bar's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

FONT = 13
"""The text size in the SVG's own units."""
CHAR = 7.4
"""A generous width of one character at ``FONT`` (system sans-serif), to size the chart."""
TITLE_LINE = FONT + 5
TITLE_CHARS = 42
"""A longer title is set on several lines, so that it never widens the chart."""
ROW = 38
"""One bar: its label on one line, the bar below it."""
LABEL_LINE = FONT + 3
"""A further line of a bar's label."""
BAR_HEIGHT = 12
BAR_WIDTH = 200
MIN_WIDTH = 300


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    """The bar's length, in any unit (scaled to the largest bar or interval end)."""
    text: str
    """The value as the reader should read it (shown at the bar's end)."""
    low: float | None = None
    high: float | None = None
    """The 95 % interval of a sampled value, in the unit of ``value``; drawn when given."""


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _width(text: str) -> float:
    return len(text) * CHAR


def _lines(text: str, limit: int = TITLE_CHARS) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _opening(
    chart_id: str, title: str, desc: str, heading: list[str], width: float, height: int
) -> list[str]:
    """The ``<svg>`` tag, its ``<title>`` and ``<desc>``, and the title as visible lines."""
    return [
        f'<svg class="chart" id="{chart_id}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'viewBox="0 0 {_num(width)} {height}" width="{_num(width)}" height="{height}" '
        f'font-size="{FONT}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
        '<text class="chart-title" aria-hidden="true">'
        + "".join(
            f'<tspan x="0" y="{FONT + 3 + n * TITLE_LINE}">{escape(line)}</tspan>'
            for n, line in enumerate(heading)
        )
        + "</text>",
    ]


def bar_chart(chart_id: str, title: str, bars: Sequence[Bar]) -> Markup:
    """A horizontal bar chart; the ``<title>`` and ``<desc>`` carry every value as text."""
    ends = [b.value for b in bars] + [b.high for b in bars if b.high is not None]
    top = max(ends, default=0.0) or 1.0
    values = max((_width(b.text) for b in bars), default=0.0)
    heading = _lines(title)
    title_height = TITLE_LINE * len(heading) + 8
    width = max(
        MIN_WIDTH,
        *(_width(line) + 4 for line in heading),
        *(_width(b.label) + 4 for b in bars),
        BAR_WIDTH + 8 + values,
    )
    height = title_height + ROW * len(bars) + 6
    desc = "; ".join(f"{b.label}: {b.text}" for b in bars)
    parts = _opening(chart_id, title, desc, heading, width, height)
    for i, bar in enumerate(bars):
        y = title_height + i * ROW
        length = BAR_WIDTH * bar.value / top
        parts.append(
            f'<text class="chart-label" x="0" y="{_num(y + FONT)}">{escape(bar.label)}</text>'
        )
        bar_y = y + FONT + 6
        parts.append(
            f'<rect class="chart-bar" x="0" y="{_num(bar_y)}" '
            f'width="{_num(max(length, 1.0))}" height="{BAR_HEIGHT}"></rect>'
        )
        end = length
        if bar.low is not None and bar.high is not None:
            low = BAR_WIDTH * bar.low / top
            high = BAR_WIDTH * bar.high / top
            mid = bar_y + BAR_HEIGHT / 2
            parts.append(
                f'<path class="chart-interval" d="M{_num(low)} {_num(mid)}H{_num(high)}'
                f"M{_num(low)} {_num(bar_y - 2)}V{_num(bar_y + BAR_HEIGHT + 2)}"
                f'M{_num(high)} {_num(bar_y - 2)}V{_num(bar_y + BAR_HEIGHT + 2)}"></path>'
            )
            end = max(end, high)
        parts.append(
            f'<text class="chart-value" x="{_num(end + 6)}" '
            f'y="{_num(bar_y + BAR_HEIGHT - 1)}">{escape(bar.text)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


HALF = 110
"""Half the width of a signed chart's bar area: the bars run left or right of zero."""


def signed_chart(chart_id: str, title: str, bars: Sequence[Bar]) -> Markup:
    """Bars left or right of a zero line, laid out like :func:`bar_chart` (visible title,
    each label above its bar, the value beside it); ``<title>`` and ``<desc>`` give every
    value as text."""
    ends = [abs(b.value) for b in bars]
    ends += [abs(x) for b in bars for x in (b.low, b.high) if x is not None]
    top = max(ends, default=0.0) or 1.0
    heading = _lines(title)
    title_height = TITLE_LINE * len(heading) + 8
    zero = HALF + 2
    values = max((_width(b.text) for b in bars), default=0.0)
    # A long label (a rule's name and its value in words) is set on several lines, as the
    # title is, so that it never widens the chart past a phone's width.
    labels = [_lines(b.label) for b in bars]
    width = max(
        MIN_WIDTH,
        *(_width(line) + 4 for line in heading),
        *(_width(line) + 4 for lines in labels for line in lines),
        zero + HALF + 8 + values,
    )
    extra = [LABEL_LINE * (len(lines) - 1) for lines in labels]
    height = title_height + ROW * len(bars) + sum(extra) + 6
    desc = "; ".join(f"{b.label}: {b.text}" for b in bars)
    parts = _opening(chart_id, title, desc, heading, width, height)
    y = float(title_height)
    for bar, lines, more in zip(bars, labels, extra, strict=True):
        length = HALF * abs(bar.value) / top
        x = zero if bar.value >= 0 else zero - length
        bar_y = y + more + FONT + 6
        if len(lines) == 1:
            parts.append(
                f'<text class="chart-label" x="0" y="{_num(y + FONT)}">{escape(bar.label)}</text>'
            )
        else:
            spans = "".join(
                f'<tspan x="0" y="{_num(y + FONT + LABEL_LINE * n)}">{escape(line)}</tspan>'
                for n, line in enumerate(lines)
            )
            parts.append(f'<text class="chart-label">{spans}</text>')
        y += ROW + more
        # The zero line runs beside the bar only, never through the label above it.
        parts.append(
            f'<line class="chart-axis" x1="{zero}" y1="{_num(bar_y - 3)}" x2="{zero}" '
            f'y2="{_num(bar_y + BAR_HEIGHT + 3)}" stroke="currentColor"></line>'
        )
        parts.append(
            f'<rect class="chart-bar" x="{_num(x)}" y="{_num(bar_y)}" '
            f'width="{_num(max(length, 1.0))}" height="{BAR_HEIGHT}"></rect>'
        )
        if bar.low is not None and bar.high is not None:
            low = zero + HALF * bar.low / top
            high = zero + HALF * bar.high / top
            mid = bar_y + BAR_HEIGHT / 2
            parts.append(
                f'<path class="chart-interval" d="M{_num(low)} {_num(mid)}H{_num(high)}'
                f"M{_num(low)} {_num(bar_y - 2)}V{_num(bar_y + BAR_HEIGHT + 2)}"
                f'M{_num(high)} {_num(bar_y - 2)}V{_num(bar_y + BAR_HEIGHT + 2)}"></path>'
            )
        parts.append(
            f'<text class="chart-value" x="{_num(zero + HALF + 6)}" '
            f'y="{_num(bar_y + BAR_HEIGHT - 1)}">{escape(bar.text)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
