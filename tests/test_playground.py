"""The playground: ``python -m bot`` without a token, its chats kept across restarts, and a whole deal played
by clicking in a real browser (headless Chromium driven by Playwright)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from io import BytesIO
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image
from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import async_playwright
from telegram import InputMediaPhoto
from telegram import Message as TelegramMessage

from bot.config import Settings
from playground.botapi import PHOTOS_LOOSE, BotApiServer
from playground.runner import Running, running
from playground.web import GROUP_ID
from tests.e2e import server_and_bot

pytestmark = pytest.mark.real_time  # a process, HTTP and a browser: real time

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
GAME_KEY = re.compile(r"g\d+:\d+:.+")
# The newest message of the private chat with game buttons: its key, its text, its buttons.
LATEST_HAND = """() => {
  const rows = [...document.querySelectorAll('#pane-private .row.bot')].filter(r => r.querySelector('.key[data-callback]'));
  const row = rows[rows.length - 1];
  if (!row) return null;
  return {key: row.dataset.key, text: row.querySelector('.text').innerText,
          keys: [...row.querySelectorAll('.key[data-callback]')].map(k => ({data: k.dataset.callback, text: k.innerText}))};
}"""
SCREENSHOT = os.environ.get("KOZEL_SCREENSHOT")  # a path: the browser test saves the page mid-trick there


def chromium() -> str:
    """The system's Chromium; without it the browser test skips, except in CI where it fails."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        reason = "no chromium: install Debian's package (sudo apt-get install -y chromium) to run the browser test"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def quick_settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(
        **{
            "database_path": tmp_path / "data" / "kozel.db",
            "rate_overall_per_second": 0,
            "group_period_seconds": 3.0,
            "poll_timeout_seconds": 1,
            "computer_workers": 0,
            "computer_pause_seconds": 0.05,
            "computer_budget_seconds": 0.02,
            **values,
        }
    )


@pytest.fixture
async def up(tmp_path: Path) -> AsyncIterator[Running]:
    async with running(quick_settings(tmp_path), port=0) as made:
        yield made


async def api(session: aiohttp.ClientSession, url: str, path: str, **body: Any) -> Any:
    async with session.post(url + path.lstrip("/"), json=body) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def snapshot(session: aiohttp.ClientSession, url: str, user: int) -> Any:
    """The first event the page gets: everything ``user`` sees."""
    async with session.get(url + f"api/events?user={user}") as events:
        return json.loads((await events.content.readline()).decode().removeprefix("data: "))


