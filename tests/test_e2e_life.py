"""End to end, the bot's life around the games: idle lobbies, finished games, redelivered updates, two
groups at once, and ``python -m bot`` itself (configuration, long polling, SIGTERM)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from telegram import Update

from playground.botapi import BotApiServer as FakeTelegram
from playground.botapi import Limits
from tests.e2e import (
    GROUP,
    Person,
    World,
    eventually,
    finished,
    open_game,
    play_moves,
    play_until,
    replay,
    running_world,
)

ROOT = Path(__file__).resolve().parent.parent


async def test_an_idle_lobby_expires(tmp_path: Path) -> None:
    async with running_world(tmp_path, lobby_ttl_seconds=0.3) as world:
        ann = world.person(1, "Ann")
        await ann.say(GROUP, "/newgame")
        lobby = world.group_messages()[-1]
        await asyncio.sleep(1.2)  # four times the TTL: slack for a loaded CI machine
        await world.runner.settle()
        assert "so it was closed" in world.server.messages[(GROUP, lobby.message_id)].text
        assert await world.runner.storage.games.open_game(GROUP) is None
        assert world.server.violations == []


async def test_a_press_on_a_finished_game_and_a_redelivered_update(world: World) -> None:
    people, game = await open_game(world, "/newgame czech", 3)
    mover = next(p for p in people if p.my_turn())
    hand, actions, _ = mover.options()
    assert hand is not None and actions

    # The same update delivered twice (as after a crash before the offset was confirmed) is handled once.
    app = world.runner.app
    assert app is not None
    data = {
        "update_id": 999_999,
        "callback_query": {
            "id": "redelivered",
            "from": world.server.users[mover.user_id].to_dict(),
            "chat_instance": "x",
            "data": actions[0],
            "message": {
                "message_id": hand.message_id,
                "date": int(world.server.clock.now()),
                "chat": {"id": mover.user_id, "type": "private", "first_name": mover.name},
                "text": "hand",
            },
        },
    }
    _, before = await replay(world, game.game_id)
    await app.process_update(Update.de_json(data, app.bot))
    await app.process_update(Update.de_json(data, app.bot))
    await world.runner.settle()
    _, after = await replay(world, game.game_id)
    assert len(after.history) == len(before.history) + 1

    await play_until(people, lambda: finished(world, game.game_id), random.Random(3))
    answer = await mover.press(hand, actions[0])
    assert answer["show_alert"] and "over" in answer["text"]
    assert world.server.violations == []


async def test_one_person_plays_in_two_groups_at_once(world: World) -> None:
    world.server.add_group(-2002, "Other friends")
    ann, bob, cid = world.person(1, "Ann"), world.person(2, "Bob"), world.person(3, "Cid")
    dan, eve = world.person(4, "Dan"), world.person(5, "Eve")
    for chat, players in ((GROUP, (ann, bob, cid)), (-2002, (ann, dan, eve))):
        await ann.say(chat, "/newgame czech")
        lobby = world.server.bot_messages(chat)[-1]
        for person in players:
            await person.join(lobby)
        lobby = world.server.messages[(chat, lobby.message_id)]
        start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
        assert not (await ann.press(lobby, start)).get("show_alert")
    first = await world.runner.storage.games.open_game(GROUP)
    second = await world.runner.storage.games.open_game(-2002)
    assert first is not None and second is not None and first.game_id != second.game_id
    hands = [
        m for m in world.server.bot_messages(1) if any(b.get("callback_data", "").startswith("g") for b in m.buttons())
    ]
    assert {m.buttons()[0]["callback_data"].split(":")[0] for m in hands} == {f"g{first.game_id}", f"g{second.game_id}"}
    rng = random.Random(5)
    moves = {first.game_id: 0, second.game_id: 0}
    for game, group in ((first, [ann, bob, cid]), (second, [ann, dan, eve])):

        async def enough(game_id: int = game.game_id) -> bool:
            _, state = await replay(world, game_id)
            moves[game_id] = len(state.history)
            return len(state.history) >= 12

        # Ann's newest hand message may belong to the other game: she taps in the right one.
        await play_until_in_game(world, group, game.game_id, enough, rng)
    assert all(count >= 12 for count in moves.values())
    assert world.server.violations == []


async def play_until_in_game(world: World, people: list[Person], game_id: int, done, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Like ``play_until``, but each person uses his hand message of this game."""
    while not await done():
        for person in people:
            hands = [
                m for m in world.server.bot_messages(person.user_id)
                if any(b.get("callback_data", "").startswith(f"g{game_id}:") for b in m.buttons())
            ]  # fmt: skip
            if not hands or "👉" not in hands[-1].text:
                continue
            actions = [
                b["callback_data"]
                for b in hands[-1].buttons()
                if b.get("callback_data", "").split(":")[-1].startswith("a")
            ]
            if actions:
                await person.press(hands[-1], rng.choice(actions))
                break
        else:
            raise AssertionError("nobody can move in this game")


