"""The ratings as people read them: the changes at a series' end and /top's board (bot/present/leaderboard.py)."""

from __future__ import annotations

from bot.present.leaderboard import TOP, render_changes, render_ratings, render_top, shown, signed
from storage.models import PersonRating, RatedPlayer, RatingChange
from storage.rating import Skill


def settled(user_id: int, mu: float) -> RatedPlayer:
    return RatedPlayer(user_id=user_id, name=f"P{user_id}", skill=Skill(mu=mu, sigma=3.0, series=20))


def test_a_provisional_rating_is_marked_and_changes_are_signed() -> None:
    assert shown(Skill()) == "1300?" and shown(Skill(mu=25, sigma=3, series=9)) == "1620"
    assert [signed(n) for n in (18, -12, 0)] == ["+18", "−12", "±0"]


def test_the_series_end_names_each_person_and_each_level_once() -> None:
    start = Skill()
    changes = [
        RatingChange(seat=0, user_id=7, level=None, before=None, after=Skill(mu=26.5, sigma=8.0, series=1)),
        RatingChange(seat=1, user_id=None, level="strong", before=start, after=Skill(mu=24, sigma=8.1, series=1)),
        RatingChange(seat=2, user_id=8, level=None, before=start, after=Skill(mu=26.5, sigma=8.0, series=1)),
        RatingChange(seat=3, user_id=None, level="strong", before=start, after=Skill(mu=24, sigma=8.1, series=1)),
    ]
    text = render_changes(changes, {7: "Anna <A>", 8: "Boris"}, "en", seats=("Anna <A>", "🤖 Bot 2", "Boris", "🤖 Bot 4"))
    assert text == (
        "📈 <b>Ratings</b>\nAnna &lt;A&gt;: 1350? (+50)\n🤖 computer (strong) — 🤖 Bot 2, 🤖 Bot 4: 1294? (−6) · one "
        "rating for these seats: the mean of their changes\nBoris: 1350? (+50)\n"
        "? — a provisional rating: fewer than 5 rated series, or the rating hasn't settled yet."
    )
    assert render_changes([], {}, "en") == ""


def test_top_lists_ten_places_then_the_askers_own_and_puts_provisional_ratings_last() -> None:
    people = [settled(n, 40 - n) for n in range(1, 13)]  # P1 best … P12
    newcomer = RatedPlayer(user_id=99, name="New", skill=Skill(mu=45, sigma=8.3, series=1))
    level = RatedPlayer(user_id=None, name="", level="strong", skill=Skill(mu=34.5, sigma=3, series=50))
    text = render_top([*people, newcomer, level], "four_card", 12, "en", ["/top classic"])
    lines = text.split("\n")
    assert lines[0] == "🏆 <b>Four-card Kozel · ratings in this chat</b>"
    places = [line for line in lines if line[:1].isdigit()]
    assert len(places) == TOP + 1 and places[0].startswith("1. P1 — ")
    assert places[-1].startswith("12. <b>P12</b>") and places[-1].endswith("← you")
    assert lines[lines.index(places[-1]) - 1] == "…"
    level_at = next(i for i, line in enumerate(lines) if "computer (strong)" in line)
    assert lines[level_at - 1].startswith("5. P5") and lines[level_at + 1].startswith("6. P6")  # a yardstick
    assert "New" not in text  # provisional: after the ten settled places shown
    assert text.endswith("Other games: /top classic") and "? — provisional" in text
    mine = render_top([*people[:3], newcomer], "four_card", 99, "en", [])
    assert mine.split("\n")[4].startswith("4. <b>New</b> — 1") and "?" in mine.split("\n")[4]


def test_top_without_a_rated_series() -> None:
    assert render_top([], "czech", 1, "ru", []).startswith("В этом чате пока нет рейтинговых партий")


def test_stats_ratings_in_each_language_read_with_their_plural_forms() -> None:
    found = [PersonRating(variant="czech", skill=Skill(mu=30, sigma=3, series=22), best=1700, series_won=9,
                          deals_won=21, places=[("Друзья", 2, 7)])]  # fmt: skip
    assert render_ratings(found, "ru") == [
        "Чешский козёл: <b>1720</b> · лучший: 1700",
        "   22 рейтинговые партии, побед: 9 · 21 выигранная раздача",
        "   Друзья: 2-е место из 7",
    ]
    assert render_ratings(found, "cs")[1] == "   22 hodnocených sérií, výher: 9 · 21 vyhraných rozdání"
