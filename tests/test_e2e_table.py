"""End to end: what players see and feel at the table (issue 15), over the embedded Bot API server."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.e2e import open_game, play_turn, replay, running_world


async def test_the_hand_stays_under_the_finger_of_a_player_who_is_choosing(tmp_path: Path) -> None:
    """Four-card Kozel with a 0.3 s turn notification: the player whose turn came taps cards to choose them
    for four times that long.  His hand message is edited in place, never deleted and sent again, and his
    taps count as activity: no notification is sent to a player who is using his hand."""
    async with running_world(tmp_path, turn_ping_seconds=0.3) as world:
        server, runner = world.server, world.runner
        people, game = await open_game(world, "/newgame 4", 4)
        rng = random.Random(15)
        first = next(p for p in people if p.my_turn())
        assert await play_turn(first, rng)
        await runner.settle()
        _, state = await replay(world, game.game_id)
        assert state.to_move is not None and state.to_move != first.user_id - 1
        chooser = next(p for p in people if p.user_id == state.to_move + 1)
        hand, _, toggles = chooser.options()
        assert hand is not None and toggles and "👉" in hand.text
        before = len(server.bot_messages(chooser.user_id))
        for tap in range(10):  # 10 taps, 0.12 s apart: 1.2 s, four times the notification delay
            await chooser.press(hand, toggles[tap % 2 if len(toggles) > 1 else 0])
            await asyncio.sleep(0.12)
            await runner.settle()
            now, _, _ = chooser.options()
            assert now is not None and now.message_id == hand.message_id, "the hand moved while he chose"
            assert not server.messages[(chooser.user_id, hand.message_id)].deleted
            hand = now
        await asyncio.sleep(0.6)
        await runner.settle()
        assert not server.messages[(chooser.user_id, hand.message_id)].deleted
        assert len(server.bot_messages(chooser.user_id)) == before  # no notification: he was pressing
        assert server.violations == []
