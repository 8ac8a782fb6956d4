"""Four-card Kozel plays as it did: pins of seeded random play and golden first deals, so that a speed-up or a
refactoring of its engine changes nothing a stored game could observe (``tests.helpers.play_digest``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.four_card.rules import FourCardState
from tests.helpers import DIGEST_DEALS, play_digest

PINS: list[tuple[dict[str, Any], int, str]] = [  # (options, seed, SHA-256 of the play)
    ({}, 1, "f8b6984d812fea60f78cfec107dfc9f354d364d3057ea7cb1c509ff58c4b3364"),
    ({}, 2, "af366b65c09804dce81c853941f13748093ba07e7156959adbf5feaa736738f3"),
]


@pytest.mark.parametrize(("options", "seed", "expected"), PINS)
def test_random_play_is_what_it_was(options: dict[str, Any], seed: int, expected: str) -> None:
    assert play_digest("four_card", options, seed, DIGEST_DEALS) == expected


def test_the_same_seed_deals_the_same_cards() -> None:
    """The first deal of seed 42, readable."""
    four = FourCardState.new(42)
    assert " ".join(c.ascii for c in four.stock) == ("AC 7C AS 8H 9S 8C AD TD KD JS 8D KC 9D 8S QS TC TS 7S 9C AH")
