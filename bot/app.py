"""Build the application: configuration, rate limiter, storage opened once, handlers, start-up restore."""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.ext import AIORateLimiter, Application, ContextTypes

from bot import handlers
from bot.config import Settings
from bot.i18n import LANGUAGES, t
from bot.publisher import Publisher
from bot.service import GameService
from storage import Storage

log = logging.getLogger(__name__)

GROUP_COMMANDS = ("newgame", "score", "cancel", "kick", "settings", "rules", "language", "help")
PRIVATE_COMMANDS = ("start", "stats", "rules", "language", "help")
COMMAND_KEYS = {name: f"command.{name}" for name in {*GROUP_COMMANDS, *PRIVATE_COMMANDS}}

Context = ContextTypes.DEFAULT_TYPE


def build_application(settings: Settings) -> Application:  # type: ignore[type-arg]
    assert settings.bot_token is not None
    builder = Application.builder().token(settings.bot_token.get_secret_value())
    if settings.telegram_base_url:
        base = settings.telegram_base_url.rstrip("/")
        builder = builder.base_url(base).base_file_url(base.removesuffix("/bot") + "/file/bot")
    builder = builder.rate_limiter(
        AIORateLimiter(  # type: ignore[arg-type]
            overall_max_rate=settings.rate_overall_per_second,
            group_max_rate=settings.rate_group_per_minute,
            max_retries=3,
        )
    )
    builder = builder.concurrent_updates(settings.concurrent_updates)
    builder = builder.get_updates_read_timeout(settings.poll_timeout_seconds + 10)

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]
        storage = await Storage.open(settings.database_path)
        publisher = Publisher(application.bot, settings.group_messages_per_minute, settings.group_period_seconds)
        executor = None
        if settings.computer_workers > 0:  # computer players think in other processes: presses stay fast
            executor = ProcessPoolExecutor(settings.computer_workers, mp_context=multiprocessing.get_context("spawn"))
        service = GameService(storage, publisher, application.bot.username, settings, executor)
        application.bot_data.update(storage=storage, publisher=publisher, service=service, executor=executor)
        restored = await service.restore()
        for game in await storage.games.with_status("lobby"):
            if application.job_queue is not None:
                application.job_queue.run_once(
                    handlers.expire_lobby,
                    when=settings.lobby_ttl_seconds,
                    data=game.game_id,
                    name=f"lobby:{game.game_id}",
                )
        await set_commands(application)
        log.info("started as @%s; %d running games restored", application.bot.username, restored)

    async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]
        service = application.bot_data.get("service")
        if isinstance(service, GameService):
            await service.close()
        executor = application.bot_data.get("executor")
        if isinstance(executor, ProcessPoolExecutor):
            executor.shutdown(wait=False, cancel_futures=True)
        publisher = application.bot_data.get("publisher")
        if isinstance(publisher, Publisher):
            await publisher.flush()
        storage = application.bot_data.get("storage")
        if isinstance(storage, Storage):
            await storage.close()

    application = builder.post_init(post_init).post_shutdown(post_shutdown).build()
    handlers.register(application)
    return application


async def set_commands(application: Application) -> None:  # type: ignore[type-arg]
    """The command menus, per chat kind and language."""
    for lang in LANGUAGES:
        code = None if lang == "en" else lang
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(name, t(lang, COMMAND_KEYS[name])) for name in names]
            await application.bot.set_my_commands(commands, scope=scope, language_code=code)
