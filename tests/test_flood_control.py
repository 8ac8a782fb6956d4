"""The embedded Bot API server's flood control (Telegram's limits, answered with 429 and retry_after) and
its failure injection (502 before a request takes effect)."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections import Counter
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest
from pydantic import SecretStr
from telegram import Bot
from telegram.error import NetworkError, RetryAfter

import bot.__main__ as entry
from bot.app import build_application
from bot.clock import Clock
from bot.config import Settings
from bot.delivery.floods import waiting_out_floods
from bot.delivery.publisher import Publisher
from playground.botapi import BotApiServer, FloodControl, Limits
from playground.inprocess import InProcessRequest
from tests.e2e import GROUP as E2E_GROUP
from tests.e2e import Person, World, button, open_game, running_world, server_and_bot

GROUP = -700


@pytest.fixture
async def fake() -> AsyncIterator[tuple[BotApiServer, Bot]]:
    async with server_and_bot(Limits(), GROUP) as pair:
        yield pair


async def test_the_21st_message_into_a_group_within_a_minute_gets_429_with_retry_after(
    fake: tuple[BotApiServer, Bot],
) -> None:
    server, bot = fake
    for i in range(20):
        await bot.send_message(GROUP, f"m{i}")
    with pytest.raises(RetryAfter) as refused:
        await bot.send_message(GROUP, "one too many")
    assert 1 <= refused.value.retry_after.total_seconds() <= 60  # type: ignore[union-attr]
    assert len(server.limited) == 1 and "group" in server.limited[0]
    assert len(server.bot_messages(GROUP)) == 20  # the refused message was not shown
    await bot.send_message(5, "a private chat is not the group's window")


async def test_a_private_chat_takes_a_burst_then_one_message_a_second(fake: tuple[BotApiServer, Bot]) -> None:
    server, bot = fake
    for i in range(3):
        await bot.send_message(5, f"m{i}")
    with pytest.raises(RetryAfter):
        await bot.send_message(5, "fourth at once")
    await bot.send_message(6, "another chat has its own bucket")
    await asyncio.sleep(1.0)
    await bot.send_message(5, "a second later")
    assert [m.text for m in server.bot_messages(5)] == ["m0", "m1", "m2", "a second later"]


async def test_edits_in_a_private_chat_are_allowed_a_longer_burst(fake: tuple[BotApiServer, Bot]) -> None:
    server, bot = fake
    message = await bot.send_message(5, "v")
    for i in range(20):
        await bot.edit_message_text(f"v{i}", chat_id=5, message_id=message.message_id)
    with pytest.raises(RetryAfter):
        await bot.edit_message_text("v20", chat_id=5, message_id=message.message_id)
    assert server.messages[(5, message.message_id)].text == "v19"


async def test_overall_limit_and_callback_answers_are_exempt() -> None:
    control = FloodControl(Limits())
    for i in range(30):
        control.check("getChatMember", {"chat_id": GROUP - i}, 100.0)
    for _ in range(100):
        control.check("answerCallbackQuery", {"callback_query_id": "1"}, 100.0)
        control.check("getUpdates", {}, 100.0)
    with pytest.raises(Exception, match="retry after 1"):
        control.check("getChatMember", {"chat_id": GROUP}, 100.0)
    control.check("getChatMember", {"chat_id": GROUP}, 100.1)  # refilled at 30 a second


def test_scaled_limits_run_the_clock_faster() -> None:
    fast = Limits().scaled(0.05)
    assert fast.group_messages == 20 and fast.group_period == pytest.approx(3.0)
    assert fast.per_second == pytest.approx(600) and fast.private_per_second == pytest.approx(20)
    control = FloodControl(fast)
    for i in range(20):
        control.check("sendMessage", {"chat_id": GROUP}, 10.0 + i * 0.01)
    with pytest.raises(Exception, match="Too Many Requests"):
        control.check("sendMessage", {"chat_id": GROUP}, 10.5)
    control.check("sendMessage", {"chat_id": GROUP}, 13.0)


async def test_the_publishers_group_pacing_stays_under_the_servers_limit(fake: tuple[BotApiServer, Bot]) -> None:
    server, bot = fake
    server.flood_control = FloodControl(Limits().scaled(0.5 / 60))  # 20 messages per half second
    publisher = Publisher(bot, group_limit=20, group_period=0.5)
    await asyncio.gather(*(publisher.send(GROUP, f"m{i}") for i in range(50)))
    assert len(server.bot_messages(GROUP)) == 50
    assert server.limited == []


async def test_failure_injection_answers_502_before_the_request_takes_effect(fake: tuple[BotApiServer, Bot]) -> None:
    server, bot = fake
    server.fail_rate = 1.0
    with pytest.raises(NetworkError):
        await bot.send_message(GROUP, "lost?")
    assert server.failed == ["sendMessage"] and server.bot_messages(GROUP) == []
    server.fail_methods = frozenset({"editMessageText"})
    await bot.send_message(GROUP, "sent: sendMessage no longer fails")


async def test_the_e2e_harness_fails_a_test_in_which_the_bot_was_answered_429(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="past Telegram's limits"):
        # The bot paced to 100 group messages where the server (at the tests' clock) takes 20.
        async with running_world(tmp_path, group_messages_per_minute=100) as world:
            for i in range(22):
                assert await world.runner.publisher.send(E2E_GROUP, f"m{i}") is not None


async def test_a_429_reaches_the_caller_so_that_a_retry_waits_for_a_turn_of_the_outbox(
    fake: tuple[BotApiServer, Bot], tmp_path: Path
) -> None:
    server, _ = fake
    token = SecretStr(server.token)
    settings = Settings(bot_token=token, telegram_base_url=server.base_url, database_path=tmp_path / "b.db")
    bot = build_application(settings, transport=partial(InProcessRequest, server)).bot
    await bot.initialize()
    try:
        server.flood["sendMessage"] = 1
        with pytest.raises(RetryAfter):
            await bot.send_message(GROUP, "refused once")
        # python-telegram-bot did not send it again by itself, past the outbox: at 1,000 tables such retries
        # came back bunched, were refused again and grew into thousands of 429s
        assert [c.method for c in server.calls].count("sendMessage") == 1
    finally:
        await bot.shutdown()


async def test_a_call_made_outside_the_publisher_waits_out_a_429_and_goes_again() -> None:
    tries = 0

    async def call() -> str:
        nonlocal tries
        tries += 1
        if tries <= 2:
            raise RetryAfter(0)
        return "taken"

    clock = Clock()
    assert await waiting_out_floods(call, clock) == "taken" and tries == 3
    tries = -10  # refused more often than it waits
    with pytest.raises(RetryAfter):
        await waiting_out_floods(call, clock, waits=3)
    assert tries == -6


def test_the_bot_sets_what_start_up_made_aside_from_the_garbage_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection stops the event loop, and the calls let go before the stop reach Telegram in one bunch
    with those after it: ``python -m bot`` freezes what start-up made once the application is built."""
    steps: list[str] = []

    class Application:
        def run_polling(self, **options: object) -> None:
            steps.append(f"polling, {gc.get_freeze_count() > 0 and gc.isenabled()}")

    monkeypatch.setenv("BOT_TOKEN", "1:freeze")
    monkeypatch.setenv("WEBHOOK_URL", "")

    def build(settings: Settings) -> Application:
        steps.append("built")
        return Application()

    monkeypatch.setattr(entry, "build_application", build)
    monkeypatch.setattr(logging, "basicConfig", lambda **options: None)
    gc.unfreeze()
    try:
        assert entry.main([]) == 0
    finally:
        gc.unfreeze()
    assert steps == ["built", "polling, True"]


