"""A deal's result and a series' end drawn as pictures (Pillow): each side's plate with what the deal gave it
and a bar of its total against the series' limit, the goats drawn as goats (and their eggs), the winners with
a cup.  As with the table (``bot.present.pictures``), the words come in translated: this module only places them."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.present.lettering import fitted, put, write
from bot.present.pictures import FELT, GREEN, INK, JPEG_QUALITY, MUTED, NAME_SMALLEST, PLATE, RED, TAKER, WHITE, WIDTH


@dataclass(frozen=True)
class ResultLine:
    """One side of a result: a team or a player, what the deal gave it, and its series total against the
    series' limit (the bar, with what this deal added to it lit), marked as a goat (a loser of the series, or
    Czech Kozel's taker of the kozel in a deal) or a winner (the deal's or the series')."""

    name: str
    detail: str  # "84 card points · +2" / "+13 penalty points"
    total: int
    limit: int
    gained: int = 0  # what this deal added to ``total``
    goat: bool = False
    winner: bool = False


@dataclass(frozen=True)
class ResultText:
    """Everything a result picture shows (it is a function of this value)."""

    title: str  # "Deal 3 · Four-card Kozel", or the series' end
    lines: tuple[ResultLine, ...]
    footer: str = ""  # "Team 2 gets 2 penalty points." / "Winners: Team 2"
    eggs: int = 0  # eggs to draw: a 60:60 deal (F14, C13), or goats with eggs (F15)
    goats: tuple[str, ...] = ()  # the series' end: each goat drawn large, with his name
    against: bool = False  # the totals count against their side (penalty points): their bars are red


def goat(draw: ImageDraw.ImageDraw, at: tuple[float, float], size: float) -> None:
    """A goat's head, facing us: ridged horns, drooping ears, a long face narrowing to the muzzle, amber eyes
    with the goat's level pupils, and a beard."""
    cx, cy = at
    u = size / 10
    horn, ridge = (120, 98, 74), (150, 128, 100)
    for side in (-1, 1):  # the horns sweep up and back
        box = [cx - 5 * u, cy - 7.5 * u, cx - 0.5 * u, cy - 1 * u] if side < 0 else \
              [cx + 0.5 * u, cy - 7.5 * u, cx + 5 * u, cy - 1 * u]  # fmt: skip
        start, end = (180, 300) if side < 0 else (240, 360)
        draw.arc(box, start, end, fill=horn, width=round(1.5 * u))
        for k in range(3):
            a = math.radians(start + (end - start) * (0.3 + 0.2 * k))
            rx, ry, mx, my = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            x, y = mx + rx * math.cos(a), my + ry * math.sin(a)
            draw.line([(x - 1.3 * u * math.cos(a), y - 1.3 * u * math.sin(a)),
                       (x - 0.2 * u * math.cos(a), y - 0.2 * u * math.sin(a))], fill=ridge,
                      width=max(1, round(0.3 * u)))  # fmt: skip
    coat, dark, pink = (238, 232, 220), (90, 84, 76), (232, 180, 170)
    for side in (-1, 1):  # the ears, out to the sides and a little down
        outer = [cx + side * 5.4 * u, cy - 2.2 * u, cx + side * 1.9 * u, cy - 0.2 * u]
        draw.ellipse([min(outer[0], outer[2]), outer[1], max(outer[0], outer[2]), outer[3]], fill=coat, outline=dark,
                     width=2)  # fmt: skip
        inner = [cx + side * 4.8 * u, cy - 1.7 * u, cx + side * 2.6 * u, cy - 0.7 * u]
        draw.ellipse([min(inner[0], inner[2]), inner[1], max(inner[0], inner[2]), inner[3]], fill=pink)
    beard = (150, 140, 125)
    draw.polygon([(cx - 1.2 * u, cy + 3.6 * u), (cx + 1.2 * u, cy + 3.6 * u), (cx + 0.35 * u, cy + 7.4 * u),
                  (cx - 0.35 * u, cy + 7.4 * u)], fill=beard)  # fmt: skip
    face = [(cx - 2.6 * u, cy - 3.2 * u), (cx + 2.6 * u, cy - 3.2 * u), (cx + 1.8 * u, cy + 3.2 * u),
            (cx - 1.8 * u, cy + 3.2 * u)]  # fmt: skip
    draw.polygon(face, fill=coat, outline=dark)
    draw.ellipse([cx - 2.6 * u, cy - 4.2 * u, cx + 2.6 * u, cy - 2.0 * u], fill=coat)  # the brow, rounded
    draw.ellipse([cx - 1.9 * u, cy + 1.6 * u, cx + 1.9 * u, cy + 4.4 * u], fill=coat, outline=dark, width=2)  # muzzle
    for side in (-1, 1):
        eye = [cx + side * 0.55 * u, cy - 1.6 * u, cx + side * 1.95 * u, cy - 0.4 * u]
        draw.ellipse([min(eye[0], eye[2]), eye[1], max(eye[0], eye[2]), eye[3]], fill=(214, 160, 40), outline=INK,
                     width=1)  # fmt: skip
        middle = cx + side * 1.25 * u
        draw.rectangle([middle - 0.5 * u, cy - 1.12 * u, middle + 0.5 * u, cy - 0.88 * u], fill=INK)
        draw.ellipse([cx + side * 1.0 * u - 0.25 * u, cy + 2.6 * u, cx + side * 1.0 * u + 0.25 * u, cy + 3.1 * u],
                     fill=dark)  # fmt: skip
    draw.line([(cx - 0.6 * u, cy + 3.7 * u), (cx, cy + 3.9 * u), (cx + 0.6 * u, cy + 3.7 * u)], fill=dark, width=2)
    draw.polygon([(cx - 0.9 * u, cy - 4.0 * u), (cx, cy - 5.0 * u), (cx + 0.9 * u, cy - 4.0 * u)], fill=(210, 200, 184))


