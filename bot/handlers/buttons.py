"""Button presses: the data parsed into a typed press, one use case called, the press always answered (a
refusal is an alert)."""

from __future__ import annotations

from telegram import Message, Update

from bot import callbacks
from bot.handlers.common import Context, admin_check, answering, person_of, uses
from bot.i18n import pick_language, t
from bot.usecases.events import Toast
from bot.usecases.lobby import OpenLink


async def button(update: Update, context: Context) -> None:
    query = update.callback_query
    if query is None or query.from_user is None:
        return
    lang = pick_language(query.from_user.language_code)
    try:
        press = callbacks.parse(query.data)
    except callbacks.ForgedDataError:
        uses(context).table.forged()
        await query.answer(t(lang, "press.bad"), show_alert=True)
        return
    use = uses(context)
    user = query.from_user
    message = query.message if isinstance(query.message, Message) else None
    chat_id = message.chat.id if message else 0
    is_admin = admin_check(context, chat_id, user.id)
    alert: str | OpenLink | None
    match press:
        case callbacks.Setting(key=key, value=value):
            if message is None:
                alert = t(lang, "press.bad")
            else:
                alert = await use.chats.change_setting(chat_id, message.message_id, (key, value), user.id, is_admin)
        case callbacks.Back(game_id=game_id):
            alert = await use.seats.come_back(game_id, user.id)
        case callbacks.Vote(game_id=game_id):
            message_id = message.message_id if message else 0
            alert = await use.votes.press(game_id, chat_id, message_id, person_of(user))
        case callbacks.Kick(game_id=game_id, seat=seat):
            alert = await use.seats.kick_press(game_id, seat, user.id, is_admin)
        case callbacks.Lobby() | callbacks.Sit():
            alert = await use.lobbies.press(press, person_of(user), is_admin)
        case _:
            alert = await use.table.press(press, user.id)
    # Answered once the press is stored: what it changed is told in the background (bot.delivery.background), however
    # long Telegram's budget makes that wait.
    if isinstance(alert, OpenLink):  # the bot's deep link: his private chat opens and he joins
        url = alert.url
        await answering(context, lambda: query.answer(url=url))
        return
    refusal = bool(alert) and not isinstance(alert, Toast)  # a refusal must be read; a confirmation need not be
    await answering(context, lambda: query.answer(alert or None, show_alert=refusal))
