"""The Mini App in a real browser (headless Chromium driven by Playwright) on the playground: a whole deal of
four-card Kozel played by Ann and Cid tapping cards in the Mini App (Ann's in the playground's panel, opened by
her hand's button; Cid's alone at a phone's 360 px, as Telegram would show it) and by Bob and Dan pressing the
buttons of their private chats; after every move the pages, the private hands and the group's table agree."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.async_api import BrowserContext, Frame, Page, async_playwright

from bot.miniapp.state import lines
from bot.usecases.live import Live
from bot.usecases.wiring import UseCases
from engine import Card
from playground.runner import Running, running
from playground.web import GROUP_ID
from storage import Storage
from tests.test_playground import CHROMIUM_ARGS, LATEST_HAND, chromium, quick_settings

pytestmark = pytest.mark.real_time

VERSION = re.compile(r"^(g\d+):\d+:")
# What a person taps in the Mini App: a card played at once, else a move, else he chooses a card (and takes
# one back now and then, as the e2e players do); the data of the button, or null.
CHOOSE = """(seed) => {
  const data = (nodes) => [...nodes].map((n) => n.dataset.press);
  const atOnce = data(document.querySelectorAll('#cards .card.at_once, #cards .card.discard_at_once'));
  const moves = data(document.querySelectorAll('#moves button')).filter((d) => d.includes(':a'));
  const pick = (list) => list[seed % list.length];
  if (atOnce.length || moves.length) return pick([...atOnce, ...moves]);
  const chosen = data(document.querySelectorAll('#cards .card.chosen'));
  const fresh = data(document.querySelectorAll('#cards .card.playable'));
  if (fresh.length && (!chosen.length || seed % 2)) return pick(fresh);
  return chosen.length ? pick(chosen) : null;
}"""
PRESSES = "() => [...document.querySelectorAll('#cards [data-press], #moves [data-press]')].map((n) => n.dataset.press)"
STATUS = "() => [...document.querySelectorAll('#status p')].map((p) => p.textContent)"


@pytest.fixture
async def up(tmp_path: Path) -> AsyncIterator[Running]:
    async with running(quick_settings(tmp_path), port=0) as made:
        yield made


def uses_of(up: Running) -> UseCases:
    return cast(UseCases, up.application.bot_data["uses"])


async def seated_four(up: Running) -> dict[str, int]:
    """Ann opens four-card Kozel, Bob, Cid and Dan join through its link, she starts it: their user ids."""
    pg = up.playground
    ids = {name: pg.person(name, "en") for name in ("Ann", "Bob", "Cid", "Dan")}
    await pg.send(ids["Ann"], GROUP_ID, "/newgame four_card")
    lobby = await pg.wait_for(lambda: next((m for m in up.server.bot_messages(GROUP_ID)
                                            if any("?start=" in b.get("url", "") for b in m.buttons())), None), "a lobby")  # fmt: skip
    storage = cast(Storage, up.application.bot_data["storage"])
    chat = await storage.chats.known(GROUP_ID)
    await storage.chats.save_settings(GROUP_ID, chat.settings.model_copy(update={"turn_timer": 0}))
    link = next(b["url"] for b in lobby.buttons() if "?start=" in b.get("url", ""))
    for user_id in ids.values():
        await pg.send(user_id, user_id, "/start " + link.split("?start=", 1)[1])
    start = ""
    for _ in range(100):
        current = up.server.messages[(GROUP_ID, lobby.message_id)]
        start = next((b["callback_data"] for b in current.buttons() if b.get("callback_data", "").endswith(":start")), "")
        if start and current.text.count("\n") and all(name in current.text for name in ids):
            break
        await asyncio.sleep(0.05)
    answer = await pg.press(ids["Ann"], GROUP_ID, lobby.message_id, start)
    assert not answer.get("show_alert"), answer
    return ids


async def signed_in(context: BrowserContext, up: Running, user_id: int, name: str) -> Page:
    """The playground's page of one person (another tab is another person)."""
    page = await context.new_page()
    await page.add_init_script(f"sessionStorage.setItem('kozel.me', JSON.stringify({{id: {user_id}, name: '{name}'}}))")
    await page.goto(up.url)
    await page.wait_for_selector("body[data-ready]")
    return page


def hand_presses(up: Running, user_id: int) -> list[str]:
    """The presses of his private hand's buttons, but their version (a hand nothing changed keeps its own)."""
    for message in reversed(up.server.bot_messages(user_id)):
        data = [b["callback_data"] for b in message.buttons() if re.fullmatch(r"g\d+:\d+:.+", b.get("callback_data", ""))]
        if data:
            return [VERSION.sub(r"\1:", d) for d in data]
    return []


