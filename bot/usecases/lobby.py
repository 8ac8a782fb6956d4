"""The lobby: open a game, join it through the deep link, sit, add or remove computers, leave, start or
cancel it, and close it when nobody touched it for a while.  Joining a seat and starting a game are one
transaction each."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Lobby, LobbyOp, Sit
from bot.clock import Clock, Handle
from bot.i18n import pick_language, t, tn
from bot.present import game_title, presenter
from bot.present.menus import LobbySeat, Rendered, render_lobby, render_lobby_started
from bot.usecases.events import DealOpened, Edit, Event, Say, Toast
from bot.usecases.live import LiveGames
from bot.usecases.people import Person
from bot.usecases.stored import once_stored
from bot.usecases.table import Table, Tell, ignore
from engine import EngineError, find_variant
from storage import ChatSettings, GameRow, OpenGameExistsError, SeatRow, SeatTakenError, Storage

Asker = Callable[[], Awaitable[bool]]


@dataclass(frozen=True)
class OpenLink:
    """A press answered by opening a link (the bot's deep link: a person not yet in the game joins)."""

    url: str


def join_link(bot_username: str, game_id: int, seat: int | None = None) -> str:
    """The deep link that seats a person in a lobby (at ``seat`` if it is still free): his private chat with
    the bot opens and ``/start j<game>[s<seat>]`` is sent."""
    tail = f"s{seat}" if seat is not None else ""
    return f"https://t.me/{bot_username}?start=j{game_id}{tail}"


def new_seed() -> int:
    return secrets.randbits(48)


async def lobby_seats(storage: Storage, game: GameRow, lang: str) -> list[LobbySeat]:
    """The lobby's seats as they are now, by name (a computer by its own)."""
    seats = await storage.games.seats(game.game_id)
    players = await storage.players.many([s.user_id for s in seats if s.user_id is not None])
    return [
        LobbySeat(s.seat, players[s.user_id].name)  # a seat's person has his row (a foreign key)
        if s.user_id is not None
        else LobbySeat(s.seat, t(lang, "computer.name", n=s.seat + 1), computer=True)
        for s in seats
    ]


async def lobby_render(storage: Storage, game: GameRow, lang: str, bot_username: str) -> Rendered:
    """The lobby message of ``game`` as its seats are now."""
    seats = await lobby_seats(storage, game, lang)
    return render_lobby(game.game_id, game.variant, game.options, seats, bot_username=bot_username, lang=lang)


class Lobbies:
    def __init__(
        self,
        storage: Storage,
        games: LiveGames,
        table: Table,
        expiry: LobbyExpiry,
        bot_username: str,
        *,
        tell: Tell = ignore,
        seeds: Callable[[], int] = new_seed,
    ) -> None:
        self.storage = storage
        self.games = games
        self.table = table
        self.expiry = expiry
        self.bot_username = bot_username
        self.tell = tell
        self.seeds = seeds  # where each game's seed comes from (a test may replay a deal with its own)
        expiry.on_expiry = self.expire

    async def open(self, chat_id: int, variant: str, creator: Person, lang: str) -> str | None:
        """Open a lobby and post its message; returns a refusal text, or None when done."""
        await self.storage.players.upsert(creator.user_id, creator.name, creator.username, creator.language)
        chat = await self.storage.chats.get(chat_id)
        options = dict(chat.settings.options.get(variant, {})) if chat else {}
        try:
            find_variant(variant).options(options)
        except EngineError:
            options = {}
        try:
            game = await self.storage.games.create(chat_id, variant, options, self.seeds(), creator.user_id)
        except OpenGameExistsError:
            return t(lang, "lobby.exists")
        text, markup = await lobby_render(self.storage, game, lang, self.bot_username)
        await self.tell([Say(chat_id, text, markup, lobby_of=game.game_id), *await self.notices(game, creator)])
        self.expiry.schedule(game.game_id)
        return None

    async def notices(self, game: GameRow, creator: Person) -> list[Event]:
        """/notify_me: each person who asked is told in private that a game opened in the chat, with a
        button that seats him."""
        chat = await self.storage.chats.get(game.chat_id)
        title = escape(chat.title if chat else "")
        events: list[Event] = []
        for person in await self.storage.notices.subscribers(game.chat_id):
            if person.user_id == creator.user_id:
                continue
            lang = pick_language(person.effective_language)
            text = t(lang, "notify.opened", name=escape(creator.name), game=game_title(game.variant, lang), chat=title)
            button = InlineKeyboardButton(t(lang, "notify.join"), url=join_link(self.bot_username, game.game_id))
            events.append(Say(person.user_id, text, InlineKeyboardMarkup([[button]]), loud=True))
        return events

    async def refreshed(self, game_id: int) -> list[Event]:
        game = await self.storage.games.get(game_id)
        if game is None or game.lobby_message_id is None or game.status != "lobby":
            return []
        lang = await self.games.chat_lang(game.chat_id)
        text, markup = await lobby_render(self.storage, game, lang, self.bot_username)
        return [Edit(game.chat_id, game.lobby_message_id, text, markup)]

    async def join(self, game_id: int, lang: str, person: Person, seat: int | None = None) -> str:
        """A player arrives through the Join deep link (he has started the bot, so he can be written to);
        ``seat``: the one he pressed "Sit at N" for, taken if it is still free (else the first free one)."""
        row = await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        if not row.can_message:
            await self.storage.players.set_can_message(person.user_id, True)
        async with self.games.lock(game_id):
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "lobby":
                return t(lang, "join.gone")
            chat = await self.storage.chats.get(game.chat_id)
            title = escape(chat.title) if chat else ""  # the reply is HTML
            async with self.storage.db.transaction():
                seats = await self.storage.games.seats(game_id)
                if any(s.user_id == person.user_id for s in seats):
                    return t(lang, "join.already", chat=title)
                taken = {s.seat for s in seats}
                shown = presenter(game.variant)
                free = [s for s in range(shown.capacity) if s not in taken]
                if not free:
                    return t(lang, "lobby.full")
                wanted = seat if seat in free and shown.choose_seats else free[0]
                try:
                    await self.storage.games.take_seat(game_id, wanted, user_id=person.user_id)
                except SeatTakenError:
                    return t(lang, "join.already", chat=title)
                await self.storage.games.touch(game_id)
            events = await self.refreshed(game_id)
        await self.tell(events)
        return t(lang, "join.done", game=game_title(game.variant, lang), chat=title)

    async def press(self, press: Lobby | Sit, person: Person, is_admin: Asker) -> str | OpenLink | None:
        """Leave / start / cancel / add or remove a computer / sit at seat N: an alert text, a link to open
        (someone not yet in the game pressed "Sit at N": he joins through the deep link), or None."""
        await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        async with self.games.lock(press.game_id):
            alert, events = await self._press(press, person, is_admin)
        await self.tell(events)
        return alert

    async def _press(
        self, press: Lobby | Sit, person: Person, is_admin: Asker
    ) -> tuple[str | OpenLink | None, list[Event]]:
        game_id = press.game_id
        game = await self.storage.games.get(game_id)
        lang = await self.games.chat_lang(game.chat_id) if game else "en"
        if game is None or game.status != "lobby":
            return t(lang, "lobby.gone"), []
        seats = await self.storage.games.seats(game_id)
        mine = next((s for s in seats if s.user_id == person.user_id), None)
        shown = presenter(game.variant)
        alert: str | None
        if isinstance(press, Sit) and mine is None:  # not in the game yet: he joins at that seat
            if any(s.seat == press.seat for s in seats):
                return t(lang, "lobby.seat_taken"), []
            return OpenLink(join_link(self.bot_username, game_id, press.seat if shown.choose_seats else None)), []
        changes_table = isinstance(press, Lobby) and press.op in (LobbyOp.ADD_COMPUTER, LobbyOp.REMOVE_COMPUTER)
        if changes_table and mine is None and person.user_id != game.creator_id and not await is_admin():
            # only the creator, seated players or admins change the table; a full one has no join button to tap
            full = len(seats) >= shown.capacity
            return t(lang, "lobby.outsider_full" if full else "lobby.outsider"), []
        match press:
            case Lobby(op=LobbyOp.START | LobbyOp.CANCEL as op):
                if person.user_id != game.creator_id and not await is_admin():
                    creator = await self.storage.players.get(game.creator_id or 0)
                    return t(lang, "lobby.only_creator", name=creator.name if creator else "?"), []
                if op is LobbyOp.CANCEL:
                    return None, await self.close(game, t(lang, "lobby.cancelled"))
                refusal = shown.seat_count_refusal(len(seats), lang)
                if refusal:
                    return refusal, []
                return None, await self.start(game, seats, lang)
            case Lobby(op=LobbyOp.LEAVE):
                if mine is None:
                    return t(lang, "lobby.not_seated"), []
                await self.storage.games.leave_seat(game_id, mine.seat)
                alert = Toast(t(lang, "lobby.left"))
            case Lobby(op=LobbyOp.ADD_COMPUTER):
                if len(seats) >= shown.capacity:
                    return t(lang, "lobby.full"), []
                chat = await self.storage.chats.get(game.chat_id)
                level = chat.settings.computer_level if chat else ChatSettings().computer_level
                taken = {s.seat for s in seats}
                await self.storage.games.take_seat(game_id, min(set(range(shown.capacity)) - taken), computer=level)
                alert = Toast(t(lang, "lobby.computer_added", level=t(lang, f"level.{level}")))
            case Lobby(op=LobbyOp.REMOVE_COMPUTER):
                computers = [s.seat for s in seats if s.computer]
                if not computers:
                    return t(lang, "lobby.no_computer"), []
                await self.storage.games.leave_seat(game_id, max(computers))
                alert = None
            case Sit(seat=seat):
                if mine is None:
                    return t(lang, "lobby.not_seated"), []
                if any(s.seat == seat for s in seats) or not shown.choose_seats or seat >= shown.capacity:
                    return t(lang, "lobby.seat_taken"), []
                async with self.storage.db.transaction():
                    await self.storage.games.leave_seat(game_id, mine.seat)
                    await self.storage.games.take_seat(game_id, seat, user_id=person.user_id)
                alert = Toast(t(lang, "lobby.moved", seat=seat + 1))
            case _:
                return t(lang, "press.bad"), []
        await self.storage.games.touch(game_id)
        self.expiry.schedule(game_id)
        return alert, await self.refreshed(game_id)

    async def start(self, game: GameRow, seats: Sequence[SeatRow], lang: str) -> list[Event]:
        """Seat the players and start, in one transaction; then deal, post the table and every hand."""
        options = dict(game.options)
        if len(find_variant(game.variant).players) > 1:  # a game for a range of players is told how many
            options["players"] = len(seats)
        async with self.storage.db.transaction():
            await self.storage.games.reseat(game.game_id, [s.seat for s in seats])
            await self.storage.games.set_options(game.game_id, game.variant, options)
            await self.storage.games.set_status(game.game_id, "active")
        self.expiry.cancel(game.game_id)
        row = await self.storage.games.get(game.game_id)
        assert row is not None
        live = await self.games.build(row)
        self.games.put(live)
        events: list[Event] = []
        if row.lobby_message_id is not None and live.settings.table == "text":
            # the lobby's message becomes the first deal's table: one call, not two
            deal_no = live.state.deal_no
            await self.storage.games.set_table_message(row.game_id, row.lobby_message_id, deal_no)
            table = {"table_message_id": row.lobby_message_id, "table_deal_no": deal_no}
            live.game = live.game.model_copy(update=table)
        elif row.lobby_message_id is not None:  # a text cannot become a picture: the lobby says who plays
            text = render_lobby_started(row.variant, row.options, await lobby_seats(self.storage, row, lang), lang)
            events.append(Edit(row.chat_id, row.lobby_message_id, text))
        self.table.moved(live)
        return [*events, DealOpened(live)]

    async def close(self, game: GameRow, notice: str) -> list[Event]:
        """Cancel the lobby (under its lock): its message says ``notice``."""
        await self.storage.games.set_status(game.game_id, "cancelled")
        self.expiry.cancel(game.game_id)
        self.games.drop(game.game_id)
        return [Edit(game.chat_id, game.lobby_message_id, notice)] if game.lobby_message_id is not None else []

    async def expire(self, game_id: int) -> None:
        await once_stored(self.storage.db, lambda: self._expire(game_id))

    async def _expire(self, game_id: int) -> None:
        async with self.games.lock(game_id):
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "lobby":
                return
            minutes = max(1, round(self.expiry.ttl / 60))
            events = await self.close(game, tn(await self.games.chat_lang(game.chat_id), "lobby.expired", minutes))
        await self.tell(events)


class LobbyExpiry:
    """A lobby nobody touched for ``ttl`` seconds closes (``on_expiry`` does it)."""

    def __init__(self, clock: Clock, ttl: float) -> None:
        self.clock = clock
        self.ttl = ttl
        self.on_expiry: Callable[[int], Awaitable[None]] | None = None
        self._handles: dict[int, Handle] = {}

    def schedule(self, game_id: int) -> None:
        """Count the lobby's idle time from now."""
        self.cancel(game_id)
        self._handles[game_id] = self.clock.later(self.ttl, self._expire, game_id)

    def cancel(self, game_id: int) -> None:
        if (handle := self._handles.pop(game_id, None)) is not None:
            handle.cancel()

    async def _expire(self, game_id: int) -> None:
        self._handles.pop(game_id, None)
        if self.on_expiry is not None:
            await self.on_expiry(game_id)

    def close(self) -> None:
        for game_id in list(self._handles):
            self.cancel(game_id)
