"""Telegram handlers: each turns an update into a typed request, calls one use case and answers.  They
reach storage and the publisher only through the use cases (``bot.usecases.wiring.UseCases``)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.handlers import buttons, commands, members
from bot.handlers.errors import on_error


def register(application: Application) -> None:  # type: ignore[type-arg]
    """Wire the handlers into the application."""
    application.add_handler(TypeHandler(Update, commands.once), group=-1)
    for name, callback in (
        ("start", commands.start),
        ("newgame", commands.newgame),
        ("score", commands.score),
        ("cancel", commands.cancel),
        ("kick", commands.kick),
        ("settings", commands.settings),
        ("stats", commands.stats),
        ("top", commands.top),
        ("notify_me", commands.notify_me),
    ):
        application.add_handler(CommandHandler(name, callback))
    application.add_handler(ChatMemberHandler(members.member_update, ChatMemberHandler.ANY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.LEFT_CHAT_MEMBER, members.member_left))
    application.add_handler(CommandHandler("rules", commands.rules))
    application.add_handler(CommandHandler("help", commands.help_command))
    application.add_handler(CommandHandler("language", commands.language))
    application.add_handler(CallbackQueryHandler(buttons.button))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, members.migrated))
    application.add_handler(MessageHandler(filters.COMMAND, commands.unknown_command))
    application.add_error_handler(on_error)
