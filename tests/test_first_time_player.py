"""What confused a first-time player, in each language: the texts as a player reads them (the renders the bot
sends), each saying only what applies where it is shown."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, t
from bot.present import game_title, presenter
from bot.present.hand import render_hand
from bot.present.leaderboard import render_changes, render_own_end, render_ratings
from bot.present.menus import StatsLine, render_stats
from bot.present.render import Seating, outcome_picture, render_outcome
from bot.present.result_pictures import ResultText
from engine import Card, GameState, Outcome, find_variant, variant_names
from storage.models import PersonRating, RatingChange
from storage.rating import PROVISIONAL_SERIES, Skill
from tests.e2e import GROUP, button, configure, eventually, finished, open_game, play_moves, running_world
from tests.helpers import act
from tests.test_e2e_manners import FAST

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
    """/stats shows under each game only the counts its presenter says exist in it (each game's package
    says which, by its rules), and the line of its series its own way (a Czech Kozel series has a lowest
    total that wins, totals over 100 that lose, and the others in between: K8)."""
    counts = {"eggs": 1, "molodkas": 2, "kozels": 3}
    lines = [StatsLine(name, 5, 3, 1, **counts) for name in variant_names()]
    text = render_stats(lines, lang).split("\n")
    words = {name: t(lang, f"stats.{name}", count=0)[:-1] for name in counts}
    for name in variant_names():
        shown = presenter(name)
        at = next(i for i, line in enumerate(text) if line.startswith(game_title(name, lang)))
        below = text[at + 1].lower() if at + 1 < len(text) else ""
        for count, word in words.items():
            assert (word + str(counts[count]) in below) == (count in shown.stats_counts), (name, count, below)
        assert text[at] == t(lang, shown.stats_line_key, game=game_title(name, lang), played=5, won=3, lost=1,
                             between=1)  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stats_say_when_a_best_rating_appears(lang: str) -> None:
    """A best counts only settled ratings (storage keeps none while the rating is provisional): "none yet"
    beside 1392? says when one comes."""
    found = [PersonRating(variant="czech", skill=Skill(mu=28, sigma=7.9, series=3), best=None, series_won=1,
                          deals_won=4, places=[])]  # fmt: skip
    first = render_ratings(found, lang)[0]
    assert "?" in first.split("·")[0]
    assert first.endswith(t(lang, "stats.best_none")) and f" {PROVISIONAL_SERIES} " in t(lang, "stats.best_none")


async def test_the_series_end_tells_each_seated_person_in_private_and_names_the_computers_seats(
    tmp_path: Path,
) -> None:
    """Ann and Bob with two computers of one level, one on each team: the group's ratings name the level's seats
    and say its one change is their mean, and explain the "?" once; in private, Ann reads how the series went
    for her, her rating's change and what to do next; Bob, whom the bot may no longer write to, is sent
    nothing, and nothing fails."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=1, computer_level="random")
        ann, bob = world.person(1, "Ann"), world.person(2, "Bob")
        await ann.say(GROUP, "/newgame")
        lobby = world.group_messages()[-1]
        for person in (ann, bob):
            await person.join(lobby)
        await world.runner.storage.players.set_can_message(bob.user_id, False)  # he blocked the bot meanwhile
        for _ in range(2):
            await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":bot"))
        game = await world.runner.storage.games.open_game(GROUP)
        assert game is not None
        await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
        seats = await world.runner.storage.games.seats(game.game_id)
        computers = [s.seat for s in seats if s.user_id is None]
        assert len(computers) == 2 and computers[0] % 2 != computers[1] % 2, computers  # one on each team

        async def done() -> bool:
            return await finished(world, game.game_id)

        await eventually(world, done, timeout=120, what="the series to finish")
        heading = t("en", "rating.changes")

        async def rated() -> bool:
            return any(heading in m.text for m in world.group_messages())

        await eventually(world, rated, timeout=30, what="the ratings in the group")
        said = next(m.text for m in world.group_messages() if heading in m.text)
        ratings = said[said.index(heading) :].split("\n")
        level = next(line for line in ratings if line.startswith("🤖 computer (random moves)"))
        assert re.fullmatch(
            r"🤖 computer \(random moves\) — 🤖 Bot \d, 🤖 Bot \d: 1\d{3}\? \([+−±]\d+\) · one rating for these "
            r"seats: the mean of their changes",
            level,
        ), level
        assert [f"🤖 Bot {s + 1}" in level for s in computers] == [True, True]
        assert ratings.count(t("en", "rating.provisional")) == 1 and ratings[-1] == t("en", "rating.provisional")

        async def told() -> bool:
            return any(m.text.startswith("🏁") for m in world.server.bot_messages(ann.user_id))

        await eventually(world, told, timeout=30, what="the series' end in Ann's private chat")
        mine = next(m.text for m in world.server.bot_messages(ann.user_id) if m.text.startswith("🏁"))
        lines = mine.split("\n")
        assert lines[0] == "🏁 <b>Four-card Kozel</b> in “Friends &amp; &lt;Co&gt;” is over.", lines
        outcome = await world.runner.storage.games.get(game.game_id)
        assert outcome is not None and outcome.outcome is not None
        won = 0 not in outcome.outcome["losers"]
        assert lines[1] == t("en", "ended.team_won" if won else "ended.team_goats")
        assert re.fullmatch(r"📈 Your rating: 1\d{3}\? \([+−±]\d+\)", lines[2]), lines
        assert lines[3] == t("en", "rating.provisional")
        assert lines[4] == "/newgame in “Friends &amp; &lt;Co&gt;” starts another game."
        assert not any(m.text.startswith("🏁") for m in world.server.bot_messages(bob.user_id))
        assert world.runner.failed_tellings == 0 and world.server.violations == []