async def test_python_m_bot_without_a_token_opens_the_playground_and_keeps_its_chats(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    env.update(
        PYTHONPATH=str(ROOT), PLAYGROUND_PORT="0", POLL_TIMEOUT_SECONDS="1", COMPUTER_WORKERS="0",
        COMPUTER_PAUSE_SECONDS="0.05", COMPUTER_BUDGET_SECONDS="0.02",
    )  # fmt: skip

    async def start() -> tuple[asyncio.subprocess.Process, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
        assert found, line
        return process, found[1]

    async def stop(process: asyncio.subprocess.Process) -> None:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0

    process, url = await start()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as page:
                assert page.status == 200 and "Kozel playground" in await page.text()
            me = (await api(session, url, "/api/login", name="Ann", language="en"))["user"]
            await api(session, url, "/api/quickstart", user=me)
            # the start is stored before the hands go out (a stop meanwhile leaves them to the next start)
            for _ in range(100):
                shown = await snapshot(session, url, me)
                if any(m["chat"] == me and m["from_bot"] and m["buttons"] for m in shown["messages"]):
                    break
                await asyncio.sleep(0.1)
        await stop(process)
        saved = json.loads((tmp_path / "data" / "playground.json").read_text("utf-8"))
        assert [u["first_name"] for u in saved["users"]] == ["Ann"]
        hands = [m for m in saved["messages"] if m["chat_id"] == me and m["from_bot"] and m["markup"]]
        assert hands, "Ann's hand never came"
        process, url = await start()
        async with aiohttp.ClientSession() as session:
            seen = await snapshot(session, url, me)
        assert seen["kind"] == "snapshot" and seen["me"]["name"] == "Ann"
        texts = [m["text"] for m in seen["messages"]]
        assert "/newgame four_card" in texts and any(m["id"] == hands[0]["message_id"] for m in seen["messages"])
        assert (tmp_path / "data" / "kozel.db").exists()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_a_person_plays_a_four_card_deal_against_computers_in_a_browser(up: Running, tmp_path: Path) -> None:
    executable = chromium()

    started = time.monotonic()
    async with async_playwright() as driver:
        context = await driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=executable, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 820},
        )  # fmt: skip
        try:
            page = context.pages[0] if context.pages else await context.new_page()
            await page.goto(up.url)
            await page.fill("#name", "Ann")
            await page.click("#quick")  # the second click: the first visit plays in two
            group, private = page.locator("#pane-group"), page.locator("#pane-private")
            await private.locator(".key[data-callback]").first.wait_for(timeout=20_000)
            assert "/newgame four_card" in await group.locator(".row.mine").first.inner_text()  # typed for her
            shot = False
            moves = 0
            while not await group.locator(".row.bot", has_text="Deal 1 ·").count():
                assert time.monotonic() - started < 90, "the deal did not end"
                hand = await page.evaluate(LATEST_HAND)
                if hand is None or "👉" not in hand["text"]:
                    await asyncio.sleep(0.05)
                    continue
                on_table = hand["text"].partition("On the table:")[2].partition("Penalty points:")[0].count("🤖")
                pictured = await group.locator("img.photo").count()  # the table, once the group's budget let it go
                if SCREENSHOT and not shot and "Your turn" in hand["text"] and pictured and (on_table >= 2 or moves > 8):
                    await page.screenshot(path=SCREENSHOT)
                    shot = True
                actions = [k["data"] for k in hand["keys"] if GAME_KEY.fullmatch(k["data"]) and ":a" in k["data"]]
                toggles = [
                    k["data"] for k in hand["keys"]
                    if ":t" in k["data"] and not k["text"].startswith(("·", "✅"))
                ]  # fmt: skip
                choice = (actions or toggles or [None])[0]
                if choice is None:
                    await asyncio.sleep(0.05)
                    continue
                try:
                    await private.locator(f".row[data-key='{hand['key']}'] .key[data-callback='{choice}']").click(
                        timeout=2_000
                    )
                except PlaywrightTimeout:  # the hand changed under the pointer: look again
                    continue
                await page.wait_for_function("!document.querySelector('.key.busy')")
                moves += 1
                assert moves < 200
            assert await group.locator(".row.bot", has_text="looking for players").count() == 0  # it says who plays
            assert await group.locator(".row.bot", has_text="has begun").count() == 1
            table = group.locator(".row.bot", has_text="deal 2").last
            await table.wait_for()  # the next deal's table: a picture under its caption
            caption = await table.inner_text()
            assert all(name in caption for name in ("Ann", "🤖 Bot 2", "🤖 Bot 3", "🤖 Bot 4")), caption
            result = group.locator(".row.bot", has_text="Deal 1 ·")
            assert await result.count() == 1  # the first deal's table, edited into its result
            told = await result.inner_text()
            assert "Card points" in told and "Penalty points:" in told  # F15: four-card counts toward 12 that lose
            loaded = "(picture) => picture.decode().then(() => picture.naturalWidth)"
            for row in (table, result):  # each shows its picture, loaded
                assert await row.locator("img.photo").evaluate(loaded) == 1024
            await private.locator(".row.bot", has_text="deal 2").locator(".key").first.wait_for()  # and hand
            assert await group.locator(".bubble .text b").count()  # HTML formatting rendered, not shown raw
            assert "<b>" not in await group.inner_text()
            assert moves >= 4  # she played her cards (a press each, or toggles and a lead)
        finally:
            await context.close()
    assert up.server.violations == []
    assert any(m.from_user for m in up.server.chat_messages(GROUP_ID))


