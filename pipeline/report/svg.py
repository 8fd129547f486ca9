"""Small inline SVG plots for the site: drawn as text, so pages need no image files and no
plotting library, and stay sharp at any zoom. Every label is escaped (names are untrusted).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from markupsafe import Markup, escape

_FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _scale(low: float, high: float, left: float, right: float):
    span = (high - low) or 1.0
    return lambda value: left + (value - low) / span * (right - left)


def forest(
    labels: Sequence[str],
    centres: Sequence[float],
    lows: Sequence[float | None],
    highs: Sequence[float | None],
    unit: str,
    links: Sequence[str] | None = None,
) -> Markup:
    """One row per item: a dot at ``centre`` and a bar from ``low`` to ``high`` (none where
    the interval is unknown, as when the rate stage draws no bootstrap); a line at 0."""
    rows = len(labels)
    if not rows:
        return Markup("")
    starts = [c if b is None or b != b else b for c, b in zip(centres, lows)]
    ends = [c if b is None or b != b else b for c, b in zip(centres, highs)]
    width, label_width, row_height = 640, 200, 16
    height = rows * row_height + 52
    low, high = min(min(starts), 0.0), max(max(ends), 0.0)
    x = _scale(low, high, label_width + 10, width - 20)
    parts = [
        f'<svg class="plot" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{x(0):.1f}" y1="10" x2="{x(0):.1f}" y2="{height - 37}" stroke="#999" '
        'stroke-dasharray="3,3"/>',
    ]
    for row, (label, centre, start, end) in enumerate(zip(labels, centres, starts, ends)):
        y = 20 + row * row_height
        text = escape(label)
        if links:
            text = Markup('<a href="{}">{}</a>').format(links[row], label)
        parts.append(
            f'<text x="{label_width}" y="{y + 4}" text-anchor="end" {_FONT}>{text}</text>'
            f'<line x1="{x(start):.1f}" y1="{y}" x2="{x(end):.1f}" y2="{y}" stroke="#246" '
            f'stroke-width="2"/><circle cx="{x(centre):.1f}" cy="{y}" r="3.5" fill="#246"/>'
        )
    for tick in _ticks(low, high):
        parts.append(
            f'<text x="{x(tick):.1f}" y="{height - 20}" text-anchor="middle" {_FONT}>'
            f"{tick:+g}</text>"
        )
    parts.append(
        f'<text x="{(label_width + width) / 2:.0f}" y="{height - 4}" text-anchor="middle" '
        f'{_FONT} fill="#666">'
        f"{escape(unit)}</text></svg>"
    )
    return Markup("".join(parts))


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values across ``low..high``."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** int(f"{raw:e}".split("e")[1])
    step = min((m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw), default=raw)
    first = int(low // step) * step
    return [first + i * step for i in range(count + 2) if low <= first + i * step <= high]


def distribution(values: Sequence[float], marked: float | None, unit: str) -> Markup:
    """A histogram of the field's ``values`` with the player's value marked in red."""
    if not values:
        return Markup("")
    width, height, bins = 320, 90, 20
    low, high = min(values), max(values)
    if marked is not None:
        low, high = min(low, marked), max(high, marked)
    span = (high - low) or 1.0
    counts = [0] * bins
    for value in values:
        counts[min(int((value - low) / span * bins), bins - 1)] += 1
    tallest = max(counts)
    bar = (width - 20) / bins
    parts = [
        f'<svg class="plot" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, count in enumerate(counts):
        tall = count / tallest * (height - 30)
        parts.append(
            f'<rect x="{10 + index * bar:.1f}" y="{height - 20 - tall:.1f}" '
            f'width="{bar - 1:.1f}" height="{tall:.1f}" fill="#bcd"/>'
        )
    if marked is not None:
        mark = 10 + (marked - low) / span * (width - 20)
        parts.append(
            f'<line x1="{mark:.1f}" y1="5" x2="{mark:.1f}" y2="{height - 20}" stroke="#c00" '
            'stroke-width="2"/>'
        )
    parts.append(
        f'<text x="10" y="{height - 5}" {_FONT}>{low:.3g}</text>'
        f'<text x="{width - 10}" y="{height - 5}" text-anchor="end" {_FONT}>{high:.3g} '
        f"{escape(unit)}</text></svg>"
    )
    return Markup("".join(parts))


def history(values: Sequence[float], unit: str, width: int = 640, height: int = 120) -> Markup:
    """A rating's path over the games a player played, as a line (at most 400 points)."""
    if len(values) < 2:
        return Markup("")
    step = max(len(values) // 400, 1)
    shown = list(values[::step])
    low, high = min(shown), max(shown)
    x = _scale(0, len(shown) - 1, 40, width - 10)
    y = _scale(low, high, height - 20, 10)
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(shown))
    return Markup(
        f'<svg class="plot" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
        f'<polyline points="{points}" fill="none" stroke="#246" stroke-width="1.5"/>'
        f'<text x="36" y="14" text-anchor="end" {_FONT}>{high:.0f}</text>'
        f'<text x="36" y="{height - 20}" text-anchor="end" {_FONT}>{low:.0f}</text>'
        f'<text x="40" y="{height - 4}" {_FONT} fill="#666">first game</text>'
        f'<text x="{width - 10}" y="{height - 4}" text-anchor="end" {_FONT} fill="#666">'
        f"{len(values):,} games in the order played, the latest at the right; "
        f"{escape(unit)}</text></svg>"
    )


_COLOURS = ("#246", "#c60", "#393", "#939", "#c33", "#399", "#663", "#888")


