"""Is the bot alive?  The health endpoint and ``python -m bot.health``, the check a container runs.

GET ``http://HEALTH_HOST:HEALTH_PORT/health`` answers 200 when all is well, else 503, with a JSON body:

- ``mode``: ``polling`` or ``webhook``, and ``receiving``: in long polling, whether Telegram answered a
  ``getUpdates`` call within the last ``HEALTH_POLL_SLACK_SECONDS`` (a long poll returns at least every
  ``POLL_TIMEOUT_SECONDS``) and has not stopped answering since (``Liveness``); in webhook mode, whether the
  webhook server is running (Telegram posts only when something happens, so silence is no fault);
- ``database``: ``writable`` when a row of the database could be written and committed just now, with room to
  spare (``Database.probe_write``), else ``not writable:`` and why (the disk full, the database locked …);
- ``last_update_seconds``: how long ago the last update arrived (for the curious; it does not count).

With ``METRICS`` on, GET ``/metrics`` on the same address answers the metrics of ``bot.metrics``.

``python -m bot.health`` asks that endpoint (on 127.0.0.1 when it listens on every address) and exits 0 when
it says healthy, 1 otherwise: what the container's HEALTHCHECK runs.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from aiohttp import web
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.clock import Clock
from bot.config import Settings
from storage import Storage, StorageError, StorageUnavailable
from storage.db import REASONS

log = logging.getLogger(__name__)

METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8"  # Prometheus' text format
# Failed polls in a row that make Telegram unreachable.  Polling waits 1, 1.5 and 2.25 s between them, so four
# are about five seconds of silence; at a 3 % failure rate of single requests a false alarm is one in a
# million polls, where two in a row would be one in a thousand.
UNREACHABLE_AFTER = 4


@dataclass
class Liveness:
    """What the bot has heard from Telegram, on the clock's monotonic time (set from the start on): its polls,
    the updates by kind, every Bot API call by method and outcome, and whether Telegram answers at all.

    When polls fail ``UNREACHABLE_AFTER`` times in a row, Telegram is unreachable: one warning says so, and
    one says when it answers again and after how long; the failures in between log nothing more."""

    clock: Clock
    mode: str = "polling"
    polled_at: float | None = None  # the last successful getUpdates
    update_at: float | None = None  # the last update received, by either mode
    started_at: float | None = None
    failed_polls: int = 0  # failed polls since the last that succeeded
    failing_since: float | None = None  # when the first of them failed
    unreachable_since: float | None = None  # set once Telegram is called unreachable
    updates: Counter[str] = field(default_factory=Counter)  # updates by kind
    calls: Counter[tuple[str, str]] = field(default_factory=Counter)  # (method, outcome) -> calls
    on_gone: Callable[[], None] | None = None  # told when Telegram is found unreachable
    on_back: Callable[[], None] | None = None  # told when Telegram answers again after it was unreachable

    def start(self) -> None:
        self.started_at = self.clock.monotonic()

    def note_poll(self) -> None:
        now = self.clock.monotonic()
        self.polled_at = now
        self.failed_polls, self.failing_since = 0, None
        if self.unreachable_since is not None:
            log.warning("Telegram answers again, after %.0f s unreachable", now - self.unreachable_since)
            self.unreachable_since = None
            if self.on_back is not None:
                self.on_back()

    def note_failed_poll(self, why: str) -> None:
        now = self.clock.monotonic()
        self.failed_polls += 1
        if self.failing_since is None:
            self.failing_since = now
        if self.unreachable_since is None and self.failed_polls >= UNREACHABLE_AFTER:
            self.unreachable_since = self.failing_since
            log.warning("Telegram is unreachable (%s); polling on, and saying so once it answers", why)
            if self.on_gone is not None:
                self.on_gone()

    def note_update(self, kind: str) -> None:
        self.update_at = self.clock.monotonic()
        self.updates[kind] += 1


def outcome(status: int) -> str:
    """A Bot API answer's status as a metric's outcome."""
    if status == HTTPStatus.OK:
        return "ok"
    if status == HTTPStatus.TOO_MANY_REQUESTS:
        return "429"
    return "4xx" if status < HTTPStatus.INTERNAL_SERVER_ERROR else "5xx"


class ObservedRequest(BaseRequest):
    """A connection to the Bot API (``inner``) whose every call is counted by method and outcome; the one of
    ``getUpdates`` (``polling``) also notes whether each poll was answered."""

    def __init__(self, liveness: Liveness, inner: BaseRequest, *, polling: bool = False) -> None:
        self.liveness = liveness
        self.inner = inner
        self.polling = polling

    @property
    def read_timeout(self) -> float | None:
        return self.inner.read_timeout

    async def initialize(self) -> None:
        await self.inner.initialize()

    async def shutdown(self) -> None:
        await self.inner.shutdown()

    async def do_request(  # noqa: PLR0917 (BaseRequest's own signature)
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        name = url.rstrip("/").rsplit("/", 1)[-1]
        try:
            status, payload = await self.inner.do_request(
                url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
            )
        except TimedOut as exc:
            self._note(name, "timeout", str(exc))
            raise
        except NetworkError as exc:
            self._note(name, "network", str(exc))
            raise
        self._note(name, outcome(status), f"HTTP {status}")
        return status, payload

    def _note(self, name: str, result: str, why: str) -> None:
        self.liveness.calls[(name, result)] += 1
        if not self.polling:
            return
        if result == "ok":
            self.liveness.note_poll()
        elif result != "4xx":  # a refused poll is an answer: Telegram is there (a conflict, a bad token)
            self.liveness.note_failed_poll(why)


async def report(
    liveness: Liveness, storage: Storage | None, webhook_running: bool, poll_slack: float
) -> tuple[bool, dict[str, Any]]:
    """Whether the bot is healthy, and why."""
    now = liveness.clock.monotonic()
    if liveness.mode == "webhook":
        receiving = webhook_running
    else:
        last = liveness.polled_at if liveness.polled_at is not None else liveness.started_at
        receiving = last is not None and now - last <= poll_slack and liveness.unreachable_since is None
    database = "closed"
    if storage is not None:
        try:
            await storage.db.probe_write()
            database = "writable"
        except StorageUnavailable as exc:
            database = f"not writable: {REASONS[exc.reason]}"
        except Exception as exc:  # any failure to write is what this check is for
            database = f"not writable: {exc}"
    body: dict[str, Any] = {
        "mode": liveness.mode,
        "receiving": receiving,
        "database": database,
        "last_update_seconds": None if liveness.update_at is None else round(now - liveness.update_at, 1),
    }
    healthy = receiving and database == "writable"
    body["status"] = "ok" if healthy else "unhealthy"
    return healthy, body


PROBE_SECONDS = 1.0  # while the database takes no writes, how often it is tried again


def keep_probing(storage: Storage, clock: Clock, every: float = PROBE_SECONDS) -> None:
    """Whenever the database goes down (a write it could not take), try it every ``every`` seconds until it
    takes writes again, so that play goes on by itself once space is back or the lock is released."""

    async def probe() -> None:
        while storage.db.unavailable is not None:
            await clock.sleep(every)
            with contextlib.suppress(StorageError):  # (not yet: the next try is in a second)
                await storage.db.probe_write()

    def down(reason: str) -> None:
        clock.tasks.spawn(probe())

    storage.db.on_down = down


def check(host: str, port: int, timeout: float = 5.0) -> tuple[bool, str]:
    """Ask a running bot's endpoint; (healthy, what it said)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/health", timeout=timeout) as response:
            return response.status == 200, response.read().decode()
    except urllib.error.HTTPError as exc:
        return False, exc.read().decode()
    except OSError as exc:
        return False, f"no answer from {host}:{port}: {exc}"


def main() -> int:
    settings = Settings()
    if not settings.health_port:
        print("HEALTH_PORT is not set: the bot serves no health endpoint", file=sys.stderr)
        return 1
    healthy, said = check(settings.health_host, settings.health_port)
    print(said)
    return 0 if healthy else 1


def application(handler: Any, metrics: Callable[[], bytes] | None = None) -> web.Application:
    """The endpoint's aiohttp application around ``handler`` (a coroutine giving (healthy, body)), and with
    ``metrics`` (the Prometheus text of ``bot.metrics``) GET /metrics too."""

    async def health(request: web.Request) -> web.Response:
        healthy, body = await handler()
        return web.Response(
            text=json.dumps(body), status=200 if healthy else 503, content_type="application/json"
        )

    app = web.Application()
    app.router.add_get("/health", health)
    if metrics is not None:
        render = metrics

        async def scrape(request: web.Request) -> web.Response:
            return web.Response(body=render(), headers={"Content-Type": METRICS_TYPE})

        app.router.add_get("/metrics", scrape)
    return app


if __name__ == "__main__":
    raise SystemExit(main())
