"""Ratings benchmark: what rating a series adds to its end, and /top, /stats and the rating picture on a big
database.

    python -m bench.ratings [--series 100000] [--people 10000] [--chats 1000] [--ends 200] [--asks 300]

1. The end of a series: the commit of a series' last action, with its results and ratings, against the same
   commit with the rating left out (alternating, on the big database), p50 and p99 of each.
2. ``/top`` (``Records.top``: a chat's boards of the three games), ``/stats`` (``Records.stats``: the
   statistics, ratings and places) and its picture (``Records.rating_picture``: the history read and drawn)
   for random chats and people.

The big database is made directly (people, chats, finished games with their results and places), then rated
by ``RatingRepo.recompute(write=True)``, as ``python -m storage rerate --write`` would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from pathlib import Path

from bot.usecases.live import LiveGames
from bot.usecases.records import Records
from engine import clock, find_variant, variant_names
from storage import Storage, rating
from storage.ratings import RatingRepo

GAMES = variant_names()
FILLED = "2026-01-01T00:00:00Z"  # when the big database's people, chats and games were made


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(p(values, 0.5) * 1000, 2), "p99_ms": round(p(values, 0.99) * 1000, 2)}


async def fill(store: Storage, series: int, people: int, chats: int, rng: random.Random) -> None:
    """People in chats of about 2 people/chats members each, and ``series`` finished series of four seats (a
    computer in one seat of a fifth of them), with their seats, results and places, as the bot stores them."""
    db = store.db
    await db.executemany(
        "INSERT INTO players (user_id, name, can_message, created_at, updated_at) VALUES (?, ?, 1, ?, ?)",
        [(u, f"Player {u}", FILLED, FILLED) for u in range(1, people + 1)],
    )
    await db.executemany(
        "INSERT INTO chats (chat_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
        [(-c, f"Chat {c}", FILLED, FILLED) for c in range(1, chats + 1)],
    )
    members = {-c: rng.sample(range(1, people + 1), max(4, 2 * people // chats)) for c in range(1, chats + 1)}
    games, seats, results, rated = [], [], [], []
    for game_id in range(1, series + 1):
        chat = -rng.randint(1, chats)
        variant = rng.choice(GAMES)
        seated = rng.sample(members[chat], 4)
        if rng.random() < 0.2:  # a computer in some seats
            seated[rng.randrange(4)] = 0
        finished = f"2026-01-01T00:00:{game_id % 60:02d}Z"
        games.append((game_id, chat, variant, game_id, "finished", FILLED, finished, finished))
        teams = find_variant(variant).teams
        winner = rng.randrange(2 if teams else 4)
        for seat, user in enumerate(seated):
            place = (0 if seat % 2 == winner else 1) if teams else (seat - winner) % 4
            lost = place == (1 if teams else 3)
            level = "strong" if not user else None
            results.append((game_id, seat, chat, user or None, variant, int(place == 0), int(lost), 0, level, place,
                            rng.randint(0, 9), finished))  # fmt: skip
            seats.append((game_id, seat, user or None, level))
        rated.append((game_id, variant))
    await db.executemany(
        "INSERT INTO games (game_id, chat_id, variant, seed, status, created_at, updated_at, finished_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        games,
    )
    await db.executemany("INSERT INTO seats (game_id, seat, user_id, computer) VALUES (?, ?, ?, ?)", seats)
    await db.executemany(
        "INSERT INTO results (game_id, seat, chat_id, user_id, variant, won, lost, score, computer, place, "
        "deals_won, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        results,
    )
    await db.executemany("INSERT INTO rated_series (game_id, variant) VALUES (?, ?)", rated)
    await store.ratings.recompute(write=True)


async def series_ends(store: Storage, ends: int, rng: random.Random) -> dict[str, object]:
    """The commit of each series' last action, rated and not, alternating."""
    timings: dict[bool, list[float]] = {True: [], False: []}
    original = RatingRepo.rate

    async def unrated(self: RatingRepo, game_id: int, variant: str, seated: object) -> None:
        return None

    for n in range(ends):
        chat = -1 - n % 50
        variant = GAMES[n % len(GAMES)]
        game = await store.games.create(chat, variant, {}, rng.getrandbits(40), None)
        for seat in range(4):
            await store.games.take_seat(game.game_id, seat, user_id=1 + (n * 4 + seat) % 500)
        await store.games.set_status(game.game_id, "active")
        game = game.model_copy(update={"status": "active"})
        state = find_variant(variant).new_game(game.seed)
        while True:
            state.apply(rng.choice(state.all_legal_actions()))
            if state.is_over:
                break
            await store.games.record(game, state)
            game = game.model_copy(update={"action_count": len(state.history)})
        with_rating = n % 2 == 0
        RatingRepo.rate = original if with_rating else unrated  # type: ignore[method-assign]
        try:
            started = clock.perf()
            await store.games.record(game, state)
            timings[with_rating].append(clock.perf() - started)
        finally:
            RatingRepo.rate = original  # type: ignore[method-assign]
    rated, bare = ms(timings[True]), ms(timings[False])
    return {
        "series_end_rated": rated,
        "series_end_unrated": bare,
        "p99_added_ms": round(rated["p99_ms"] - bare["p99_ms"], 2),
    }


async def asks(store: Storage, count: int, people: int, chats: int, rng: random.Random) -> dict[str, object]:
    records = Records(store, LiveGames(store))
    top, stats, picture = [], [], []
    for _ in range(count):
        chat, user = -rng.randint(1, chats), rng.randint(1, people)
        started = clock.perf()
        await records.top(chat, None, user, "en")
        top.append(clock.perf() - started)
        started = clock.perf()
        await records.stats(user, "ru")
        stats.append(clock.perf() - started)
        started = clock.perf()
        await records.rating_picture(user, "ru")
        picture.append(clock.perf() - started)
    return {"top": ms(top), "stats": ms(stats), "stats_picture": ms(picture)}


async def run(
    series: int, people: int, chats: int, ends: int, count: int, *, keep: Path | None = None
) -> dict[str, object]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        path = keep or Path(tmp) / "bench.db"
        made = path.exists()  # a database kept from an earlier run with the same sizes is used again
        store = await Storage.open(path)
        try:
            started = clock.perf()
            if not made:
                await fill(store, series, people, chats, rng)
            filled = clock.perf() - started
            started = clock.perf()
            differences = await store.ratings.recompute()
            rerate = clock.perf() - started
            report: dict[str, object] = {
                "series": series, "people": people, "chats": chats, "fill_and_rate_s": round(filled, 1),
                "rerate_s": round(rerate, 1), "rerate_differences": len(differences),
            }  # fmt: skip
            if ends:
                report |= await series_ends(store, ends, rng)
            report |= await asks(store, count, people, chats, rng)
            await store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await store.close()
        report["database_mb"] = round(path.stat().st_size / 1e6, 1)
    report["newcomer_rating"] = rating.Skill().rating
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--series", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--chats", type=int, default=1_000)
    parser.add_argument("--ends", type=int, default=200, help="series ends timed (half of them rated)")
    parser.add_argument("--asks", type=int, default=300, help="/top and /stats asked")
    parser.add_argument("--keep", type=Path, help="keep the big database here (and use it again if it exists)")
    args = parser.parse_args()
    report = asyncio.run(run(args.series, args.people, args.chats, args.ends, args.asks, keep=args.keep))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
