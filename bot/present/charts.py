"""Pictures drawn with Pillow: a person's rating over time.

Drawn at twice the size and scaled down, which smooths the lines and letters; the text is large enough to be
read on a phone once Telegram has shrunk the picture to its chat's width.  The fonts come with the bot
(``bot.present.typeface``), so nothing is fetched and the picture looks the same on every machine; the person's name
is written as Telegram shows it, emoji and all (``bot.present.lettering``).
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.present.lettering import fitted, put, room, write

WIDTH, HEIGHT = 1000, 640  # the picture as sent
SUPER = 2  # drawn at this multiple, then scaled down
BACKGROUND = (255, 255, 255)
INK = (33, 37, 41)
GRID = (222, 226, 230)
MUTED = (108, 117, 125)
# Colours told apart by people with any common colour blindness (Okabe and Ito's palette), one per game.
COLOURS = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233))
MIN_SPAN = 100  # rating points the vertical axis shows at least


@dataclass(frozen=True)
class Line:
    """One game's rating after each of the person's rated series: (series number, rating, provisional)."""

    label: str
    points: Sequence[tuple[int, int, bool]]


def nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 2.5 or 5 times a power of ten, at least 1) that cuts ``span`` into about ``ticks``."""
    raw = max(span / max(ticks, 1), 1.0)
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0):
        if raw <= factor * power:
            return max(1, round(factor * power))
    return round(10.0 * power)


def rating_chart(lines: Sequence[Line], title: str, x_label: str, notes: Mapping[str, str]) -> bytes:
    """A PNG of each line over the person's rated series.  ``notes``: "settled" and "provisional", the
    legend of the solid and the dashed stroke."""
    s = SUPER
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, right, bottom = 110 * s, (WIDTH - 110) * s, (HEIGHT - 90) * s
    write(image, (left, 28 * s), title, 34 * s, INK, place=(left - 6 * s, 10 * s, (WIDTH - 20) * s, 74 * s),
          smallest=22 * s)  # fmt: skip
    top = _legend(image, draw, lines, notes, left) + 36 * s

    ratings = [r for line in lines for _, r, _ in line.points] or [1500]
    last = max((n for line in lines for n, _, _ in line.points), default=1)
    middle = (max(ratings) + min(ratings)) / 2
    span = max(max(ratings) - min(ratings), MIN_SPAN)  # a few points' change does not fill the picture
    step = nice_step(span, 5)
    low = math.floor((min(*ratings, middle - span / 2) - step / 2) / step) * step
    high = math.ceil((max(*ratings, middle + span / 2) + step / 2) / step) * step
    first_x = min((n for line in lines for n, _, _ in line.points), default=0)
    last_x = max(last, first_x + 1)

    def at(series: int, rating: int) -> tuple[float, float]:
        x = left + (right - left) * (series - first_x) / (last_x - first_x)
        y = bottom - (bottom - top) * (rating - low) / (high - low)
        return x, y

    small = 22 * s
    for value in range(int(low), int(high) + 1, step):
        _, y = at(first_x, value)
        draw.line([(left, y), (right, y)], fill=GRID, width=2 * s)
        write(image, (left - 14 * s, y), str(value), small, MUTED, place=(0, y - 18 * s, left - 8 * s, y + 18 * s),
              bold=False, anchor="rm")  # fmt: skip
    x_step = nice_step(last_x - first_x, 6)
    for series in [first_x, *range(x_step, last_x + 1, x_step)]:
        if series != first_x and series - first_x < x_step / 2:
            continue  # a tick too close to the first one
        x, _ = at(series, int(low))
        draw.line([(x, bottom), (x, bottom + 8 * s)], fill=MUTED, width=2 * s)
        write(image, (x, bottom + 14 * s), str(series), small, MUTED,
              place=(x - 60 * s, bottom + 10 * s, x + 60 * s, bottom + 44 * s), bold=False, anchor="mt")  # fmt: skip
    draw.line([(left, bottom), (right, bottom)], fill=MUTED, width=2 * s)
    write(image, ((left + right) / 2, bottom + 48 * s), x_label, small, MUTED,
          place=(left, bottom + 44 * s, right, HEIGHT * s - 4 * s), bold=False, anchor="mt")  # fmt: skip

    for index, line in enumerate(lines):
        colour = COLOURS[index % len(COLOURS)]
        points = [(at(n, r), provisional) for n, r, provisional in line.points]
        for (start, _), (end, provisional) in itertools.pairwise(points):
            if provisional:
                _dashed(draw, start, end, colour, 3 * s)
            else:
                draw.line([start, end], fill=colour, width=6 * s, joint="curve")
        dotted = points if len(points) <= 20 else points[-1:]  # many dots would hide the line
        for (x, y), provisional in dotted:
            radius = (5 if provisional else 7) * s
            draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)
        if points:
            (x, y), _ = points[-1]
            shown = f"{line.points[-1][1]}{'?' if line.points[-1][2] else ''}"
            where = (x + 14 * s, y)
            place = (where[0] - 4 * s, y - 24 * s, WIDTH * s - 4 * s, y + 24 * s)
            written = fitted(shown, 24 * s, True, "lm", room(where, place))
            ink = written.ink
            draw.rectangle((where[0] + ink[0], y + ink[1], where[0] + ink[2], y + ink[3]), fill=BACKGROUND)
            put(image, where, written, colour, place=place, text=shown)

    out = io.BytesIO()
    image.resize((WIDTH, HEIGHT), Image.Resampling.BOX).save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, lines: Sequence[Line], notes: Mapping[str, str],
            left: int) -> int:  # fmt: skip
    """Each game's colour and name, then the two strokes, in rows as wide as the picture; returns the
    bottom of the last row."""
    s = SUPER
    entries: list[tuple[tuple[int, int, int], str, bool, int, bool]] = [
        (COLOURS[i % len(COLOURS)], line.label, False, 24 * s, i == 0) for i, line in enumerate(lines)
    ]
    entries += [(MUTED, notes["settled"], False, 22 * s, True), (MUTED, notes["provisional"], True, 22 * s, False)]
    x, y = left, 90 * s - 38 * s
    end = (WIDTH - 20) * s
    for colour, label, dashed, size, new_row in entries:
        widest = (4 * s, end - left - 46 * s, 19 * s, 19 * s)
        written = fitted(label, size, False, "lm", widest)
        width = 46 * s + written.ink[2]
        if new_row or x + width > end:
            x, y = left, y + 38 * s
        if dashed:
            _dashed(draw, (x, y), (x + 36 * s, y), colour, 3 * s)
        else:
            draw.line([(x, y), (x + 36 * s, y)], fill=colour, width=6 * s)
        place = (x + 42 * s, y - 19 * s, x + 46 * s + widest[1], y + 19 * s)
        put(image, (x + 46 * s, y), written, MUTED if colour is MUTED else INK, place=place, text=label)
        x += int(width) + 36 * s
    return y + 14 * s


def _dashed(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: tuple[int, int, int],
    width: int,
) -> None:  # fmt: skip
    length = math.dist(start, end)
    dash = 12 * SUPER
    count = max(1, int(length // dash))
    for i in range(0, count, 2):
        a, b = i / count, min(1.0, (i + 1) / count)
        draw.line(
            [(start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a),
             (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b)],
            fill=colour, width=width,
        )  # fmt: skip
