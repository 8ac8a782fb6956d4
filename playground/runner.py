"""Run the playground: the embedded Bot API server, the real bot polling it, and the web page."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from pydantic import SecretStr
from telegram.ext import Application

from bot.app import ALLOWED_UPDATES, build_application, polling_errors, stop_application
from bot.config import Settings
from playground.botapi import BotApiServer, Limits
from playground.web import Playground, StateFile, serve

TOKEN = "1000000:playground"  # the embedded server's token: the bot needs one, Telegram never sees it
USERNAME = "kozel_playground_bot"
STATE_FILE = "playground.json"  # beside DATABASE_PATH
KEEP_PER_CHAT = 1000  # the newest messages the playground keeps of each chat
APP_NAME = "table"  # the Mini App's short name, as BotFather would have it


@dataclass
class Running:
    server: BotApiServer
    playground: Playground
    application: Application  # type: ignore[type-arg]
    url: str


@asynccontextmanager
async def running(settings: Settings, port: int | None = None) -> AsyncIterator[Running]:
    """The playground up (the bot polling the embedded server, the page listening) until the block ends."""
    # Telegram's flood control, at the clock of the group pacing (60 s: Telegram's own); the bot's outbox keeps
    # under it, so one person playing never waits for a refusal.
    scale = settings.group_period_seconds / 60.0
    server = BotApiServer(token=TOKEN, username=USERNAME, limits=Limits().scaled(scale))
    server.keep_per_chat = KEEP_PER_CHAT  # weeks of play keep the state file (rewritten twice a second) small
    state = StateFile(settings.database_path.parent / STATE_FILE, server)
    state.load()
    playground = Playground(server, state)
    await server.start("127.0.0.1", 0)
    host = settings.playground_host
    page, page_port = await serve(playground, host, settings.playground_port if port is None else port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    app_port = free_port(host)
    app_url = f"http://{shown}:{app_port}/app/"  # plain HTTP, which only the embedded server lets a web_app open
    server.apps[APP_NAME] = app_url
    bot_settings = settings.model_copy(  # copied, not validated: the real Telegram wants HTTPS for a Mini App
        update={
            "bot_token": SecretStr(TOKEN),
            "telegram_base_url": server.base_url,
            "rate_private_per_second": settings.rate_private_per_second / scale,
            "miniapp_url": app_url,
            "miniapp_listen": host,
            "miniapp_port": app_port,
            "miniapp_name": APP_NAME,
        }
    )
    application = build_application(bot_settings)
    await application.initialize()
    started = False
    try:
        if application.post_init:
            await application.post_init(application)
        assert application.updater is not None
        await application.updater.start_polling(
            timeout=settings.poll_timeout_seconds,
            allowed_updates=ALLOWED_UPDATES,
            drop_pending_updates=False,
            error_callback=polling_errors(application),
        )
        await application.start()
        started = True
        yield Running(server, playground, application, f"http://{shown}:{page_port}/")
    finally:
        await stop_application(application, started=started)
        await page.cleanup()
        await server.stop()
        state.save()


def free_port(host: str) -> int:
    """A port nobody listens on now, for the Mini App's server (the bot must know its address before it starts)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


async def serve_forever(settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with running(settings) as up:
        print(
            f"Kozel playground: open {up.url} in a browser (no BOT_TOKEN set, so the bot talks to a Bot API "
            "server inside this process). Ctrl-C stops it.",
            flush=True,
        )
        await stop.wait()


def run(settings: Settings) -> int:
    """``python -m bot`` without a token, and ``python -m playground``."""
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    try:
        asyncio.run(serve_forever(settings))
    except OSError as exc:
        print(f"the playground could not start: {exc}", flush=True)
        return 1
    return 0