async def test_two_tabs_two_people_a_deep_link_a_toast_and_the_command_menu(up: Running, tmp_path: Path) -> None:
    executable = chromium()
    async with async_playwright() as driver:
        context = await driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            ann = context.pages[0] if context.pages else await context.new_page()
            bob = await context.new_page()  # another tab: another person
            for page, name in ((ann, "Ann"), (bob, "Bob")):
                await page.goto(up.url)
                await page.fill("#name", name)
                await page.click("#enter")
                await page.wait_for_selector("body[data-ready]")
            await ann.fill("#pane-group input", "/newgame czech")
            await ann.press("#pane-group input", "Enter")
            join = bob.locator("#pane-group .key.link")  # Bob sees Ann's lobby live, with its t.me link
            await join.wait_for()
            await join.click()  # opens his private chat with /start <payload>, as Telegram does
            await bob.locator("#pane-private .row.mine", has_text="/start j").wait_for()
            await bob.locator("#pane-private .row.bot", has_text="You're at the table").wait_for()
            await ann.locator("#pane-group .row.bot", has_text="1. Bob").wait_for()  # the lobby, edited in place
            asked = bob.locator("#pane-group .row.other", has_text="/newgame czech")
            await asked.hover()
            await asked.locator(".reply-btn").click()  # Telegram's Reply, as /kick by reply needs
            await bob.fill("#pane-group .composer input", "count me in")
            await bob.press("#pane-group .composer input", "Enter")
            answer = ann.locator("#pane-group .row.other", has_text="count me in")
            assert "Ann" in await answer.locator(".quote").inner_text(timeout=10_000)
            assert "/newgame czech" in await answer.locator(".quote").inner_text()
            assert await bob.locator("#pane-group .replying").is_hidden()
            assert await ann.locator("#pane-group .row.bot", has_text="looking for players").count() == 1
            await ann.locator("#pane-group .key[data-callback$=':bot']").click()
            await ann.locator(".toast", has_text="computer").wait_for()  # the callback answer
            await ann.locator("#pane-group .row.bot", has_text="🤖").wait_for()
            assert not await bob.locator(".toast").count()  # only the one who pressed sees the answer
            await ann.click("#pane-group .menu")
            menu = ann.locator("#pane-group .command-menu")
            await menu.locator(".command", has_text="/score").wait_for()
            await ann.locator("#pane-private .menu").click()
            assert await ann.locator("#pane-private .command", has_text="/stats").count() == 1
            await ann.locator("#pane-private .command", has_text="/stats").click()  # a menu item is sent
            await ann.locator("#pane-private .row.mine", has_text="/stats").wait_for()
            assert not await ann.locator("#pane-private .row.bot", has_text="<b>").count()
        finally:
            await context.close()
    assert up.server.violations == []


async def test_the_page_shows_the_bots_html_edits_in_place_and_deletions_live(up: Running, tmp_path: Path) -> None:
    executable = chromium()
    bot = up.application.bot
    async with async_playwright() as driver:
        context = await driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=executable, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = context.pages[0] if context.pages else await context.new_page()
            await page.goto(up.url)
            await page.fill("#name", "Ann")
            await page.click("#enter")
            await page.wait_for_selector("body[data-ready]")
            sent = await bot.send_message(
                GROUP_ID, "<b>bold</b> &amp; <i>it</i> <a href='javascript:alert(1)'>x</a>", parse_mode="HTML"
            )
            row = page.locator(f"#pane-group .row[data-key='{GROUP_ID}:{sent.message_id}']")
            assert await row.locator(".text b").inner_text() == "bold"
            assert await row.locator(".text i").inner_text() == "it"
            assert "& it" in await row.locator(".text").inner_text()
            assert await row.locator("a").get_attribute("href") is None  # only http(s) links survive
            await bot.edit_message_text("<u>changed</u>", GROUP_ID, sent.message_id, parse_mode="HTML")
            await row.locator(".text u", has_text="changed").wait_for()
            assert "edited" in await row.locator(".meta").inner_text()
            assert await page.locator("#pane-group .row.bot").count() == 1  # in place, not a second message
            await bot.delete_message(GROUP_ID, sent.message_id)
            await row.wait_for(state="detached")
        finally:
            await context.close()
    assert up.server.violations == []


