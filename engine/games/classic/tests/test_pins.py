"""Classic Kozel plays as it did: pins of seeded random play and golden first deals, so that a speed-up or a
refactoring of its engine changes nothing a stored game could observe (``tests.helpers.play_digest``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import find_variant
from tests.helpers import DIGEST_DEALS, ascii_hands, play_digest

PINS: list[tuple[dict[str, Any], int, str]] = [  # (options, seed, SHA-256 of the play)
    ({}, 1, "33e391406d492679ea409b96190d9c7e73480bbd26c21633dd4946448fc8c6e5"),
    ({"deck": 32, "redeal": False}, 2, "63f9d58d86f260dde9d1218fe09f6cc8bd89a17ede2935ee9b87712199b07e77"),
    ({"deck": 32, "all_tricks": "lose_series"}, 3, "cb20c8972ce3c59d17ebc38c903ddedd669705cb9c32124550fdf41066b99964"),
]


@pytest.mark.parametrize(("options", "seed", "expected"), PINS)
def test_random_play_is_what_it_was(options: dict[str, Any], seed: int, expected: str) -> None:
    assert play_digest("classic", options, seed, DIGEST_DEALS) == expected


def test_the_same_seed_deals_the_same_cards() -> None:
    """The first deal of seed 42, readable."""
    classic = find_variant("classic").new_game(42)
    assert classic.dealer == 3
    assert ascii_hands(classic.hands) == [
        "9S TS KS AC 9D JD KD 9H QH",
        "7S 8S JS 7C 8C JC QD 6H KH",
        "6S QS AS 6C 9C QC 7D 8D AD",
        "TC KC 6D TD 7H 8H TH JH AH",
    ]
    short = find_variant("classic").new_game(42, {"deck": 32})
    assert ascii_hands(short.hands) == [
        "9S TS 7C AC 9D JD 8H QH",
        "7S KS 9C TC QC KC 7D 7H",
        "8S JS 8C QD AD 9H TH AH",
        "QS AS JC 8D TD KD JH KH",
    ]
