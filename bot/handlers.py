"""Telegram handlers: each turns an update into a call of the game service and answers.

Every callback has the same shape; button presses are always answered (with an alert when refused).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from html import escape
from typing import cast

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import callbacks
from bot.i18n import LANGUAGES, pick_language, t
from bot.present import GAMES as VARIANT_NAMES
from bot.service import GameService, Person, variant_from_text
from storage import Storage

log = logging.getLogger(__name__)

JOIN_PAYLOAD = re.compile(r"j(\d{1,12})")


def service_of(context: ContextTypes.DEFAULT_TYPE) -> GameService:
    return cast(GameService, context.application.bot_data["service"])


def person_of(user: User) -> Person:
    return Person(user.id, user.full_name or user.username or str(user.id), user.username, user.language_code)


def is_group(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def language_of(update: Update, context: ContextTypes.DEFAULT_TYPE) -> str:
    """The chat's language in a group, the person's own in a private chat."""
    service = service_of(context)
    chat, user = update.effective_chat, update.effective_user
    person = person_of(user) if user else None
    if chat is not None and is_group(update):
        return await service.chat_language(chat.id, chat.title or "", chat.type, person)
    if person is not None:
        player = await service.person(person)
        return pick_language(player.effective_language)
    return "en"


@dataclass(frozen=True)
class InGroup:
    """A command sent in a group by a person: its language, chat and author."""

    lang: str
    chat: Chat
    user: User


async def in_group(
    update: Update, context: ContextTypes.DEFAULT_TYPE, refusal: str = "where.group_only"
) -> InGroup | None:
    """The group a command came from; anywhere else the person is told (``refusal``) and None returned."""
    lang = await language_of(update, context)
    chat, user = update.effective_chat, update.effective_user
    if not is_group(update) or chat is None or user is None:
        await reply(update, t(lang, refusal))
        return None
    return InGroup(lang, chat, user)


async def reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    if update.effective_message is not None:
        await update.effective_message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_notification=True
        )


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


# --- updates seen once ----------------------------------------------------------------------------------------


async def once(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An update redelivered after a crash (same update id) is not handled twice."""
    storage = cast(Storage, context.application.bot_data["storage"])
    if not await storage.updates.claim(update.update_id):
        log.info("update %s was already handled", update.update_id)
        raise ApplicationHandlerStop


# --- commands -------------------------------------------------------------------------------------------------


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: what the bot is; with a Join payload, seat the player in that lobby."""
    user = update.effective_user
    if user is None:
        return
    lang = await language_of(update, context)
    if not is_group(update) and context.args and (match := JOIN_PAYLOAD.fullmatch(context.args[0])):
        text = await service_of(context).join(int(match[1]), person_of(user))
        await reply(update, text)
        return
    if not is_group(update):
        await service_of(context).person(person_of(user), can_message=True)
        await service_of(context).welcome_back(user.id)
    username = context.bot.username
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton(t(lang, "start.add_to_group"), url=f"https://t.me/{username}?startgroup=kozel")]]
    )
    await reply(update, t(lang, "start.hello"), markup if not is_group(update) else None)


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame [game]: open a lobby in this group."""
    where = await in_group(update, context)
    if where is None:
        return
    lang, chat, user = where.lang, where.chat, where.user
    service = service_of(context)
    settings = await service.storage.chats.get(chat.id)
    default = settings.settings.default_variant if settings else "four_card"
    name = " ".join(context.args or []) or None
    variant = variant_from_text(name, default)
    if variant is None:
        await reply(update, t(lang, "unknown.variant", name=escape(name or ""), games=", ".join(VARIANT_NAMES)))
        return
    refusal = await service.open_lobby(chat.id, variant, person_of(user), lang)
    if refusal:
        await reply(update, refusal)
        return
    game = await service.storage.games.open_game(chat.id)
    if game is not None:
        schedule_lobby_expiry(context, game.game_id, service.lobby_ttl)


