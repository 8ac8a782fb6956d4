"""The publisher against the fake Bot API server: coalescing, unchanged texts, 429, 403 and group pacing."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator, Callable
from io import BytesIO
from typing import Any, cast

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.outbox import Priority
from bot.delivery.publisher import Publisher
from bot.delivery.sending import MAX_CAPTION, MAX_TEXT, Picture, fit, telegram_length
from playground.botapi import BotApiServer as FakeTelegram
from tests.e2e import loop_time, server_and_bot

GROUP = -500


@pytest.fixture
async def fake() -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    async with server_and_bot(None, GROUP) as (server, bot):
        server.users[5].first_name = "Ann"
        yield server, bot


def calls(server: FakeTelegram, method: str) -> int:
    return sum(1 for c in server.calls if c.method == method)


async def test_edits_are_coalesced_to_the_newest(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot)
    message_id = await publisher.send(GROUP, "v0")
    assert message_id is not None
    for i in range(1, 30):
        publisher.edit(GROUP, message_id, f"v{i}")
    await publisher.flush()
    assert server.messages[(GROUP, message_id)].text == "v29"
    assert calls(server, "editMessageText") <= 2


async def test_an_unchanged_text_is_not_sent_again_and_not_modified_is_no_error(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot)
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="g1:0:n")]])
    message_id = await publisher.send(5, "hand", markup)
    assert message_id is not None
    publisher.edit(5, message_id, "hand", markup)
    await publisher.flush()
    assert calls(server, "editMessageText") == 0
    fresh = Publisher(bot)  # after a restart it does not know what is shown
    fresh.edit(5, message_id, "hand", markup)
    await fresh.flush()
    assert calls(server, "editMessageText") == 1
    assert server.calls[-1].error is not None and "not modified" in server.calls[-1].error
    assert server.violations == []


async def test_an_edit_that_raises_a_bug_is_counted_and_the_render_queued_meanwhile_still_goes(
    fake: tuple[FakeTelegram, Bot],
) -> None:
    server, bot = fake

    class BrokenOnce:
        """The bot, whose first edit raises what no Telegram error is, while a newer render is queued."""

        raised = False

        def __getattr__(self, name: str) -> Any:
            return getattr(bot, name)

        async def edit_message_text(self, *args: Any, **kwargs: Any) -> Any:
            if not self.raised:
                self.raised = True
                assert message_id is not None
                publisher.edit(GROUP, message_id, "v2")
                raise RuntimeError("not Telegram's error")
            return await bot.edit_message_text(*args, **kwargs)

    publisher = Publisher(cast(Bot, BrokenOnce()))
    message_id = await publisher.send(GROUP, "v0")
    assert message_id is not None
    publisher.edit(GROUP, message_id, "v1")
    await asyncio.wait_for(publisher.flush(), 5)
    assert server.messages[(GROUP, message_id)].text == "v2"
    assert publisher.unexpected == 1


async def test_flood_wait_is_waited_out(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot)
    server.flood["sendMessage"] = 1
    started = loop_time()
    message_id = await publisher.send(GROUP, "after a 429")
    assert message_id is not None and loop_time() - started >= 1.0
    server.flood["editMessageText"] = 1
    publisher.edit(GROUP, message_id, "edited after a 429")
    await publisher.flush()
    assert server.messages[(GROUP, message_id)].text == "edited after a 429"


async def test_a_user_who_never_started_the_bot_gets_nothing(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    server.add_user(9, "Stranger")
    assert await Publisher(bot).send(9, "hello") is None
    assert server.calls[-1].error is not None and "can't initiate" in server.calls[-1].error


async def test_long_texts_are_cut_to_telegrams_limit(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    message_id = await Publisher(bot).send(GROUP, "x" * 5000)
    assert message_id is not None and len(server.messages[(GROUP, message_id)].text) == MAX_TEXT
    lines = "\n".join(f"<b>{i}.</b> Ann &amp; Bob" for i in range(400))  # cut between lines, HTML intact
    message_id = await Publisher(bot).send(GROUP, lines)
    assert message_id is not None and server.messages[(GROUP, message_id)].text.endswith("Bob…")
    assert server.violations == []


async def test_new_group_messages_are_paced(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, group_limit=5, group_period=1.0)
    await asyncio.gather(*(publisher.send(GROUP, f"m{i}") for i in range(12)))
    sends = [c.at for c in server.calls if c.method == "sendMessage"]
    assert len(sends) == 12
    for i in range(len(sends) - 5):
        # never a sixth message within one period, as the server saw them come (the way to it may take a
        # message longer than the next one on a busy machine: 0.15 s allowed for that)
        assert sends[i + 5] - sends[i] >= 0.85
    assert await publisher.send(5, "private chats are not paced") is not None


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = loop_time() + timeout
    while not condition():
        assert loop_time() < deadline, "timed out"
        await asyncio.sleep(0.005)


async def test_a_send_that_failed_with_5xx_is_retried_until_taken(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, retry_base=0.01)
    server.fail_rate = 1.0
    sending = asyncio.create_task(publisher.send(GROUP, "not lost"))
    await until(lambda: len(server.failed) >= 3)
    server.fail_rate = 0.0
    message_id = await sending
    assert message_id is not None and server.messages[(GROUP, message_id)].text == "not lost"
    assert [m.text for m in server.bot_messages(GROUP)] == ["not lost"]
    assert publisher.retries["sendMessage"] >= 3


async def test_a_failed_edit_is_retried_and_never_recorded_as_shown(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, retry_base=0.01, attempts=2)
    message_id = await publisher.send(5, "v0")
    assert message_id is not None
    server.fail_rate = 1.0
    publisher.edit(5, message_id, "v1")
    await publisher.flush()  # both attempts failed: given up for now
    assert server.messages[(5, message_id)].text == "v0" and len(server.failed) == 2
    server.fail_rate = 0.0
    publisher.edit(5, message_id, "v1")  # the same render again: sent, not skipped as already shown
    await publisher.flush()
    assert server.messages[(5, message_id)].text == "v1"


async def test_a_transient_edit_failure_is_retried_with_the_newest_render(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, retry_base=0.05)
    message_id = await publisher.send(GROUP, "v0")
    assert message_id is not None
    server.fail_rate = 1.0
    publisher.edit(GROUP, message_id, "v1")
    await until(lambda: bool(server.failed))
    server.fail_rate = 0.0
    publisher.edit(GROUP, message_id, "v2")  # came while the first was failing: the newest wins
    await publisher.flush()
    assert server.messages[(GROUP, message_id)].text == "v2"
    assert server.violations == []


async def test_a_delete_that_failed_is_retried(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, retry_base=0.01)
    message_id = await publisher.send(GROUP, "gone soon")
    assert message_id is not None
    server.fail_rate = 1.0
    deleting = asyncio.create_task(publisher.delete(GROUP, message_id))
    await until(lambda: len(server.failed) >= 2)
    server.fail_rate = 0.0
    assert await deleting
    assert server.messages[(GROUP, message_id)].deleted


async def test_a_chat_is_busy_while_a_message_or_an_edit_is_on_its_way_into_it(fake: tuple[FakeTelegram, Bot]) -> None:
    """What the turn timer and the turn notice ask before they act: has the player's hand reached him?"""
    _, bot = fake
    publisher = Publisher(bot, private=1.0)  # one call a second into a private chat, after a burst
    for i in range(4):  # the chat's burst spent: the next call waits for its turn
        await publisher.send(5, f"m{i}")
    assert not publisher.busy(5)
    sending = asyncio.create_task(publisher.send(5, "hand"))
    await asyncio.sleep(0.05)
    assert publisher.busy(5) and not publisher.busy(6)
    message_id = await sending
    assert message_id is not None and not publisher.busy(5)
    publisher.edit(5, message_id, "hand, edited")
    assert publisher.busy(5)
    await publisher.flush()
    assert not publisher.busy(5)


