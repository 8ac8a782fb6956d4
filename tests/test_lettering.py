"""Names and texts in every picture (bot/present/lettering.py): drawn as Telegram shows them (emoji, CJK, Arabic and
Hebrew joined and right to left, in the bidirectional order) with no missing-glyph box, and each fitted to
its place: smaller, then cut with "…"."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from io import BytesIO

import pytest
from bidi import get_display
from PIL import Image, ImageDraw

from bot.i18n import LANGUAGES
from bot.present import Seating, bidi
from bot.present.leaderboard import rating_picture
from bot.present.lettering import ELLIPSIS, Written, clusters, face_of, fitted, recording, runs, write
from bot.present.render import deal_result_picture, outcome_picture, table_picture
from bot.present.typeface import CJK, EMOJI, EMOJI_STRIKE, TEXT, TEXT_BOLD, face
from engine import GameState, find_variant, variant_names
from engine.registry import samples
from storage.models import RatingPoint
from tests.helpers import doubled_czech

# The issue's names, with Greek (accents and breathings) and Japanese kana besides.
ISSUE = ("Маша 🌸🌸", "李雷 Li さくら", "محمد", "Jürgen 👨‍👩‍👧 Ἀλέξη", "Ali علي", "שלום world 2", "Zoë 🇨🇿 👍🏽 김민준 カタカナ")
# The longest name Telegram allows: a first and a last name of 64 characters each.
FIRST = ("Александра-Jürgen 🌸👨‍👩‍👧李雷" * 4)[:64]
LAST = ("Černá-Ἀλέξανδρος 🇨🇿 あいう 김민준" * 4)[:64]
LONGEST = f"{FIRST} {LAST}"


def played(variant: str, options: dict[str, object], seed: int, moves: int) -> GameState:
    state, rng = find_variant(variant).new_game(seed, options), random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.all_legal_actions()))
    return state


GAMES = samples(every=True)


def every_picture(name: Callable[[int], str], chart_name: str) -> list[Written]:
    """The texts written in every picture the bot draws, seat ``s`` named ``name(s)``: tables of each game
    (several moments: a trick being played, one taken, a double marked), each game's deal results and series'
    end, and the rating chart of ``chart_name``, in each language."""
    with recording() as written:
        for lang in LANGUAGES:
            for variant, options in GAMES:
                seed = 7 + len(options)
                for state in (played(variant, options, seed, moves) for moves in (0, 3, 5, 8, 13)):
                    seating = Seating(tuple(name(s) for s in range(state.num_players)), "Friends")
                    _ = table_picture(state.view(None), seating, (1,), lang).data
                state = played(variant, options, seed, 10**6)
                assert state.outcome is not None
                seating = Seating(tuple(name(s) for s in range(state.num_players)), "Friends")
                for result in state.deals[-2:]:
                    _ = deal_result_picture(result, variant, seating, lang).data
                _ = outcome_picture(state.outcome, state.totals, variant, seating, lang).data
            doubled = doubled_czech(6)  # the double's mark stands out of the doubler's plate
            seating = Seating(tuple(name(s) for s in range(doubled.num_players)), "Friends")
            _ = table_picture(doubled.view(None), seating, (1,), lang).data
            history = {game: [RatingPoint(series=n, rating=1300 + 9 * n, provisional=n < 5, at="") for n in range(1, 9)]
                       for game in variant_names()}  # fmt: skip
            assert rating_picture(history, chart_name, lang) is not None
    return written


def ignorable(char: str) -> bool:
    """A character HarfBuzz draws as nothing (a joiner, a variation selector, a tag)."""
    code = ord(char)
    return unicodedata.category(char) == "Cf" or 0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE0FFF


def missing(char: str, name: str, size: int) -> bool:
    """Whether the face ``name`` draws ``char`` as its missing glyph (.notdef): the same pixels as a
    character no font has; the colour emoji face's missing glyph is empty."""
    if name == EMOJI:
        image = Image.new("RGBA", (200, 200))
        ImageDraw.Draw(image).text((10, 150), char, font=face(EMOJI, EMOJI_STRIKE), anchor="ls", embedded_color=True)
        return image.getbbox() is None
    font = face(name, size)
    drawn, box = font.getmask(char), font.getmask("\U0010fffd")
    return drawn.size == box.size and bytes(drawn) == bytes(box)