async def within(seconds: float, check: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def test_a_deal_by_two_in_the_mini_app_and_two_by_buttons_in_a_browser(up: Running, tmp_path: Path) -> None:
    executable = chromium()
    ids = await seated_four(up)
    uses = uses_of(up)
    started = time.monotonic()
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            wide = await browser.new_context(viewport={"width": 1500, "height": 900})
            pages = {name: await signed_in(wide, up, ids[name], name) for name in ("Ann", "Bob", "Dan")}
            ann = pages["Ann"]
            await ann.locator("#pane-private .key.link").last.wait_for(timeout=20_000)
            await ann.locator("#pane-private .key.link").last.click()  # her hand's "🃏 Open the table"
            frame_handle = await ann.locator("#app-frame").element_handle()
            assert frame_handle is not None
            ann_app = await frame_handle.content_frame()
            assert ann_app is not None
            hand = next(m for m in reversed(up.server.bot_messages(ids["Cid"])) if any("web_app" in b for b in m.buttons()))
            address = next(b["web_app"]["url"] for b in hand.buttons() if "web_app" in b)
            phone = await browser.new_context(viewport={"width": 360, "height": 720}, is_mobile=True, has_touch=True)
            cid_page = await phone.new_page()
            await cid_page.goto(up.server.open_button(ids["Cid"], ids["Cid"], hand.message_id, address))
            apps: dict[int, Page | Frame] = {ids["Ann"]: ann_app, ids["Cid"]: cid_page}
            for app in apps.values():
                await app.wait_for_selector("#cards .card")
            by_buttons = {ids["Bob"]: pages["Bob"], ids["Dan"]: pages["Dan"]}
            taps = presses = 0
            seed = 0
            while True:
                assert time.monotonic() - started < 150, "the deal did not end"
                live = next(iter(uses.games.running()), None)
                assert live is not None
                if live.state.deals:
                    break
                mover = live.state.to_move
                assert mover is not None
                user_id = live.seats[mover].user_id
                assert user_id is not None
                version, chosen = live.version, live.selection.get(mover)
                seed += 1
                if user_id in apps:
                    await tap(apps[user_id], seed)
                    taps += 1
                else:
                    await press(by_buttons[user_id], seed)
                    presses += 1
                await within(10, moved(live, version, mover, chosen), "the move was not taken")
                await agree(up, uses, apps)
            assert taps >= 4 and presses >= 4
            group = pages["Bob"].locator("#pane-group")
            await group.locator(".row.bot", has_text="Deal 1 ·").wait_for()  # the result, in the group
            for app in apps.values():  # the next deal, in the Mini App too
                await app.locator("#title", has_text="deal 2").wait_for()
        finally:
            await browser.close()
    assert up.server.violations == []


def moved(live: Live, version: int, seat: int, chosen: frozenset[Card] | None) -> Callable[[], Awaitable[bool]]:
    """Whether the game moved on since it stood at ``version`` with ``chosen`` cards of ``seat``'s chosen."""

    async def check() -> bool:
        return live.version != version or live.selection.get(seat) != chosen

    return check


async def tap(app: Page | Frame, seed: int) -> None:
    data = await app.evaluate(CHOOSE, seed)
    assert data, await app.locator("#hand").inner_text()
    await app.locator(f"[data-press='{data}']").click()


async def press(page: Page, seed: int) -> None:
    """A tap on his private hand, as the playground's browser test taps: a move, else a card to choose."""
    for _ in range(100):
        hand: dict[str, Any] | None = await page.evaluate(LATEST_HAND)
        if hand is not None and "👉" in hand["text"]:
            actions = [k["data"] for k in hand["keys"] if ":a" in k["data"]]
            toggles = [k["data"] for k in hand["keys"] if ":t" in k["data"] and not k["text"].startswith("·")]
            chosen = [k["data"] for k in hand["keys"] if k["text"].startswith("✅")]
            fresh = [d for d in toggles if d not in chosen]
            pool = actions or (fresh if fresh and (not chosen or seed % 2) else chosen)
            if pool:
                data = pool[seed % len(pool)]
                key = page.locator(f"#pane-private .row[data-key='{hand['key']}'] .key[data-callback='{data}']")
                # the tap's click event on the button as it is now: an edit of the hand re-renders its row, and
                # on a busy machine a mouse click could keep waiting for one that stays still
                await key.dispatch_event("click")
                return
        await asyncio.sleep(0.05)
    raise AssertionError("his hand never offered a move")


async def agree(up: Running, uses: UseCases, apps: dict[int, Page | Frame]) -> None:
    """Every Mini App page shows its person's private hand's buttons and the group table's caption."""
    live = next(iter(uses.games.running()), None)
    if live is None or live.state.deals:
        return
    row = await uses.games.storage.games.get(live.game_id)
    assert row is not None and row.table_message_id is not None
    for user_id, app in apps.items():

        async def same(user_id: int = user_id, app: Page | Frame = app) -> bool:
            shown = [VERSION.sub(r"\1:", d) for d in await app.evaluate(PRESSES)]
            table = up.server.messages[(GROUP_ID, row.table_message_id or 0)]
            caption = lines(table.text)[1:]
            status = await app.evaluate(STATUS)
            return shown == hand_presses(up, user_id) and status[-len(caption) :] == caption

        await within(10, same, f"the Mini App of {user_id} and his chats disagree")
