"""Benchmark charts as SVG, through the one drawing path (:func:`.svg.document`): a cactus
plot and a scatter plot, both with a logarithmic time axis.

* :func:`cactus`: for each solver, its solved puzzles' times in increasing order
  against how many it solved; a line that stops early left puzzles unsolved; the time
  limit is a dashed line.
* :func:`scatter`: one point per puzzle, one solver's time across and the other's up,
  the diagonal where they are equal; a puzzle one of them did not solve sits on the
  edge of the plot (at the time limit), drawn as a hollow mark.

PNG and PDF come from the SVG through :mod:`.convert`.

>>> svg = cactus({"a": [0.1, 0.5, 2.0], "b": [0.2, 0.3]}, limit=10.0)
>>> svg.startswith("<svg") and svg.count('class="series"')
2
>>> svg = scatter([(0.1, 0.2, False, False), (10.0, 1.0, True, False)], "a", "b", limit=10.0)
>>> svg.count('class="point"'), svg.count('class="point edge"')
(1, 1)
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from nonolab.render.svg import FONT, PALETTE, document, escape

WIDTH, HEIGHT = 640, 420
LEFT, RIGHT, TOP, BOTTOM = 70, 150, 36, 52
FLOOR = 1e-3   # seconds: faster times are drawn at the floor of the log axis


def _decades(low: float, high: float) -> tuple[float, float]:
    low = max(low, FLOOR)
    return 10 ** math.floor(math.log10(low)), 10 ** math.ceil(math.log10(max(high, low * 10)))


def _log_position(value: float, low: float, high: float, start: float, length: float) -> float:
    value = min(max(value, low), high)
    return start + length * (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))


def _label(seconds: float) -> str:
    return f"{seconds:g} s"


def _text(x: float, y: float, text: str, anchor: str = "middle", size: int = 12, extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="{FONT}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{escape(text)}</text>")


def _frame(title: str, x_label: str, y_label: str, plot_w: float = WIDTH - LEFT - RIGHT) -> list[str]:
    out = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{HEIGHT - TOP - BOTTOM}" '
           'fill="none" stroke="#444444"/>',
           _text(LEFT + plot_w / 2, 22, title, size=14),
           _text(LEFT + plot_w / 2, HEIGHT - 12, x_label)]
    y_mid = (TOP + HEIGHT - BOTTOM) / 2
    out.append(_text(18, y_mid, y_label, extra=f' transform="rotate(-90 18 {y_mid:.1f})"'))
    return out


def _log_ticks(low: float, high: float, axes: str, plot_w: float = WIDTH - LEFT - RIGHT) -> list[str]:
    """Grid lines and labels at each power of ten, on the y axis, and the x axis too (``axes="xy"``)."""
    out = ['<g class="ticks">']
    plot_h = HEIGHT - TOP - BOTTOM
    for k in range(int(round(math.log10(high / low))) + 1):
        value = low * 10 ** k
        y = _log_position(value, low, high, HEIGHT - BOTTOM, -plot_h)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#dddddd"/>')
        out.append(_text(LEFT - 6, y + 4, _label(value), anchor="end", size=11))
        if "x" in axes:
            x = _log_position(value, low, high, LEFT, plot_w)
            out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" stroke="#dddddd"/>')
            out.append(_text(x, HEIGHT - BOTTOM + 16, _label(value), size=11))
    out.append("</g>")
    return out


def _legend(names: Sequence[str]) -> list[str]:
    out = ['<g class="legend">']
    for k, name in enumerate(names):
        y = TOP + 10 + 18 * k
        colour = PALETTE[k % len(PALETTE)]
        out.append(f'<line x1="{WIDTH - RIGHT + 12}" y1="{y}" x2="{WIDTH - RIGHT + 30}" y2="{y}" '
                   f'stroke="{colour}" stroke-width="2.5"/>')
        out.append(_text(WIDTH - RIGHT + 36, y + 4, name, anchor="start", size=11))
    out.append("</g>")
    return out


def cactus(times: Mapping[str, Sequence[float]], limit: float | None = None, title: str = "Solved within a time",
           unit: str = "time") -> str:
    """The cactus plot of each solver's solved times (seconds; unsolved runs left out)."""
    finite = [t for ts in times.values() for t in ts if math.isfinite(t)]
    low, high = _decades(min(finite, default=FLOOR), max([*finite, limit or 0, FLOOR * 10]))
    most = max([len(ts) for ts in times.values()] + [1])
    body = _frame(title, "puzzles solved", f"{unit} per puzzle (log)") + _log_ticks(low, high, "y")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    for k in range(0, most + 1, max(1, most // 5)):
        x = LEFT + plot_w * k / most
        body.append(_text(x, HEIGHT - BOTTOM + 16, str(k), size=11))
    if limit:
        y = _log_position(limit, low, high, HEIGHT - BOTTOM, -plot_h)
        body.append(f'<line class="limit" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                    'stroke="#d62728" stroke-dasharray="6 4"/>')
        body.append(_text(WIDTH - RIGHT - 4, y - 4, f"limit {_label(limit)}", anchor="end", size=10))
    for k, (name, ts) in enumerate(times.items()):
        solved = sorted(t for t in ts if math.isfinite(t))
        points = " ".join(f"{LEFT + plot_w * (i + 1) / most:.1f},"
                          f"{_log_position(t, low, high, HEIGHT - BOTTOM, -plot_h):.1f}" for i, t in enumerate(solved))
        colour = PALETTE[k % len(PALETTE)]
        body.append(f'<g class="series" data-name="{escape(name)}"><polyline points="{points}" fill="none" '
                    f'stroke="{colour}" stroke-width="2"/></g>')
    body += _legend(list(times))
    return document(WIDTH, HEIGHT, body, title)


def scatter(points: Sequence[tuple[float, float, bool, bool]], x_name: str, y_name: str,
            limit: float | None = None, unit: str = "time") -> str:
    """One point per puzzle: ``(x time, y time, x unsolved, y unsolved)``; unsolved ones at the edge."""
    finite = [v for x, y, _, _ in points for v in (x, y) if math.isfinite(v)]
    edge = limit or max(finite, default=1.0)
    low, high = _decades(min(finite, default=FLOOR), max([*finite, edge, FLOOR * 10]))
    size = HEIGHT - TOP - BOTTOM
    body = _frame(f"{y_name} against {x_name}", f"{x_name}: {unit} (log)", f"{y_name}: {unit} (log)", size)
    body += _log_ticks(low, high, "xy", size)
    body.append(f'<line class="diagonal" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{LEFT + size}" y2="{TOP}" '
                'stroke="#888888" stroke-dasharray="4 4"/>')
    for x_time, y_time, x_out, y_out in points:
        x = _log_position(edge if x_out else x_time, low, high, LEFT, size)
        y = _log_position(edge if y_out else y_time, low, high, HEIGHT - BOTTOM, -size)
        if x_out or y_out:
            body.append(f'<circle class="point edge" cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="none" '
                        f'stroke="{PALETTE[2]}" stroke-width="1.5"/>')
        else:
            body.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{PALETTE[0]}" '
                        'fill-opacity="0.7"/>')
    body.append(_text(LEFT + size + 10, TOP + 14, "below the diagonal:", anchor="start", size=11))
    body.append(_text(LEFT + size + 10, TOP + 28, f"{y_name} faster", anchor="start", size=11))
    body.append(_text(LEFT + size + 10, TOP + 50, "hollow: not solved", anchor="start", size=11))
    return document(LEFT + size + RIGHT, HEIGHT, body, f"{y_name} against {x_name}")
