"""End to end, table manners (issue 7) and computer players in the bot (issue 8): computers in the lobby,
turn timers with take-over and return, /cancel, /kick, /settings, a blocked player, the bot removed, a
player leaving, a lobby through a supergroup upgrade, and /stats."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from telegram import Update

from engine import Action, Card, Kind
from engine.players import decide
from playground.botapi import Message
from tests.e2e import (
    GROUP,
    World,
    button,
    configure,
    eventually,
    finished,
    loop_time,
    open_game,
    play_turn,
    replay,
    running_world,
    with_computers,
)

FAST: dict[str, Any] = {
    "lobby_ttl_seconds": 600,
    "computer_workers": 0,
    "computer_budget_seconds": 0.02,
    "computer_pause_seconds": 0.02,
}


async def stand_ins(world: World, game_id: int) -> dict[int, str | None]:
    return {s.seat: s.stand_in for s in await world.runner.storage.games.seats(game_id)}


@pytest.mark.parametrize("level", ["strong", "expert"])
async def test_computer_players_fill_the_table_and_think_in_another_process(tmp_path: Path, level: str) -> None:
    """Issue 8: "Add computer" seats computer players (named and marked 🤖); they play their turns on their
    own, in a worker process, and their moves are stored like anybody's (without a person).  The expert's
    compiled core loads in the worker too (issue 32)."""
    async with running_world(tmp_path, **(FAST | {"computer_workers": 1, "computer_budget_seconds": 0.05})) as world:
        ann = world.person(1, "Ann")
        await configure(world, computer_level=level, turn_timer=0)
        await ann.say(GROUP, "/newgame classic")
        lobby = world.group_messages()[-1]
        await ann.join(lobby)
        for _ in range(3):
            lobby = world.server.messages[(GROUP, lobby.message_id)]
            answer = await ann.press(lobby, button(lobby, ":bot"))
            assert "computer player" in answer.get("text", "")
        lobby = world.server.messages[(GROUP, lobby.message_id)]
        assert lobby.text.count("🤖 Bot") == 3
        assert not any(b.get("callback_data", "").endswith(":bot") for b in lobby.buttons())  # the table is full
        await ann.press(lobby, button(lobby, ":start"))
        game = await world.runner.storage.games.open_game(GROUP)
        assert game is not None and game.status == "active"
        rng = random.Random(3)

        async def a_deal_done() -> bool:
            _, state = await replay(world, game.game_id)
            if ann.my_turn():
                await play_turn(ann, rng)
            return len(state.deals) >= 1

        await eventually(world, a_deal_done, timeout=60, what="a deal with three computer players")
        row, state = await replay(world, game.game_id)
        assert row.totals == list(state.totals) and state.deals
        rows = await world.runner.storage.db.fetchall(
            "SELECT action, user_id FROM actions WHERE game_id = ?", (game.game_id,)
        )
        assert {r["user_id"] for r in rows if not r["action"].startswith("0 ")} == {None}
        assert {r["user_id"] for r in rows if r["action"].startswith("0 ")} == {1}
        assert any("🤖 Bot 2" in m.text for m in world.group_messages())
        assert world.server.violations == []


async def test_a_turn_timer_counts_from_when_the_hand_shows_the_turn(tmp_path: Path) -> None:
    """A 30 s timer: while every edit fails (Telegram's bad moment, or its budget spent), the player whose turn
    came has not seen it, and the computer does not play for him; once his hand has shown it, his time runs
    and runs out."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=30, computer_level="basic")
        _, game = await open_game(world, "/newgame czech", 3)
        server = world.server
        server.fail_methods = frozenset({"editMessageText"})
        server.fail_rate = 1.0

        async def actions() -> int:
            row = await world.runner.storage.games.get(game.game_id)
            assert row is not None
            return row.action_count

        for _ in range(600):  # (no settling here: the failing edits are being retried for minutes)
            if await actions() >= 1:  # the first player's hand came as a new message: his time ran out
                break
            await asyncio.sleep(0.1)
        moved = await actions()
        assert moved >= 1, "the computer never played for the first player"
        await asyncio.sleep(90.0)  # three times the timer: the next player's hand never showed his turn
        assert await actions() == moved, "the computer played for someone whose hand had not shown his turn"
        server.fail_rate = 0.0

        async def next_move() -> bool:
            return await actions() > moved

        await eventually(world, next_move, timeout=600, what="the timer to run out once the hand showed the turn")
        assert server.violations == []


async def test_a_turn_timer_counts_from_when_a_late_hand_showed_the_turn(tmp_path: Path) -> None:
    """Edits answered late (Telegram slow, or its budget spent): the hand of the player whose turn came shows
    it most of the timer later; his time counts from then, not from when the turn came (an 8 s timer; each
    edit takes 1.8 s)."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=8, computer_level="basic")
        _, game = await open_game(world, "/newgame czech", 3)
        server = world.server
        turn_shown: dict[int, float] = {}  # private chat -> when its hand first showed the turn, edits slow

        def heard(kind: str, m: Any) -> None:
            if kind == "edit" and m.chat_id > 0 and "👉" in m.text:
                turn_shown.setdefault(m.chat_id, world.server.clock.now())

        server.listeners.append(heard)
        server.fail_methods = frozenset({"editMessageText"})
        server.slow_seconds = 1.8
        server.slow_rate = 1.0

        async def actions() -> int:
            row = await world.runner.storage.games.get(game.game_id)
            assert row is not None
            return row.action_count

        for _ in range(400):  # (no settling: the edits are slow)
            if await actions() >= 2:
                break
            await asyncio.sleep(0.05)
        moved_at = await world.runner.storage.games.last_action_at(game.game_id)
        assert await actions() == 2, "the computer never played for the second player"
        _, state = await replay(world, game.game_id)
        second = (await world.runner.storage.games.seats(game.game_id))[state.history[1].seat].user_id
        assert second in turn_shown and moved_at is not None, turn_shown
        assert moved_at - turn_shown[second] >= 1.2, "his time ran out before his hand had shown him his turn long"
        server.slow_rate = 0.0
        assert server.violations == []


async def test_a_wall_clock_set_back_an_hour_or_on_a_day_moves_no_timer(tmp_path: Path) -> None:
    """The wall clock jumps (set back an hour, then on a day) while the loop's monotonic clock does not: each
    turn still runs out 30 s after the hand showed it, never early, never an hour late, and once."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=30, computer_level="basic")
        turn_since: dict[int, float] = {}  # private chat -> since when its hand shows his turn (loop time)
        turns: dict[int, float] = {}  # private chat -> how long his hand showed his last turn that ended

        def heard(kind: str, m: Any) -> None:
            if kind not in ("new", "edit") or m.chat_id <= 0 or not m.buttons():  # his hand
                return
            if "👉" in m.text:
                turn_since.setdefault(m.chat_id, loop_time())
            elif m.chat_id in turn_since:
                turns[m.chat_id] = loop_time() - turn_since.pop(m.chat_id)

        world.server.listeners.append(heard)
        _, game = await open_game(world, "/newgame czech", 3)

        async def timed_out() -> int:
            rows = await world.runner.storage.db.fetchall(
                "SELECT count(*) AS n FROM actions WHERE game_id = ? AND user_id IS NULL", (game.game_id,)
            )
            return int(rows[0]["n"])

        seats = await world.runner.storage.games.seats(game.game_id)
        for step in (-3600.0, 86_400.0):
            await world.runner.settle()
            world.runner.wall_step += step  # mid-turn: the timer was armed before the jump
            before = await timed_out()

            async def moved(before: int = before) -> bool:
                return await timed_out() > before

            await eventually(world, moved, timeout=4000, what="the turn to run out")
            await world.runner.settle()
            _, state = await replay(world, game.game_id)
            user = seats[state.history[-1].seat].user_id
            assert user in turns, "a turn ran out whose hand had not shown it"
            waited = turns.pop(user)
            assert 29.5 <= waited <= 37.0, f"the wall clock stepped {step:+.0f} s: the turn ran out after {waited:.1f} s"
        await world.runner.settle()
        told = [m for m in world.group_messages() if "ran out of time" in m.text]
        assert len(told) == await timed_out(), "a turn ran out twice, or was told twice"
        assert world.server.violations == []


async def test_turn_timer_reminds_plays_for_and_hands_the_seat_over_until_i_am_back(tmp_path: Path) -> None:
    """A 30 s timer: a reminder at half time, then the computer plays for the player and the group is told;
    after two expiries in a row the seat stays with the computer until the player taps "I'm back"."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=30, computer_level="basic")
        people, game = await open_game(world, "/newgame czech", 3)

        async def someone_away() -> bool:  # the seat is stored first; the notice follows when the outbox sends it
            told = any("missed two turns in a row" in m.text for m in world.group_messages())
            return told and any((await stand_ins(world, game.game_id)).values())

        await eventually(world, someone_away, timeout=600, what="a seat taken over after two expiries")
        texts = [m.text for m in world.group_messages()]
        assert any("ran out of time" in t and "(missed turn 1 of 2)" in t for t in texts)
        away_seat = next(seat for seat, level in (await stand_ins(world, game.game_id)).items() if level)
        seats = await world.runner.storage.games.seats(game.game_id)
        away = next(p for p in people if p.user_id == seats[away_seat].user_id)
        private = world.server.chat_messages(away.user_id, include_deleted=True)
        assert any("⏳" in m.text and "15 s left" in m.text for m in private)  # the reminder, at half of 30 s

        async def reminder_gone() -> bool:  # deleted when its turn ended
            return not any("⏳" in m.text for m in world.server.bot_messages(away.user_id))

        await eventually(world, reminder_gone, what="the reminder to be deleted")
        hand = next(
            m
            for m in world.server.bot_messages(away.user_id)
            if any(b.get("callback_data", "").endswith(":back") for b in m.buttons())
        )
        assert "computer player is playing for you" in hand.text
        answer = await away.press(hand, button(hand, ":back"))
        assert not answer.get("show_alert"), answer
        assert (await stand_ins(world, game.game_id))[away_seat] is None
        assert any("is back at the table" in m.text for m in world.group_messages())
        rows = await world.runner.storage.db.fetchall(
            "SELECT count(*) AS n FROM actions WHERE game_id = ? AND user_id IS NULL", (game.game_id,)
        )
        assert rows[0]["n"] >= 2
        assert world.server.violations == []


async def test_a_pending_timer_survives_a_restart(tmp_path: Path) -> None:
    """The turn timer counts from the last stored action, so it still fires after a restart."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=30, computer_level="basic")
        _, game = await open_game(world, "/newgame czech", 3)
        await world.runner.stop()
        await asyncio.sleep(10.0)
        restarted = world.server.clock.now()
        await world.runner.start()

        async def expired() -> bool:  # the move is stored first; the notice follows when the outbox sends it
            row = await world.runner.storage.games.get(game.game_id)
            told = any("ran out of time" in m.text for m in world.group_messages())
            return row is not None and row.action_count >= 1 and told

        await eventually(world, expired, timeout=60, what="the timer armed before the restart")
        moved_at = await world.runner.storage.games.last_action_at(game.game_id)
        assert moved_at is not None and moved_at - restarted < 25, "the timer began again at the restart"
        assert world.server.violations == []


async def test_cancel_by_creator_by_admin_by_vote_and_refused(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        # by the creator
        people, game = await open_game(world, "/newgame czech", 3)
        await people[0].say(GROUP, "/cancel")
        row = await world.runner.storage.games.get(game.game_id)
        assert row is not None and row.status == "cancelled"
        assert "cancelled the game" in world.group_messages()[-1].text
        assert all(r.cancelled for r in await world.runner.storage.results.of_game(game.game_id))
        hand = world.server.bot_messages(people[1].user_id)[-1]
        assert "cancelled" in hand.text and not hand.buttons()

        # by an admin (user 1) in a game another person opened
        bob, cid, dan = world.person(2, "Bob"), world.person(3, "Cid"), world.person(4, "Dan")
        await bob.say(GROUP, "/newgame czech")
        lobby = world.group_messages()[-1]
        for person in (bob, cid, dan):
            await person.join(lobby)
        await bob.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
        second = await world.runner.storage.games.open_game(GROUP)
        assert second is not None and second.status == "active"
        ann = people[0]
        await ann.say(GROUP, "/cancel")
        assert (await world.runner.storage.games.get(second.game_id)).status == "cancelled"  # type: ignore[union-attr]

        # by a vote of the seated players; refused for someone not seated
        await bob.say(GROUP, "/newgame czech")
        lobby = world.group_messages()[-1]
        eve = world.person(5, "Eve")
        for person in (bob, cid, dan, eve):
            await person.join(lobby)
        await bob.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
        third = await world.runner.storage.games.open_game(GROUP)
        assert third is not None
        outsider = world.person(6, "Fay")
        await outsider.say(GROUP, "/cancel")  # he asked to cancel: he is told who can
        assert "Only the game's creator, a chat admin or the players at the table" in world.group_messages()[-1].text
        await cid.say(GROUP, "/cancel")
        vote = world.group_messages()[-1]
        assert "3 of the 4" in vote.text and "(1/3)" in vote.buttons()[0]["text"]
        answer = await outsider.press(vote, button(vote, ":vote"))
        assert answer.get("show_alert") and "Only players seated" in answer["text"]
        # a refused press keeps nothing of its message: one in his private chat is no vote of the group's
        await outsider.say(outsider.user_id, "/start")
        own = world.server.bot_messages(outsider.user_id)[-1]
        answer = await outsider.press(own, button(vote, ":vote"))
        assert answer.get("show_alert") and "Only players seated" in answer["text"]
        stored = await world.runner.storage.games.get(third.game_id)
        assert stored is not None and stored.vote_message_ids == [vote.message_id]
        answer = await cid.press(vote, button(vote, ":vote"))
        assert "already" in answer["text"]
        answer = await dan.press(vote, button(vote, ":vote"))
        assert "counted" in answer["text"] and not answer.get("show_alert")  # a confirmation, for a moment
        vote = world.server.messages[(GROUP, vote.message_id)]
        assert "(2/3)" in vote.buttons()[0]["text"]
        assert (await world.runner.storage.games.get(third.game_id)).status == "active"  # type: ignore[union-attr]
        await eve.press(vote, button(vote, ":vote"))
        await world.runner.settle()
        assert (await world.runner.storage.games.get(third.game_id)).status == "cancelled"  # type: ignore[union-attr]
        assert "voted to cancel" in world.server.messages[(GROUP, vote.message_id)].text
        assert world.server.violations == []


async def test_kick_by_reply_and_by_button(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=0, computer_level="random")
        people, game = await open_game(world, "/newgame czech", 4)
        ann, bob, cid, _ = people
        await bob.say(GROUP, "/kick")
        assert "Only the game's creator" in world.group_messages()[-1].text
        await cid.say(GROUP, "hello")
        said = world.server.chat_messages(GROUP)[-1]
        await world.server.send_text(ann.user_id, GROUP, "/kick", reply_to=said)
        await world.runner.settle()
        assert (await stand_ins(world, game.game_id))[2] == "random"
        assert "seat goes to a computer player" in world.group_messages()[-1].text
        await ann.say(GROUP, "/kick")
        choices = world.group_messages()[-1]
        assert "Cid" not in " ".join(b["text"] for b in choices.buttons())
        await ann.press(choices, button(choices, ":kick1"))
        assert (await stand_ins(world, game.game_id))[1] == "random"

        async def computers_moved() -> bool:
            _, state = await replay(world, game.game_id)
            return any(a.seat in (1, 2) for a in state.history)

        rng = random.Random(1)

        async def progress() -> bool:
            for person in people:
                if person.my_turn():
                    await play_turn(person, rng)
            return await computers_moved()

        await eventually(world, progress, what="the computer players to move")
        assert world.server.violations == []


async def test_kick_with_every_seat_a_computer_says_so(tmp_path: Path) -> None:
    async with running_world(tmp_path, **{**FAST, "computer_pause_seconds": 3600}) as world:
        await configure(world, turn_timer=0, computer_level="random")
        (ann, *_), game = await open_game(world, "/newgame czech", 4)
        for seat in (1, 2, 3, 0):  # the creator may hand his own seat too
            await ann.say(GROUP, "/kick")
            choices = world.group_messages()[-1]
            await ann.press(choices, button(choices, f":kick{seat}"))
        assert (await world.runner.storage.games.get(game.game_id)).status == "active"  # type: ignore[union-attr]
        await ann.say(GROUP, "/kick")
        reply = world.group_messages()[-1]
        assert "nobody to replace" in reply.text and not reply.buttons()
        assert world.server.violations == []


async def test_settings_menu_changes_the_next_game(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        ann, bob = world.person(1, "Ann"), world.person(2, "Bob")
        await bob.say(GROUP, "/settings")
        assert "Only a chat admin" in world.group_messages()[-1].text
        await ann.say(GROUP, "/settings")
        menu = world.group_messages()[-1]
        assert "New games: Four-card Kozel" in menu.text
        assert "Settings for “Friends &amp; &lt;Co&gt;”" in menu.text  # the menu did not blank the chat's title
        answer = await bob.press(menu, button(menu, "=classic"))
        assert answer.get("show_alert") and "Only a chat admin" in answer["text"]
        await ann.press(menu, button(menu, "=classic"))
        menu = world.server.messages[(GROUP, menu.message_id)]
        assert "New games: Classic Kozel" in menu.text
        for ending in ("deck=32", "timer=120", "level=expert"):
            await ann.press(menu, button(menu, ending))
            menu = world.server.messages[(GROUP, menu.message_id)]
        assert "Computer level: expert" in menu.text
        await ann.press(menu, button(menu, "level=random"))
        menu = world.server.messages[(GROUP, menu.message_id)]
        await ann.press(menu, button(menu, "lang=cs"))
        menu = world.server.messages[(GROUP, menu.message_id)]
        assert "Nastavení" in menu.text and "Čas na tah: 120 s" in menu.text
        await ann.press(menu, button(menu, "lang=ru"))
        menu = world.server.messages[(GROUP, menu.message_id)]
        assert "Настройки" in menu.text and "32 карт" in menu.text and "120 с" in menu.text
        stored = await world.runner.storage.chats.get(GROUP)
        assert stored is not None and (stored.title, stored.kind) == ("Friends & <Co>", "supergroup")
        assert stored.settings.default_variant == "classic" and stored.settings.turn_timer == 120
        assert stored.settings.options["classic"]["deck"] == 32 and stored.settings.computer_level == "random"
        await ann.say(GROUP, "/language ru")
        await ann.say(GROUP, "/newgame")
        lobby = world.group_messages()[-1]
        assert "Классический" in lobby.text and "32 карты" in lobby.text and "deck" not in lobby.text
        await ann.join(lobby)  # the join reply names the chat by the title Telegram gave it
        assert "in “Friends &amp; &lt;Co&gt;”" in world.server.bot_messages(1)[-1].text
        answer = await ann.press(world.server.messages[(GROUP, menu.message_id)], "s:timer=7")
        assert answer.get("show_alert")  # a value the menu never offers
        assert world.server.violations == []


async def test_a_player_who_blocked_the_bot_is_replaced_and_announced(tmp_path: Path) -> None:
    """403 from the fake server on the way to a player's private chat: the group is told and a computer
    player takes the seat, so the game goes on."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=0, computer_level="random")
        people, game = await open_game(world, "/newgame czech", 3)
        blocker = next(p for p in people if not p.my_turn())
        world.server.users[blocker.user_id].blocked = True
        rng = random.Random(2)

        async def announced() -> bool:
            for person in people:
                if person is not blocker and person.my_turn():
                    await play_turn(person, rng)
            return any("blocked the bot" in m.text for m in world.group_messages())

        await eventually(world, announced, what="the blocked player to be announced")
        seats = await world.runner.storage.games.seats(game.game_id)
        seat = next(s for s in seats if s.user_id == blocker.user_id)
        assert seat.stand_in == "random"
        player = await world.runner.storage.players.get(blocker.user_id)
        assert player is not None and not player.can_message

        async def blocker_seat_moved() -> bool:
            for person in people:
                if person is not blocker and person.my_turn():
                    await play_turn(person, rng)
            _, state = await replay(world, game.game_id)
            return any(a.seat == seat.seat for a in state.history)

        await eventually(world, blocker_seat_moved, what="the computer to play the blocked seat")

        # He unblocks the bot and starts it again: his hand comes back with "I'm back".
        await blocker.say(blocker.user_id, "/start")
        hand = next(
            m
            for m in world.server.bot_messages(blocker.user_id)
            if any(b.get("callback_data", "").endswith(":back") for b in m.buttons())
        )
        await blocker.press(hand, button(hand, ":back"))
        assert (await stand_ins(world, game.game_id))[seat.seat] is None
        assert world.server.violations == []


async def test_bot_removed_from_the_group_closes_its_game(tmp_path: Path) -> None:
    async with running_world(tmp_path, **FAST) as world:
        people, game = await open_game(world, "/newgame czech", 3)
        sent_before = len(world.group_messages())
        await world.server.member_changed(GROUP, None, "left", by=1)
        await world.runner.settle()
        row = await world.runner.storage.games.get(game.game_id)
        assert row is not None and row.status == "cancelled"
        assert all(r.cancelled for r in await world.runner.storage.results.of_game(game.game_id))
        for person in people:
            hand = world.server.bot_messages(person.user_id)[-1]
            assert "removed from the group" in hand.text and not hand.buttons()
        assert len(world.group_messages()) == sent_before
        assert world.server.violations == []


async def test_a_player_who_left_the_group_is_absent(tmp_path: Path) -> None:
    """Seen as a chat_member update (the bot is an admin) or as the service message (it is not)."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=0, computer_level="basic")
        people, game = await open_game(world, "/newgame czech", 3)
        await world.server.member_changed(GROUP, people[2].user_id, "left", by=people[2].user_id)

        async def seat_taken(seat: int) -> bool:
            return (await stand_ins(world, game.game_id))[seat] == "basic"

        await eventually(world, lambda: seat_taken(2), what="seat 2 to a computer")
        assert any("P3 left the group" in m.text for m in world.group_messages())
        await world.server.left_message(GROUP, people[1].user_id)
        await eventually(world, lambda: seat_taken(1), what="seat 1 to a computer")
        await world.server.left_message(GROUP, None)  # and then the bot itself is removed

        async def cancelled() -> bool:
            row = await world.runner.storage.games.get(game.game_id)
            return row is not None and row.status == "cancelled"

        await eventually(world, cancelled, what="the game to be cancelled")
        assert world.server.violations == []


async def test_an_open_lobby_follows_a_supergroup_upgrade(world: World) -> None:
    ann, bob, cid = world.person(1, "Ann"), world.person(2, "Bob"), world.person(3, "Cid")
    await ann.say(GROUP, "/newgame czech")
    await ann.join(world.group_messages()[-1])
    new_id = -100777
    await world.server.migrate(GROUP, new_id)
    await world.runner.settle()
    lobby = world.server.bot_messages(new_id)[-1]
    assert "Ann" in lobby.text
    for person in (bob, cid):
        await person.join(lobby)
    lobby = world.server.messages[(new_id, lobby.message_id)]
    assert "Bob" in lobby.text and "Cid" in lobby.text
    await ann.press(lobby, button(lobby, ":start"))
    game = await world.runner.storage.games.open_game(new_id)
    assert game is not None and game.status == "active"
    assert world.server.violations == []


async def test_stats_and_the_all_time_table_after_a_series(tmp_path: Path) -> None:
    """A person and three computer players finish a series of four-card Kozel (the person's turns run out
    and the computer takes his seat); /stats in private and /score in the group show it."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=1, computer_level="random")
        [ann], game = await with_computers(world, "/newgame", 3)

        async def done() -> bool:
            return await finished(world, game.game_id)

        await eventually(world, done, timeout=120, what="the series to finish")

        async def told() -> bool:  # the outcome is posted after the series is stored (table edits may wait)
            return any("goats" in m.text for m in world.group_messages())

        await eventually(world, told, timeout=30, what="the outcome in the group")
        outcome = next(m.text for m in world.group_messages() if "goats" in m.text)
        assert re.search(r"📈 <b>Ratings</b>\nAnn: 1\d{3}\? \([+−]\d+\)\n🤖 computer \(random moves\) — 🤖 Bot 2, 🤖 Bot 3, "
                         r"🤖 Bot 4: 1\d{3}\?", outcome)  # fmt: skip
        await ann.say(ann.user_id, "/stats")
        text, picture = world.server.bot_messages(ann.user_id)[-2:]
        stats = text.text
        assert "Four-card Kozel: 1 played" in stats and "molodkas" in stats
        assert re.search(r"Four-card Kozel: <b>1\d{3}\?</b> · best: none yet \(.+\)\n   1 rated series, [01] won", stats)
        assert picture.photo is not None and picture.text == "📈 Your rating after each rated series."
        assert world.server.photos[picture.photo].startswith(b"\x89PNG")
        await ann.say(GROUP, "/score")
        assert "Ann" in world.group_messages()[-1].text
        await ann.say(GROUP, "/stats")
        assert "private chat" in world.group_messages()[-1].text
        assert world.server.violations == []


async def test_command_menus_per_language_and_chat_kind(world: World) -> None:
    """setMyCommands: group commands for groups, private ones for private chats, in every language."""
    calls = [c for c in world.server.calls if c.method == "setMyCommands"]
    menus = {(c.params.get("language_code"), c.params["scope"]["type"]): c.params["commands"] for c in calls}
    for code in (None, "ru", "cs"):
        groups = [c["command"] for c in menus[(code, "all_group_chats")]]
        private = [c["command"] for c in menus[(code, "all_private_chats")]]
        assert {"newgame", "cancel", "kick", "settings", "score"} <= set(groups) and "stats" not in groups
        assert {"start", "stats"} <= set(private) and "newgame" not in private
    assert menus[("cs", "all_group_chats")][0]["description"].startswith("založit hru")


async def test_a_start_whose_command_menus_fail_goes_on_and_sets_them_later(world: World) -> None:
    """The menus are optional: a 500 or a dropped connection on setMyCommands is logged once and tried again
    in the background, and the bot serves meanwhile (it ended the process right after its migrations)."""
    await world.runner.stop()
    world.server.commands.clear()
    world.server.fail_next("setMyCommands", 1, "500")
    world.server.fail_next("setMyCommands", 1, "network")
    with mock.patch("bot.app.MENU_RETRY_FIRST", 0.05):
        await world.runner.start()
        ann = world.person(1, "Ann")
        await ann.say(GROUP, "/help")
        assert "/newgame" in world.group_messages()[-1].text

        async def menus_set() -> bool:
            return len(world.server.commands) == 6  # two chat kinds in three languages

        await eventually(world, menus_set, what="the command menus to be set")
    assert world.server.failed == ["setMyCommands: 500", "setMyCommands: network"]


async def test_a_reply_that_fails_after_its_change_was_stored_does_not_claim_nothing_changed(world: World) -> None:
    """Ann's join is committed, then its reply fails at every try: she is told that her request was handled."""
    ann = world.person(1, "Ann")
    await ann.say(GROUP, "/newgame")
    lobby = world.group_messages()[-1]
    world.server.fail_next("sendMessage", 3, "500")
    await ann.join(lobby)
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None
    assert [s.user_id for s in await world.runner.storage.games.seats(game.game_id)] == [1]
    told = world.server.bot_messages(1)[-1].text
    assert "couldn't show you the result" in told and "nothing was changed" not in told
    assert world.server.failed == ["sendMessage: 500"] * 3


async def test_an_answer_that_meets_a_bad_moment_is_tried_again(world: World, caplog: pytest.LogCaptureFixture) -> None:
    """A reply (Ann's join) and a button's answer (the lobby's start) each fail once, then go through: nobody
    is alerted that an answer was lost, and nothing is logged above INFO."""
    people = [world.person(i + 1, f"P{i + 1}") for i in range(4)]
    await people[0].say(GROUP, "/newgame 4")
    lobby = world.group_messages()[-1]
    with caplog.at_level(logging.INFO):
        world.server.fail_next("sendMessage", 1, "500")
        await people[0].join(lobby)
        assert world.server.failed == ["sendMessage: 500"]
        for person in people[1:]:
            await person.join(lobby)
        lobby = world.server.messages[(GROUP, lobby.message_id)]
        start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
        world.server.fail_next("answerCallbackQuery", 1, "network")
        answer = await people[0].press(lobby, start)
        await world.runner.settle()
    assert world.server.failed == ["sendMessage: 500", "answerCallbackQuery: network"]
    assert not answer.get("show_alert"), answer
    assert not any("couldn't show you the result" in m.text for p in people for m in world.server.bot_messages(p.user_id))
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None and game.status == "active"
    assert [r.getMessage() for r in caplog.records if r.levelno > logging.INFO] == []


async def test_an_update_delivered_twice_is_handled_once(world: World) -> None:
    """The update id is claimed before any handler runs (a redelivery after a crash is not answered again)."""
    ann = world.person(1, "Ann")
    await ann.say(GROUP, "/help")
    replies = len(world.group_messages())
    app = world.runner.app
    assert app is not None
    update = Update.de_json(
        {
            "update_id": 888_888,
            "message": {
                "message_id": 9_999,
                "date": int(world.server.clock.now()),
                "chat": {"id": GROUP, "type": "supergroup", "title": "Friends & <Co>"},
                "from": world.server.users[1].to_dict(),
                "text": "/help",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        },
        app.bot,
    )
    await app.process_update(update)
    await app.process_update(update)
    await world.runner.settle()
    assert len(world.group_messages()) == replies + 1


async def test_a_computer_choice_the_engine_refuses_does_not_stall_the_table(tmp_path: Path) -> None:
    """The engine judges computer players too: an illegal choice (a bug) is counted, logged and the basic
    player's choice is played instead."""
    forged = Action(5, Kind.PLAY, (Card.parse("7H"),))
    choices = iter([forged])

    def first_forged(*args: Any) -> Action | None:
        return next(choices, None) or decide(*args)

    with mock.patch("bot.usecases.computers.decide", side_effect=first_forged):
        async with running_world(tmp_path, allow_fallbacks=True, **FAST) as world:
            await configure(world, turn_timer=0, computer_level="strong")
            [ann], game = await with_computers(world, "/newgame czech", 2)
            rng = random.Random(5)

            async def computers_moved() -> bool:
                if ann.my_turn():
                    await play_turn(ann, rng)
                _, state = await replay(world, game.game_id)
                return {1, 2} <= {a.seat for a in state.history}

            await eventually(world, computers_moved, what="both computer seats to move")
            assert world.runner.fallbacks == 1


async def test_computer_players_go_on_after_a_restart(tmp_path: Path) -> None:
    """A table of computers stopped mid-deal resumes on its own when the bot starts again."""
    async with running_world(tmp_path, **(FAST | {"computer_pause_seconds": 0.2})) as world:
        await configure(world, turn_timer=0, computer_level="random")
        _, game = await with_computers(world, "/newgame czech", 2)
        await world.runner.storage.games.set_stand_in(game.game_id, 0, "random", 2)  # Ann is away too
        await world.runner.stop()
        await world.runner.start()

        async def moved_on() -> bool:
            row = await world.runner.storage.games.get(game.game_id)
            return row is not None and row.action_count >= 6

        await eventually(world, moved_on, what="the computers to play after the restart")
        assert world.server.violations == []


async def test_a_lobby_confirms_with_a_toast_and_refuses_with_an_alert_that_fits_it(world: World) -> None:
    """A computer seated, a seat left or a vote counted is confirmed for a moment, not as an alert a person must
    close; an outsider's press on a full table's "remove computer" is refused without the hint to tap 🙋, which a
    full lobby does not show."""
    ann, bob = world.person(1, "Ann"), world.person(2, "Bob")
    await ann.say(GROUP, "/newgame four_card")
    lobby = world.group_messages()[-1]
    await ann.join(lobby)

    def now() -> Message:
        return world.server.messages[(GROUP, lobby.message_id)]

    answer = await ann.press(now(), button(now(), ":bot"))
    assert answer.get("text") == "A computer player (strong) took a seat." and not answer.get("show_alert")
    outsider = world.person(9, "Fay")
    answer = await outsider.press(now(), button(now(), ":bot"))
    assert answer.get("show_alert") and "Tap 🙋 to join first" in answer["text"]  # he can still join
    await bob.join(lobby)
    await ann.press(now(), button(now(), ":bot"))
    shown = now()
    assert not any("url" in b for b in shown.buttons())  # full: nobody can join
    answer = await outsider.press(shown, button(shown, ":unbot"))
    assert answer.get("show_alert") and "computer players" in answer["text"] and "🙋" not in answer["text"]
    answer = await bob.press(shown, button(shown, ":leave"))
    assert answer.get("text") and not answer.get("show_alert")
