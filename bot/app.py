"""Build the application: configuration, rate limiter, storage opened once, handlers, start-up restore."""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, Update
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes, TypeHandler
from telegram.request import BaseRequest, HTTPXRequest

from bot import handlers
from bot.clock import Clock
from bot.config import Settings
from bot.delivery.floods import waiting_out_floods
from bot.delivery.publisher import Publisher
from bot.health import Liveness, ObservedRequest, keep_probing, report
from bot.health import application as health_app
from bot.i18n import LANGUAGES, t
from bot.logs import note
from bot.metrics import Metrics
from bot.miniapp.server import MiniApp
from bot.usecases import wiring
from bot.usecases.lobby import new_seed
from storage import Storage

log = logging.getLogger(__name__)

GROUP_COMMANDS = ("newgame", "score", "top", "notify_me", "cancel", "kick", "settings", "rules", "language", "help")
PRIVATE_COMMANDS = ("start", "stats", "rules", "language", "help")
COMMAND_KEYS = {name: f"command.{name}" for name in {*GROUP_COMMANDS, *PRIVATE_COMMANDS}}
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]
REQUEST_READ_TIMEOUT = 5.0  # seconds: every call but getUpdates, python-telegram-bot's own default
MENU_RETRY_FIRST = 1.0  # seconds before the command menus are tried again after a failure, doubling ...
MENU_RETRY_CAP = 600.0  # ... up to this

Context = ContextTypes.DEFAULT_TYPE


def connections(
    settings: Settings, transport: Callable[[float], BaseRequest] | None
) -> tuple[BaseRequest, BaseRequest]:
    """The connections to the Bot API: one pool for the calls, one for the long poll (which waits longer)."""
    poll_timeout = settings.poll_timeout_seconds + 10.0
    if transport is not None:
        return transport(REQUEST_READ_TIMEOUT), transport(poll_timeout)
    # python-telegram-bot's own connections, as its builder makes them
    return (
        HTTPXRequest(connection_pool_size=256, read_timeout=REQUEST_READ_TIMEOUT),
        HTTPXRequest(connection_pool_size=1, read_timeout=poll_timeout),
    )


def build_application(
    settings: Settings,
    seeds: Callable[[], int] = new_seed,
    *,
    clock: Clock | None = None,
    transport: Callable[[float], BaseRequest] | None = None,
) -> Application:  # type: ignore[type-arg]
    """The bot; ``seeds`` gives each new game its seed (a test may replay a deal with its own), ``clock`` is
    the one clock of everything that waits or measures, and ``transport`` makes the connections to the Bot API
    (given their read timeout; by default HTTP, as python-telegram-bot makes them)."""
    assert settings.bot_token is not None
    clock = clock if clock is not None else Clock()
    builder = Application.builder().token(settings.bot_token.get_secret_value())
    if settings.telegram_base_url:
        base = settings.telegram_base_url.rstrip("/")
        builder = builder.base_url(base).base_file_url(base.removesuffix("/bot") + "/file/bot")
    # Every message, edit and delete is paced by the publisher's outbox (bot.delivery.outbox), and a 429 reaches the
    # caller (bot.delivery.floods): no python-telegram-bot limiter, whose retries would bypass the outbox.
    builder = builder.concurrent_updates(settings.concurrent_updates)
    liveness = Liveness(clock, mode="webhook" if settings.webhook_url else "polling")
    calls, polling = connections(settings, transport)
    builder = builder.request(ObservedRequest(liveness, calls))
    builder = builder.get_updates_request(ObservedRequest(liveness, polling, polling=True))

    async def post_init(application: Application) -> None:  # type: ignore[type-arg]
        liveness.start()
        storage = await Storage.open(settings.database_path, now=clock.now)
        keep_probing(storage, clock)
        publisher = Publisher(
            application.bot,
            settings.group_messages_per_minute,
            settings.group_period_seconds,
            overall=settings.rate_overall_per_second,
            private=settings.rate_private_per_second,
            cruise_share=settings.rate_cruise_share,
            clock=clock,
        )
        executor = None
        if settings.computer_workers > 0:  # computer players think in other processes: presses stay fast
            executor = ProcessPoolExecutor(settings.computer_workers, mp_context=multiprocessing.get_context("spawn"))
        uses = wiring.build(storage, publisher, application.bot.username, settings, executor=executor, seeds=seeds)
        application.bot_data.update(storage=storage, publisher=publisher, uses=uses, executor=executor)
        metrics = Metrics(uses, liveness, storage).hooked(uses, storage, clock.monotonic) if settings.metrics else None
        application.bot_data.update(metrics=metrics, liveness=liveness)
        restored = await uses.restore()

        def back() -> None:  # the calls that waited go on, and what was given up before is brought up to date
            publisher.telegram_back()
            clock.tasks.spawn(uses.catch_up())

        liveness.on_gone, liveness.on_back = publisher.telegram_gone, back
        await command_menus(application, clock)
        if settings.health_port:
            await start_health(application, settings, liveness, metrics)
        if settings.miniapp_url:
            await start_miniapp(application, settings, uses, clock)
        log.info("started as @%s; %d running games restored", application.bot.username, restored)

    application = builder.post_init(post_init).post_stop(post_stop).post_shutdown(post_shutdown).build()

    async def heard(update: Update, context: Context) -> None:
        liveness.note_update(update_kind(update))
        note(chat=update.effective_chat.id if update.effective_chat else None)  # what this update's records are about

    # Before every real handler, and in a group of its own: a group runs one handler per update, and
    # bot.handlers' first one (an update seen once) is in group -1.
    application.add_handler(TypeHandler(Update, heard), group=-2)
    handlers.register(application)
    return application


