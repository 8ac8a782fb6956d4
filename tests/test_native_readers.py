"""What native readers of each language corrected, read as the player reads it: the rendered line, each plural
form at 1, 2, 5, 21 and 22 where a number is declined."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import CATALOGUES, ordinal, t, tn
from bot.present import presenter
from bot.present.leaderboard import render_ratings
from engine import View, find_variant
from storage.models import PersonRating
from storage.rating import Skill

COUNTS = (1, 2, 5, 21, 22)


def test_english_reads_as_friends_talk_with_contractions() -> None:
    """One register, kept: contractions wherever a friend would use them, in every English text."""
    stiff = re.compile(r"\b(do not|does not|did not|cannot|is not|are not|was not|have not|has not|will not|I will|"
                       r"I am|you are|it is|there is|that is)\b", re.IGNORECASE)  # fmt: skip
    assert {key: text for key, text in CATALOGUES["en"].items() if stiff.search(text)} == {}
    assert t("en", "unknown.command") == "I don't know that command. /help lists the ones I know."


def test_english_new_strings_say_it_plainly() -> None:
    assert t("en", "rating.cancelled") == (
        "This series was cancelled but still counts for ratings: at least one deal was finished, so it's rated "
        "on the score at that point."
    )
    assert t("en", "notify.on", name="Ann", chat="Friends") == (
        "🔔 Ann, I'll tell you in private whenever a game opens in “Friends”. Send /notify_me again to stop."
    )
    assert t("en", "notify.on_start_first", name="Ann", chat="Friends").endswith(
        "but first start a private chat with me: I can't write to you until you do. Send /notify_me again to stop."
    )
    assert t("en", "notify.off", name="Ann", chat="Friends") == "🔕 Ann, I won't tell you about new games in “Friends” any more."
    assert "after it," not in t("en", "notify.group_only")
    assert "/notify_me — tell me in private when a game opens here (send it again to stop)" in t("en", "help.text")
    assert "or the rating hasn't settled yet" in t("en", "top.provisional")
    assert "or the rating hasn't settled yet" in t("en", "rating.provisional")


@pytest.mark.parametrize(
    ("n", "written"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
     (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th")],
)  # fmt: skip
def test_a_place_in_stats_reads_as_an_english_ordinal(n: int, written: str) -> None:
    found = [PersonRating(variant="classic", skill=Skill(mu=30, sigma=3, series=9), best=1700, series_won=4,
                          deals_won=30, places=[("Friends", n, 130)])]  # fmt: skip
    assert render_ratings(found, "en")[-1] == f"   Friends: {written} of 130"
    assert render_ratings(found, "ru")[-1] == f"   Friends: {n}-е место из 130"
    assert render_ratings(found, "cs")[-1] == f"   Friends: {n}. místo z 130"
    assert ordinal("xx", n) == written  # a language the bot does not speak reads English


def answering_views(cards: int) -> list[View]:
    """Four-card Kozel views of a seat that must answer a lead of ``cards`` with its whole hand of as many."""
    found: list[View] = []
    for seed in range(40):
        state, rng = find_variant("four_card").new_game(seed), random.Random(seed)
        while not state.is_over and len(found) < 3:
            seat = state.to_move
            view = state.view(seat) if seat is not None else None
            shown = presenter("four_card")
            if view is not None and len(view.hand) == cards and view.trick and len(view.trick[0].cards) == cards:
                forced = shown.forced_cards(view)
                if forced is not None and len(forced) == cards:
                    found.append(view)
            state.apply(rng.choice(state.all_legal_actions()))
    return found


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_last_card_is_answered_as_the_last_card(lang: str) -> None:
    """F8: one card led, one card left: the prompt speaks of his last card, not of "his whole hand (1 card)"."""
    views = answering_views(1)
    assert views, "the test found no such position"
    last = {"en": "👉 <b>Your turn:</b> answer with your last card: beat or discard.",
            "ru": "👉 <b>Ваш ход:</b> ответьте последней картой — побейте или сбросьте.",
            "cs": "👉 <b>Jste na tahu:</b> musíte odpovědět svou poslední kartou — přebijte, nebo odhoďte."}  # fmt: skip
    assert {presenter("four_card").answer_prompt(view, lang) for view in views} == {last[lang]}
    whole = answering_views(2)
    assert whole and {presenter("four_card").answer_prompt(view, lang) for view in whole} == {
        tn(lang, "hand.your_answer_all", 2)
    }


def test_taking_every_trick_gives_the_others_penalty_points_declined() -> None:
    said = {lang: [tn(lang, "deal.shoot", n, name="Ann").split(": ", 1)[1] for n in COUNTS] for lang in CATALOGUES}
    assert said["en"] == [f"everybody else gets {n} penalty point{'s' * (n != 1)}." for n in COUNTS]
    assert said["ru"] == ["остальным по 1 штрафному очку.", "остальным по 2 штрафных очка.",
                          "остальным по 5 штрафных очков.", "остальным по 21 штрафному очку.",
                          "остальным по 22 штрафных очка."]  # fmt: skip
    assert said["cs"] == ["každý z ostatních dostává 1 trestný bod.", "každý z ostatních dostává 2 trestné body.",
                          "každý z ostatních dostává 5 trestných bodů.", "každý z ostatních dostává 21 trestných bodů.",
                          "každý z ostatních dostává 22 trestných bodů."]  # fmt: skip


RU_IN_DEALS = ("раздаче", "раздачах", "раздачах", "раздаче", "раздачах")  # в + the prepositional, at COUNTS


def test_russian_corrections() -> None:
    assert [tn("ru", "hand.chosen_over", n, cards="A♠").split("(")[1] for n in COUNTS] == [
        "на 1 карту больше, чем нужно)", "на 2 карты больше, чем нужно)", "на 5 карт больше, чем нужно)",
        "на 21 карту больше, чем нужно)", "на 22 карты больше, чем нужно)"]  # fmt: skip
    assert all(tn("ru", "table.eggs_pending", n, bonus=4).endswith("получит бонус +4.") for n in COUNTS)
    assert [tn("ru", "table.eggs_pending", n, bonus=4).split(" — ")[0] for n in COUNTS] == [
        f"🥚 Яйца (60:60) уже были в {n} {form}" for n, form in zip(COUNTS, RU_IN_DEALS, strict=True)
    ]
    assert [tn("ru", "score.last_cancelled", n, game="Классический козёл").split(":")[0] for n in COUNTS] == [
        f"Последняя партия (Классический козёл) отменена после {n} {form}"
        for n, form in zip(COUNTS, ("раздачи", "раздач", "раздач", "раздачи", "раздач"), strict=True)
    ]
    assert t("ru", "top.group_only").endswith("командой /stats в личном чате с ботом.")
    # nobody takes the Czech talon: it is out of play, in the text table and on the picture alike
    assert t("ru", "table.talon", count=2) == "Вне игры: 2" and t("ru", "picture.talon", count=2) == "Вне игры: 2"


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_joining_has_one_name_wherever_its_button_stands(lang: str) -> None:
    assert t(lang, "notify.join") == t(lang, "lobby.join")


def test_czech_corrections() -> None:
    assert "hodnocená série hry „Kozel na čtyři karty“." in t("cs", "top.none", game="Kozel na čtyři karty")
    for key in ("cancel.done", "cancel.by_vote"):
        assert t("cs", key, name="Ann").endswith("Odehraná rozdání zůstávají uložena, hra je vedena jako zrušená.")
    assert t("cs", "picture.series_end", game="Český kozel") == "Český kozel · konec série"
    assert t("cs", "stats.line", game="Kozel na čtyři karty", played=2, won=1, lost=1).startswith(
        "Kozel na čtyři karty: "
    )
    assert t("cs", "stats.line_czech", game="Český kozel", played=2, won=1, lost=0, between=1).startswith(
        "Český kozel: "
    )


def test_czech_counts_and_cancels_a_series_as_a_series_where_the_ratings_do() -> None:
    """A native reader: «hry 2» in /stats and «Poslední hra … zrušena» in /score, beside «2 hodnocené série»
    and «Zrušená série» of the ratings, name one thing two ways."""
    assert t("cs", "stats.line", game="Klasický kozel", played=2, won=1, lost=1) == (
        "Klasický kozel: série 2 · výhry 1 · prohry 1"
    )
    assert t("cs", "stats.line_czech", game="Český kozel", played=2, won=1, lost=0, between=1).startswith(
        "Český kozel: série 2 · "
    )
    assert t("cs", "stats.none") == "Zatím nemáte žádnou dohranou sérii."
    cancelled = [tn("cs", "score.last_cancelled", n, game="Klasický kozel") for n in (1, 2, 5, 21, 22)]
    cancelled += [t("cs", f"score.last_cancelled_{when}", game="Klasický kozel") for when in ("first_deal", "lobby")]
    assert all(text.startswith("Poslední série, Klasický kozel, byla zrušena ") for text in cancelled), cancelled
    forms = {1: "rozdání", 2: "rozdáních", 5: "rozdáních", 21: "rozdáních", 22: "rozdáních"}  # po + the locative
    for (n, form), text in zip(forms.items(), cancelled, strict=False):
        assert f"byla zrušena po {n} {form}: " in text, text


QUOTES = {"en": "“{chat}”", "ru": "«{chat}»", "cs": "„{chat}“"}


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_a_chats_name_inside_a_sentence_is_quoted_in_the_languages_quotes(lang: str) -> None:
    """As every text but a label ("Friends: 1st of 2") names a chat: "in “Friends”", «в чате «Друзья»»,
    „v chatu „Přátelé““."""
    unquoted = {
        key: text
        for key, text in CATALOGUES[lang].items()
        if "{chat}" in text and not text.startswith("{chat}:") and QUOTES[lang] not in text
    }
    assert unquoted == {}
    assert t(lang, "notify.opened", name="Ann", game="X", chat="Friends").count(QUOTES[lang].format(chat="Friends"))
