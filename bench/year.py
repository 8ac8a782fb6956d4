"""A year of a busy chat: the database's bytes per 1,000 series, and /score and /top at that size.

    python -m bench.year [--series 3650] [--asks 200]

Eight regulars play ``--series`` series in one chat (ten a day for a year by default), the three games in
turn, each to its end by random moves, every action committed through the storage API as the bot commits it
(with ``synchronous=OFF``, which changes the time of a fill and not its size) and each series' end with its
results and ratings.  Then the file's bytes (after a checkpoint of its write-ahead log) per 1,000 series, and
``/score`` (``Records.score``) and ``/top`` (``Records.top``) of that chat, asked ``--asks`` times each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from pathlib import Path

from bench.ratings import ms
from bot.usecases.live import LiveGames
from bot.usecases.records import Records
from engine import clock, find_variant
from engine.registry import samples
from storage import Storage

CHAT = -100
REGULARS = 8
GAMES = samples()  # each game in its usual configuration, in turn


async def play_series(store: Storage, variant: str, options: dict[str, object], rng: random.Random) -> int:
    """One series in the chat, by four of the regulars, to its end; its actions."""
    game = await store.games.create(CHAT, variant, options, rng.getrandbits(40), 1)
    for seat, user in enumerate(rng.sample(range(1, REGULARS + 1), 4)):
        await store.games.take_seat(game.game_id, seat, user_id=user)
    await store.games.set_status(game.game_id, "active")
    game = game.model_copy(update={"status": "active"})
    state = find_variant(variant).new_game(game.seed, options)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
        await store.games.record(game, state)
        game = game.model_copy(update={"action_count": len(state.history)})
    return len(state.history)


async def run(series: int, asks: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "year.db"
        store = await Storage.open(path)
        await store.db.execute("PRAGMA synchronous = OFF")
        await store.chats.ensure(CHAT, "Friends", "supergroup")
        for user in range(1, REGULARS + 1):
            await store.players.upsert(user, f"Player {user}")
        rng = random.Random(1)
        started, actions = clock.perf(), 0
        for n in range(series):
            variant, options = GAMES[n % len(GAMES)]
            actions += await play_series(store, variant, options, rng)
        filled = clock.perf() - started
        await store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = store.db.size()
        records = Records(store, LiveGames(store))
        timings: dict[str, list[float]] = {"score": [], "top": []}
        for _ in range(asks):
            at = clock.perf()
            await records.score(CHAT, "en")
            timings["score"].append(clock.perf() - at)
            at = clock.perf()
            await records.top(CHAT, None, rng.randint(1, REGULARS), "en")
            timings["top"].append(clock.perf() - at)
        await store.close()
    return {
        "series": series,
        "actions": actions,
        "fill_seconds": round(filled, 1),
        "database_mb": round(size / 1e6, 2),
        "bytes_per_1000_series": round(size * 1000 / series),
        "score": ms(timings["score"]),
        "top": ms(timings["top"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--series", type=int, default=3650)
    parser.add_argument("--asks", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.series, args.asks))))


if __name__ == "__main__":
    main()