@pytest.mark.real_time
async def test_python_m_bot_polls_and_stops_on_sigterm(tmp_path: Path) -> None:
    server = FakeTelegram(limits=Limits())  # Telegram's flood control, at its own clock
    await server.start()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": server.token,
        "TELEGRAM_BASE_URL": server.base_url,
        "DATABASE_PATH": str(tmp_path / "data" / "bot.db"),
        "POLL_TIMEOUT_SECONDS": "1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while not any(c.method == "getUpdates" for c in server.calls):
            assert time.monotonic() < deadline, "the bot never started polling"
            await asyncio.sleep(0.05)
        server.add_group(GROUP, "Friends")
        server.add_user(1, "Ann")
        await server.send_text(1, GROUP, "/help")
        while not server.bot_messages(GROUP):
            assert time.monotonic() < deadline, "the bot never answered"
            await asyncio.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 30)
        assert code == 0
        assert (tmp_path / "data" / "bot.db").exists()
        assert server.violations == [] and server.limited == []
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await server.stop()


async def test_a_player_whose_turn_came_is_notified_unless_he_moves_first(tmp_path: Path) -> None:
    async with running_world(tmp_path, turn_ping_seconds=0.3) as world:
        server, runner = world.server, world.runner
        people, game = await open_game(world, "/newgame czech", 3)
        mover = next(p for p in people if p.my_turn())
        message, actions, _ = mover.options()
        assert message is not None and message.notify  # the first player's hand came with a notification
        await mover.press(message, actions[0])
        _, state = await replay(world, game.game_id)
        assert state.to_move is not None
        following = next(p for p in people if p.user_id == state.to_move + 1)
        before = following.hand()
        assert before is not None and "👉" in before.text  # edited in place, silently, at once
        await asyncio.sleep(1.2)  # four times the delay: slack for a loaded CI machine
        await runner.settle()
        after = following.hand()
        # The hand stays where it is (issue 15: it used to be deleted and sent again); the notification
        # is a short message of its own, deleted when his turn passes.
        assert after is not None and after.message_id == before.message_id
        assert not server.messages[(following.user_id, before.message_id)].deleted
        notices = [m for m in server.bot_messages(following.user_id) if not m.buttons() and "👉" in m.text]
        assert len(notices) == 1 and notices[0].notify and "Your turn" in notices[0].text
        # A player who moves within the delay gets no second message.
        _, actions, _ = following.options()
        await following.press(after, actions[0])
        await runner.settle()
        assert server.messages[(following.user_id, notices[0].message_id)].deleted  # the turn passed
        _, state = await replay(world, game.game_id)
        assert state.to_move is not None
        third = next(p for p in people if p.user_id == state.to_move + 1)
        hand = third.hand()
        assert hand is not None
        _, actions, _ = third.options()
        await third.press(hand, actions[0])
        await asyncio.sleep(1.2)
        await runner.settle()
        latest = third.hand()
        assert latest is not None and latest.message_id == hand.message_id
        assert server.violations == []


async def test_a_player_who_pressed_his_hand_lately_is_notified_later(tmp_path: Path) -> None:
    """Someone who pressed a button of his hand in the last minute is probably looking at it: when his turn
    comes again he is notified after the longer delay (3 s here), not the short one (0.3 s) kept for
    someone away.  Measured on the server's clock, from the edit that showed him his turn."""
    async with running_world(tmp_path, turn_ping_seconds=0.3, turn_ping_watching_seconds=3.0) as world:
        server, runner = world.server, world.runner
        people, _ = await open_game(world, "/newgame czech", 3)
        first = next(p for p in people if p.my_turn())
        message, actions, _ = first.options()
        assert message is not None
        await first.press(message, actions[0])
        pressed = server.clock.now()
        while not first.my_turn():  # the others move at once, until the turn comes back to him
            mover = next(p for p in people if p.my_turn())
            message, actions, _ = mover.options()
            assert message is not None
            await mover.press(message, actions[0])
            await runner.settle()

        def calls(method: str) -> list[float]:
            """When ``method`` was called into his chat with "your turn" in it, since his press."""
            return [
                c.at
                for c in server.calls
                if c.method == method
                and c.params.get("chat_id") in (first.user_id, str(first.user_id))
                and "👉" in str(c.params.get("text", ""))
                and c.at >= pressed
            ]

        async def notified() -> bool:
            return bool(calls("sendMessage"))

        await eventually(world, notified, timeout=30, what="the later notification")
        ping = calls("sendMessage")[0]
        shown = max(at for at in calls("editMessageText") if at <= ping)  # his hand said it was his turn
        assert ping - shown >= 2.0, f"notified {ping - shown:.2f} s after his turn came, having just pressed"
        assert server.violations == []


async def test_a_group_upgraded_to_a_supergroup_keeps_its_game(world: World) -> None:
    people, game = await open_game(world, "/newgame czech", 3)
    rng = random.Random(9)
    await play_moves(people, 5, rng)
    await world.server.migrate(GROUP, -1009)
    await world.runner.settle()
    moved = await world.runner.storage.games.open_game(-1009)
    assert moved is not None and moved.game_id == game.game_id
    assert await world.runner.storage.games.open_game(GROUP) is None
    table = world.server.bot_messages(-1009)
    assert table and "Turn:" in table[-1].text
    before = table[-1].text
    mover = next(p for p in people if p.my_turn())
    message, actions, _ = mover.options()
    assert message is not None
    await mover.press(message, actions[0])
    assert world.server.bot_messages(-1009)[-1].text != before  # the new table is the one kept up to date
    await people[0].say(-1009, "/score")
    assert "Czech Kozel: game in progress" in world.server.bot_messages(-1009)[-1].text
    assert world.server.violations == []
