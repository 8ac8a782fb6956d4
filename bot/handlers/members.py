"""Who came and went: the bot removed from a group ends its game; a person who left the group is absent from
its game; a person who blocked the bot is absent from every game; a group that became a supergroup moves."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType

from bot.handlers.common import Context, uses


async def member_update(update: Update, context: Context) -> None:
    changed = update.my_chat_member or update.chat_member
    if changed is None:
        return
    if changed.new_chat_member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return
    seats = uses(context).seats
    chat = changed.chat
    if update.my_chat_member is not None:
        if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP):
            await seats.bot_removed(chat.id)
        elif chat.type == ChatType.PRIVATE:
            await seats.player_blocked(changed.from_user.id)
        return
    await seats.absent(chat.id, changed.new_chat_member.user.id, "seat.left_group")


async def member_left(update: Update, context: Context) -> None:
    """The service message "X left the group" (sent where the bot gets no chat_member updates)."""
    message = update.effective_message
    if message is None or message.left_chat_member is None:
        return
    seats = uses(context).seats
    if message.left_chat_member.id == context.bot.id:
        await seats.bot_removed(message.chat_id)
    else:
        await seats.absent(message.chat_id, message.left_chat_member.id, "seat.left_group")


async def migrated(update: Update, context: Context) -> None:
    """A group became a supergroup: its games and series follow the new chat id."""
    message = update.effective_message
    if message is not None and message.migrate_to_chat_id is not None:
        await uses(context).chats.migrate(message.chat_id, message.migrate_to_chat_id)
