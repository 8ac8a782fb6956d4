"""Every error is logged; the person is told that nothing was changed."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot.handlers.common import Context, reply
from bot.i18n import pick_language, t

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    log.error("error while handling %r", update, exc_info=context.error)
    if not isinstance(update, Update):
        return
    lang = pick_language(update.effective_user.language_code if update.effective_user else None)
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(t(lang, "error.internal"), show_alert=True)
        elif update.effective_message is not None:
            await reply(update, context, t(lang, "error.internal"))
    except TelegramError:
        log.warning("could not report the error to the user")
