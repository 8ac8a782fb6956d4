"""What every handler needs: the use cases, the person and chat of an update, an admin check, a reply."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar, cast

from telegram import Chat, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, TelegramError
from telegram.ext import ContextTypes

from bot.delivery.floods import chat_gone, transient, waiting_out_floods
from bot.i18n import t
from bot.usecases.people import Person
from bot.usecases.wiring import UseCases

Context = ContextTypes.DEFAULT_TYPE
T = TypeVar("T")


class AnswerFailed(Exception):
    """The answer to a request did not reach the person; the use case had already done its work."""


class ChatGone(AnswerFailed):
    """The answer's chat is not there for the bot (it was removed from the group, or blocked by the person):
    there is nobody to tell, and nothing is wrong."""


ANSWER_WAITS = (0.5, 1.0)  # seconds before each new try of an answer that met a 5xx or a network failure


async def answering(context: Context, call: Callable[[], Awaitable[T]]) -> T:
    """Make ``call``, the answer after a use case (a reply, a button's answer): a 429 is waited out, a 5xx or a
    network failure tried again soon (a press's answer is due within seconds, and an answer that never came
    would end in an alert that the request was handled); any other failure of Telegram's, or the last of
    those, is an ``AnswerFailed``."""
    clock = uses(context).clock
    for wait in (*ANSWER_WAITS, None):
        try:
            return await waiting_out_floods(call, clock)
        except NetworkError as exc:
            if isinstance(exc, BadRequest) and chat_gone(exc):
                raise ChatGone(str(exc)) from exc
            if wait is None or isinstance(exc, BadRequest) or not transient(exc):
                raise AnswerFailed(str(exc)) from exc
            await clock.sleep(wait)
        except Forbidden as exc:
            raise ChatGone(str(exc)) from exc
        except TelegramError as exc:
            raise AnswerFailed(str(exc)) from exc
    raise AssertionError("the last try returns or raises")


def uses(context: Context) -> UseCases:
    return cast(UseCases, context.application.bot_data["uses"])


def person_of(user: User) -> Person:
    return Person(user.id, user.full_name or user.username or str(user.id), user.username, user.language_code)


def is_group(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def language_of(update: Update, context: Context) -> str:
    """The chat's language in a group, the person's own in a private chat."""
    chats = uses(context).chats
    chat, user = update.effective_chat, update.effective_user
    person = person_of(user) if user else None
    if chat is not None and is_group(update):
        return await chats.language(chat.id, chat.title or "", chat.type, person)
    if person is not None:
        return await chats.person_lang(person)
    return "en"


@dataclass(frozen=True)
class InGroup:
    """A command sent in a group by a person: its language, chat and author."""

    lang: str
    chat: Chat
    user: User


async def in_group(update: Update, context: Context, refusal: str = "where.group_only") -> InGroup | None:
    """The group a command came from; anywhere else the person is told (``refusal``) and None returned."""
    lang = await language_of(update, context)
    chat, user = update.effective_chat, update.effective_user
    if not is_group(update) or chat is None or user is None:
        await reply(update, context, t(lang, refusal))
        return None
    return InGroup(lang, chat, user)


async def reply(
    update: Update, context: Context, text: str, markup: InlineKeyboardMarkup | None = None
) -> Message | None:
    """Answer in the update's chat, when Telegram's budget allows (the publisher's outbox, which every other
    message of the bot waits in too)."""
    message = update.effective_message
    if message is None:
        return None

    async def attempt() -> Message:  # a 429 waited out waits for a new turn too
        await uses(context).reply_turn(message.chat_id)
        return await message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_notification=True
        )

    return await answering(context, attempt)


async def reply_photo(update: Update, context: Context, picture: bytes, caption: str) -> Message | None:
    """Answer with a picture, in the same turns as ``reply``."""
    message = update.effective_message
    if message is None:
        return None

    async def attempt() -> Message:
        await uses(context).reply_turn(message.chat_id)
        return await message.reply_photo(
            picture, caption=caption, parse_mode=ParseMode.HTML, disable_notification=True
        )

    return await answering(context, attempt)


def admin_check(context: Context, chat_id: int, user_id: int) -> Callable[[], Awaitable[bool]]:
    """Whether the person is an admin of the chat, asked of Telegram only if a use case needs to know."""

    async def is_admin() -> bool:
        try:
            asked = partial(context.bot.get_chat_member, chat_id, user_id)
            member = await waiting_out_floods(asked, uses(context).clock)
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    return is_admin