def egg(draw: ImageDraw.ImageDraw, at: tuple[float, float], size: float) -> None:
    """An egg, a little narrower at the top, with a shine."""
    cx, cy = at
    w, h = size * 0.38, size / 2
    draw.ellipse([cx - w, cy - h, cx + w, cy + h * 0.9], fill=(250, 240, 215), outline=(190, 170, 130), width=2)
    draw.ellipse([cx - w * 0.5, cy - h * 0.6, cx - w * 0.15, cy - h * 0.15], fill=(255, 252, 244))


@cache
def _smooth(kind: str, size: int) -> Image.Image:
    """A goat, an egg or a cup drawn at twice its size and scaled down, once per size."""
    image = Image.new("RGBA", (size * 2, size * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if kind == "goat":
        goat(draw, (size, size * 0.98), size * 1.25)
    elif kind == "egg":
        egg(draw, (size, size), size * 1.6)
    else:
        cup(draw, (size, size), size * 1.5)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def cup(draw: ImageDraw.ImageDraw, at: tuple[float, float], size: float) -> None:
    """A winner's cup: a bowl with two handles on a stem and a base."""
    cx, cy = at
    u = size / 10
    gold, dark = (240, 190, 40), (176, 128, 0)
    draw.arc([cx - 5.2 * u, cy - 4 * u, cx - 1.2 * u, cy + 0.6 * u], 90, 270, fill=dark, width=round(0.9 * u))
    draw.arc([cx + 1.2 * u, cy - 4 * u, cx + 5.2 * u, cy + 0.6 * u], 270, 90, fill=dark, width=round(0.9 * u))
    draw.chord([cx - 3.8 * u, cy - 8 * u, cx + 3.8 * u, cy + 2 * u], 0, 180, fill=gold)
    draw.rectangle([cx - 3.8 * u, cy - 4.6 * u, cx + 3.8 * u, cy - 3 * u], fill=gold)
    draw.rectangle([cx - 0.7 * u, cy + 1.8 * u, cx + 0.7 * u, cy + 4 * u], fill=dark)
    draw.rounded_rectangle([cx - 2.8 * u, cy + 3.8 * u, cx + 2.8 * u, cy + 5.2 * u], radius=0.5 * u, fill=dark)
    draw.ellipse([cx - 2.2 * u, cy - 4 * u, cx - 1 * u, cy - 1.6 * u], fill=(255, 230, 140))


GOAT_BAND = 250  # the height of the series' end's band of goats


def draw_result(text: ResultText) -> bytes:
    """A deal's result or a series' end as a JPEG: each side's plate with what the deal gave it and a bar of
    its total against the series' limit (this deal's part lit); at a series' end the goats large, with
    their names and, for goats with eggs, their eggs; a goat's head beside Czech Kozel's taker of the
    kozel, a cup beside the winners, eggs under a 60:60 deal."""
    rows = len(text.lines)
    row_h = 112 if rows <= 4 else 88
    band = GOAT_BAND if text.goats else 0
    eggs_h = 100 if text.eggs and not text.goats else 0
    top = 96 + band
    height = top + rows * row_h + eggs_h + (84 if text.footer else 24)
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    write(image, (WIDTH / 2, 50), text.title, 38, WHITE, place=(40, 14, WIDTH - 40, 88), anchor="mm")
    if text.goats:
        _goat_band(image, text, 96)

    number_size = 30 if rows <= 4 else 26
    numbers = [fitted(f"{line.total}/{line.limit}", number_size, True, "rm", (200, 8, 40, 40)) for line in text.lines]
    number_w = max((-shown.ink[0] for shown in numbers), default=0)
    bar_right = WIDTH - 48 - 24 - number_w - 20
    bar_left = bar_right - 210
    base = (214, 98, 62) if text.against else (70, 120, 180)
    for i, line in enumerate(text.lines):
        y0 = top + i * row_h
        box = (48, y0 + 6, WIDTH - 48, y0 + row_h - 6)
        draw.rounded_rectangle(box, radius=18, fill=TAKER if line.winner else PLATE)
        icon = row_h - 22
        if line.goat or line.winner:
            mark = _smooth("goat" if line.goat else "cup", icon)
            image.paste(mark, (round(box[0] + 10), round(y0 + 11)), mark)
        name_x = box[0] + icon + 22
        split = y0 + row_h * 0.54  # the name above, what the deal gave below
        write(image, (name_x, y0 + row_h * 0.36), line.name, 30 if rows <= 4 else 26, INK,
              place=(name_x - 6, y0 + 8, bar_left - 24, split), anchor="lm", smallest=NAME_SMALLEST)  # fmt: skip
        write(image, (name_x, y0 + row_h * 0.68), line.detail, 24 if rows <= 4 else 20, MUTED,
              place=(name_x - 6, split, bar_left - 24, y0 + row_h - 8), bold=False, anchor="lm")  # fmt: skip
        bar = (bar_left, y0 + row_h / 2 - 14, bar_right, y0 + row_h / 2 + 14)
        draw.rounded_rectangle(bar, radius=14, fill=(226, 228, 224))
        if line.limit and line.total > 0:
            span = bar[2] - bar[0]
            end = bar[0] + max(28, span * min(1.0, line.total / line.limit))
            before = bar[0] + span * min(1.0, max(0, line.total - line.gained) / line.limit)
            fill = GREEN if line.winner else RED if line.goat else base
            draw.rounded_rectangle((bar[0], bar[1], end, bar[3]), radius=14, fill=fill)
            if line.gained > 0 and end - before >= 6:  # this deal's part, lit, with the old part's colour beside it
                lit = tuple(min(255, c + 70) for c in fill)
                draw.rounded_rectangle((max(bar[0], before), bar[1], end, bar[3]), radius=14, fill=lit)
                if before > bar[0] + 14:
                    draw.rectangle((before - 14, bar[1], before, bar[3]), fill=fill)
        number_place = (bar_right + 8, y0 + 6, WIDTH - 56, y0 + row_h - 6)
        put(image, (WIDTH - 72, y0 + row_h / 2), numbers[i], INK, place=number_place)
    if eggs_h:
        _eggs(image, min(text.eggs, 6), WIDTH / 2, top + rows * row_h + eggs_h / 2, 72)
    if text.footer:
        write(image, (WIDTH / 2, height - 46), text.footer, 30, WHITE, place=(40, height - 80, WIDTH - 40, height - 10),
              anchor="mm")  # fmt: skip
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


def _eggs(image: Image.Image, count: int, cx: float, cy: float, size: int) -> None:
    """``count`` eggs side by side, centred on (cx, cy)."""
    mark = _smooth("egg", size)
    step = size * 0.8
    for i in range(count):
        x = cx - step * (count - 1) / 2 + i * step - size / 2
        image.paste(mark, (round(x), round(cy - size / 2)), mark)


def _goat_band(image: Image.Image, text: ResultText, y0: float) -> None:
    """The goats of a series, each large with his name under him, and, for goats with eggs, a pair of eggs
    at each goat's feet."""
    count = len(text.goats)
    size = 170 if count <= 3 else 130
    step = min(size + 110, (WIDTH - 80) / count)
    for i, name in enumerate(text.goats):
        cx = WIDTH / 2 - step * (count - 1) / 2 + i * step
        mark = _smooth("goat", size)
        image.paste(mark, (round(cx - size / 2), round(y0)), mark)
        if text.eggs:
            _eggs(image, 2, cx + size * 0.42, y0 + size * 0.78, size // 4)
        at = (cx, y0 + size + 24)
        under = (cx - step / 2 + 8, at[1] - 22, cx + step / 2 - 8, at[1] + 22)
        write(image, at, name, 24, WHITE, place=under, anchor="mm")
