"""Every error is logged, and the person is told what is true of his request: nothing was changed (and why,
when the database could not store it), or, when only the answer after it failed, that it was taken."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import NetworkError

from bot.delivery.outbox import Closed
from bot.handlers.common import AnswerFailed, ChatGone, Context, is_group, reply, uses
from bot.i18n import pick_language, t
from bot.usecases.stored import Unsaved

log = logging.getLogger(__name__)


async def on_error(update: object, context: Context) -> None:
    if update is None and isinstance(context.error, NetworkError):  # a poll that failed: no traceback each time,
        log.debug("a poll failed: %s", context.error)  # bot.health says once when Telegram stops answering
        return
    if isinstance(context.error, Closed):  # a stop's time ran out before the answer's turn: nothing to tell
        log.info("an answer was left unsent: the bot stopped")
        return
    if isinstance(context.error, ChatGone):
        log.info("an update from a chat the bot cannot write to any more: %s", context.error)
        return
    if isinstance(context.error, AnswerFailed):  # Telegram's bad moment after the change was made: no bug
        log.warning("the answer to an update did not reach its person: %s", context.error)
    elif isinstance(context.error, Unsaved):  # the database said so once, with one warning
        log.info("an update was refused: %s", context.error)
    else:
        log.error("error while handling %r", update, exc_info=context.error)
    if not isinstance(update, Update):
        return
    # A failed answer comes after the use case: what the request changed is committed.
    key = "error.internal"
    if isinstance(context.error, AnswerFailed):
        key = "error.answer_lost"
    elif isinstance(context.error, Unsaved):
        key = "error.storage"
    lang = await chosen_language(update, context)
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(t(lang, key), show_alert=True)
        elif update.effective_message is not None:
            await reply(update, context, t(lang, key))
    except Exception:  # whatever stops the report (Telegram down, the bot not started) must not raise from here
        log.warning("could not tell the person of the error", exc_info=True)


async def chosen_language(update: Update, context: Context) -> str:
    """The language the chat chose (/language) in a group, the person's in a private chat, by reads only: the
    error may be the database's, and telling it must not write.  A read that fails too leaves the language
    Telegram gives the person's app."""
    user, chat = update.effective_user, update.effective_chat
    own = user.language_code if user else None
    try:
        if chat is not None and is_group(update):
            return await uses(context).games.chat_lang(chat.id)
        if user is not None and (row := await uses(context).games.storage.players.get(user.id)) is not None:
            return pick_language(row.effective_language)
    except Exception:
        log.warning("the language of an error's answer could not be read", exc_info=True)
    return pick_language(own)