def png(colour: tuple[int, int, int]) -> Picture:
    out = BytesIO()
    Image.new("RGB", (16, 12), colour).save(out, format="PNG")
    return Picture.of(out.getvalue())


async def test_a_photo_is_uploaded_once_and_a_caption_change_alone_is_one_caption_edit(
    fake: tuple[FakeTelegram, Bot],
) -> None:
    """Issue 34: a picture is uploaded the first time and reused by its file id after; a new caption under the
    same picture costs one editMessageCaption, a new picture one editMessageMedia, and the newest of several
    pending edits is the one sent."""
    server, bot = fake
    publisher = Publisher(bot)
    red, blue = png((200, 0, 0)), png((0, 0, 200))
    message_id = await publisher.send(GROUP, "<b>deal 1</b>", photo=red)
    assert message_id is not None
    first = server.messages[(GROUP, message_id)]
    assert first.photo is not None and first.text == "<b>deal 1</b>"
    publisher.edit(GROUP, message_id, "Ann to move", photo=red)
    await publisher.flush()
    assert calls(server, "editMessageCaption") == 1 and calls(server, "editMessageMedia") == 0
    for caption in ("Bob to move", "Cid to move"):
        publisher.edit(GROUP, message_id, caption, photo=blue)
    await publisher.flush()
    assert calls(server, "editMessageMedia") == 1 and first.text == "Cid to move"
    blue_id = first.photo
    publisher.edit(GROUP, message_id, "Cid to move", photo=blue)  # what it shows already: nothing is sent
    await publisher.flush()
    assert calls(server, "editMessageMedia") + calls(server, "editMessageCaption") == 2
    publisher.edit(GROUP, message_id, "back to red", photo=red)
    await publisher.flush()
    uploads = [c for c in server.calls if "_attached" in c.params  # an editMessageMedia's attached part
               or (c.method == "sendPhoto" and not isinstance(c.params.get("photo"), str))]  # fmt: skip
    assert len(uploads) == 2  # red and blue, once each: red came back by its file id
    again = await publisher.send(GROUP, "another table", photo=blue)
    assert again is not None and server.messages[(GROUP, again)].photo == blue_id
    assert publisher.calls["sendPhoto"] == 2 and server.violations == []


