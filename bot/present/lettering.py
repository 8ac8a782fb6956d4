"""Text in the pictures as Telegram shows it, in the place it is given.

Pillow writes a text in one face and has no fallback, so a text is cut into runs: grapheme clusters (a letter
with its accents, an emoji with its skin tone, a ZWJ family, a flag's pair of regional indicators) go whole
to the first bundled face that has all their characters (``bot.present.typeface``), emoji to the colour emoji face
first; the runs are ordered as the Unicode bidirectional algorithm orders them (the base direction from the
first strong character, as Telegram does for a name) and each run is shaped by HarfBuzz in its direction, so
Arabic is joined and read right to left.  A cluster no face has is left out.

A text is fitted to its place: written smaller, down to a smallest size, and then cut at a cluster with "…"
(at its logical end: the left, in a right-to-left text).  Each text is laid out once and kept as a mask (and
its emoji as a colour layer), pasted in its colour wherever it is written again.  ``recording`` lists what is
written and where, with the place it had to fit, so tests check the drawing itself.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.present.bidi import levels, visual_order
from bot.present.typeface import CJK, EMOJI, EMOJI_STRIKE, TEXT, TEXT_BOLD, coverage, face, typeface

ELLIPSIS = "…"
SMALLEST = 14  # pixels: no text is written smaller (a picture is read on a phone)
EMOJI_EM = 1.15  # an emoji's square, in the text's size: as tall as the text's line, as Telegram draws it
BOLD_STROKE = 1 / 40  # the outline, in the size, that thickens a face without a bold (the CJK one)

Box = tuple[float, float, float, float]

# Characters with emoji presentation below U+1F000 (Unicode's Emoji_Presentation); from U+1F000 on every
# emoji is drawn as one, as Telegram does.
_BMP_EMOJI = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615),
    (0x2648, 0x2653), (0x267F, 0x267F), (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
    (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797), (0x27B0, 0x27B0), (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
)  # fmt: skip
# Characters drawn as nothing (Unicode's Default_Ignorable_Code_Point): HarfBuzz hides them, so no face need
# have them.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip


def _within(code: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(start <= code <= end for start, end in ranges)


def _regional(code: int) -> bool:
    return 0x1F1E6 <= code <= 0x1F1FF


def _extends(code: int) -> bool:
    """Whether the character belongs to the cluster before it: a combining mark, a joiner, a variation
    selector, a skin tone, a tag of a subdivision's flag."""
    return (unicodedata.category(chr(code)) in ("Mn", "Me", "Mc") or code in (0x200C, 0x200D)
            or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F)  # fmt: skip


def clusters(text: str) -> list[str]:
    """``text`` cut into grapheme clusters (Unicode's extended grapheme clusters, as far as names need)."""
    found: list[str] = []
    for char in text:
        code = ord(char)
        if found:
            last = found[-1]
            pair = _regional(code) and _regional(ord(last[-1])) and sum(_regional(ord(c)) for c in last) % 2 == 1
            if _extends(code) or last[-1] == "\u200d" or pair:
                found[-1] = last + char
                continue
        found.append(char)
    return found


def _emoji(cluster: str) -> bool:
    first = ord(cluster[0])
    return first >= 0x1F000 or "\ufe0f" in cluster or "\u20e3" in cluster or _within(first, _BMP_EMOJI)


@lru_cache(maxsize=8192)
def face_of(cluster: str, bold: bool) -> str | None:
    """The first bundled face that has all of the cluster's characters ("" for a cluster drawn as nothing;
    None when no face has it)."""
    codes = [ord(c) for c in cluster if not _within(ord(c), _IGNORABLE)]
    if not codes:
        return ""
    text = TEXT_BOLD if bold else TEXT
    for name in (EMOJI, text, CJK) if _emoji(cluster) else (text, CJK, EMOJI):
        have = coverage(name)
        if all(code in have for code in codes):
            return name
    return None


def drawable(text: str) -> bool:
    """Whether anything of ``text`` can be drawn (a character some bundled face has)."""
    return any(face_of(cluster, True) for cluster in clusters(text))


# --- runs and their drawing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """Clusters written together: in one face and one direction."""

    text: str
    face: str
    rtl: bool


