"""A separate process for the kill test: resumes a game from the database and appends random legal
actions one at a time, printing each action *before* committing it, until it is killed.

    python -m tests.kill_writer DATABASE GAME_ID
"""

from __future__ import annotations

import asyncio
import random
import sys

from storage import Storage


async def main(path: str, game_id: int) -> None:
    storage = await Storage.open(path)
    game = await storage.games.get(game_id)
    assert game is not None
    state = await storage.games.load_state(game)
    rng = random.Random(game_id * 1_000_003 + game.action_count)
    print("ready", flush=True)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
        print(state.history[-1].text(), flush=True)
        await storage.games.record(game, state)
        game = game.model_copy(update={"action_count": len(state.history)})
    print("done", flush=True)
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
