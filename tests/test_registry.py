"""Facts about each game that the bot reads from the variant registry instead of spelling them out."""

from __future__ import annotations

import pytest

from engine import find_variant, variant_named, variant_names
from engine.games import PACKAGES
from engine.registry import default_variant_name
from storage.models import ChatSettings


def spellings(word: str) -> list[str]:
    """How people type a game's name or alias: as it is, capitalised, upper case, padded, with a hyphen where
    the name has an underscore."""
    return [word, word.capitalize(), word.upper(), f" {word} ", word.replace("_", "-")]


@pytest.mark.parametrize("name", variant_names())
def test_a_game_is_found_by_its_name_or_an_alias(name: str) -> None:
    variant = find_variant(name)
    for word in (name, *variant.aliases):
        for text in spellings(word):
            found = variant_named(text)
            assert found is not None and found.name == name, text


@pytest.mark.parametrize("text", ["", "poker", "4 4", "czechia"])
def test_no_game_answers_to_an_unknown_name(text: str) -> None:
    assert variant_named(text) is None


def test_aliases_name_one_game_each() -> None:
    seen: dict[str, str] = {}
    for name in variant_names():
        for alias in find_variant(name).aliases:
            assert alias not in variant_names() and seen.setdefault(alias, name) == name


def test_the_games_are_offered_in_the_order_of_their_registration() -> None:
    """engine.games.PACKAGES orders the games: the bot offers them so, and the first is a chat's game until
    it picks another."""
    assert [find_variant(name).package for name in variant_names()] == [f"engine.games.{p}" for p in PACKAGES]
    assert default_variant_name() == variant_names()[0]
    assert ChatSettings().default_variant == variant_names()[0]