def test_the_missing_glyph_check_sees_the_box() -> None:
    assert missing("李", TEXT_BOLD, 26) and missing("🌸", TEXT, 26) and missing("a", EMOJI, 26)
    assert not missing("李", CJK, 26) and not missing("Ж", TEXT_BOLD, 26) and not missing("🌸", EMOJI, 26)


def test_clusters_keep_emoji_sequences_flags_and_accents_whole() -> None:
    assert clusters("👨‍👩‍👧👍🏽🇨🇿🇸🇰e\u0301❤️1️⃣🏴󠁧󠁢󠁳󠁣󠁴󠁿a") == [
        "👨‍👩‍👧", "👍🏽", "🇨🇿", "🇸🇰", "e\u0301", "❤️", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "a"]  # fmt: skip


def test_each_cluster_goes_to_the_first_face_that_has_it() -> None:
    assert [face_of(c, True) for c in ("Ж", "♠", "李", "한", "あ", "🌸", "👨‍👩‍👧", "❤️", "ע", "ب")] == [
        TEXT_BOLD, TEXT_BOLD, CJK, CJK, CJK, EMOJI, EMOJI, EMOJI, TEXT_BOLD, TEXT_BOLD]  # fmt: skip
    assert face_of("\u0905", True) is None  # Devanagari: no bundled face, left out
    assert face_of("Ж", False) == TEXT


@pytest.mark.parametrize(
    ("name", "shown"),
    [("محمد 🌸", [("🌸", True), ("محمد ", True)]),
     ("Ali علي", [("Ali ", False), ("علي", True)]),
     ("שלום world 2", [("world 2", False), ("שלום ", True)]),
     ("علي 123", [("123", False), ("علي ", True)]),
     ("Маша 🌸🌸", [("Маша ", False), ("🌸🌸", False)])],
)  # fmt: skip
def test_runs_are_in_the_bidirectional_order(name: str, shown: list[tuple[str, bool]]) -> None:
    """Left to right as drawn, each run right to left or not: the base direction from the first strong
    character, neutrals between runs of one direction take it, numbers read left to right."""
    assert [(run.text, run.rtl) for run in runs(name, True)] == shown