async def post_stop(application: Application) -> None:  # type: ignore[type-arg]
    """No update is taken any more, and the HTTP client is still open: what is owed is sent now."""
    miniapp = application.bot_data.get("miniapp")
    if isinstance(miniapp, MiniApp):  # no tap is taken any more either
        await miniapp.stop()
    uses = application.bot_data.get("uses")
    if isinstance(uses, wiring.UseCases):
        await uses.wind_down()


async def post_shutdown(application: Application) -> None:  # type: ignore[type-arg]
    """The application is done: what the start opened is closed, however far the start got."""
    health = application.bot_data.get("health")
    if isinstance(health, web.AppRunner):
        await health.cleanup()
    miniapp = application.bot_data.get("miniapp")
    if isinstance(miniapp, MiniApp):  # still up after a start that failed half-way
        await miniapp.stop()
    uses = application.bot_data.get("uses")
    if isinstance(uses, wiring.UseCases):
        await uses.close()
    executor = application.bot_data.get("executor")
    if isinstance(executor, ProcessPoolExecutor):
        executor.shutdown(wait=False, cancel_futures=True)
    storage = application.bot_data.get("storage")
    if isinstance(storage, Storage):
        await storage.close()


def begin_stop(application: Application) -> None:  # type: ignore[type-arg]
    """A stop begins: from now on it has ``SHUTDOWN_GRACE_SECONDS`` in all (``UseCases.stopping``)."""
    uses = application.bot_data.get("uses")
    if isinstance(uses, wiring.UseCases):
        uses.stopping()


def stop_on_signals(application: Application) -> asyncio.AbstractEventLoop:  # type: ignore[type-arg]
    """The loop ``run_polling``/``run_webhook`` will run, stopped by SIGTERM and SIGINT as their own handlers
    stop it, but with the stop's time counted from the signal: handlers waiting for Telegram's budget meanwhile
    would otherwise hold the stop up for as long as they wait (run them with ``stop_signals=None``)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    def stop() -> None:
        begin_stop(application)
        raise SystemExit  # out of the loop's run, into the runner's clean stop

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    return loop


async def stop_application(application: Application, *, started: bool = True) -> None:  # type: ignore[type-arg]
    """Stop an application started by hand (the playground, the tests) as ``run_polling`` stops its own: the
    updater, the handlers, ``post_stop`` while the HTTP client is open, then ``shutdown`` and ``post_shutdown``.
    ``started``: false when the start failed before ``Application.start``, which then has nothing to stop."""
    begin_stop(application)
    if started:
        if application.updater is not None and application.updater.running:
            await application.updater.stop()
        if application.running:
            await application.stop()
            if application.post_stop:
                await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown:
        await application.post_shutdown(application)


def polling_errors(application: Application) -> Callable[[TelegramError], None]:  # type: ignore[type-arg]
    """What a failed poll does when the updater is started by hand (the playground, the tests), as
    ``run_polling`` does it: the application's error handler hears of it (``bot.handlers.errors``), which
    leaves saying that Telegram is gone to ``bot.health``."""

    def failed(error: TelegramError) -> None:
        application.create_task(application.process_error(None, error))

    return failed


def settle_heap() -> None:
    """Set what start-up made (modules, the library, the application) aside from the garbage collector.

    A full collection walks every object and stops the event loop meanwhile (docs/operations.md), and calls the
    outbox let go before such a stop reach Telegram in one bunch with those after it.  What lives from
    start-up to shutdown needs no collection; ``gc.freeze`` keeps it out of all of them.
    """
    gc.collect()
    gc.freeze()


def webhook_options(settings: Settings, secret: str) -> dict[str, Any]:
    """How the updater serves Telegram's webhook (``run_webhook`` and ``start_webhook`` take these)."""
    assert settings.webhook_url
    return {
        "listen": settings.webhook_listen,
        "port": settings.webhook_port,
        "url_path": urlsplit(settings.webhook_url).path.lstrip("/"),
        "webhook_url": settings.webhook_url,
        "secret_token": secret,
        "allowed_updates": ALLOWED_UPDATES,
        "drop_pending_updates": False,
    }