@lru_cache(maxsize=2048)
def runs(text: str, bold: bool) -> tuple[Run, ...]:
    """``text``'s runs in visual order (left to right), the clusters no face has left out."""
    found = clusters(text)
    _, cluster_levels = levels([unicodedata.bidirectional(c[0]) or "ON" for c in found])
    pieces: list[tuple[str, str, int]] = []  # text, face, level: in logical order
    for cluster, level in zip(found, cluster_levels, strict=True):
        name = face_of(cluster, bold)
        if not name:
            continue
        if pieces and pieces[-1][1:] == (name, level):
            pieces[-1] = (pieces[-1][0] + cluster, name, level)
        else:
            pieces.append((cluster, name, level))
    order = visual_order([level for _, _, level in pieces])
    return tuple(Run(pieces[i][0], pieces[i][1], pieces[i][2] % 2 == 1) for i in order)


@lru_cache(maxsize=512)
def _emoji_run(text: str) -> Image.Image:
    """Emoji at the colour face's one size, as a colour image of their full line (ascent over descent)."""
    font = face(EMOJI, EMOJI_STRIKE)
    ascent, descent = font.getmetrics()
    image = Image.new("RGBA", (max(1, math.ceil(font.getlength(text))), ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((0, ascent), text, font=font, anchor="ls", embedded_color=True)
    return image


@dataclass(frozen=True, eq=False)
class Lettering:
    """A text laid out at a size: its mask (and its emoji in colour), the corner of both from the anchor
    point, and the box of what is drawn in them."""

    text: str  # what is written (the given text, or its cut)
    size: int
    runs: tuple[Run, ...]
    mask: Image.Image
    colour: Image.Image | None
    left: int
    top: int
    ink: tuple[int, int, int, int]  # from the anchor point; (0, 0, 0, 0) when nothing is drawn

    @property
    def width(self) -> int:
        return self.ink[2] - self.ink[0]


@lru_cache(maxsize=2048)
def lettering(text: str, size: int, bold: bool = True, anchor: str = "la") -> Lettering:
    """``text`` at ``size`` pixels, in bold or not, anchored as Pillow anchors a text (``la``: the left end
    of its ascender line, ``mm``: the middle, ``rs``: the right end of its baseline...)."""
    placed: list[tuple[Run, int, int, Image.Image, bool]] = []  # run, x, y from the pen's start, image, colour
    pen = 0.0
    for run in runs(text, bold):
        if run.face == EMOJI:  # the colour face is opened only for a text that has emoji
            emoji = face(EMOJI, EMOJI_STRIKE)
            scale = size * EMOJI_EM / sum(emoji.getmetrics())
            strike = _emoji_run(run.text)
            shown = strike.resize((max(1, round(strike.width * scale)), max(1, round(strike.height * scale))),
                                  Image.Resampling.LANCZOS)  # fmt: skip
            placed.append((run, round(pen), round(-emoji.getmetrics()[0] * scale), shown, True))
            pen += emoji.getlength(run.text) * scale
            continue
        font = face(run.face, size)
        stroke = size * BOLD_STROKE if bold and run.face == CJK else 0
        direction = "rtl" if run.rtl else "ltr"
        left, top, right, bottom = font.getbbox(run.text, anchor="ls", direction=direction, stroke_width=stroke)
        piece = Image.new("L", (max(1, math.ceil(right - left)), max(1, math.ceil(bottom - top))), 0)
        ImageDraw.Draw(piece).text((-left, -top), run.text, font=font, fill=255, anchor="ls", direction=direction,
                                   stroke_width=stroke, stroke_fill=255)  # fmt: skip
        placed.append((run, round(pen + left), round(top), piece, False))
        pen += font.getlength(run.text, direction=direction)

    x0 = min([0, *(x for _, x, _, _, _ in placed)])
    y0 = min([0, *(y for _, _, y, _, _ in placed)])
    x1 = max([1, *(x + image.width for _, x, _, image, _ in placed)])
    y1 = max([1, *(y + image.height for _, _, y, image, _ in placed)])
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    colour = Image.new("RGBA", mask.size, (0, 0, 0, 0)) if any(c for *_, c in placed) else None
    for _, x, y, image, in_colour in placed:
        if in_colour:
            assert colour is not None
            colour.alpha_composite(image, (x - x0, y - y0))
        else:
            mask.paste(image, (x - x0, y - y0), image)
    boxes = [b for b in (mask.getbbox(), colour.getchannel("A").getbbox() if colour else None) if b]
    ascent, descent = typeface(size, bold).getmetrics()
    ax = {"l": 0.0, "m": pen / 2, "r": pen}[anchor[0]]
    ay = {"a": -ascent, "m": (descent - ascent) / 2, "s": 0, "d": descent, "t": y0, "b": y1}[anchor[1]]
    left, top = round(x0 - ax), round(y0 - ay)
    ink = (min(b[0] for b in boxes) + left, min(b[1] for b in boxes) + top, max(b[2] for b in boxes) + left,
           max(b[3] for b in boxes) + top) if boxes else (0, 0, 0, 0)  # fmt: skip
    return Lettering(text, size, tuple(r for r, *_ in placed), mask, colour, left, top, ink)


def _fits(shown: Lettering, room: tuple[int, int, int, int]) -> bool:
    left, right, up, down = room
    x0, y0, x1, y1 = shown.ink
    return -left <= x0 and x1 <= right and -up <= y0 and y1 <= down


@lru_cache(maxsize=2048)
def fitted(text: str, size: int, bold: bool, anchor: str, room: tuple[int, int, int, int], *,
           smallest: int = SMALLEST) -> Lettering:  # fmt: skip
    """``text`` at the largest size up to ``size`` (and not below ``smallest``) at which it stays within
    ``room`` of its anchor point (left, right, up, down); at ``smallest``, as many of its clusters as fit,
    and "…"."""
    shown = lettering(text, size, bold, anchor)
    while not _fits(shown, room) and shown.size > smallest:
        x0, y0, x1, y1 = shown.ink
        left, right, up, down = room
        ratio = min(left / -x0 if x0 < 0 else 1, right / x1 if x1 > 0 else 1, up / -y0 if y0 < 0 else 1,
                    down / y1 if y1 > 0 else 1)  # fmt: skip
        smaller = max(smallest, min(shown.size - 1, math.floor(shown.size * ratio)))
        shown = lettering(text, smaller, bold, anchor)
    if _fits(shown, room):
        return shown
    pieces = clusters(text)
    low, high = 0, len(pieces) - 1  # the most clusters that fit before "…": at least none
    best = lettering(ELLIPSIS, smallest, bold, anchor)
    while low <= high:
        middle = (low + high) // 2
        cut = lettering("".join(pieces[:middle]).rstrip() + ELLIPSIS, smallest, bold, anchor)
        if _fits(cut, room):
            best, low = cut, middle + 1
        else:
            high = middle - 1
    return best


# --- writing in a picture -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """A text written in a picture, as ``recording`` lists it."""

    text: str  # as given
    shown: Lettering
    box: tuple[int, int, int, int]  # what is drawn, in the picture's pixels
    place: Box  # where it had to fit
    picture: tuple[int, int]  # the picture's size


_recording: ContextVar[list[Written] | None] = ContextVar("recording", default=None)


@contextmanager
def recording() -> Iterator[list[Written]]:
    """Every text written in the pictures drawn meanwhile (in this thread), in order."""
    written: list[Written] = []
    token = _recording.set(written)
    try:
        yield written
    finally:
        _recording.reset(token)


def room(at: tuple[float, float], place: Box) -> tuple[int, int, int, int]:
    """How far a text may reach from its anchor point ``at`` (left, right, up, down) to stay in ``place``."""
    x, y = round(at[0]), round(at[1])
    return (max(0, x - math.ceil(place[0])), max(0, math.floor(place[2]) - x), max(0, y - math.ceil(place[1])),
            max(0, math.floor(place[3]) - y))  # fmt: skip


def put(image: Image.Image, at: tuple[float, float], shown: Lettering, fill: tuple[int, int, int], *, place: Box,
        text: str | None = None) -> tuple[int, int, int, int]:  # fmt: skip
    """Paste ``shown`` with its anchor point at ``at``, in ``fill`` (its emoji in their colours); returns the
    box of what is drawn."""
    x, y = round(at[0]) + shown.left, round(at[1]) + shown.top
    image.paste(fill, (x, y), shown.mask)
    if shown.colour is not None:
        image.paste(shown.colour, (x, y), shown.colour)
    dx, dy = round(at[0]), round(at[1])
    box = (shown.ink[0] + dx, shown.ink[1] + dy, shown.ink[2] + dx, shown.ink[3] + dy)
    written = _recording.get()
    if written is not None:
        written.append(Written(shown.text if text is None else text, shown, box, place, image.size))
    return box


def write(image: Image.Image, at: tuple[float, float], text: str, size: int, fill: tuple[int, int, int],
          *, place: Box, bold: bool = True, anchor: str = "la",
          smallest: int = SMALLEST) -> tuple[int, int, int, int]:  # fmt: skip
    """Write ``text`` with its ``anchor`` point at ``at``, at ``size`` or as much smaller (then cut) as keeps
    it in ``place``; returns the box of what is drawn."""
    shown = fitted(text, size, bold, anchor, room(at, place), smallest=min(smallest, size))
    return put(image, at, shown, fill, place=place, text=text)