def test_a_right_to_left_name_is_drawn_right_to_left() -> None:
    """«محمد 🌸» as drawn: the emoji (pink) left of the Arabic (ink), which is joined (one piece per word
    more or less, far fewer than its four letters apart)."""
    image = Image.new("RGB", (400, 80), (255, 255, 255))
    write(image, (20, 40), "محمد 🌸", 40, (0, 0, 0), place=(0, 0, 400, 80), anchor="lm")
    data = image.tobytes()
    rgb = [(i // 3 % 400, data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]
    pink = [x for x, r, g, _ in rgb if r > 200 and g < 190]
    ink = [x for x, r, g, b in rgb if r + g + b < 100]
    assert pink and ink and max(pink) < min(ink)
    alone = Image.new("L", (400, 80))
    ImageDraw.Draw(alone).text((10, 60), "م ح م د", font=face(TEXT_BOLD, 40), fill=255, direction="rtl", anchor="ls")
    joined = fitted("محمد", 40, True, "ls", (0, 400, 80, 80))
    assert joined.width < (alone.getbbox() or (0, 0, 0, 0))[2] * 0.85


def test_every_picture_draws_the_names_with_no_missing_glyph() -> None:
    """The issue's names at every seat of every picture: each drawn glyph is one its face has (never the
    .notdef box), and every character of the names is drawn, emoji in colour, CJK, Arabic and Hebrew."""
    written = every_picture(lambda seat: ISSUE[seat], ISSUE[6])
    assert written
    used = set()
    for text in written:
        for run in text.shown.runs:
            used.add(run.face)
            for char in run.text:
                if not ignorable(char):
                    assert not missing(char, run.face, text.shown.size), (char, run.face, text.text)
        if text.shown.text == text.text:  # not cut: nothing of it is left out
            drawn = "".join(run.text for run in text.shown.runs)
            assert sorted(text.text.replace(" ", "")) == sorted(drawn.replace(" ", "")), text.text
    assert {TEXT, TEXT_BOLD, CJK, EMOJI} <= used
    for name in ISSUE:
        assert any(text.text == name or name in text.text for text in written), name
    assert any(run.rtl for text in written for run in text.shown.runs)
    colour = [text.shown.colour for text in written if text.shown.colour is not None]
    assert colour and all(layer.getchannel("A").getbbox() for layer in colour)


def test_every_text_of_every_picture_stays_in_its_place_with_the_longest_names() -> None:
    """Telegram's longest names (64 + 64 characters: Latin, Cyrillic, Greek, emoji, CJK) at every seat: every
    text of every picture is drawn inside its place and inside the picture, smaller or cut with "…"."""
    written = every_picture(lambda seat: f"{seat + 1}{LONGEST}"[:129], LONGEST)
    cut = 0
    for text in written:
        x0, y0, x1, y1 = text.box
        px0, py0, px1, py1 = text.place
        assert px0 <= x0 and py0 <= y0 and x1 <= px1 and y1 <= py1, (text.text, text.box, text.place)
        assert x0 >= 0 and y0 >= 0 and x1 <= text.picture[0] and y1 <= text.picture[1], (text.text, text.box)
        if text.shown.text != text.text:
            cut += 1
            assert text.shown.text.endswith(ELLIPSIS)
            kept = text.shown.text.removesuffix(ELLIPSIS)
            assert "".join(clusters(text.text)[: len(clusters(kept))]) == kept, (text.text, kept)  # whole clusters
    assert cut > 100  # the names are cut everywhere (table plates, results, goats, winners, the chart's title)


def test_a_right_to_left_text_is_cut_at_its_logical_end() -> None:
    """A long Arabic name cut to its room keeps its beginning (drawn on the right) and ends in "…": the end
    of its one right-to-left run, so drawn at the left."""
    name = "محمد بن عبد الله بن عبد المطلب " * 4
    shown = fitted(name, 26, True, "la", (0, 200, 40, 40), smallest=18)
    assert shown.text.endswith(ELLIPSIS) and name.startswith(shown.text.removesuffix(ELLIPSIS))
    assert shown.width <= 200 and shown.size == 18
    assert [(run.text[-1], run.rtl) for run in shown.runs] == [(ELLIPSIS, True)]  # one run, drawn right to left


def test_a_plain_name_is_one_run_in_the_text_face() -> None:
    """Latin and Cyrillic names cost what they did: one run, drawn once, its mask kept."""
    assert runs("Кристина-Александра Černá", True) == runs("Кристина-Александра Černá", True)
    assert [(r.face, r.rtl) for r in runs("Кристина-Александра Černá", True)] == [(TEXT_BOLD, False)]
    assert fitted("Ann", 26, True, "lm", (6, 250, 22, 18)) is fitted("Ann", 26, True, "lm", (6, 250, 22, 18))


def test_the_rating_chart_writes_the_name_with_its_emoji() -> None:
    history = {"four_card": [RatingPoint(series=n, rating=1300 + 7 * n, provisional=False, at="") for n in range(1, 9)]}
    with recording() as written:
        png = rating_picture(history, "Маша 🌸🌸", "en")
    assert png is not None and Image.open(BytesIO(png)).size == (1000, 640)
    title = written[0]
    assert title.text == "Маша 🌸🌸 · rating over time" and title.shown.text == title.text
    assert [run.face for run in title.shown.runs] == [TEXT_BOLD, EMOJI, TEXT_BOLD]


def test_the_bidirectional_order_is_the_reference_algorithms() -> None:
    """bot/present/bidi.py against python-bidi (UAX #9 as the Rust crate unicode-bidi implements it) on random lines of
    Latin, Hebrew, Arabic, digits, signs, emoji, Chinese and direction marks: the same visual order, every one."""
    alphabet = [*"abcXY", *"אבגד", *"محمد", *"0123", " ", " ", "-", ".", ",", "+", "%", "!", "🌸", "李", "\u200f",
                "\u200e"]  # fmt: skip
    rng = random.Random(9)
    for _ in range(3000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        _, found = bidi.levels([unicodedata.bidirectional(c) for c in line])
        assert "".join(line[i] for i in bidi.visual_order(found)) == get_display(line), repr(line)
