"""The rule book, docs/rules.md: it lists exactly the rule ids, some test names each of them, and the bot's
/rules texts state the same numbers as the book, in every language.

Rules are found by their bold id at the start of a line (``**F8 Answer.**``); a test "names" a rule when its
function name contains ``_F8_`` (or starts with ``test_F8_``), found by parsing every test file with ``ast``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, t
from bot.render import VARIANT_NAMES
from engine.games.classic.rules import TRUMP_ORDER

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "docs" / "rules.md"
TESTS = ROOT / "tests"

EXPECTED_IDS = (
    [f"F{n}" for n in range(1, 17)]
    + [f"C{n}" for n in range(1, 15)]
    + [f"K{n}" for n in range(1, 11)]
    + [f"X{n}" for n in range(1, 4)]
)
RULE_HEAD = re.compile(r"^\*\*([FCKX]\d+) [^*\n]*\*\*", re.MULTILINE)
# A rule runs from its bold id to the next rule, the next heading, rule line or "In the bot" note.
RULE_END = re.compile(r"^(?:\*\*[FCKX]\d+ |\*\*In the bot\.\*\*|#|---)", re.MULTILINE)
SECTION_OF = {"four_card": "F", "classic": "C", "czech": "K"}
TELEGRAM_LIMIT = 4096  # characters of one message, after the HTML tags are parsed
CARD = r"(?:10|[6-9JQKA])[♠♣♦♥]"


def book() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


def book_ids() -> list[str]:
    return RULE_HEAD.findall(book())


def rule(rule_id: str) -> str:
    """The text of one rule, its Decided note included, with line breaks folded into spaces."""
    text = book()
    head = re.search(rf"^\*\*{rule_id} ", text, re.MULTILINE)
    assert head is not None, f"{rule_id} is not in {RULEBOOK.name}"
    end = RULE_END.search(text, head.end())
    return " ".join(text[head.start() : end.start() if end else len(text)].split())


def section(letter: str) -> str:
    """A game's section of the book (from its "## F." heading to the next heading of that level), plus the
    part on how cards are written, which every game's summary may draw on."""
    text = book()
    start = text.index(f"\n## {letter}. ")
    end = text.find("\n## ", start + 1)
    notation = text.index("\n## How cards are written")
    return text[start:end] + text[notation : text.find("\n## ", notation + 1)]


def function_names() -> set[str]:
    """The name of every test function under tests/."""
    names = set()
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def names_rule(name: str, rule_id: str) -> bool:
    return name.startswith(f"test_{rule_id}_") or f"_{rule_id}_" in name


def rules_text(lang: str, variant: str) -> str:
    return t(lang, f"rules.{variant}")


def body(lang: str, variant: str) -> str:
    """A /rules text without its bold title (the Russian title of four-card Kozel holds a 4)."""
    text = rules_text(lang, variant)
    title = f"<b>{t(lang, f'game.{variant}')}</b>"
    assert text.startswith(title), (lang, variant)
    return text[len(title) :]


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


# --- (a) the ids of the book, and the tests that name them ---------------------------------------------------


def test_the_book_lists_exactly_the_rule_ids_once_each_in_order() -> None:
    assert book_ids() == EXPECTED_IDS


def test_every_rule_of_the_book_is_named_by_a_test() -> None:
    names = function_names()
    assert "test_every_rule_of_the_book_is_named_by_a_test" in names  # the scan sees this very file
    missing = [rule_id for rule_id in book_ids() if not any(names_rule(n, rule_id) for n in names)]
    assert missing == [], f"no test function names these rules: {missing}"


def test_names_rule_matches_whole_ids_only() -> None:
    assert names_rule("test_F1_players", "F1") and names_rule("test_K8_K9_table_points", "K9")
    assert not names_rule("test_F10_molodka", "F1") and not names_rule("test_C12_queen", "C1")


def test_the_decisions_and_options_of_the_team_are_kept() -> None:
    """Every Decided note sits in its rule; every house rule is marked as an option with its default."""
    decided = [rule_id for rule_id in EXPECTED_IDS if "Decided:" in rule(rule_id)]
    assert decided == ["F5", "C6", "C7", "K9"]
    assert book().count("Decided:") == len(decided) + 1  # and once where the introduction explains them
    options = [rule_id for rule_id in EXPECTED_IDS if "(option" in rule(rule_id)]
    assert options == ["C2", "C6", "C13"]
    assert all("default" in rule(rule_id) for rule_id in options)


def test_the_book_points_nowhere_outside_the_repository() -> None:
    text = book()
    assert not re.search(r"\.\./|https?://|/work/|seeds/|RULES\.md", text)


# --- (b) the /rules texts against the book ----------------------------------------------------------------------

