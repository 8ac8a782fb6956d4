"""The rule book as the tests read it: docs/rules.md (what every game shares, the X rules) and each game's
own book beside its code (``engine/games/<game>/rules.md``), and the /rules texts of the bot.

Rules are found by their bold id at the start of a line (``**F8 Answer.**``); a test "names" a rule when its
function name contains ``_F8_`` (or starts with ``test_F8_``), found by parsing every test file with ``ast``.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from bot.i18n import LANGUAGES, t
from engine import find_variant, variant_names

ROOT = Path(__file__).resolve().parent.parent
COMMON = ROOT / "docs" / "rules.md"
TEST_FOLDERS = (ROOT / "tests", ROOT / "engine" / "games")
RULE_HEAD = re.compile(r"^\*\*([A-Z]\d+) [^*\n]*\*\*", re.MULTILINE)
# A rule runs from its bold id to the next rule, the next heading, rule line or "In the bot" note.
RULE_END = re.compile(r"^(?:\*\*[A-Z]\d+ |\*\*In the bot\.\*\*|#|---)", re.MULTILINE)
CARD = r"(?:10|[6-9JQKA])[♠♣♦♥]"


def book_of(game: str) -> Path:
    """The game's own rule book, in its package."""
    module = importlib.import_module(find_variant(game).package)
    assert module.__file__ is not None
    return Path(module.__file__).parent / "rules.md"


def books() -> dict[str, Path]:
    """Every part of the rule book: the common page ("") and each game's."""
    return {"": COMMON} | {game: book_of(game) for game in variant_names()}


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def ids(path: Path) -> list[str]:
    return RULE_HEAD.findall(text(path))


def all_ids() -> list[str]:
    return [rule_id for path in books().values() for rule_id in ids(path)]


def rule(rule_id: str) -> str:
    """The text of one rule, its Decided note included, with line breaks folded into spaces."""
    for path in books().values():
        book = text(path)
        head = re.search(rf"^\*\*{rule_id} ", book, re.MULTILINE)
        if head is not None:
            end = RULE_END.search(book, head.end())
            return " ".join(book[head.start() : end.start() if end else len(book)].split())
    raise AssertionError(f"{rule_id} is in no rule book")


def section(game: str) -> str:
    """A game's book, plus the common page's part on how cards are written, which every game's summary may
    draw on."""
    common = text(COMMON)
    notation = common.index("\n## How cards are written")
    return text(book_of(game)) + common[notation : common.find("\n## ", notation + 1)]


def function_names() -> set[str]:
    """The name of every test function of the tests and of every game's package."""
    names = set()
    for folder in TEST_FOLDERS:
        for path in sorted(folder.rglob("test_*.py")):
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
    found = rules_text(lang, variant)
    title = f"<b>{t(lang, f'game.{variant}')}</b>"
    assert found.startswith(title), (lang, variant)
    return found[len(title) :]


def numbers(found: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", found)]


def card_run(found: str) -> list[str]:
    """The longest run of cards written one after another (bracketed remarks skipped)."""
    plain = " ".join(re.sub(r"\([^)]*\)", " ", found).split())
    runs = re.findall(rf"{CARD}(?: {CARD})+", plain)
    return max(runs, key=len).split() if runs else []


def decided(game: str) -> list[str]:
    """The game's rules that carry a Decided note."""
    return [rule_id for rule_id in ids(book_of(game)) if "Decided:" in rule(rule_id)]


def options(game: str) -> list[str]:
    """The game's rules a chat may change (marked as an option), each of which must give its default."""
    found = [rule_id for rule_id in ids(book_of(game)) if "(option" in rule(rule_id)]
    assert all("default" in rule(rule_id) for rule_id in found), found
    return found


def check_fact(variant: str, rule_id: str, in_book: str, in_bot: str) -> None:
    """The book's rule says ``in_book`` and every language's /rules text of the game says ``in_bot``."""
    assert rule_id in ids(book_of(variant)), f"{rule_id} is not a rule of {variant}"
    assert re.search(in_book, rule(rule_id)), f"{rule_id} in the book no longer says {in_book!r}"
    for lang in LANGUAGES:
        assert re.search(in_bot, body(lang, variant)), f"{lang} /rules {variant} does not say {in_bot!r} ({rule_id})"


# The card points, each card by its name in the rules' own language: ace 11, ten 10, king 4, queen 3, jack 2, 0.
CARD_POINTS = r"\b11\D{1,12}\b10\D{1,12}\b4\D{1,12}\b3\D{1,12}\b2\b\D*\b0\b"
