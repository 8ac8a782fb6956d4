"""Facts about each game that the bot reads from the variant registry instead of spelling them out."""

from __future__ import annotations

import pytest

from engine import find_variant, variant_named, variant_names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("four_card", "four_card"),
        ("4", "four_card"),
        (" Four-Card ", "four_card"),
        ("4 карты", "four_card"),
        ("Классика", "classic"),
        ("czech", "czech"),
        ("Český", "czech"),
        ("чешский", "czech"),
    ],
)
def test_a_game_is_found_by_its_name_or_an_alias(text: str, name: str) -> None:
    variant = variant_named(text)
    assert variant is not None and variant.name == name


@pytest.mark.parametrize("text", ["", "poker", "4 4", "czechia"])
def test_no_game_answers_to_an_unknown_name(text: str) -> None:
    assert variant_named(text) is None


def test_aliases_name_one_game_each() -> None:
    seen: dict[str, str] = {}
    for name in variant_names():
        for alias in find_variant(name).aliases:
            assert alias not in variant_names() and seen.setdefault(alias, name) == name


def test_seat_counts_and_teams() -> None:
    """F1/C1: two teams of two; K1: three to six players, each for himself."""
    assert find_variant("four_card").players == (4,) and find_variant("four_card").teams
    assert find_variant("classic").players == (4,) and find_variant("classic").teams
    assert find_variant("czech").players == (3, 4, 5, 6) and not find_variant("czech").teams