async def test_score_says_a_series_cancelled_in_its_first_deal_counts_nowhere(tmp_path: Path) -> None:
    """/score names which count is which: the chat's table counts finished series only, the ratings a cancelled
    one once a deal of it ended; one cancelled during its first deal counts in neither."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world)
        people, game = await open_game(world, "/newgame classic", 4)
        await play_moves(people, 1, random.Random(3))
        await people[0].say(GROUP, "/cancel")
        assert await finished(world, game.game_id) and await world.runner.storage.ratings.changes(game.game_id) == []
        await people[1].say(GROUP, "/score")
        score = world.group_messages()[-1].text
        assert score.startswith(
            "The last game, Classic Kozel, was cancelled during its first deal: it counts neither towards the table "
            "nor for the ratings."
        ), score


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_ratings_at_a_series_end_name_each_computers_seats_and_explain_the_question_mark(lang: str) -> None:
    """A level on both teams is one rating, the mean of its seats' (docs/ratings.md): its line names the seats
    and says so; a level in one seat names it; a cancelled series' note stands under the heading; the "?" of a
    provisional rating is explained once, and not where no rating is provisional."""
    start = Skill()
    changes = [
        RatingChange(seat=0, user_id=7, level=None, before=None, after=Skill(mu=26.5, sigma=8.0, series=1)),
        RatingChange(seat=1, user_id=None, level="strong", before=start, after=Skill(mu=25, sigma=8.1, series=1)),
        RatingChange(seat=2, user_id=None, level="basic", before=start, after=Skill(mu=24, sigma=8.1, series=1)),
        RatingChange(seat=3, user_id=None, level="strong", before=start, after=Skill(mu=25, sigma=8.1, series=1)),
    ]
    seats = ("Ann", "🤖 Bot 2", "🤖 Bot 3", "🤖 Bot 4")
    note = t(lang, "rating.cancelled")
    lines = render_changes(changes, {7: "Ann"}, lang, seats=seats, note=note).split("\n")
    strong, basic = t(lang, "top.level", level=t(lang, "level.strong")), t(lang, "top.level", level=t(lang, "level.basic"))
    assert lines[:2] == [t(lang, "rating.changes"), note]
    assert lines[3] == t(lang, "rating.level_seats_line", name=strong, seats="🤖 Bot 2, 🤖 Bot 4", rating="1314?",
                         change="+14")  # fmt: skip
    assert lines[4] == t(lang, "rating.level_line", name=basic, seats="🤖 Bot 3", rating="1294?", change="−6")
    assert lines[5:] == [t(lang, "rating.provisional")]
    settled = [RatingChange(seat=0, user_id=7, level=None, before=Skill(mu=25, sigma=3, series=9),
                            after=Skill(mu=26, sigma=3, series=10))]  # fmt: skip
    assert t(lang, "rating.provisional") not in render_changes(settled, {7: "Ann"}, lang, seats=seats)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_private_end_of_a_series_says_how_it_went_for_each_seat(lang: str) -> None:
    """In a team game the team won or are the goats; in Czech Kozel the lowest total wins, over 100 loses and
    the others neither (K8). Then his rating's change and what to do next."""
    change = RatingChange(seat=1, user_id=7, level=None, before=Skill(mu=25, sigma=3, series=9),
                          after=Skill(mu=26, sigma=3, series=10))  # fmt: skip
    team = Outcome(winners=(1, 3), losers=(0, 2), reason="target")
    won = render_own_end(team, "four_card", 1, change=change, chat="Friends & Co", lang=lang).split("\n")
    assert won == [
        t(lang, "ended.header", game=game_title("four_card", lang), chat="Friends &amp; Co"),
        t(lang, "ended.team_won"),
        t(lang, "ended.rating", rating="1640", change="+20"),
        t(lang, "ended.next", chat="Friends &amp; Co"),
    ]
    lost = render_own_end(team, "classic", 2, change=None, chat="X", lang=lang).split("\n")
    assert lost[1] == t(lang, "ended.team_goats") and len(lost) == 3
    czech = Outcome(winners=(0,), losers=(2,), reason="limit", table_points=(3, 1, 0))
    said = [render_own_end(czech, "czech", seat, change=None, chat="X", lang=lang).split("\n")[1] for seat in range(3)]
    assert said == [t(lang, "ended.czech_won"), t(lang, "ended.czech_between"), t(lang, "ended.czech_over")]
