"""What confused a first-time player, in each language: the texts as a player reads them (the renders the bot
sends), each saying only what applies where it is shown."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, t
from bot.leaderboard import render_ratings
from bot.menus import StatsLine, render_stats
from bot.present import game_title
from bot.render import Seating, outcome_picture, render_hand, render_outcome
from bot.result_pictures import ResultText
from engine import Card, GameState, Outcome, find_variant
from storage.models import PersonRating
from storage.rating import PROVISIONAL_SERIES, Skill
from tests.helpers import act

NAMES = Seating(("Ann", "Bob <b>", "Cid", "Dan"), "Friends & Co")
STACKED = ["6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H 6D / AD ... @ 0"]


def hand_text(state: GameState, seat: int, lang: str, selection: frozenset[Card] = frozenset()) -> str:
    """The seat's private hand message as he reads it."""
    text, _ = render_hand(state.view(seat), NAMES, lang, game_id=1, version=len(state.history), selection=selection)
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_face_down_hint_shows_only_while_a_card_shows_face_down(lang: str) -> None:
    """The 🂠 hint explains the one-tap discard buttons; once a card is chosen the buttons only choose and no
    card shows 🂠, so the hint goes."""
    state = find_variant("four_card").new_game(1, stacked=STACKED, dealer=3)
    act(state, "0 lead 6S")
    hint = t(lang, "hand.discard_at_once")
    assert hint in hand_text(state, 1, lang)
    assert hint not in hand_text(state, 1, lang, frozenset({Card.parse("KS")}))
    assert hint not in hand_text(state, 1, lang, frozenset({Card.parse("9C")}))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ones_own_face_down_discard_is_marked_in_ones_private_view(lang: str) -> None:
    """The one who discarded sees his cards; beside the lead they read like a beat that failed unless they are
    marked as his face-down discard. The others see only backs."""
    state = find_variant("four_card").new_game(1, stacked=STACKED, dealer=3)
    act(state, "0 lead 6S 7S", "1 discard 9C 9H")
    own = hand_text(state, 1, lang)
    assert "Bob &lt;b&gt;: " + t(lang, "table.own_discard", cards="9♣ 9♥") in own
    others = hand_text(state, 2, lang)
    assert "Bob &lt;b&gt;: 🂠🂠" in others and "9♣" not in others
    assert t(lang, "table.own_discard", cards="") not in hand_text(state, 0, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_classic_kozels_losers_are_plain_goats_even_after_eggs(lang: str) -> None:
    """C13 and C14 know no goats with eggs (eggs only add a pair to the next team that scores); four-card Kozel
    has them (F15)."""
    outcome = Outcome(winners=(1, 3), losers=(0, 2), reason="target", with_eggs=True)
    goats = t(lang, "series.goats", team=NAMES.team(0, lang))
    classic = render_outcome(outcome, "classic", NAMES, lang)
    assert goats in classic and "🥚" not in classic
    picture = outcome_picture(outcome, (4, 12), "classic", NAMES, lang).scene
    assert isinstance(picture, ResultText)
    assert picture.eggs == 0 and picture.lines[0].detail == t(lang, "picture.goats")
    four = render_outcome(outcome, "four_card", NAMES, lang)
    assert t(lang, "series.goats_eggs", team=NAMES.team(0, lang)) in four


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_show_each_game_only_the_counts_that_exist_in_it(lang: str) -> None:
    """Eggs and molodkas are four-card Kozel's (F14, F10), eggs classic Kozel's too (C13), the kozel taken
    Czech Kozel's (K5); Czech Kozel's series has a lowest total that wins, totals over 100 that lose, and the
    others in between (K8), said as such."""
    lines = [StatsLine("four_card", 5, 3, 2, 1, 2, 0), StatsLine("classic", 4, 1, 3, 2, 0, 0),
             StatsLine("czech", 2, 0, 0, 0, 0, 1)]  # fmt: skip
    text = render_stats(lines, lang).split("\n")
    eggs, molodkas, kozels = (t(lang, f"stats.{name}", count=0)[:-1] for name in ("eggs", "molodkas", "kozels"))
    at = {variant: next(i for i, line in enumerate(text) if line.startswith(game_title(variant, lang)))
          for variant in ("four_card", "classic", "czech")}  # fmt: skip
    four, classic, czech = (text[at[v] + 1].lower() for v in ("four_card", "classic", "czech"))
    assert eggs + "1" in four and molodkas + "2" in four and kozels not in four
    assert eggs + "2" in classic and molodkas not in classic and kozels not in classic
    assert kozels + "1" in czech and eggs not in czech and molodkas not in czech
    assert text[at["czech"]] == t(lang, "stats.line_czech", game=game_title("czech", lang), played=2, won=0, lost=0,
                                  between=2)  # fmt: skip
    assert text[at["four_card"]] == t(lang, "stats.line", game=game_title("four_card", lang), played=5, won=3,
                                      lost=2)  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_say_when_a_best_rating_appears(lang: str) -> None:
    """A best counts only settled ratings (storage keeps none while the rating is provisional): "none yet"
    beside 1392? says when one comes."""
    found = [PersonRating(variant="czech", skill=Skill(mu=28, sigma=7.9, series=3), best=None, series_won=1,
                          deals_won=4, places=[])]  # fmt: skip
    first = render_ratings(found, lang)[0]
    assert "?" in first.split("·")[0]
    assert first.endswith(t(lang, "stats.best_none")) and f" {PROVISIONAL_SERIES} " in t(lang, "stats.best_none")
