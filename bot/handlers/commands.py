"""Commands: each turns a message into a call of one use case and replies."""

from __future__ import annotations

import logging
import re
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ApplicationHandlerStop

from bot.handlers.common import (
    Context,
    admin_check,
    in_group,
    is_group,
    language_of,
    person_of,
    reply,
    reply_photo,
    uses,
)
from bot.i18n import LANGUAGES, t
from bot.present import GAMES, game_title
from bot.present.menus import render_rules
from bot.usecases.stored import Unsaved
from engine import variant_named

log = logging.getLogger(__name__)
JOIN_PAYLOAD = re.compile(r"j(\d{1,12})(?:s([0-5]))?")  # bot.usecases.lobby.join_link: a lobby, and a seat in it


async def once(update: Update, context: Context) -> None:
    """An update redelivered after a crash (same update id) is not handled twice."""
    try:
        claimed = await uses(context).chats.claim_update(update.update_id)
    except Unsaved as exc:  # what it asks is refused if it would change anything; what only reads answers
        log.info("update %s is handled without its id stored: %s", update.update_id, exc)
        return
    if not claimed:
        log.info("update %s was already handled", update.update_id)
        raise ApplicationHandlerStop


async def start(update: Update, context: Context) -> None:
    """/start: what the bot is; with a Join payload, seat the player in that lobby."""
    user = update.effective_user
    if user is None:
        return
    lang = await language_of(update, context)
    use = uses(context)
    if is_group(update):  # in a group: how to play here, not the private greeting
        await reply(update, context, t(lang, "start.group", games=games_list(lang, "/newgame")))
        return
    if context.args and (match := JOIN_PAYLOAD.fullmatch(context.args[0])):
        seat = int(match[2]) if match[2] is not None else None
        await reply(update, context, await use.lobbies.join(int(match[1]), lang, person_of(user), seat))
        return
    await use.chats.person(person_of(user), can_message=True)
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton(t(lang, "start.add_to_group"), url=f"https://t.me/{context.bot.username}?startgroup=kozel")]]
    )
    await reply(update, context, t(lang, "start.hello"), markup)
    await use.seats.welcome_back(user.id)  # his hands come back after the greeting


def variant_from(args: list[str] | None, default: str) -> str | None:
    """The game named by a command's arguments (by name or alias), ``default`` for none."""
    text = " ".join(args or [])
    if not text:
        return default
    variant = variant_named(text)
    return variant.name if variant is not None else None


def typed_name(variant: str, lang: str) -> str:
    """What to type after /newgame for the game, in the chat's language (one of the game's names)."""
    return t(lang, f"newgame.arg.{variant}")


def games_list(lang: str, command: str) -> str:
    """The games by their names, each with what to type (never the internal names alone)."""
    return ", ".join(f"{game_title(v, lang)} ({command} {typed_name(v, lang)})" for v in GAMES)

async def newgame(update: Update, context: Context) -> None:
    """/newgame [game]: open a lobby in this group."""
    where = await in_group(update, context)
    if where is None:
        return
    use = uses(context)
    variant = variant_from(context.args, await use.chats.default_variant(where.chat.id))
    if variant is None:
        name = escape(" ".join(context.args or []))
        games = games_list(where.lang, "/newgame")
        await reply(update, context, t(where.lang, "unknown.variant", name=name, games=games))
        return
    refusal = await use.lobbies.open(where.chat.id, variant, person_of(where.user), where.lang)
    if refusal:
        await reply(update, context, refusal)


async def score(update: Update, context: Context) -> None:
    """/score: the current series and the chat's all-time table."""
    where = await in_group(update, context)
    if where is not None:
        await reply(update, context, await uses(context).records.score(where.chat.id, where.lang))


async def cancel(update: Update, context: Context) -> None:
    """/cancel: end the running game or lobby (creator, admin, or a vote of the seated players)."""
    where = await in_group(update, context)
    if where is None:
        return
    is_admin = admin_check(context, where.chat.id, where.user.id)
    votes = uses(context).votes
    text, markup = await votes.cancel(where.chat.id, person_of(where.user), is_admin)
    sent = await reply(update, context, text, markup)
    if markup is not None and sent is not None:  # a vote: its button is taken away when the game ends
        await votes.vote_posted(where.chat.id, sent.message_id)


