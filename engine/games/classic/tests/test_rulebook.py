"""Classic Kozel's rule book (rules.md here) against the bot's /rules text of it, in every language: the
numbers and cards the book states, and the team's decisions and options kept."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES
from engine.games.classic.rules import TRUMP_ORDER
from tests.rulebook import CARD_POINTS, body, card_run, check_fact, decided, options, rule

FACTS = [  # (rule, what the book says, what every language's /rules text says): regular expressions
    ("C2", r"\b36 cards\b.*\b32 cards\b", r"\b36\b.*\b32\b"),
    ("C4", r"6 7 8 9 K 10 A", r"6 7 8 9 K 10 A"),
    ("C5", r"A 11, 10 10, K 4, Q 3, J 2, every other card 0", CARD_POINTS),
    ("C6", r"\b13 card points or less", r"\b13\b"),
    ("C8", r"A♦", r"A♦"),
    ("C12", r"Q♣ and the 6♣.*6♣ scores 4 series points", r"Q♣\D+6♣.*6♣\D{1,30}\b4\b"),
    ("C13", r"\| 61 to 90 \| 2 ", r"\b2\D{1,12}61–90"),
    ("C13", r"\| 91 or more \| 4 ", r"\b4\D{1,6}91\b"),
    ("C13", r"took every trick scores 4\b.*\bfall back to 0", r"\b91\b\D+\b4\b\D+\b0\b"),
    ("C13", r"60:60.*\b2 points\) more", r"60:60\D+\b2\b"),
    ("C14", r"\b12 series points", r"\b12\b"),
]


@pytest.mark.parametrize(("rule_id", "in_book", "in_bot"), FACTS, ids=[f"{f[0]}-{i}" for i, f in enumerate(FACTS)])
def test_the_rules_texts_state_the_numbers_of_the_book(rule_id: str, in_book: str, in_bot: str) -> None:
    check_fact("classic", rule_id, in_book, in_bot)


def test_the_decisions_and_options_of_the_team_are_kept() -> None:
    assert decided("classic") == ["C6", "C7"]
    assert options("classic") == ["C2", "C6", "C13"]


def test_the_classic_trump_order_of_the_rules_texts_is_the_book_s_and_the_engine_s() -> None:
    low_to_high = [str(card) for card in TRUMP_ORDER]
    assert card_run(rule("C3")) == low_to_high
    for lang in LANGUAGES:
        assert card_run(body(lang, "classic")) == low_to_high[::-1], lang
