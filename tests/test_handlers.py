"""The error handler, alone: what it does when telling the person of an error fails too."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import cast

import pytest
from telegram import Bot, Update

from bot.handlers.common import Context
from bot.handlers.errors import on_error


async def test_an_error_while_reporting_an_error_is_logged_and_goes_no_further(caplog: pytest.LogCaptureFixture) -> None:
    """Reporting may fail with what is no Telegram error (here the bot's use cases are not built yet, so the
    reply cannot wait for its turn): that is logged, and nothing escapes the error handler ("an uncaught error
    was raised while handling the error")."""
    bot = Bot("123:test")
    update = Update.de_json(
        {
            "update_id": 1,
            "message": {
                "message_id": 1,
                "date": 0,
                "chat": {"id": 5, "type": "private", "first_name": "Ann"},
                "from": {"id": 5, "is_bot": False, "first_name": "Ann"},
                "text": "/help",
            },
        },
        bot,
    )
    context = SimpleNamespace(error=RuntimeError("a bug"), application=SimpleNamespace(bot_data={}))
    with caplog.at_level(logging.WARNING, logger="bot.handlers.errors"):
        await on_error(update, cast(Context, context))
    assert "could not tell the person of the error" in caplog.text