async def test_a_long_caption_is_cut_to_telegrams_limit(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot)
    text = "\n".join(f"line {i} " + "x" * 40 for i in range(60))
    message_id = await publisher.send(GROUP, text, photo=png((0, 120, 0)))
    assert message_id is not None
    caption = server.messages[(GROUP, message_id)].text
    assert len(caption) <= MAX_CAPTION and caption.endswith("…")


async def test_a_caption_is_measured_as_telegram_counts_it_in_utf16_units(fake: tuple[FakeTelegram, Bot]) -> None:
    """Names full of emoji: 740 characters but 1,460 UTF-16 code units, which is what Telegram counts. The
    caption is cut to fit, at a line end, and taken (counted in characters, it was refused as too long and
    the table went stale)."""
    server, bot = fake
    publisher = Publisher(bot)
    text = "\n".join(f"<b>🌸 {i:02}</b> " + "🐐" * 32 + " &amp;" for i in range(20))
    assert len(html.unescape(re.sub("<[^>]+>", "", text))) < MAX_CAPTION < telegram_length(text)
    message_id = await publisher.send(GROUP, text, photo=png((0, 0, 120)))
    assert message_id is not None
    caption = server.messages[(GROUP, message_id)].text
    assert caption.endswith("…") and caption.count("<b>") == caption.count("</b>")
    assert MAX_CAPTION - 40 <= telegram_length(caption) <= MAX_CAPTION
    assert server.violations == []


def test_a_line_too_long_for_telegram_is_cut_as_plain_text() -> None:
    line = "<b>Ann &amp; Bob</b> " + "👨‍👩‍👧" * 300
    cut = fit(line, MAX_CAPTION)
    assert telegram_length(cut) <= MAX_CAPTION and cut.startswith("Ann &amp; Bob 👨") and "<b>" not in cut
    assert fit("short 🐐", MAX_CAPTION) == "short 🐐"


