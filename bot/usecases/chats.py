"""Chats and people: languages, a group's settings, a group becoming a supergroup, updates seen once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import pick_language, t
from bot.present.menus import Rendered, apply_setting, render_settings
from bot.usecases.events import DealOpened, Edit, Event, Say, TableMoved
from bot.usecases.live import LiveGames
from bot.usecases.lobby import lobby_render
from bot.usecases.people import Person
from bot.usecases.table import Tell, ignore
from engine.registry import default_variant_name
from storage import PlayerRow, Storage

Asker = Callable[[], Awaitable[bool]]  # asked only when the answer matters: "is he an admin of the chat?"
PRUNE_EVERY = 1000  # claimed updates between two prunings of the table of processed update ids


class Chats:
    def __init__(self, storage: Storage, games: LiveGames, bot_username: str, tell: Tell = ignore) -> None:
        self.storage = storage
        self.games = games
        self.bot_username = bot_username
        self.tell = tell
        self._claims = 0

    async def claim_update(self, update_id: int) -> bool:
        """True the first time an update is seen (one redelivered after a crash is not handled twice)."""
        self._claims += 1
        if self._claims % PRUNE_EVERY == 0:
            await self.storage.updates.prune()
        return await self.storage.updates.claim(update_id)

    async def language(self, chat_id: int, title: str, kind: str, person: Person | None) -> str:
        """A group's language; a new group takes the language of the first person who writes in it."""
        chat = await self.storage.chats.ensure(chat_id, title, kind)
        if chat.settings.language is None and person is not None and person.language:
            settings = chat.settings.model_copy(update={"language": pick_language(person.language)})
            await self.storage.chats.save_settings(chat_id, settings)
            return settings.language or "en"
        return pick_language(chat.settings.language)

    async def set_language(self, chat_id: int, language: str) -> None:
        chat = await self.storage.chats.known(chat_id)
        await self.storage.chats.save_settings(chat_id, chat.settings.model_copy(update={"language": language}))

    async def person(self, person: Person, *, can_message: bool | None = None) -> PlayerRow:
        row = await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        if can_message is not None and row.can_message != can_message:
            await self.storage.players.set_can_message(person.user_id, can_message)
            row = row.model_copy(update={"can_message": can_message})
        return row

    async def person_lang(self, person: Person) -> str:
        return pick_language((await self.person(person)).effective_language)

    async def set_person_language(self, person: Person, language: str) -> None:
        await self.person(person)
        await self.storage.players.set_language(person.user_id, language)

    async def default_variant(self, chat_id: int) -> str:
        chat = await self.storage.chats.get(chat_id)
        return chat.settings.default_variant if chat else default_variant_name()

    # --- /notify_me ------------------------------------------------------------------------------------------

    async def toggle_notices(self, chat_id: int, person: Person, lang: str) -> Rendered:
        """/notify_me: the person is told in private when a game opens in the chat, or no longer; one who
        has not started the bot is asked to (his notices wait until he has)."""
        row = await self.person(person)
        on = await self.storage.notices.toggle(chat_id, person.user_id)
        chat = await self.storage.chats.get(chat_id)
        title = escape(chat.title if chat else "")
        if not on:
            return t(lang, "notify.off", name=escape(person.name), chat=title), None
        if not row.can_message:
            url = f"https://t.me/{self.bot_username}?start=notify"
            markup = InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "notify.start_button"), url=url)]])
            return t(lang, "notify.on_start_first", name=escape(person.name), chat=title), markup
        return t(lang, "notify.on", name=escape(person.name), chat=title), None

    # --- /settings ------------------------------------------------------------------------------------------

    async def may_configure(self, chat_id: int, user_id: int, is_admin: Asker) -> bool:
        """A chat admin, or the creator of the chat's open game."""
        if await is_admin():
            return True
        game = await self.storage.games.open_game(chat_id)
        return game is not None and game.creator_id == user_id

    async def settings_menu(self, chat_id: int, user_id: int, is_admin: Asker) -> Rendered:
        if not await self.may_configure(chat_id, user_id, is_admin):
            return t(await self.games.chat_lang(chat_id), "settings.not_allowed"), None
        chat = await self.storage.chats.known(chat_id)
        return render_settings(chat.settings, chat.title, pick_language(chat.settings.language))

    async def change_setting(
        self, chat_id: int, message_id: int, choice: tuple[str, str], user_id: int, is_admin: Asker
    ) -> str | None:
        """A choice in the /settings menu (an admin's or the open game's creator's): the refusal, or None
        when the menu shows the new settings."""
        lang = await self.games.chat_lang(chat_id)
        if not await self.may_configure(chat_id, user_id, is_admin):
            return t(lang, "settings.not_allowed")
        chat = await self.storage.chats.known(chat_id)
        settings = apply_setting(chat.settings, *choice)
        if settings is None:
            return t(lang, "press.bad")
        await self.storage.chats.save_settings(chat_id, settings)
        events: list[Event] = []
        for live in self.games.running(chat_id):  # the timer and computer level apply from the next turn
            live.settings = settings
            if settings.table != chat.settings.table:  # the table is shown the new way at once
                events.append(TableMoved(live))
        text, markup = render_settings(settings, chat.title, pick_language(settings.language))
        await self.tell([Edit(chat_id, message_id, text, markup), *events])
        return None

    # --- a group became a supergroup ----------------------------------------------------------------------

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """Its game, series and results follow the new id, and its lobby or running game's table is posted
        again there (messages of the old chat cannot be edited through the new id)."""
        await self.storage.chats.migrate(old_chat_id, new_chat_id)
        events: list[Event] = []
        lobby = await self.storage.games.open_game(new_chat_id)
        if lobby is not None and lobby.status == "lobby":  # post the lobby again where people can press it
            async with self.games.lock(lobby.game_id):
                lang = await self.games.chat_lang(new_chat_id)
                text, markup = await lobby_render(self.storage, lobby, lang, self.bot_username)
            await self.tell([Say(new_chat_id, text, markup, lobby_of=lobby.game_id)])
        for live in self.games.running(old_chat_id):
            async with self.games.lock(live.game_id):
                live.game = live.game.model_copy(update={"chat_id": new_chat_id, "table_message_id": None})
                events.append(DealOpened(live, resume=True))
        await self.tell(events)