async def test_send_photo_takes_a_multipart_upload_reuses_its_file_id_and_refuses_bad_pictures() -> None:
    """sendPhoto as the Bot API describes it: a picture uploaded as a file part, or a file id sent before; a
    file that is no picture, a caption over 1024 characters and a file in a field that takes none refused."""
    server = BotApiServer()
    await server.start()
    try:
        server.add_user(5, "Ann").started = True
        picture = BytesIO()
        Image.new("RGB", (40, 30), (200, 10, 10)).save(picture, format="PNG")
        base = f"{server.base_url}{server.token}/"

        async def send(session: aiohttp.ClientSession, photo: bytes | str, **fields: str) -> tuple[int, Any]:
            form = aiohttp.FormData({"chat_id": "5", **fields})
            if isinstance(photo, bytes):
                form.add_field("photo", photo, filename="rating.png", content_type="image/png")
            else:
                form.add_field("photo", photo)
            async with session.post(base + "sendPhoto", data=form) as response:
                return response.status, await response.json()

        async with aiohttp.ClientSession() as session:
            status, body = await send(session, picture.getvalue(), caption="<b>Ann</b> 1532")
            assert status == 200, body
            sizes = body["result"]["photo"]
            assert sizes[0]["width"] == 40 and sizes[0]["height"] == 30 and body["result"]["caption"] == "Ann 1532"
            status, again = await send(session, sizes[0]["file_id"], caption="again", parse_mode="HTML")
            assert status == 200 and again["result"]["photo"][0]["file_id"] == sizes[0]["file_id"]
            status, body = await send(session, b"not a picture")
            assert status == 400 and "IMAGE_PROCESS_FAILED" in body["description"]
            status, body = await send(session, picture.getvalue(), caption="x" * 1025)
            assert status == 400 and "caption is too long" in body["description"]
            status, body = await send(session, "photo-unknown")
            assert status == 400 and "file identifier" in body["description"]
            form = aiohttp.FormData({"chat_id": "5", "text": "hi"})
            form.add_field("caption", b"x", filename="x.txt")
            async with session.post(base + "sendMessage", data=form) as response:
                assert response.status == 400
        shown = [m for m in server.bot_messages(5) if m.photo]
        assert [m.text for m in shown] == ["<b>Ann</b> 1532", "again"]
        assert server.violations == ["sendMessage: Bad Request: unknown parameter 'caption' of sendMessage (a file)"]
    finally:
        await server.stop()


async def test_edit_message_media_and_caption_change_a_photo_in_place() -> None:
    """editMessageMedia with the new picture as an attached part or a file id sent before (its caption goes
    with it), editMessageCaption alone; an edit that changes nothing, or of a message with no picture, refused."""
    server = BotApiServer()
    await server.start()
    try:
        server.add_user(5, "Ann").started = True
        base = f"{server.base_url}{server.token}/"
        red, blue = BytesIO(), BytesIO()
        Image.new("RGB", (40, 30), (200, 10, 10)).save(red, format="PNG")
        Image.new("RGB", (40, 30), (10, 10, 200)).save(blue, format="PNG")
        async with aiohttp.ClientSession() as session:

            async def call(method: str, data: Any) -> tuple[int, Any]:
                async with session.post(base + method, data=data) as response:
                    return response.status, await response.json()

            form = aiohttp.FormData({"chat_id": "5", "caption": "deal 1"})
            form.add_field("photo", red.getvalue(), filename="t.png", content_type="image/png")
            _, sent = await call("sendPhoto", form)
            message_id, red_id = sent["result"]["message_id"], sent["result"]["photo"][0]["file_id"]
            form = aiohttp.FormData({"chat_id": "5", "message_id": str(message_id),
                                     "media": json.dumps({"type": "photo", "media": "attach://table",
                                                          "caption": "deal 1 · trick 2"})})  # fmt: skip
            form.add_field("table", blue.getvalue(), filename="t.png", content_type="image/png")
            status, body = await call("editMessageMedia", form)
            assert status == 200, body
            message = server.messages[(5, message_id)]
            assert message.photo != red_id and message.text == "deal 1 · trick 2" and message.edits == 1
            media = json.dumps({"type": "photo", "media": red_id})  # the first picture again, by its id
            status, body = await call("editMessageMedia", {"chat_id": "5", "message_id": str(message_id), "media": media})
            assert status == 200 and message.photo == red_id and message.text == ""  # no caption: it goes
            status, body = await call("editMessageMedia", {"chat_id": "5", "message_id": str(message_id), "media": media})
            assert status == 400 and "not modified" in body["description"]
            status, body = await call("editMessageCaption", {"chat_id": "5", "message_id": str(message_id),
                                                             "caption": "<b>deal 2</b>", "parse_mode": "HTML"})  # fmt: skip
            assert status == 200 and message.photo == red_id and message.text == "<b>deal 2</b>"
            missing = json.dumps({"type": "photo", "media": "attach://nothing"})
            status, body = await call("editMessageMedia", {"chat_id": "5", "message_id": str(message_id), "media": missing})
            assert status == 400 and "was not sent" in body["description"]
            _, text = await call("sendMessage", {"chat_id": "5", "text": "hello"})
            status, body = await call("editMessageCaption", {"chat_id": "5", "message_id": str(text["result"]["message_id"]),
                                                             "caption": "x"})  # fmt: skip
            assert status == 400 and "no caption" in body["description"]
        methods = [s.method for s in server.shown if s.message_id == message_id]
        assert methods == ["sendPhoto", "editMessageMedia", "editMessageMedia", "editMessageCaption"]
        assert server.violations == []
    finally:
        await server.stop()


