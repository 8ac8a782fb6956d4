"""The outbox: Telegram's budgets never exceeded, and the turns go to whoever waits most urgently."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from pydantic import ValidationError
from telegram import Bot

from bot.config import Settings
from bot.delivery.budgets import Bucket
from bot.delivery.outbox import Outbox, Priority, Waiter
from bot.delivery.publisher import Publisher
from playground.botapi import BotApiServer, Limits
from tests.e2e import loop_time, server_and_bot

GROUP = -700


async def grant_times(outbox: Outbox, calls: list[tuple[int, Priority]]) -> list[tuple[float, int, Priority]]:
    """Queue every call at once; when each was granted (seconds after the start), in grant order."""
    start = loop_time()
    granted: list[tuple[float, int, Priority]] = []

    async def one(chat: int, kind: Priority) -> None:
        await outbox.turn(chat, kind)
        granted.append((loop_time() - start, chat, kind))

    await asyncio.gather(*(one(chat, kind) for chat, kind in calls))
    return granted


def most_in_any_window(times: list[float], window: float) -> int:
    return max(sum(1 for u in times if t <= u < t + window) for t in times)


async def test_the_overall_budget_is_never_exceeded() -> None:
    outbox = Outbox(overall=40.0, group_limit=0, private=0, overall_burst=4)
    granted = await grant_times(outbox, [(chat, Priority.MESSAGE) for chat in range(1, 25)])
    times = [t for t, _, _ in granted]
    for t in times:  # a bucket of 4 filled at 40 a second: at most 4 + 40·t by time t
        assert sum(1 for u in times if u <= t) <= 4 + 40 * t + 1e-6
    assert times[-1] >= (24 - 4) / 40 - 0.01


async def test_by_default_no_second_holds_more_calls_than_telegram_allows_in_one() -> None:
    """Telegram's about 30 a second, counted in any second (a burst of 10 let 40 go in one, and with the loop
    stalled on their way they reached the server bunched: 429s at 1,000 tables)."""
    outbox = Outbox(group_limit=0, private=0)
    granted = await grant_times(outbox, [(chat, Priority.MESSAGE) for chat in range(1, 47)])
    times = [t for t, _, _ in granted]
    for t in times:  # a bucket of 1 filled at 30 a second: at most 1 + 30·t by time t
        assert sum(1 for u in times if u <= t) <= 1 + 30 * t + 1e-6
    assert most_in_any_window(times, 1.0) <= 31


async def test_a_private_chat_gets_a_burst_then_its_rate() -> None:
    outbox = Outbox(overall=0, group_limit=0, private=20.0, private_burst=2)
    granted = await grant_times(outbox, [(5, Priority.OWN_HAND)] * 6 + [(6, Priority.OWN_HAND)])
    mine = [t for t, chat, _ in granted if chat == 5]
    assert mine[-1] >= (6 - 2) / 20 - 0.01
    assert next(t for t, chat, _ in granted if chat == 6) < 0.05  # another chat does not wait for his


async def test_a_group_never_takes_more_than_its_window_holds() -> None:
    outbox = Outbox(overall=0, group_limit=5, group_period=0.5, private=0, group_burst=5)
    granted = await grant_times(outbox, [(GROUP, Priority.TABLE)] * 8)
    times = [t for t, _, _ in granted]
    assert most_in_any_window(times, 0.5 - 0.02) <= 5
    assert times[5] >= 0.49


async def test_the_presser_goes_first_then_the_next_player_then_the_table() -> None:
    outbox = Outbox(overall=10.0, group_limit=0, private=0, overall_burst=1)
    await outbox.turn(99)  # the bucket is empty now: the calls below queue
    calls = [(GROUP, Priority.TABLE), (7, Priority.MESSAGE), (6, Priority.TURN_HAND), (5, Priority.OWN_HAND)]
    granted = await grant_times(outbox, calls)
    assert [kind for _, _, kind in granted] == [Priority.OWN_HAND, Priority.TURN_HAND, Priority.MESSAGE, Priority.TABLE]


async def test_a_table_edit_is_not_starved_by_a_stream_of_hands() -> None:
    grace = {Priority.OWN_HAND: 0.0, Priority.TURN_HAND: 0.05, Priority.MESSAGE: 0.1, Priority.TABLE: 0.3}
    outbox = Outbox(overall=20.0, group_limit=0, private=0, overall_burst=1, grace=grace)
    start = loop_time()
    table = asyncio.create_task(outbox.turn(GROUP, Priority.TABLE))
    hands = 0
    while not table.done():  # a new hand edit always waits: more than the budget can carry
        await asyncio.gather(*(outbox.turn(chat, Priority.OWN_HAND) for chat in (1, 2)))
        hands += 2
        assert loop_time() - start < 2.0, "the table edit starved"
    assert hands >= 4  # the hands went first while the table's grace lasted


async def test_the_background_fills_the_budget_up_to_the_cruise_and_the_people_may_use_all_of_it() -> None:
    grace = {Priority.OWN_HAND: 0.0, Priority.TURN_HAND: 0.05, Priority.MESSAGE: 0.1, Priority.TABLE: 10.0, Priority.HAND: 10.0}
    outbox = Outbox(overall=20.0, group_limit=0, private=0, overall_burst=1, grace=grace, cruise_share=0.5)
    start = loop_time()
    await outbox.turn(GROUP, Priority.TABLE)
    assert loop_time() - start < 0.5  # nothing else goes on: a table is edited at once, not when due
    tables = [t for t, _, _ in await grant_times(outbox, [(-1000 - n, Priority.TABLE) for n in range(21)])]
    assert 1.9 <= tables[-1] <= 5.0  # at the cruise, 10 a second, not the 20 Telegram allows (nor when due)
    hands = [t for t, _, _ in await grant_times(outbox, [(n, Priority.OWN_HAND) for n in range(1, 22)])]
    assert hands[-1] <= 0.75 * tables[-1]  # the people's calls use the whole budget: 20 a second
    asked = loop_time()
    await outbox.turn(GROUP - 1, Priority.TABLE)
    # they went past the cruise (21 calls in a second, 11 more than it carries): the tables wait until that
    # is made up (a second of debt at most: 1.1 s), not just for the cruise's next token (0.1 s)
    assert loop_time() - asked >= 0.4


async def past_the_cruise(grace: dict[Priority, float], seconds: float) -> tuple[Outbox, asyncio.Task[None]]:
    """An outbox of 20 calls a second with a cruise of 10, and one person whose hand edits, paced by his chat's
    budget at 15 a second (under the budget, over the cruise), go on for ``seconds``; 0.2 s into it."""
    outbox = Outbox(
        overall=20.0, group_limit=0, private=15.0, overall_burst=1, private_burst=1, grace=grace, cruise_share=0.5
    )
    start = loop_time()

    async def person() -> None:
        while loop_time() - start < seconds:
            await outbox.turn(5, Priority.OWN_HAND)

    playing = asyncio.create_task(person())
    await asyncio.sleep(0.2)
    return outbox, playing


async def test_people_past_the_cruise_hold_the_tables_back_until_they_are_due() -> None:
    grace = {Priority.OWN_HAND: 0.0, Priority.TURN_HAND: 0.05, Priority.MESSAGE: 0.1, Priority.TABLE: 0.6, Priority.HAND: 1.0}
    outbox, playing = await past_the_cruise(grace, 1.2)
    asked = loop_time()
    await outbox.turn(GROUP, Priority.TABLE)
    assert loop_time() - asked >= 0.6 - 0.02  # the budget had room, but the pace was past the cruise
    await playing


async def test_a_call_behind_a_table_held_by_the_cruise_goes_at_once() -> None:
    grace = {Priority.OWN_HAND: 0.0, Priority.TURN_HAND: 0.5, Priority.MESSAGE: 2.0, Priority.TABLE: 1.5, Priority.HAND: 3.0}
    outbox, playing = await past_the_cruise(grace, 1.5)  # the pace past the cruise, and the budget has room
    table = asyncio.create_task(outbox.turn(GROUP, Priority.TABLE))  # held: due 1.5 s from now
    await asyncio.sleep(0.3)
    for kind in (Priority.MESSAGE, Priority.TURN_HAND):  # due after the table, but the budget has room for them now
        asked = loop_time()
        await outbox.turn(6 + kind, kind)
        assert loop_time() - asked < 0.4, kind  # not held until the table's due (1.2 s and more)
    assert not table.done()
    await asyncio.gather(table, playing)


def test_the_cruise_is_a_share_of_the_overall_budget() -> None:
    assert Settings(rate_cruise_share=1).rate_cruise_share == 1
    for wrong in (0, -0.5, 1.5):
        with pytest.raises(ValidationError):
            Settings(rate_cruise_share=wrong)


async def test_past_capacity_the_background_takes_its_share_of_the_budget_however_many_tables_wait() -> None:
    grace = {Priority.OWN_HAND: 0.0, Priority.TURN_HAND: 0.05, Priority.MESSAGE: 0.1, Priority.TABLE: 0.2, Priority.HAND: 0.4}
    outbox = Outbox(overall=20.0, group_limit=0, private=0, overall_burst=1, grace=grace, background_share=0.25)
    start = loop_time()
    tables = [asyncio.create_task(outbox.turn(-1000 - n, Priority.TABLE)) for n in range(60)]  # 60 tables waiting
    hands = 0

    async def person(chat: int) -> None:  # each always has a hand edit waiting: more than the budget carries
        nonlocal hands
        while loop_time() - start < 2.0:
            await outbox.turn(chat, Priority.OWN_HAND)
            hands += 1

    await asyncio.gather(*(person(chat) for chat in (1, 2, 3)))
    shown = sum(1 for table in tables if table.done())
    assert abs(outbox.background - (60 - shown)) <= 1  # those granted and not yet resumed aside
    # 2 s of a budget of 20 a second: the tables take about a quarter of it (5 a second, plus the first
    # ones, due before the others), the people the rest; without the stretch every table would come due
    # after 0.2 s and take the whole budget until all had gone.
    assert 8 <= shown <= 16
    assert hands >= 24
    for table in tables:
        table.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    assert outbox.background == 0


async def test_a_waiting_call_is_hurried_when_it_becomes_urgent() -> None:
    outbox = Outbox(overall=10.0, group_limit=0, private=0, overall_burst=1)
    await outbox.turn(99)
    order: list[str] = []
    table = outbox.enter(GROUP, Priority.TABLE)
    other = outbox.enter(7, Priority.MESSAGE)

    async def wait(waiter: Waiter, name: str) -> None:
        await outbox.wait(waiter)
        order.append(name)

    tasks = [asyncio.create_task(wait(table, "hurried")), asyncio.create_task(wait(other, "other"))]
    outbox.hurry(table, Priority.OWN_HAND)
    await asyncio.gather(*tasks)
    assert order == ["hurried", "other"]


async def test_a_cancelled_wait_gives_its_turn_to_the_next() -> None:
    outbox = Outbox(overall=10.0, group_limit=0, private=5.0, overall_burst=1, private_burst=1)
    await outbox.turn(99)
    first = asyncio.create_task(outbox.turn(5, Priority.OWN_HAND))
    second = asyncio.create_task(outbox.turn(5, Priority.MESSAGE))
    await asyncio.sleep(0)
    first.cancel()
    await asyncio.wait_for(second, 2.0)


@pytest.fixture
async def limited() -> AsyncIterator[tuple[BotApiServer, Bot]]:
    async with server_and_bot(Limits().scaled(0.05), GROUP) as pair:  # Telegram's limits, twenty times faster
        yield pair


async def test_a_fast_players_taps_are_coalesced_and_never_refused(limited: tuple[BotApiServer, Bot]) -> None:
    server, bot = limited
    publisher = Publisher(bot, 20, 3.0, overall=600.0, private=20.0)
    message_id = await publisher.send(5, "hand 0")
    assert message_id is not None
    for tap in range(1, 200):  # far faster than his chat's allowance: every tap edits his hand
        publisher.edit(5, message_id, f"hand {tap}", priority=Priority.OWN_HAND)
        await asyncio.sleep(0.001)
    await publisher.flush()
    assert server.messages[(5, message_id)].text == "hand 199"
    assert not server.limited
    assert publisher.calls["editMessageText"] < 50  # about one per turn of his chat, not one per tap


async def test_the_table_never_shows_an_older_state_after_a_newer_one(limited: tuple[BotApiServer, Bot]) -> None:
    server, bot = limited
    publisher = Publisher(bot, 20, 3.0, overall=600.0, private=20.0)
    table = await publisher.send(GROUP, "state 0")
    assert table is not None
    shown: list[int] = []
    server.listeners.append(
        lambda kind, m: shown.append(int(m.text.split()[1])) if kind == "edit" and m.chat_id == GROUP else None
    )
    for state in range(1, 120):  # a busy table: more states than its group's budget can show
        publisher.edit(GROUP, table, f"state {state}", priority=Priority.TABLE)
        await asyncio.sleep(0.002)
    await publisher.flush()
    assert shown == sorted(shown) and len(set(shown)) == len(shown)
    assert shown[-1] == 119
    assert len(shown) <= 20 + 2  # shed: one edit shows many states
    assert not server.limited


async def test_a_private_chat_allows_a_shorter_burst_of_new_messages_than_of_edits() -> None:
    outbox = Outbox(overall=0, group_limit=0, private=10.0, private_burst=4, private_send_burst=2)
    start = loop_time()
    for _ in range(2):
        await outbox.turn(5, new=True)
    assert loop_time() - start < 0.05
    await outbox.turn(5, new=True)  # the third new message waits for its bucket
    assert loop_time() - start >= 0.09
    edits = loop_time()
    await outbox.turn(6)
    await outbox.turn(6)
    await outbox.turn(6)
    await outbox.turn(6)
    assert loop_time() - edits < 0.05  # four edits go at once in a fresh chat


async def test_a_cleanup_delete_does_not_hold_up_the_caller_nor_a_hand(limited: tuple[BotApiServer, Bot]) -> None:
    server, bot = limited
    publisher = Publisher(bot, 20, 3.0, overall=600.0, private=20.0)
    notice = await publisher.send(5, "your turn")
    hand = await publisher.send(6, "hand")
    assert notice is not None and hand is not None
    publisher.delete_later(5, notice)
    publisher.edit(6, hand, "hand 2", priority=Priority.OWN_HAND)
    assert not server.messages[(5, notice)].deleted  # not yet: the caller went on at once
    await publisher.flush()
    assert server.messages[(5, notice)].deleted and server.messages[(6, hand)].text == "hand 2"


async def test_forgetting_idle_chats_never_stops_the_outbox() -> None:
    outbox = Outbox(overall=0, group_limit=0, private=50.0, private_burst=1)
    outbox.sweep_every = 1  # forget idle chats after every grant
    for _ in range(3):
        await asyncio.gather(*(outbox.turn(chat) for chat in (5, 5, 5, 6, 6)))
        await asyncio.sleep(0.05)  # their budgets fill up again: they are forgotten
    await asyncio.wait_for(outbox.turn(7), 1.0)


async def test_a_429_halves_a_budget_and_takes_its_burst_which_grow_back_slowly() -> None:
    """Issue 35: a cut budget goes at half its rate with no burst, never below an eighth, and grows back by
    1/240 of its rate a second, its burst with it once whole; a 429 in three chats within ten seconds cuts the
    overall budget too."""
    bucket = Bucket(1.0, 4.0, tokens=4.0, at=0.0)
    bucket.cut(0.0)
    assert (bucket.rate, bucket.burst, bucket.tokens) == (0.5, 1.0, 0.0)
    assert bucket.ready_at(0.0) == pytest.approx(2.0, rel=0.01)  # a whole token at the lowered rate
    for _ in range(5):
        bucket.cut(0.0)
    assert bucket.rate == 0.125
    bucket.ready_at(60.0)
    assert bucket.rate == pytest.approx(0.375) and bucket.burst == 1.0
    bucket.ready_at(300.0)
    assert (bucket.rate, bucket.burst) == (1.0, 4.0)
    unlimited = Bucket(0, 0)
    unlimited.cut(0.0)
    assert unlimited.rate == 0

    outbox = Outbox(30.0)
    for chat in (5, 6):
        outbox._chat(chat)
        outbox.flooded(chat)
    assert outbox.overall.rate == 30.0 and outbox._chat(5).bucket.rate == 0.5
    outbox.flooded(7)
    assert outbox.overall.rate == 15.0 and outbox.cuts == {"chat": 3, "overall": 1}
