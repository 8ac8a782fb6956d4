"""Ratings, leaderboards and /notify_me through the real application and the embedded Bot API server."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.i18n import t
from storage.models import GameRow
from storage.rating import Skill
from tests.e2e import (
    GROUP,
    Person,
    World,
    configure,
    eventually,
    finished,
    open_game,
    play_turn,
    play_until,
    running_world,
    with_computers,
)
from tests.test_e2e_manners import FAST


async def series_played(world: World) -> int:
    """Ann and three computer players (random moves) play a four-card series to its end; its game id."""
    await configure(world, turn_timer=1, computer_level="random")
    _, game = await with_computers(world, "/newgame", 3)

    async def done() -> bool:
        return await finished(world, game.game_id)

    await eventually(world, done, timeout=120, what="the series to finish")

    async def told() -> bool:
        return any("goats" in m.text for m in world.group_messages())

    await eventually(world, told, timeout=30, what="the outcome in the group")
    return game.game_id


async def test_top_ranks_the_chat_with_the_computer_level_as_a_yardstick(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        await series_played(world)
        ann, bob = world.person(1, "Ann"), world.person(2, "Bob")
        await ann.say(GROUP, "/top")
        top = world.group_messages()[-1].text
        assert top.startswith("🏆 <b>Four-card Kozel · ratings in this chat</b>\n1. <b>Ann</b> — 1"), top
        assert re.search(r"1\. <b>Ann</b> — 1\d{3}\? · 1 series ← you", top), top
        assert re.search(r"\n      🤖 computer \(random moves\) — 1\d{3}\?", top), top
        assert "? — provisional" in top
        await bob.say(GROUP, "/top 4")  # another person reads the same board, without a "you"
        assert "← you" not in world.group_messages()[-1].text and "Ann" in world.group_messages()[-1].text
        await ann.say(GROUP, "/top classic")
        assert world.group_messages()[-1].text.startswith("No series of Classic Kozel has been rated in this chat")
        await ann.say(GROUP, "/top poker")
        assert "poker" in world.group_messages()[-1].text and "/top" in world.group_messages()[-1].text
        await ann.say(ann.user_id, "/top")
        assert world.server.bot_messages(ann.user_id)[-1].text.startswith("/top works in a group")
        assert world.server.violations == []


async def first_deal_played(world: World, command: str, players: int, seed: int) -> tuple[list[Person], GameRow]:
    """People open a game with ``command`` and play until its first deal has ended."""
    await configure(world)
    people, game = await open_game(world, command, players)

    async def a_deal_ended() -> bool:
        return len(await world.runner.storage.games.deals(game.game_id)) >= 1

    await play_until(people, a_deal_ended, random.Random(seed))
    return people, game


async def test_a_series_cancelled_after_a_deal_is_rated_and_says_so(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        people, game = await first_deal_played(world, "/newgame", 4, 5)
        assert not await finished(world, game.game_id)
        await people[0].say(GROUP, "/cancel")  # its creator cancels it
        assert await finished(world, game.game_id)

        rated = t("en", "rating.changes") + "\n" + t("en", "rating.cancelled") + "\n"  # the note under its heading

        async def told() -> bool:
            return any(m.text.startswith(rated) for m in world.group_messages())

        await eventually(world, told, timeout=30, what="the rating of the cancelled series")
        said = next(m.text for m in world.group_messages() if m.text.startswith(rated))
        assert re.findall(r"\nP(\d): 1\d{3}\? \([+−]\d+\)", said) == ["1", "2", "3", "4"], said
        changes = await world.runner.storage.ratings.changes(game.game_id)
        totals = (await world.runner.storage.games.deals(game.game_id))[-1].totals
        assert totals[0] != totals[1], totals
        behind = 0 if totals[0] > totals[1] else 1  # four-card: defeat points count against (F14)
        assert all((c.after.mu < Skill().mu) == (c.seat % 2 == behind) for c in changes), (totals, changes)
        assert world.server.violations == []


async def test_notify_me_tells_a_person_in_private_when_a_game_opens(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        await configure(world)
        ann, bob, cid = world.person(1, "Ann"), world.person(2, "Bob"), world.person(3, "Cid")
        await cid.say(cid.user_id, "/start")
        await cid.say(GROUP, "/notify_me")
        assert world.group_messages()[-1].text.startswith("🔔 Cid, I'll tell you in private whenever a game opens")
        await bob.say(GROUP, "/notify_me")  # he has not started the bot: he is asked to
        asked = world.group_messages()[-1]
        assert "but first start a private chat with me" in asked.text
        assert asked.buttons()[0]["url"].endswith("?start=notify")
        await ann.say(ann.user_id, "/start")
        await ann.say(GROUP, "/notify_me")  # the one who opens the game is not told of it
        await ann.say(GROUP, "/newgame classic")
        lobby = await world.runner.storage.games.open_game(GROUP)
        assert lobby is not None
        told = world.server.bot_messages(cid.user_id)[-1]
        assert told.text == "🃏 Ann opened a game of Classic Kozel in “Friends &amp; &lt;Co&gt;”." and told.notify
        assert told.buttons()[0]["url"].endswith(f"?start=j{lobby.game_id}")
        assert world.server.bot_messages(bob.user_id) == []
        assert not any("opened a game" in m.text for m in world.server.bot_messages(ann.user_id))
        await bob.join(told)  # the button seats him
        seats = await world.runner.storage.games.seats(lobby.game_id)
        assert bob.user_id in {s.user_id for s in seats}
        await ann.say(GROUP, "/cancel")

        await cid.say(GROUP, "/notify_me")  # the same command turns it off
        assert world.group_messages()[-1].text == "🔕 Cid, I won't tell you about new games in “Friends &amp; &lt;Co&gt;” any more."
        world.server.users[bob.user_id].blocked = True  # Bob asked, has started the bot, and now blocks it
        before, cid_before = len(world.group_messages()), len(world.server.bot_messages(cid.user_id))
        assert [p.user_id for p in await world.runner.storage.notices.subscribers(GROUP)] == [bob.user_id, ann.user_id]
        await ann.say(GROUP, "/newgame")
        await world.runner.settle()
        assert len(world.server.bot_messages(cid.user_id)) == cid_before
        assert [p.user_id for p in await world.runner.storage.notices.subscribers(GROUP)] == [ann.user_id]
        assert len(world.group_messages()) == before + 1  # the lobby, and nothing said about Bob
        assert world.server.violations == []


async def test_a_person_who_leaves_the_group_hears_no_more_of_its_games(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        await configure(world)
        ann, cid = world.person(1, "Ann"), world.person(3, "Cid")
        await cid.say(cid.user_id, "/start")
        await cid.say(GROUP, "/notify_me")
        await world.server.left_message(GROUP, cid.user_id)
        await world.runner.settle()
        assert await world.runner.storage.notices.subscribers(GROUP) == []
        await ann.say(GROUP, "/newgame")
        assert not any("opened a game" in m.text for m in world.server.bot_messages(cid.user_id))


async def test_a_series_ended_by_the_bots_removal_after_a_deal_is_rated(tmp_path: Path) -> None:
    """docs/ratings.md: removing the bot from the group ends its series, which counts once a deal has ended."""
    async with running_world(tmp_path, **FAST) as world:
        _, game = await first_deal_played(world, "/newgame czech", 3, 2)
        before = len(world.group_messages())
        await world.server.left_message(GROUP, None)
        await world.runner.settle()
        row = await world.runner.storage.games.get(game.game_id)
        assert row is not None and row.status == "cancelled"
        changes = await world.runner.storage.ratings.changes(game.game_id)
        assert [c.user_id for c in changes] == [1, 2, 3]
        assert len(world.group_messages()) == before  # nothing more is written where the bot no longer is


async def test_a_person_who_leaves_mid_series_is_rated_at_its_end(tmp_path: Path) -> None:
    """Leaving the group hands the seat to a computer, not the result: the series' end rates the person."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, computer_level="random")
        (ann, bob), game = await with_computers(world, "/newgame", 2, "Bob")
        await world.server.left_message(GROUP, bob.user_id)
        await world.runner.settle()

        async def done() -> bool:
            return await finished(world, game.game_id)

        rng = random.Random(3)
        for _ in range(3000):
            if await done():
                break
            if not (ann.my_turn() and await play_turn(ann, rng)):
                await world.runner.settle()  # the computers move
        assert await done()
        changes = await world.runner.storage.ratings.changes(game.game_id)
        assert [(c.user_id, c.level) for c in changes] == [(1, None), (2, None), (None, "random"), (None, "random")]
        seats = await world.runner.storage.games.seats(game.game_id)
        assert seats[1].stand_in == "random"  # Bob's seat was played by a computer after he left
