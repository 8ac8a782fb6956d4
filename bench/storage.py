"""Storage benchmark: committed actions per second, and size on disk per 1,000 complete deals.

    python -m bench.storage [--deals N]

Each action is committed in its own transaction, as the bot does (an action is on disk before anything
about it is sent).  ``synchronous=FULL`` is what the bot uses; ``NORMAL`` is shown for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from pathlib import Path

from engine import clock, find_variant
from engine.registry import samples
from storage import Storage


async def run(variant: str, options: dict[str, object], deals: int, synchronous: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        store = await Storage.open(path)
        await store.db.execute(f"PRAGMA synchronous = {synchronous}")
        rng = random.Random(1)
        players = find_variant(variant).options(options).num_players
        for user in range(players):
            await store.players.upsert(user + 1, f"P{user}")
        done = actions = games = 0
        started = clock.perf()
        while done < deals:
            chat = -1000 - games
            games += 1
            await store.chats.ensure(chat, f"Chat {games}", "group")
            game = await store.games.create(chat, variant, options, rng.getrandbits(40), None)
            for seat in range(players):
                await store.games.take_seat(game.game_id, seat, user_id=seat + 1)
            await store.games.set_status(game.game_id, "active")
            game = game.model_copy(update={"status": "active"})
            state = find_variant(variant).new_game(game.seed, options)
            while not state.is_over and done + len(state.deals) < deals:
                state.apply(rng.choice(state.all_legal_actions()))
                await store.games.record(game, state)
                game = game.model_copy(update={"action_count": len(state.history)})
                actions += 1
            done += len(state.deals)
        elapsed = clock.perf() - started
        await store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        await store.close()
        size = path.stat().st_size
    return {
        "variant": variant,
        "synchronous": synchronous,
        "deals": done,
        "actions": actions,
        "committed_actions_per_second": round(actions / elapsed, 1),
        "bytes_per_1000_deals": round(size * 1000 / done),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    for variant, options in samples():
        for synchronous in ("FULL", "NORMAL"):
            print(json.dumps(asyncio.run(run(variant, options, args.deals, synchronous))))


if __name__ == "__main__":
    main()
