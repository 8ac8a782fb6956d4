"""The bundled typefaces (``bot/fonts``: DejaVu Sans and DejaVu Sans Bold, which cover Latin, Czech, Cyrillic
and the suit signs), read once per size; nothing is fetched and every picture looks the same everywhere."""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import ImageFont


@cache
def _data(bold: bool) -> bytes:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return resources.files("bot").joinpath("fonts", name).read_bytes()


@cache
def typeface(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or its bold) at ``size`` pixels."""
    return ImageFont.truetype(io.BytesIO(_data(bold)), size)
