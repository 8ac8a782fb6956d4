"""Czech Kozel's rule book (rules.md here) against the bot's /rules text of it, in every language: the
numbers and cards the book states, and the team's decisions and options kept."""

from __future__ import annotations

import pytest

from tests.rulebook import check_fact, decided, options

FACTS = [  # (rule, what the book says, what every language's /rules text says): regular expressions
    ("K1", r"From 3 to 6 players", r"\b3–6\b"),
    ("K2", r"\b32 German-suited", r"\b32\b"),
    ("K2", r"7 8 9 10 spodek \(U\) svršek \(O\) král \(K\) eso \(A\)", r"7 8 9 10 U O K A"),
    ("K3", r"\| 3 \| 10 \| 2 \| \| 4 \| 8 \| 0 \| \| 5 \| 6 \| 2 \| \| 6 \| 5 \| 2 \|", r"10, 8, 6\D{1,6}5\D+3, 4, 5\D{1,6}6\b"),
    ("K5", r"\b1 for every červená \(heart\), 13 for the green svršek", r"♥ 1\b\D+O🍃\D{1,30}\b13\b"),
    ("K5", r"at most 21 penalty points", r"\b21\b"),
    ("K7", r"every other player scores 21 \(42 when the deal was doubled\)", r"\b0\b\D+\b21 \(\D*42\b"),
    ("K8", r"goes over 100", r"\b100\b"),
    ("K9", r"winner gets 3 table points", r"\b3 \("),
    ("K9", r"winner whose total is 0 gets 3 more", r"\b3 \(\D*\b3\b\D*\b0\)"),
    ("K9", r"everyone else 1\b", r"\b0\)\D+\b1\b"),
    ("K9", r"over 100 gets 0", r"\b100\D{1,20}\b0\b"),
]


@pytest.mark.parametrize(("rule_id", "in_book", "in_bot"), FACTS, ids=[f"{f[0]}-{i}" for i, f in enumerate(FACTS)])
def test_the_rules_texts_state_the_numbers_of_the_book(rule_id: str, in_book: str, in_bot: str) -> None:
    check_fact("czech", rule_id, in_book, in_bot)


def test_the_decisions_and_options_of_the_team_are_kept() -> None:
    assert decided("czech") == ["K9"]
    assert options("czech") == []
