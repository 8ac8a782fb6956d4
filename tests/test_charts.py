"""The picture of a person's rating over time (/stats): drawn in each language, of a phone's size."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.i18n import LANGUAGES
from bot.present.charts import COLOURS, HEIGHT, WIDTH, nice_step
from bot.present.leaderboard import rating_picture
from engine import variant_names
from storage.models import RatingPoint


def history(games: dict[str, int]) -> dict[str, list[RatingPoint]]:
    return {
        variant: [RatingPoint(series=n, rating=1300 + 7 * n, provisional=n < 5, at="") for n in range(1, count + 1)]
        for variant, count in games.items()
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rating_picture_draws_each_game_in_its_own_colour(lang: str) -> None:
    png = rating_picture(history({name: 40 // 6**i or 1 for i, name in enumerate(variant_names())}), "Анна Černá", lang)
    assert png is not None and png.startswith(b"\x89PNG") and len(png) < 150_000
    image = Image.open(BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    colours = {colour for _, colour in image.getcolors(WIDTH * HEIGHT) or []}
    for game_colour in COLOURS[: len(variant_names())]:  # one line per game
        assert game_colour in colours


def test_no_rated_series_no_picture() -> None:
    assert rating_picture({}, "Ann", "en") is None


def test_axis_steps_are_round() -> None:
    assert [nice_step(span, 5) for span in (3, 40, 120, 380, 1000)] == [1, 10, 25, 100, 200]