async def score(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/score: the current series and the chat's all-time table."""
    where = await in_group(update, context)
    if where is not None:
        await reply(update, await service_of(context).score(where.chat.id, where.lang))


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/cancel: end the running game or lobby (creator, admin, or a vote of the seated players)."""
    where = await in_group(update, context)
    if where is None:
        return
    admin = await is_admin(context, where.chat.id, where.user.id)
    text, markup = await service_of(context).cancel(where.chat.id, person_of(where.user), admin)
    await reply(update, text, markup)


async def kick(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/kick as a reply to a player's message, or /kick alone for a choice of buttons."""
    where, message = await in_group(update, context), update.effective_message
    if where is None or message is None:
        return
    target = message.reply_to_message.from_user if message.reply_to_message else None
    admin = await is_admin(context, where.chat.id, where.user.id)
    service = service_of(context)
    text, markup = await service.kick(where.chat.id, person_of(where.user), target.id if target else None, admin)
    if text:
        await reply(update, text, markup)


async def settings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/settings: the chat's settings menu (admins and the open game's creator)."""
    where = await in_group(update, context, "settings.group_only")
    if where is None:
        return
    service = service_of(context)
    if not await service.may_configure(
        where.chat.id, where.user.id, await is_admin(context, where.chat.id, where.user.id)
    ):
        await reply(update, t(where.lang, "settings.not_allowed"))
        return
    await reply(update, *await service.settings_menu(where.chat.id))


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stats in a private chat: the person's games."""
    lang = await language_of(update, context)
    user = update.effective_user
    if is_group(update) or user is None:
        await reply(update, t(lang, "stats.private_only"))
        return
    await reply(update, await service_of(context).stats(user.id, lang))


