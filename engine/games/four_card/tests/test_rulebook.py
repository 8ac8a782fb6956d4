"""Four-card Kozel's rule book (rules.md here) against the bot's /rules text of it, in every language: the
numbers and cards the book states, and the team's decisions and options kept."""

from __future__ import annotations

import pytest

from tests.rulebook import CARD_POINTS, check_fact, decided, options

FACTS = [  # (rule, what the book says, what every language's /rules text says): regular expressions
    ("F2", r"\b36-card", r"\b36\b"),
    ("F2", r"6 7 8 9 J Q K 10 A", r"6 7 8 9 J Q K 10 A"),
    ("F3", r"A 11, 10 10, K 4, Q 3, J 2\b.*\b0\b", CARD_POINTS),
    ("F3", r"\b120\b", r"\b120\b"),
    ("F4", r"\b4 cards", r"\b4\b"),
    ("F7", r"\b1 to 4 cards", r"\b1–4\b"),
    ("F14", r"\b61 or more", r"\b61\b"),
    ("F14", r"31 to 59 card points \| 2 \|", r"\b2\D{1,6}31–59"),
    ("F14", r"30 card points or fewer but took at least one trick \| 4 \|", r"\b4\D{1,6}30\b"),
    ("F14", r"took no trick at all \| 6 \|", r"\b30\b\D+\b6\b"),
    ("F14", r"60:60", r"60:60"),
    ("F15", r"\b12 or more penalty points", r"\b12\b"),
]


@pytest.mark.parametrize(("rule_id", "in_book", "in_bot"), FACTS, ids=[f"{f[0]}-{i}" for i, f in enumerate(FACTS)])
def test_the_rules_texts_state_the_numbers_of_the_book(rule_id: str, in_book: str, in_bot: str) -> None:
    check_fact("four_card", rule_id, in_book, in_bot)


def test_the_decisions_and_options_of_the_team_are_kept() -> None:
    assert decided("four_card") == ["F5"]
    assert options("four_card") == []