async def kick(update: Update, context: Context) -> None:
    """/kick as a reply to a player's message, or /kick alone for a choice of buttons."""
    where, message = await in_group(update, context), update.effective_message
    if where is None or message is None:
        return
    target = message.reply_to_message.from_user if message.reply_to_message else None
    is_admin = admin_check(context, where.chat.id, where.user.id)
    text, markup = await uses(context).seats.kick(where.chat.id, where.user.id, target.id if target else None, is_admin)
    if text:
        await reply(update, context, text, markup)


async def settings(update: Update, context: Context) -> None:
    """/settings: the chat's settings menu (admins and the open game's creator)."""
    where = await in_group(update, context, "settings.group_only")
    if where is not None:
        is_admin = admin_check(context, where.chat.id, where.user.id)
        await reply(update, context, *await uses(context).chats.settings_menu(where.chat.id, where.user.id, is_admin))


async def stats(update: Update, context: Context) -> None:
    """/stats in a private chat: the person's games."""
    lang = await language_of(update, context)
    user = update.effective_user
    if is_group(update) or user is None:
        await reply(update, context, t(lang, "stats.private_only"))
        return
    records = uses(context).records
    await reply(update, context, await records.stats(user.id, lang))
    picture = await records.rating_picture(user.id, lang)
    if picture is not None:
        await reply_photo(update, context, picture, t(lang, "chart.caption"))


async def top(update: Update, context: Context) -> None:
    """/top [game]: this chat's leaderboard."""
    where = await in_group(update, context, "top.group_only")
    if where is None:
        return
    variant = variant_from(context.args, "") if context.args else None
    if variant is None and context.args:
        name = escape(" ".join(context.args))
        await reply(update, context, t(where.lang, "unknown.variant", name=name, games=games_list(where.lang, "/top")))
        return
    await reply(update, context, await uses(context).records.top(where.chat.id, variant, where.user.id, where.lang))


async def notify_me(update: Update, context: Context) -> None:
    """/notify_me in a group: be told in private when a game opens here; again: no longer."""
    where = await in_group(update, context, "notify.group_only")
    if where is None:
        return
    text, markup = await uses(context).chats.toggle_notices(where.chat.id, person_of(where.user), where.lang)
    await reply(update, context, text, markup)


async def rules(update: Update, context: Context) -> None:
    """/rules [game]."""
    lang = await language_of(update, context)
    names: tuple[str, ...] = GAMES
    if context.args:
        variant = variant_from(context.args, GAMES[0])
        if variant is None:
            await reply(update, context, t(lang, "rules.unknown", games=games_list(lang, "/rules")))
            return
        names = (variant,)
    for text in render_rules(names, lang):
        await reply(update, context, text)


async def help_command(update: Update, context: Context) -> None:
    """/help."""
    lang = await language_of(update, context)
    await reply(update, context, t(lang, "help.text", games=" | ".join(typed_name(v, lang) for v in GAMES)))


async def language(update: Update, context: Context) -> None:
    """/language en|ru|cs: the group's language (admins), or one's own in a private chat."""
    lang = await language_of(update, context)
    chat, user = update.effective_chat, update.effective_user
    choice = (context.args or [""])[0].lower()
    if choice not in LANGUAGES or chat is None or user is None:
        await reply(update, context, t(lang, "language.usage"))
        return
    chats = uses(context).chats
    if is_group(update):
        if not await admin_check(context, chat.id, user.id)():
            await reply(update, context, t(lang, "language.admins_only"))
            return
        await chats.set_language(chat.id, choice)
    else:
        await chats.set_person_language(person_of(user), choice)
    await reply(update, context, t(choice, "language.set"))


async def unknown_command(update: Update, context: Context) -> None:
    """Any other command, unless it is another bot's (``/help@OtherBot``): that one is not ours to answer."""
    message = update.effective_message
    command = ((message.text or message.caption or "") if message else "").split(maxsplit=1)[:1]
    _, at, addressee = (command[0] if command else "").partition("@")
    if at and addressee.casefold() != (context.bot.username or "").casefold():
        return
    await reply(update, context, t(await language_of(update, context), "unknown.command"))
