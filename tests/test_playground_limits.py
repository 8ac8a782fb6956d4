"""The playground runs Telegram's flood control too, at the clock of its group pacing, and the bot keeps under
it: a person playing a deal against computers is never refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from playground.botapi import Limits
from playground.runner import running
from tests.test_playground import api, quick_settings


async def test_the_playground_enforces_flood_control_and_a_quickstart_game_is_never_refused(tmp_path: Path) -> None:
    async with running(quick_settings(tmp_path), port=0) as up:
        control = up.server.flood_control
        assert control is not None and control.limits == Limits().scaled(3.0 / 60.0)
        async with aiohttp.ClientSession() as session:
            me = (await api(session, up.url, "/api/login", name="Ann", language="en"))["user"]
            await api(session, up.url, "/api/quickstart", user=me)
            for _ in range(200):  # his hand comes (the computers play on meanwhile)
                if any(m.buttons() for m in up.server.bot_messages(me)):
                    break
                await asyncio.sleep(0.05)
            assert any(m.buttons() for m in up.server.bot_messages(me)), "his hand never came"
        await asyncio.sleep(1.0)
        assert not up.server.limited, up.server.limited[:5]