async def test_a_failed_picture_edit_is_retried_with_the_newest_render(fake: tuple[FakeTelegram, Bot]) -> None:
    server, bot = fake
    publisher = Publisher(bot, retry_base=0.01, retry_cap=0.02)
    message_id = await publisher.send(GROUP, "one", photo=png((10, 10, 10)))
    assert message_id is not None
    server.fail_next("editMessageMedia", 2, "500")
    publisher.edit(GROUP, message_id, "two", photo=png((20, 20, 20)))
    await publisher.flush()
    message = server.messages[(GROUP, message_id)]
    assert message.text == "two" and publisher.retries["editMessageMedia"] == 2


async def test_the_publisher_remembers_the_newest_messages_only(
    fake: tuple[FakeTelegram, Bot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35: what each message shows is kept for the newest messages only, so a bot that runs for weeks
    does not keep every message it ever sent; a message forgotten is edited all the same."""
    server, bot = fake
    monkeypatch.setattr("bot.delivery.shown.SHOWN_KEPT", 3)
    publisher = Publisher(bot)
    sent = [await publisher.send(GROUP, f"message {n}") for n in range(5)]
    assert all(m is not None for m in sent)
    assert len(publisher.shown) == 3
    assert publisher.shown.changed_at((GROUP, cast(int, sent[0]))) is None
    assert publisher.shown.changed_at((GROUP, cast(int, sent[4]))) is not None
    publisher.edit(GROUP, cast(int, sent[0]), "message 0, edited")
    await publisher.flush()
    assert server.messages[(GROUP, cast(int, sent[0]))].text == "message 0, edited" and len(publisher.shown) == 3


async def test_each_kind_of_change_is_timed_from_its_own_request(fake: tuple[FakeTelegram, Bot]) -> None:
    """An idle hand's change waits for the chat's budget; the turn comes meanwhile and hurries it: the one edit
    shows both, and the turn's change is timed from when the turn came, not from the idle change's request."""
    server, bot = fake
    publisher = Publisher(bot, private=0.2)
    seen: dict[Priority, float] = {}
    publisher.on_latency = seen.__setitem__
    message_id = await publisher.send(5, "v0")
    assert message_id is not None
    for i in range(1, 7):  # the chat's burst is spent: the next call waits five seconds
        publisher.edit(5, message_id, f"v{i}")
        await publisher.flush()
    publisher.edit(5, message_id, "idle", priority=Priority.HAND, since=publisher.clock.monotonic())
    await asyncio.sleep(3.0)
    publisher.edit(5, message_id, "turn", priority=Priority.TURN_HAND, since=publisher.clock.monotonic())
    await publisher.flush()
    assert server.messages[(5, message_id)].text == "turn"
    assert calls(server, "editMessageText") == 7
    assert seen[Priority.TURN_HAND] < 2.5, seen  # it came 3 s after the idle change, and waited 2 s
    assert seen[Priority.HAND] >= 4.0, seen  # it waited for the chat's next token, five seconds after the last edit


async def test_a_picture_whose_file_id_was_forgotten_is_uploaded_again(
    fake: tuple[FakeTelegram, Bot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that keeps one picture no message shows: red's file id is gone when a new deal's table shows
    red again.  The bot sent it by that id, was refused, and the table was never posted; now it uploads red
    again, and counts it."""
    server, bot = fake
    server.photos_loose = 1
    publisher = Publisher(bot)
    red = png((200, 0, 0))
    message_id = await publisher.send(GROUP, "deal 1", photo=red)
    assert message_id is not None
    for colour in ((0, 0, 200), (0, 200, 0)):  # red, then blue, no longer shown; only the newest is kept
        publisher.edit(GROUP, message_id, "deal 1", photo=png(colour))
        await publisher.flush()
    again = await publisher.send(GROUP, "deal 2", photo=red)
    assert again is not None and server.messages[(GROUP, again)].photo in server.photos
    assert publisher.file_ids.refused == 1 and publisher.file_ids.uploads == 4
    publisher.edit(GROUP, message_id, "deal 1, again", photo=png((0, 0, 200)))  # blue's id is gone too: media
    await publisher.flush()
    assert publisher.file_ids.refused == 2 and server.messages[(GROUP, message_id)].text == "deal 1, again"
    assert publisher.unexpected == 0 and server.violations == []