def lines(
    series: Mapping[str, tuple[Sequence[float], Sequence[float]]],
    x_label: str,
    y_label: str,
    width: int = 480,
    height: int = 200,
    from_zero: bool = True,
) -> Markup:
    """Several named lines (x, y) on one pair of axes, with a legend; the y axis starts at
    zero unless ``from_zero`` is false."""
    shown = {name: (xs, ys) for name, (xs, ys) in series.items() if len(xs)}
    if not shown:
        return Markup("")
    all_x = [x for xs, _ in shown.values() for x in xs]
    all_y = [y for _, ys in shown.values() for y in ys]
    x = _scale(min(all_x), max(all_x), 50, width - 130)
    bottom = min(min(all_y), 0.0) if from_zero else min(all_y)
    y = _scale(bottom, max(all_y), height - 30, 10)
    parts = [
        f'<svg class="plot" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for index, (name, (xs, ys)) in enumerate(shown.items()):
        colour = _COLOURS[index % len(_COLOURS)]
        points = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in zip(xs, ys))
        dots = "".join(
            f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="2.5" fill="{colour}"/>'
            for a, b in zip(xs, ys)
        )
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.5"/>'
            + dots
            + f'<text x="{width - 120}" y="{20 + 14 * index}" {_FONT} fill="{colour}">'
            f"{escape(name)}</text>"
        )
    parts.append(
        f'<text x="45" y="{y(max(all_y)) + 4:.1f}" text-anchor="end" {_FONT}>'
        f"{max(all_y):.3g}</text>"
        f'<text x="45" y="{y(bottom) + 4:.1f}" text-anchor="end" {_FONT}>{bottom:.3g}</text>'
        f'<text x="{(width - 80) / 2:.0f}" y="{height - 8}" text-anchor="middle" {_FONT} '
        f'fill="#666">{escape(x_label)} ({min(all_x):.3g} to {max(all_x):.3g})</text>'
        f'<text x="12" y="{height / 2:.0f}" {_FONT} fill="#666" '
        f'transform="rotate(-90 12 {height / 2:.0f})" text-anchor="middle">'
        f"{escape(y_label)}</text></svg>"
    )
    return Markup("".join(parts))


def short_label(label: str, longest: int = 28) -> str:
    """A point's label that fits beside it: as it is when short enough; a pair's players by
    their surnames ("Terence Reese & Boris Schapiro": "Reese & Schapiro"; " - " joins them
    too); else cut at a word with an ellipsis, never inside a name."""
    if len(label) <= longest:
        return label
    for joint in (" & ", " - "):
        if joint in label:
            parts = label.split(joint)
            surnames = joint.join(part.split()[-1] for part in parts if part.split())
            if len(surnames) <= longest:
                return surnames
            label = surnames
            break
    words, kept = label.split(), ""
    for word in words:
        if len(kept) + len(word) + 2 > longest:
            break
        kept = f"{kept} {word}".strip()
    return (kept.rstrip(" -") or label[: longest - 1]) + "\u2026"


def disc(labels: Sequence[str], xs: Sequence[float], ys: Sequence[float], named: int = 8) -> Markup:
    """A disc game (Bertrand et al.): each player a point; ``i`` beats ``j`` by
    ``x_i y_j - y_i x_j``, so each point beats those up to half a turn anticlockwise of it, the
    more the farther both are from the centre. The ``named`` farthest points are labelled."""
    if not len(xs):
        return Markup("")
    size, margin, side = 360, 30, 190  # the disc, its margin, room for labels each side
    reach = max(max(abs(v) for v in xs), max(abs(v) for v in ys)) or 1.0
    scale = _scale(-reach, reach, side + margin, side + size - margin)
    flip = _scale(-reach, reach, size - margin, margin)  # y grows upwards
    middle, centre, width = side + size / 2, size / 2, size + 2 * side
    parts = [
        f'<svg class="plot" role="img" viewBox="0 0 {width} {size}" width="{width}" '
        f'height="{size}" xmlns="http://www.w3.org/2000/svg">',
        f'<circle cx="{middle}" cy="{centre}" r="{centre - margin}" fill="none" stroke="#ccc"/>',
        f'<line x1="{side + margin}" y1="{centre}" x2="{side + size - margin}" y2="{centre}" '
        'stroke="#eee"/>',
        f'<line x1="{middle}" y1="{margin}" x2="{middle}" y2="{size - margin}" stroke="#eee"/>',
        f'<path d="M {middle + 60} {centre - 12} A 60 60 0 0 0 {middle + 12} {centre - 60}" '
        'fill="none" stroke="#bbb" marker-end="url(#arrow)"/>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#bbb"/></marker></defs>',
    ]
    farthest = sorted(range(len(xs)), key=lambda i: -(xs[i] ** 2 + ys[i] ** 2))[:named]
    for i, (a, b) in enumerate(zip(xs, ys)):
        parts.append(
            f'<circle cx="{scale(a):.1f}" cy="{flip(b):.1f}" r="3.5" fill="#246">'
            f"<title>{escape(labels[i])}</title></circle>"
        )
        if i in farthest:
            anchor = "start" if a >= 0 else "end"
            shift = 6 if a >= 0 else -6
            parts.append(
                f'<text x="{scale(a) + shift:.1f}" y="{flip(b) + 4:.1f}" text-anchor="{anchor}" '
                f"{_FONT}>{escape(short_label(labels[i]))}</text>"
            )
    parts.append(
        f'<text x="{middle + 40}" y="{centre - 44}" {_FONT} fill="#888">beats</text></svg>'
    )
    return Markup("".join(parts))
