"""Ratings (docs/ratings.md): the model, each game's places, which series count and how, and that the stored
ratings are what the stored series rate to."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine import DealResult, GameState, Outcome, find_variant, variant_names
from engine.registry import default_variant_name
from storage import Storage, rating
from storage import __main__ as storage_cli
from storage.db import MIGRATIONS, split_sql
from storage.maintenance import check
from storage.models import GameRow, RatedPlayer
from storage.rating import Entrant, Skill
from storage.ratings import rank
from tests.helpers import play_deal


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = await Storage.open(tmp_path / "kozel.db")
    yield store
    await store.close()


async def new_game(
    storage: Storage, variant: str = "four_card", *, chat_id: int = -100, people: tuple[int, ...] = (1, 2, 3, 4),
    computers: dict[int, str] | None = None, seed: int = 7, **options: Any,
) -> GameRow:  # fmt: skip
    """A running game with ``people`` in the first seats and ``computers`` (seat → level) in the others."""
    await storage.chats.ensure(chat_id, f"Chat {chat_id}", "supergroup")
    game = await storage.games.create(chat_id, variant, options, seed=seed, creator_id=None)
    players = find_variant(variant).options(options).num_players
    computers = computers or {}
    people_left = iter(people)
    for seat in range(players):
        if seat in computers:
            await storage.games.take_seat(game.game_id, seat, computer=computers[seat])
        else:
            user_id = next(people_left)
            await storage.players.upsert(user_id, f"Player {user_id}")
            await storage.games.take_seat(game.game_id, seat, user_id=user_id)
    await storage.games.set_status(game.game_id, "active")
    row = await storage.games.get(game.game_id)
    assert row is not None
    return row


async def record(storage: Storage, game: GameRow, state: GameState) -> GameRow:
    await storage.games.record(game, state)
    return game.model_copy(update={"action_count": len(state.history)})


async def play_series(storage: Storage, game: GameRow, seed: int = 3) -> GameState:
    """Play the series to its end with random legal moves, committing every move."""
    state = await storage.games.load_state(game)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
        game = await record(storage, game, state)
    return state


async def ratings_of(storage: Storage, variant: str, chat_id: int = -100) -> dict[str, Skill]:
    return {
        (rating.person(p.user_id) if p.user_id is not None else rating.computer(p.level or "")): p.skill
        for p in await storage.ratings.leaderboard(chat_id, variant)
    }


# --- the model -------------------------------------------------------------------------------------------


def test_a_newcomer_is_provisional_and_shown_at_1300() -> None:
    skill = Skill()
    assert skill.rating == 1300 and skill.provisional
    assert Skill(series=rating.PROVISIONAL_SERIES, sigma=rating.PROVISIONAL_SIGMA).provisional is False
    assert Skill(series=rating.PROVISIONAL_SERIES - 1, sigma=2.0).provisional  # too few series
    assert Skill(series=40, sigma=rating.PROVISIONAL_SIGMA + 0.01).provisional  # still too uncertain


def test_the_winning_team_goes_up_the_losing_team_down() -> None:
    entrants = [Entrant(seat, f"p{seat}", seat % 2, seat % 2) for seat in range(4)]
    after = rating.rate(entrants, {})
    assert after["p0"].mu > Skill().mu and after["p2"].mu > Skill().mu
    assert after["p1"].mu < Skill().mu and after["p3"].mu < Skill().mu
    assert all(skill.series == 1 for skill in after.values())


def test_czech_places_with_a_tie_move_the_tied_alike() -> None:
    places = [0, 1, 1, 2]
    after = rating.rate([Entrant(seat, f"p{seat}", seat, place) for seat, place in enumerate(places)], {})
    assert after["p0"].mu > after["p1"].mu == after["p2"].mu > after["p3"].mu


def test_a_computer_level_on_both_sides_learns_nothing_from_itself() -> None:
    strong = rating.computer("strong")
    entrants = [Entrant(0, "p1", 0, 0), Entrant(1, strong, 1, 1), Entrant(2, "p2", 0, 0), Entrant(3, strong, 1, 1)]
    both_lose = rating.rate(entrants, {})[strong]
    assert both_lose.mu < Skill().mu and both_lose.series == 1  # two copies, one player, one series
    split = [Entrant(0, strong, 0, 0), Entrant(1, "p1", 1, 1), Entrant(2, "p2", 0, 0), Entrant(3, strong, 1, 1)]
    assert rating.rate(split, {})[strong].mu == pytest.approx(Skill().mu)


def test_the_seats_of_one_side_share_its_place() -> None:
    with pytest.raises(ValueError, match="share its place"):
        rating.rate([Entrant(0, "p0", 0, 0), Entrant(2, "p2", 0, 1), Entrant(1, "p1", 1, 1)], {})


# --- places: how each game ranks a series ----------------------------------------------------------------


def test_F15_a_finished_four_card_series_ranks_the_winners_first() -> None:
    state = find_variant("four_card").new_game(5)
    while not state.is_over:
        play_deal(state)
    assert state.outcome is not None
    assert [state.standing()[s] for s in state.outcome.winners] == [0, 0]
    assert [state.standing()[s] for s in state.outcome.losers] == [1, 1]


def test_F14_a_four_card_series_stopped_early_ranks_fewer_defeat_points_first() -> None:
    state = find_variant("four_card").new_game(5)
    state.totals = [4, 2]
    assert state.standing() == (1, 0, 1, 0)
    state.totals = [3, 3]
    assert state.standing() == (0, 0, 0, 0)


def test_C13_a_classic_series_stopped_early_ranks_more_series_points_first() -> None:
    state = find_variant("classic").new_game(5)
    state.totals = [4, 2]
    assert state.standing() == (0, 1, 0, 1)


def test_C14_a_finished_classic_series_ranks_by_its_outcome_not_its_totals() -> None:
    state = find_variant("classic").new_game(5)
    state.totals = [8, 2]  # C13's option: a team that takes no trick loses the series however it stood
    state.outcome = Outcome(winners=(1, 3), losers=(0, 2), reason="no_trick")
    assert state.standing() == (1, 0, 1, 0)


def test_K8_czech_places_follow_the_totals_with_ties() -> None:
    state = find_variant("czech").new_game(5, {"players": 5})
    state.totals = [40, 12, 40, 0, 70]
    assert state.standing() == (2, 1, 2, 0, 3)
    while not state.is_over:
        play_deal(state)
    assert state.outcome is not None
    places = state.standing()
    assert {s for s, p in enumerate(places) if p == 0} == set(state.outcome.winners)
    assert all(places[s] == max(places) or s not in state.outcome.losers for s in range(5))


# --- which series count, and how -------------------------------------------------------------------------


async def test_a_finished_series_rates_every_seat(storage: Storage) -> None:
    game = await new_game(storage)
    state = await play_series(storage, game)
    assert state.outcome is not None
    after = await ratings_of(storage, "four_card")
    for seat in state.outcome.winners:
        assert after[rating.person(seat + 1)].mu > Skill().mu
    for seat in state.outcome.losers:
        assert after[rating.person(seat + 1)].mu < Skill().mu
    changes = await storage.ratings.changes(game.game_id)
    assert [c.seat for c in changes] == [0, 1, 2, 3] and all(c.before is None for c in changes)
    results = await storage.results.of_game(game.game_id)
    assert all(r.cancelled is False for r in results)


async def test_the_rating_is_written_in_the_transaction_that_ends_the_series(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game(storage)
    state = await storage.games.load_state(game)
    while True:
        before = len(state.history)
        play_deal(state)
        if state.is_over:
            break
        game = await record(storage, game, state)

    def broken(*_: Any) -> dict[str, Skill]:
        raise RuntimeError("the rating failed")

    monkeypatch.setattr(rating, "rate", broken)
    with pytest.raises(RuntimeError, match="the rating failed"):
        await storage.games.record(game, state)
    row = await storage.games.get(game.game_id)
    assert row is not None and row.status == "active" and row.action_count == before
    assert await storage.results.of_game(game.game_id) == []
    monkeypatch.undo()
    await storage.games.record(game, state)
    assert len(await storage.ratings.changes(game.game_id)) == 4


async def test_a_series_cancelled_before_its_first_deal_ended_is_not_rated(storage: Storage) -> None:
    game = await new_game(storage)
    state = await storage.games.load_state(game)
    state.apply(state.all_legal_actions()[0])
    game = await record(storage, game, state)
    await storage.games.cancel(game)
    assert await storage.ratings.changes(game.game_id) == []
    assert all(r.cancelled for r in await storage.results.of_game(game.game_id))
    assert await storage.ratings.leaderboard(-100, "four_card") == []


async def test_a_lobby_cancelled_is_not_rated(storage: Storage) -> None:
    await storage.chats.ensure(-100, "Chat", "supergroup")
    game = await storage.games.create(-100, "czech", {}, seed=1, creator_id=None)
    await storage.games.cancel(game)
    assert await storage.ratings.rated_count() == 0


@pytest.mark.parametrize("variant", variant_names())
async def test_cancelling_while_behind_is_a_loss(storage: Storage, variant: str) -> None:
    """The side behind when a series is cancelled after its first deal loses rating, as in a finished series
    (behind: more penalty points where the totals count against a side, fewer series points elsewhere)."""
    totals_against = find_variant(variant).state_class.TOTALS_AGAINST
    for seed in range(40):  # a seed whose first deal leaves the totals apart
        game = await new_game(storage, variant, seed=seed)
        state = await storage.games.load_state(game)
        play_deal(state)
        if not state.is_over and len(set(state.totals)) > 1:
            break
        await storage.games.cancel(await record(storage, game, state))
    else:
        pytest.fail("no seed gave a first deal with a leader")
    game = await record(storage, game, state)
    await storage.games.cancel(game)
    units = [s % 2 if state.TEAMS else s for s in range(state.num_players)]
    totals = [state.totals[u] for u in units]
    worst = max(totals) if totals_against else min(totals)
    changes = await storage.ratings.changes(game.game_id)
    assert len(changes) == state.num_players
    for change, total in zip(changes, totals, strict=True):
        if total == worst:
            assert change.after.mu < Skill().mu, (variant, totals)


async def test_a_kicked_or_absent_person_is_rated_for_the_seat_a_computer_played(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.games.set_stand_in(game.game_id, 1, "strong", 2)  # seat 1 (person 2) kicked, or away
    state = await play_series(storage, game)
    assert state.outcome is not None
    changes = {c.seat: c for c in await storage.ratings.changes(game.game_id)}
    assert changes[1].user_id == 2 and changes[1].level is None
    person = (await ratings_of(storage, "four_card"))[rating.person(2)]
    assert (person.mu < Skill().mu) == (1 in state.outcome.losers)
    assert rating.computer("strong") not in await ratings_of(storage, "four_card")


async def test_each_computer_level_is_rated_as_one_player(storage: Storage) -> None:
    game = await new_game(storage, people=(1, 2), computers={1: "strong", 3: "strong"})
    state = await play_series(storage, game)
    assert state.outcome is not None
    strong = (await ratings_of(storage, "four_card"))[rating.computer("strong")]
    assert strong.series == 1 and (strong.mu > Skill().mu) == (1 in state.outcome.winners)
    changes = await storage.ratings.changes(game.game_id)
    assert [c.level for c in changes] == [None, "strong", None, "strong"]


async def test_a_second_series_starts_from_the_first_ones_rating(storage: Storage) -> None:
    first = await new_game(storage, seed=1)
    await play_series(storage, first)
    after_first = await ratings_of(storage, "four_card")
    second = await new_game(storage, seed=2)
    await play_series(storage, second, seed=4)
    changes = await storage.ratings.changes(second.game_id)
    for change in changes:
        assert change.before == after_first[rating.person(change.user_id or 0)]
        assert change.after.series == 2


# --- leaderboards ----------------------------------------------------------------------------------------


def test_rank_puts_settled_ratings_before_provisional_ones_and_leaves_computers_out() -> None:
    settled = RatedPlayer(user_id=1, name="A", skill=Skill(mu=20, sigma=3, series=9))
    better_but_new = RatedPlayer(user_id=2, name="B", skill=Skill(mu=40, sigma=3, series=2))
    best = RatedPlayer(user_id=3, name="C", skill=Skill(mu=30, sigma=3, series=9))
    level = RatedPlayer(user_id=None, name="", level="strong", skill=Skill(mu=50, sigma=1, series=90))
    assert [p.user_id for p in rank([settled, better_but_new, best, level])] == [3, 1, 2]


# --- derived data: rerate and check ----------------------------------------------------------------------


async def cli(*argv: str) -> int:
    """``python -m storage`` as a command (it runs its own event loop, so on a thread of its own)."""
    return await asyncio.to_thread(storage_cli.main, list(argv))


async def test_rerate_finds_no_difference_then_finds_and_fixes_a_tampered_rating(tmp_path: Path) -> None:
    path = tmp_path / "kozel.db"
    store = await Storage.open(path)
    try:
        for seed, variant in enumerate([*variant_names(), default_variant_name()]):
            game = await new_game(store, variant, seed=seed, people=(1, 2, 3, 4))
            await play_series(store, game, seed=seed)
        assert await store.ratings.rated_count() == len(variant_names()) + 1
        assert await store.ratings.recompute() == []
        await store.db.execute(f"UPDATE ratings SET mu = mu + 1 WHERE subject = 'p3' AND variant = '{default_variant_name()}'")
    finally:
        await store.close()
    assert await cli("--database", str(path), "rerate") == 1
    report = await check(path)
    assert not report.ok and any(f"rating: {default_variant_name()} p3" in p for p in report.problems)
    assert await cli("--database", str(path), "rerate", "--write") == 0
    assert await cli("--database", str(path), "rerate") == 0
    report = await check(path)
    assert report.ok and report.rated == len(variant_names()) + 1, report.lines()


async def test_a_database_from_before_ratings_is_rated_at_its_first_start(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = await Storage.open(path)
    try:
        for seed in range(3):
            await play_series(store, await new_game(store, "czech", seed=seed), seed=seed)
        stored = {p.user_id: p.skill for p in await store.ratings.leaderboard(-100, "czech")}
        cancelled = await new_game(store, "czech", seed=9)
        state = await store.games.load_state(cancelled)
        play_deal(state)
        await store.games.cancel(await record(store, cancelled, state))
        assert await store.ratings.rated_count() == 4  # today a cancelled series with a deal ended counts
    finally:
        await store.close()
    old = tmp_path / "before.db"  # the same games stored by the schema before ratings
    conn = sqlite3.connect(old, isolation_level=None)
    for migration in MIGRATIONS[:6]:
        for statement in split_sql(migration.sql):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {migration.version}")
    conn.execute(f"ATTACH '{path}' AS new")
    for table in ("chats", "players", "games", "seats", "actions", "deals"):
        columns = ", ".join(r[1] for r in conn.execute(f"PRAGMA main.table_info({table})"))
        conn.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM new.{table}")
    columns = ", ".join(r[1] for r in conn.execute("PRAGMA main.table_info(results)"))
    conn.execute(f"INSERT INTO main.results ({columns}) SELECT {columns} FROM new.results")
    conn.execute("DETACH new")
    conn.close()
    assert (await check(old)).ok
    store = await Storage.open(old)
    try:
        assert await store.ratings.rated_count() == 3  # the cancelled series was never rated then
        migrated = {p.user_id: p.skill for p in await store.ratings.leaderboard(-100, "czech")}
        assert migrated == stored
        assert await store.ratings.recompute() == []
        won = await store.ratings.of_person(1)
        assert won[0].deals_won > 0
    finally:
        await store.close()


# --- deals won (the /stats count) ------------------------------------------------------------------------


def deal(score: tuple[int, ...]) -> DealResult:
    return DealResult(deal_no=0, dealer=0, leader=1, points=score, score=score, totals=score, tricks=score)


def test_F14_a_four_card_deal_is_won_by_the_team_that_gives_defeat_points() -> None:
    state_class = find_variant("four_card").state_class
    assert state_class.deal_won(deal((0, 2)), 0) and state_class.deal_won(deal((0, 2)), 2)
    assert not state_class.deal_won(deal((0, 2)), 1)
    assert not any(state_class.deal_won(deal((0, 0)), seat) for seat in range(4))  # eggs: nobody's


def test_C13_a_classic_deal_is_won_by_the_team_that_scores() -> None:
    state_class = find_variant("classic").state_class
    assert state_class.deal_won(deal((2, 0)), 0) and not state_class.deal_won(deal((2, 0)), 1)


def test_K5_a_czech_deal_is_won_with_the_fewest_penalty_points_shared_or_not() -> None:
    state_class = find_variant("czech").state_class
    assert [state_class.deal_won(deal((0, 0, 8, 13)), seat) for seat in range(4)] == [True, True, False, False]
    assert not any(state_class.deal_won(deal((0, 0, 0)), seat) for seat in range(3))


async def test_a_persons_ratings_and_places_in_each_chat(storage: Storage) -> None:
    """A person's rating in each game he played, with his place in each chat that played it."""
    game_a, game_b = variant_names()[0], variant_names()[-1]
    first = await new_game(storage, game_a, chat_id=-1, people=(1, 2, 3, 4), seed=1)
    await play_series(storage, first)
    second = await new_game(storage, game_b, chat_id=-2, people=(1, 5, 6, 7), seed=2)
    await play_series(storage, second, seed=2)
    found = {r.variant: r for r in await storage.ratings.of_person(1)}
    assert set(found) == {game_a, game_b}
    a, b = found[game_a], found[game_b]
    assert a.skill.series == 1 and a.best is None  # provisional: no best yet
    assert [(chat, count) for chat, _, count in a.places] == [("Chat -1", 4)]
    assert [(chat, count) for chat, _, count in b.places] == [("Chat -2", 4)]
    board = rank(await storage.ratings.leaderboard(-1, game_a))
    assert a.places[0][1] == 1 + [p.user_id for p in board].index(1)
    results = await storage.results.of_game(first.game_id)
    assert a.series_won == int(next(r.won for r in results if r.user_id == 1))
    history = await storage.ratings.history(1)
    assert [p.series for p in history[game_a]] == [1] and [p.series for p in history[game_b]] == [1]
    assert history[game_b][0].rating == b.skill.rating