# The card points, each card by its name in the rules' own language: ace 11, ten 10, king 4, queen 3, jack 2, 0.
CARD_POINTS = r"\b11\D{1,12}\b10\D{1,12}\b4\D{1,12}\b3\D{1,12}\b2\b\D*\b0\b"
# (variant, rule, what the book says, what every language's /rules text says): regular expressions.
FACTS = [
    ("four_card", "F2", r"\b36-card", r"\b36\b"),
    ("four_card", "F2", r"6 7 8 9 J Q K 10 A", r"6 7 8 9 J Q K 10 A"),
    ("four_card", "F3", r"A 11, 10 10, K 4, Q 3, J 2\b.*\b0\b", CARD_POINTS),
    ("four_card", "F3", r"\b120\b", r"\b120\b"),
    ("four_card", "F4", r"\b4 cards", r"\b4\b"),
    ("four_card", "F7", r"\b1 to 4 cards", r"\b1–4\b"),
    ("four_card", "F14", r"\b61 or more", r"\b61\b"),
    ("four_card", "F14", r"31 to 59 card points \| 2 \|", r"\b2\D{1,6}31–59"),
    ("four_card", "F14", r"30 card points or fewer but took at least one trick \| 4 \|", r"\b4\D{1,6}30\b"),
    ("four_card", "F14", r"took no trick at all \| 6 \|", r"\b30\b\D+\b6\b"),
    ("four_card", "F14", r"60:60", r"60:60"),
    ("four_card", "F15", r"\b12 or more penalty points", r"\b12\b"),
    ("classic", "C2", r"\b36 cards\b.*\b32 cards\b", r"\b36\b.*\b32\b"),
    ("classic", "C4", r"6 7 8 9 K 10 A", r"6 7 8 9 K 10 A"),
    ("classic", "C5", r"A 11, 10 10, K 4, Q 3, J 2, every other card 0", CARD_POINTS),
    ("classic", "C6", r"\b13 card points or less", r"\b13\b"),
    ("classic", "C8", r"A♦", r"A♦"),
    ("classic", "C12", r"Q♣ and the 6♣.*6♣ scores 4 series points", r"Q♣\D+6♣.*6♣\D{1,30}\b4\b"),
    ("classic", "C13", r"\| 61 to 90 \| 2 ", r"\b2\D{1,12}61–90"),
    ("classic", "C13", r"\| 91 or more \| 4 ", r"\b4\D{1,6}91\b"),
    ("classic", "C13", r"took every trick scores 4\b.*\bfall back to 0", r"\b91\b\D+\b4\b\D+\b0\b"),
    ("classic", "C13", r"60:60.*\b2 points\) more", r"60:60\D+\b2\b"),
    ("classic", "C14", r"\b12 series points", r"\b12\b"),
    ("czech", "K1", r"From 3 to 6 players", r"\b3–6\b"),
    ("czech", "K2", r"\b32 German-suited", r"\b32\b"),
    ("czech", "K2", r"7 8 9 10 spodek \(U\) svršek \(O\) král \(K\) eso \(A\)", r"7 8 9 10 U O K A"),
    ("czech", "K3", r"\| 3 \| 10 \| 2 \| \| 4 \| 8 \| 0 \| \| 5 \| 6 \| 2 \| \| 6 \| 5 \| 2 \|", r"10, 8, 6\D{1,6}5\D+3, 4, 5\D{1,6}6\b"),
    ("czech", "K5", r"\b1 for every červená \(heart\), 13 for the green svršek", r"♥ 1\b\D+O🍃\D{1,30}\b13\b"),
    ("czech", "K5", r"at most 21 penalty points", r"\b21\b"),
    ("czech", "K7", r"every other player scores 21 \(42 when the deal was doubled\)", r"\b0\b\D+\b21 \(\D*42\b"),
    ("czech", "K8", r"goes over 100", r"\b100\b"),
    ("czech", "K9", r"winner gets 3 table points", r"\b3 \("),
    ("czech", "K9", r"winner whose total is 0 gets 3 more", r"\b3 \(\D*\b3\b\D*\b0\)"),
    ("czech", "K9", r"everyone else 1\b", r"\b0\)\D+\b1\b"),
    ("czech", "K9", r"over 100 gets 0", r"\b100\D{1,20}\b0\b"),
]


@pytest.mark.parametrize(("variant", "rule_id", "in_book", "in_bot"), FACTS, ids=[f"{f[1]}-{i}" for i, f in enumerate(FACTS)])
def test_the_rules_texts_state_the_numbers_of_the_book(variant: str, rule_id: str, in_book: str, in_bot: str) -> None:
    assert rule_id.startswith(SECTION_OF[variant])
    assert re.search(in_book, rule(rule_id)), f"{rule_id} in the book no longer says {in_book!r}"
    for lang in LANGUAGES:
        assert re.search(in_bot, body(lang, variant)), f"{lang} /rules {variant} does not say {in_bot!r} ({rule_id})"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_number_of_a_rules_text_is_in_the_book_and_every_language_states_the_same(variant: str) -> None:
    """A wrong number in a /rules text is a number the book does not state for that game; and the three
    languages carry the same numbers, as many times each."""
    in_book = set(numbers(section(SECTION_OF[variant])))
    counts = {lang: Counter(numbers(body(lang, variant))) for lang in LANGUAGES}
    for lang, found in counts.items():
        assert set(found) <= in_book, f"{lang} /rules {variant}: {set(found) - in_book} are not in the book"
        assert found == counts["en"], f"{lang} /rules {variant} states other numbers than the English text"


def card_run(text: str) -> list[str]:
    """The longest run of cards written one after another (bracketed remarks skipped)."""
    plain = " ".join(re.sub(r"\([^)]*\)", " ", text).split())
    runs = re.findall(rf"{CARD}(?: {CARD})+", plain)
    return max(runs, key=len).split() if runs else []


def test_the_classic_trump_order_of_the_rules_texts_is_the_book_s_and_the_engine_s() -> None:
    low_to_high = [str(card) for card in TRUMP_ORDER]
    assert card_run(rule("C3")) == low_to_high
    for lang in LANGUAGES:
        assert card_run(body(lang, "classic")) == low_to_high[::-1], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_reply_fits_one_telegram_message_and_points_nowhere(lang: str) -> None:
    """/rules without a game sends the three texts in one message (bot.handlers.rules)."""
    reply = "\n\n".join(rules_text(lang, variant) for variant in VARIANT_NAMES)
    shown = re.sub(r"</?b>", "", reply)
    assert not re.search(r"[<>&]", shown), "only <b> tags, and no bare HTML characters"
    assert len(shown.encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT
    assert not re.search(r"https?://|t\.me/|\.\./|\.md\b", reply)
