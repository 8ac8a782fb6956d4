"""The API area of updates and the bot itself: getMe, long polling, the webhook and its delivery, the
command menus."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from playground.botapi.state import World
from playground.botapi.world import ApiError


class Updates(World):
    """getMe, getUpdates, the webhook methods, setMyCommands."""

    async def m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return {**self.bot_user(), "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}  # fmt: skip

    async def m_deleteWebhook(self, params: dict[str, Any]) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._drop_pending()
        return True

    async def m_setWebhook(self, params: dict[str, Any]) -> bool:
        """Telegram posts each update to the URL, one at a time and in order, with the secret token in the
        ``X-Telegram-Bot-Api-Secret-Token`` header, and posts it again until the webhook answers 2xx.
        Telegram wants HTTPS; this server also takes plain HTTP to the loopback, where its tests run."""
        url = params["url"]
        if not url:
            return await self.m_deleteWebhook(params)
        parts = urlsplit(url)
        if parts.scheme != "https" and not (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token") or ""
        if secret and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._drop_pending()
        self.webhook = {"url": url, "secret_token": secret}
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.create_task(self._deliver())
        async with self._new_update:
            self._new_update.notify_all()
        return True

    async def m_getWebhookInfo(self, params: dict[str, Any]) -> dict[str, Any]:
        pending = sum(1 for u in self._updates if u["update_id"] > self._confirmed)
        url = self.webhook["url"] if self.webhook else ""
        return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}

    def _drop_pending(self) -> None:
        self._confirmed = self._last_update_id
        self._updates.clear()

    async def _deliver(self) -> None:
        """The webhook's delivery loop: the oldest unconfirmed update, until it is taken."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            while self.webhook is not None:
                pending = [u for u in self._updates if u["update_id"] > self._confirmed]
                if not pending:
                    async with self._new_update:
                        with contextlib.suppress(TimeoutError):
                            await self.clock.wait_for(self._new_update.wait(), 0.5)
                    continue
                update, hook = pending[0], self.webhook
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook["secret_token"]} if hook["secret_token"] else {}
                self.in_flight += 1
                try:
                    async with session.post(hook["url"], json=update, headers=headers) as response:
                        status = response.status
                except (aiohttp.ClientError, TimeoutError):
                    status = 0
                finally:
                    self.in_flight -= 1
                if 200 <= status < 300:
                    self._confirmed = max(self._confirmed, update["update_id"])
                    self._updates = [u for u in self._updates if u["update_id"] > self._confirmed]
                else:
                    self.webhook_refused.append(status)
                    await self.clock.sleep(0.2)  # Telegram backs off before it posts the update again

    async def m_setMyCommands(self, params: dict[str, Any]) -> bool:
        for command in params["commands"]:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", command["command"]) or not 1 <= len(command["description"]) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
        scope = (params.get("scope") or {}).get("type", "default")
        self.commands[f"{scope}:{params.get('language_code', '')}"] = list(params["commands"])
        self._tell("commands", None)
        return True

    async def m_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook "
                           "to delete the webhook first")  # fmt: skip
        offset = params.get("offset", 0)
        if offset:
            self._confirmed = max(self._confirmed, offset - 1)
            while self._updates and self._updates[0]["update_id"] < offset:
                self._updates.pop(0)  # confirmed: Telegram forgets them
        timeout = min(float(params.get("timeout", 0)), 5.0)
        deadline = self.clock.monotonic() + timeout
        async with self._new_update:
            while True:
                pending = [u for u in self._updates if u["update_id"] >= max(offset, 1)]
                if pending or self.clock.monotonic() >= deadline:
                    return pending[: params.get("limit", 100)]
                with contextlib.suppress(TimeoutError):
                    await self.clock.wait_for(self._new_update.wait(), deadline - self.clock.monotonic())
