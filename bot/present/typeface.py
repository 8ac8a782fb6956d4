"""The bundled typefaces (``bot/fonts``, each with its licence there), read once per size; nothing is fetched
and every picture looks the same everywhere.

DejaVu Sans and its bold write Latin, Greek, Cyrillic, Arabic and Hebrew (shaped by HarfBuzz) and the suit
signs; Droid Sans Fallback writes Chinese, Japanese kana and Korean Hangul; Noto Color Emoji draws emoji in
colour, as Telegram shows them.  Which characters a face has is read from its character map (``cmap``), once
per face.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import ImageFont

TEXT = "DejaVuSans.ttf"
TEXT_BOLD = "DejaVuSans-Bold.ttf"
CJK = "DroidSansFallback.ttf"
EMOJI = "NotoColorEmoji.ttf"
EMOJI_STRIKE = 109  # the colour emoji face's bitmaps exist at this size only: drawn at it, then scaled


@cache
def _path(name: str) -> str:
    """The face's file: opened by FreeType from the file, so a face costs no memory until its glyphs are read
    (the emoji face alone is 11 MB)."""
    return str(resources.files("bot").joinpath("fonts", name))


@cache
def face(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The bundled face ``name`` at ``size`` pixels, laid out by HarfBuzz (joined Arabic, ligatures)."""
    return ImageFont.truetype(_path(name), size, layout_engine=ImageFont.Layout.RAQM)


def typeface(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold) at ``size`` pixels."""
    return face(TEXT_BOLD if bold else TEXT, size)


@dataclass(frozen=True)
class Coverage:
    """The characters a face has, as sorted ranges (its cmap's groups)."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, int):
            return False
        i = bisect_right(self.starts, code) - 1
        return i >= 0 and code <= self.ends[i]


@cache
def coverage(name: str) -> Coverage:
    """The characters of the face ``name``, from its Unicode character map (format 12, which every bundled face
    has: a list of ranges of characters mapped to consecutive glyphs)."""
    data = resources.files("bot").joinpath("fonts", name).read_bytes()
    tables = {}
    for i in range(struct.unpack_from(">H", data, 4)[0]):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    cmap = tables[b"cmap"]
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        table = cmap + offset
        if (platform, encoding) in ((3, 10), (0, 4)) and struct.unpack_from(">H", data, table)[0] == 12:
            count = struct.unpack_from(">I", data, table + 12)[0]
            groups = [struct.unpack_from(">III", data, table + 16 + 12 * g) for g in range(count)]
            ranges: list[tuple[int, int]] = []
            for first, end, glyph in sorted(groups):
                start = first + 1 if glyph == 0 else first  # glyph 0 is the missing-glyph box: not had
                if start > end:
                    continue
                if ranges and ranges[-1][1] + 1 >= start:
                    ranges[-1] = (ranges[-1][0], max(end, ranges[-1][1]))
                else:
                    ranges.append((start, end))
            return Coverage(tuple(s for s, _ in ranges), tuple(e for _, e in ranges))
    raise ValueError(f"{name} has no Unicode character map of format 12")
