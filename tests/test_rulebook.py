"""The rule book: docs/rules.md and each game's own book (``engine/games/<game>/rules.md``).  Each numbers its
rules from 1 under a letter of its own, some test names every rule, the team's decisions and options are
marked as such, and the bot's /rules texts state only numbers the game's book states, the same in every
language.  Each game's package checks the facts of its own book against its /rules text
(``tests/test_rulebook.py`` there)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.delivery.sending import visible
from bot.i18n import LANGUAGES
from bot.present.menus import render_rules
from engine import variant_names
from tests.rulebook import (
    all_ids,
    body,
    books,
    function_names,
    ids,
    names_rule,
    numbers,
    rule,
    rules_text,
    section,
    text,
)

TELEGRAM_LIMIT = 4096  # characters of one message, after the HTML tags are parsed


# --- (a) the ids of the books, and the tests that name them ---------------------------------------------------


def test_each_book_numbers_its_rules_from_one_under_a_letter_of_its_own() -> None:
    letters = []
    for game, path in books().items():
        found = ids(path)
        assert found, f"{path} holds no rule"
        letter = found[0][0]
        assert found == [f"{letter}{n}" for n in range(1, len(found) + 1)], f"{path}: {found}"
        assert (letter == "X") == (game == ""), f"X is the common page's letter, and only its: {path}"
        letters.append(letter)
    assert len(set(letters)) == len(letters), letters
    assert len(all_ids()) == len(set(all_ids()))


def test_every_rule_of_the_book_is_named_by_a_test() -> None:
    names = function_names()
    assert "test_every_rule_of_the_book_is_named_by_a_test" in names  # the scan sees this very file
    missing = [rule_id for rule_id in all_ids() if not any(names_rule(n, rule_id) for n in names)]
    assert missing == [], f"no test function names these rules: {missing}"


def test_names_rule_matches_whole_ids_only() -> None:
    assert names_rule("test_F1_players", "F1") and names_rule("test_K8_K9_table_points", "K9")
    assert not names_rule("test_F10_molodka", "F1") and not names_rule("test_C12_queen", "C1")


def test_every_decided_note_and_option_sits_in_a_rule() -> None:
    """A Decided note or an option mark outside a rule would be a decision nobody's test names."""
    for game, path in books().items():
        book = text(path)
        in_rules = [rule_id for rule_id in ids(path) if "Decided:" in rule(rule_id)]
        explained = 1 if game == "" else 0  # the common page explains the notes once
        assert book.count("Decided:") == len(in_rules) + explained, path
        marked = [rule_id for rule_id in ids(path) if "(option" in rule(rule_id)]
        assert book.count("*(option") == len(marked) + explained, path
        assert all("default" in rule(rule_id) for rule_id in marked), path


def test_the_book_points_nowhere_outside_the_repository() -> None:
    """No address outside, and every link to a file of the repository (the common page's to each game's
    book) finds it."""
    for path in books().values():
        assert not re.search(r"https?://|/work/|seeds/|RULES\.md", text(path)), path
        for link in re.findall(r"\]\(([^)]+)\)", text(path)):
            assert (path.parent / link).resolve().is_file(), f"{path}: {link} is not a file of the repository"


# --- (b) the /rules texts against the book ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", variant_names())
def test_every_number_of_a_rules_text_is_in_the_book_and_every_language_states_the_same(variant: str) -> None:
    """A wrong number in a /rules text is a number the book does not state for that game; and the languages
    carry the same numbers, as many times each."""
    in_book = set(numbers(section(variant)))
    counts = {lang: Counter(numbers(body(lang, variant))) for lang in LANGUAGES}
    for lang, found in counts.items():
        assert set(found) <= in_book, f"{lang} /rules {variant}: {set(found) - in_book} are not in the book"
        assert found == counts["en"], f"{lang} /rules {variant} states other numbers than the English text"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_reply_fits_telegram_s_messages_and_points_nowhere(lang: str) -> None:
    """/rules without a game sends every game's text, in as few messages as fit (today's games: one), no
    game's text split (bot.present.menus.render_rules)."""
    messages = render_rules(variant_names(), lang)
    assert "\n\n".join(messages) == "\n\n".join(rules_text(lang, variant) for variant in variant_names())
    for reply in messages:
        shown = re.sub(r"</?b>", "", reply)
        assert not re.search(r"[<>&]", shown), "only <b> tags, and no bare HTML characters"
        assert len(shown.encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT
        assert not re.search(r"https?://|t\.me/|\.\./|\.md\b", reply)
    many = render_rules(variant_names() * 4, lang)  # more games than one message holds
    assert len(many) > 1 and all(len(visible(m).encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT for m in many)