@pytest.mark.parametrize("burst", [2, 3, 20])
async def test_a_chat_that_drew_a_429_is_paced_more_gently_so_a_second_is_rare(tmp_path: Path, burst: int) -> None:
    """Issue 35: Telegram's limits are not published. Four people tap a four-card deal 0–0.3 s apart
    against a Telegram that allows a private chat a burst of only ``burst`` (the outbox assumes 4 edits): a
    429 halves that chat's budget and takes its burst away, which then grow back slowly; a second 429 in the
    same chat is rare. The figures are printed for the issue's note."""
    flood = Limits(private_burst=min(burst, 3), edit_burst=burst)
    async with running_world(tmp_path, flood=flood) as world:
        people, _ = await open_game(world, "/newgame 4", 4)
        rng, presses = random.Random(burst), 0
        while presses < 500:
            movers = [p for p in people if p.my_turn()]
            if not movers:
                await asyncio.sleep(0.05)
                if not await world.runner.storage.games.open_game(E2E_GROUP):  # the series is over: another
                    await open_game_again(world, people)
                continue
            mover = rng.choice(movers)
            hand, actions, toggles = mover.options()
            assert hand is not None
            await world.server.answer_of(await world.server.press(mover.user_id, hand, rng.choice(actions or toggles)))
            presses += 1
            await asyncio.sleep(rng.uniform(0.0, 0.3))
        await world.runner.settle()
        floods = Counter(entry.split(" in ")[1].split(":")[0] for entry in world.server.limited)
        again = sum(n - 1 for n in floods.values())
        print(f"burst {burst}: {sum(floods.values())} 429s in {len(floods)} chats, {again} second ones, "
              f"in {presses} presses; cuts {dict(world.runner.publisher.outbox.cuts)}")
        assert again <= 1, floods  # a second 429 in a chat is rare (without the cut: 5 in 500 presses, burst 2)
        if burst >= 4:
            assert not floods  # a Telegram as generous as the outbox assumes never refuses


async def open_game_again(world: World, people: list[Person]) -> None:
    """The same people open another series and start it."""
    await people[0].say(E2E_GROUP, "/newgame 4")
    await world.runner.settle()  # the lobby may wait for the group's budget
    lobby = next(m for m in reversed(world.group_messages()) if any("url" in b for b in m.buttons()))
    for person in people:
        await person.join(lobby)
    lobby = world.server.messages[(E2E_GROUP, lobby.message_id)]
    await people[0].press(lobby, button(lobby, ":start"))