async def member_update(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot removed from a group ends its game; a person who left the group is absent from its game;
    a person who blocked the bot is absent from every game."""
    service = service_of(context)
    changed = update.my_chat_member or update.chat_member
    if changed is None:
        return
    gone = changed.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    if not gone:
        return
    chat = changed.chat
    if update.my_chat_member is not None:
        if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
            await service.bot_removed(chat.id)
        elif chat.type == ChatType.PRIVATE:
            await service.player_blocked(changed.from_user.id)
        return
    await service.absent(chat.id, changed.new_chat_member.user.id, "seat.left_group")


async def member_left(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The service message "X left the group" (sent where the bot gets no chat_member updates)."""
    message = update.effective_message
    if message is None or message.left_chat_member is None:
        return
    service = service_of(context)
    if message.left_chat_member.id == context.bot.id:
        await service.bot_removed(message.chat_id)
    else:
        await service.absent(message.chat_id, message.left_chat_member.id, "seat.left_group")


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules [game]."""
    lang = await language_of(update, context)
    names: tuple[str, ...] = VARIANT_NAMES
    if context.args:
        variant = variant_from_text(" ".join(context.args), "four_card")
        if variant is None:
            await reply(update, t(lang, "rules.unknown", games=", ".join(VARIANT_NAMES)))
            return
        names = (variant,)
    await reply(update, "\n\n".join(t(lang, f"rules.{name}") for name in names))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/help."""
    await reply(update, t(await language_of(update, context), "help.text"))


async def language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/language en|ru: the group's language (admins), or one's own in a private chat."""
    lang = await language_of(update, context)
    chat, user = update.effective_chat, update.effective_user
    choice = (context.args or [""])[0].lower()
    if choice not in LANGUAGES or chat is None or user is None:
        await reply(update, t(lang, "language.usage"))
        return
    service = service_of(context)
    if is_group(update):
        if not await is_admin(context, chat.id, user.id):
            await reply(update, t(lang, "language.admins_only"))
            return
        await service.set_chat_language(chat.id, choice)
    else:
        await service.person(person_of(user))
        await service.storage.players.set_language(user.id, choice)
    await reply(update, t(choice, "language.set"))


async def unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any other command."""
    await reply(update, t(await language_of(update, context), "unknown.command"))


async def migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its games and series follow the new chat id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    await service_of(context).migrate_chat(message.chat_id, message.migrate_to_chat_id)


# --- buttons --------------------------------------------------------------------------------------------------


async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every button press: lobby or hand.  Always answered; a refusal is an alert."""
    query = update.callback_query
    if query is None or query.from_user is None:
        return
    service = service_of(context)
    lang = pick_language(query.from_user.language_code)
    try:
        press = callbacks.parse(query.data)
    except callbacks.ForgedDataError:
        await query.answer(t(lang, "press.bad"), show_alert=True)
        return
    person = person_of(query.from_user)
    chat_id = query.message.chat.id if query.message else 0
    match press:
        case callbacks.Setting():
            alert = await setting_press(update, context, press)
        case callbacks.Back(game_id):
            alert = await service.come_back(game_id, query.from_user.id)
        case callbacks.Vote(game_id):
            alert, new = await service.cancel_vote_press(game_id, person)
            if new is not None and isinstance(query.message, Message):
                text, markup = new
                service.publisher.edit(query.message.chat.id, query.message.message_id, text, markup)
        case callbacks.Kick(game_id, seat):
            admin = await is_admin(context, chat_id, query.from_user.id)
            alert = await service.kick_press(game_id, seat, person, admin)
        case callbacks.Lobby() | callbacks.Sit():
            admin = False
            if isinstance(press, callbacks.Lobby) and press.op in (callbacks.LobbyOp.START, callbacks.LobbyOp.CANCEL):
                game = await service.storage.games.get(press.game_id)
                if game is not None and game.creator_id != query.from_user.id:
                    admin = await is_admin(context, chat_id, query.from_user.id)
            await service.person(person)
            alert = await service.lobby_press(press, person, admin)
            if isinstance(press, callbacks.Sit) or press.op not in (callbacks.LobbyOp.START, callbacks.LobbyOp.CANCEL):
                schedule_lobby_expiry(context, press.game_id, service.lobby_ttl)
        case _:
            alert = await service.press(press, query.from_user.id)
    await query.answer(alert or None, show_alert=bool(alert))


async def setting_press(
    update: Update, context: ContextTypes.DEFAULT_TYPE, press: callbacks.Setting
) -> str | None:
    """A choice in the /settings menu: only an admin or the open game's creator may change it."""
    query = update.callback_query
    assert query is not None
    service = service_of(context)
    message = query.message
    if not isinstance(message, Message):
        return t(pick_language(query.from_user.language_code), "press.bad")
    chat_id = message.chat.id
    lang = await service.chat_lang(chat_id)
    admin = await is_admin(context, chat_id, query.from_user.id)
    if not await service.may_configure(chat_id, query.from_user.id, admin):
        return t(lang, "settings.not_allowed")
    menu = await service.change_setting(chat_id, press.key, press.value)
    if menu is None:
        return t(lang, "press.bad")
    service.publisher.edit(chat_id, message.message_id, *menu)
    return None


# --- lobby expiry ---------------------------------------------------------------------------------------------


def schedule_lobby_expiry(context: ContextTypes.DEFAULT_TYPE, game_id: int, ttl: float) -> None:
    queue = context.job_queue
    if queue is None:
        return
    name = f"lobby:{game_id}"
    for job in queue.get_jobs_by_name(name):
        job.schedule_removal()
    queue.run_once(expire_lobby, when=ttl, data=game_id, name=name)


async def expire_lobby(context: ContextTypes.DEFAULT_TYPE) -> None:
    job = context.job
    if job is not None and isinstance(job.data, int):
        await service_of(context).expire_lobby(job.data)


# --- errors ---------------------------------------------------------------------------------------------------


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log every error; tell the person that nothing was changed."""
    log.error("error while handling %r", update, exc_info=context.error)
    if not isinstance(update, Update):
        return
    lang = pick_language(update.effective_user.language_code if update.effective_user else None)
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(t(lang, "error.internal"), show_alert=True)
        elif update.effective_message is not None:
            await reply(update, t(lang, "error.internal"))
    except TelegramError:
        log.warning("could not report the error to the user")


def register(application: Application) -> None:  # type: ignore[type-arg]
    """Wire the handlers into the application."""
    application.add_handler(TypeHandler(Update, once), group=-1)
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CommandHandler("newgame", newgame))
    application.add_handler(CommandHandler("score", score))
    application.add_handler(CommandHandler("cancel", cancel))
    application.add_handler(CommandHandler("kick", kick))
    application.add_handler(CommandHandler("settings", settings))
    application.add_handler(CommandHandler("stats", stats))
    application.add_handler(ChatMemberHandler(member_update, ChatMemberHandler.ANY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, member_left))
    application.add_handler(CommandHandler("rules", rules))
    application.add_handler(CommandHandler("help", help_command))
    application.add_handler(CommandHandler("language", language))
    application.add_handler(CallbackQueryHandler(button))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrated))
    application.add_handler(MessageHandler(filters.COMMAND, unknown_command))
    application.add_error_handler(on_error)