async def test_python_telegram_bot_sends_and_edits_photos_through_the_in_process_connection() -> None:
    """The bot's own calls, as python-telegram-bot makes them (a file part, and InputMediaPhoto's
    attach:// part), reach the embedded server with no socket."""
    async with server_and_bot(None, -7) as (server, bot):
        red, blue = BytesIO(), BytesIO()
        Image.new("RGB", (8, 8), (200, 10, 10)).save(red, format="PNG")
        Image.new("RGB", (8, 8), (10, 10, 200)).save(blue, format="PNG")
        sent = await bot.send_photo(5, red.getvalue(), caption="one")
        edited = await bot.edit_message_media(InputMediaPhoto(blue.getvalue(), caption="two"), 5, sent.message_id)
        assert isinstance(edited, TelegramMessage) and edited.photo[0].file_id != sent.photo[0].file_id
        await bot.edit_message_caption(5, sent.message_id, caption="three")
        again = await bot.send_photo(-7, sent.photo[0].file_id)  # a file id sent before: nothing uploaded
        assert again.photo[0].file_id == sent.photo[0].file_id
        message = server.messages[(5, sent.message_id)]
        assert message.text == "three" and message.edits == 2
        assert server.violations == []


async def test_the_server_keeps_the_pictures_shown_and_only_the_newest_others() -> None:
    """A table edited into a new picture at every move: the server keeps each picture a message shows, and of
    the others only the newest ``PHOTOS_LOOSE`` (a file id among them still sends its picture again); a
    restart's state keeps only the pictures shown; a deleted message's picture is no longer shown."""
    async with server_and_bot(None, -7) as (server, bot):
        pictures = []
        for shade in range(PHOTOS_LOOSE + 40):
            out = BytesIO()
            Image.new("RGB", (8, 8), (shade % 256, shade // 256, 90)).save(out, format="PNG")
            pictures.append(out.getvalue())
        kept = await bot.send_photo(5, pictures[0], caption="a result")  # shown for good
        table = await bot.send_photo(-7, pictures[1], caption="the table")
        ids = [table.photo[0].file_id]
        for picture in pictures[2:]:
            edited = await bot.edit_message_media(InputMediaPhoto(picture), -7, table.message_id)
            assert isinstance(edited, TelegramMessage)
            ids.append(edited.photo[0].file_id)
        assert len(server.photos) == 2 + PHOTOS_LOOSE  # the two shown, and the newest of the others
        assert ids[0] not in server.photos and kept.photo[0].file_id in server.photos
        recent = ids[-5]  # shown a few edits ago: still sent again by its id
        assert (await bot.send_photo(5, recent)).photo[0].file_id == recent
        saved = server.snapshot()["photos"]
        shown = {m.photo for m in server.messages.values() if m.photo}
        assert set(saved) == shown and kept.photo[0].file_id in saved and len(saved) == 3
        await bot.delete_message(5, kept.message_id)
        assert kept.photo[0].file_id not in server.snapshot()["photos"]
        assert server.violations == []


async def test_the_playground_keeps_a_chats_newest_messages_only() -> None:
    """Issue 35: weeks of play in the playground keep each chat's newest messages (as many as a person scrolls
    back through), and the pictures of the messages let go are no longer kept as shown."""
    async with server_and_bot(None, -7) as (server, bot):
        server.keep_per_chat = 5
        picture = BytesIO()
        Image.new("RGB", (8, 8), (9, 9, 9)).save(picture, format="PNG")
        first = await bot.send_photo(-7, picture.getvalue(), caption="the oldest")
        for n in range(8):
            await bot.send_message(-7, f"message {n}")
        kept = server.bot_messages(-7)
        assert [m.text for m in kept] == [f"message {n}" for n in range(3, 8)]
        assert (-7, first.message_id) not in server.messages and server.snapshot()["photos"] == {}
        assert len(server.bot_messages(5)) == 0 and server.violations == []
