"""End to end: a game nobody plays ends by itself and frees its chat (issue 35): one with no move for
GAME_IDLE_SECONDS, and one every person has left once nobody came back for GAME_DESERTED_SECONDS."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tests.e2e import GROUP, World, button, configure, open_game, play_moves, running_world, with_computers
from tests.test_e2e_manners import FAST


async def status(world: World, game_id: int) -> str:
    row = await world.runner.storage.games.get(game_id)
    assert row is not None
    return row.status


async def test_a_game_nobody_moves_in_ends_by_itself_and_the_chat_is_free(tmp_path: Path) -> None:
    """Without a turn timer, players who went away would hold the chat for ever: an hour of no move ends it
    (the figure is a setting; a day by default), and /newgame works again."""
    async with running_world(tmp_path, game_idle_seconds=3600.0) as world:
        await configure(world, turn_timer=0)
        people, game = await open_game(world, "/newgame 4", 4)
        await play_moves(people, 3, random.Random(1))
        await world.runner.settle()
        await asyncio.sleep(3590)
        await world.runner.settle()
        assert await status(world, game.game_id) == "active"
        await play_moves(people, 1, random.Random(2))  # a move counts the hour anew
        await asyncio.sleep(3590)
        await world.runner.settle()
        assert await status(world, game.game_id) == "active"
        await asyncio.sleep(20)
        await world.runner.settle()
        assert await status(world, game.game_id) == "cancelled"
        row = await world.runner.storage.games.get(game.game_id)
        assert row is not None and row.table_message_id is not None
        assert "nobody moved for 1 hour" in world.server.messages[(GROUP, row.table_message_id)].text
        assert all(not p.options()[1] and not p.options()[2] for p in people)  # no hand keeps a button
        await people[1].say(GROUP, "/newgame")
        assert "looking for players" in world.group_messages()[-1].text


async def test_a_game_every_person_left_ends_unless_one_comes_back(tmp_path: Path) -> None:
    """Ann and Bob play with two computers. Bob leaves the group: the game goes on (Ann is there). Ann leaves
    too: computers would play on for nobody; she comes back within the minute, and it goes on; she leaves
    again, and a minute later the game ends by itself."""
    slow = FAST | {"computer_pause_seconds": 2.0}  # computers that do not play the series out within a minute
    async with running_world(tmp_path, game_deserted_seconds=60.0, **slow) as world:
        await configure(world, computer_level="random", turn_timer=0)
        (ann, bob), game = await with_computers(world, "/newgame classic", 2, "Bob")
        await world.server.left_message(GROUP, bob.user_id)
        await asyncio.sleep(90)
        await world.runner.settle()
        assert await status(world, game.game_id) == "active"  # Ann is still there, her turn waiting
        await world.server.left_message(GROUP, ann.user_id)
        await asyncio.sleep(30)
        await world.runner.settle()
        assert await status(world, game.game_id) == "active"
        hand = next(m for m in reversed(world.server.bot_messages(ann.user_id))
                    if any(b.get("callback_data", "").endswith(":back") for b in m.buttons()))  # fmt: skip
        await ann.press(hand, button(hand, ":back"))
        await asyncio.sleep(120)
        await world.runner.settle()
        assert await status(world, game.game_id) == "active"  # she is back: the game waits for her move
        await world.server.left_message(GROUP, ann.user_id)
        await asyncio.sleep(61)
        await world.runner.settle()
        assert await status(world, game.game_id) == "cancelled"
        assert any("every player had left" in m.text for m in world.group_messages())