def update_kind(update: Update) -> str:
    """What an update is, as the metrics count it."""
    for kind in ALLOWED_UPDATES:
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


async def start_health(
    application: Application,  # type: ignore[type-arg]
    settings: Settings,
    liveness: Liveness,
    metrics: Metrics | None = None,
) -> None:
    """Serve GET /health on HEALTH_HOST:HEALTH_PORT (see ``bot.health``), and GET /metrics with ``metrics``,
    until the application shuts down."""

    async def answer() -> tuple[bool, dict[str, Any]]:
        storage = application.bot_data.get("storage")
        running = application.updater is not None and application.updater.running
        return await report(
            liveness, storage if isinstance(storage, Storage) else None, running, settings.health_poll_slack_seconds
        )

    runner = web.AppRunner(health_app(answer, metrics.render if metrics else None), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, settings.health_host, settings.health_port).start()
    application.bot_data["health"] = runner


async def start_miniapp(
    application: Application,  # type: ignore[type-arg]
    settings: Settings,
    uses: wiring.UseCases,
    clock: Clock,
) -> None:
    """Serve the Mini App (``bot.miniapp``) on MINIAPP_LISTEN:MINIAPP_PORT at MINIAPP_URL's path."""
    assert settings.miniapp_url and settings.bot_token is not None
    path = urlsplit(settings.miniapp_url).path or "/"
    miniapp = MiniApp(uses, settings.bot_token.get_secret_value(), clock, path=path,
                      max_age=settings.miniapp_max_age_seconds)  # fmt: skip
    await miniapp.start(settings.miniapp_listen, settings.miniapp_port)
    application.bot_data["miniapp"] = miniapp
    log.info("the Mini App is served at %s", settings.miniapp_url)


async def command_menus(application: Application, clock: Clock) -> None:  # type: ignore[type-arg]
    """The command menus, without which the bot works all the same: a failure (a 5xx, a network error) is
    logged once and never stops the start; they are tried again in the background until Telegram takes them."""
    try:
        await set_commands(application, clock)
    except TelegramError as exc:
        log.warning("could not set the command menus (%s); trying again in the background", exc)
        clock.tasks.spawn(_menus_later(application, clock))


async def _menus_later(application: Application, clock: Clock) -> None:  # type: ignore[type-arg]
    delay = MENU_RETRY_FIRST
    while True:
        await clock.sleep(delay)
        try:
            await set_commands(application, clock)
        except TelegramError as exc:
            log.debug("the command menus failed again (%s)", exc)
            delay = min(delay * 2, MENU_RETRY_CAP)
            continue
        log.info("the command menus are set")
        return


async def set_commands(application: Application, clock: Clock) -> None:  # type: ignore[type-arg]
    """The command menus, per chat kind and language."""
    for lang in LANGUAGES:
        code = None if lang == "en" else lang
        for scope, names in (
            (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
            (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
        ):
            commands = [BotCommand(name, t(lang, COMMAND_KEYS[name])) for name in names]
            menu = partial(application.bot.set_my_commands, commands, scope=scope, language_code=code)
            await waiting_out_floods(menu, clock)
