"""Who holds a seat of a running game: a computer stands in for an absent person (kicked, blocked the bot,
left the group) until he taps "I'm back"; the bot removed from a group ends its game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.i18n import t
from bot.present.menus import Rendered, render_kick_choices
from bot.usecases.events import Event, HandResent, SeatChanged
from bot.usecases.live import Live, LiveGames
from bot.usecases.table import Table, Tell, ignore
from bot.usecases.votes import Votes
from storage import Storage

Asker = Callable[[], Awaitable[bool]]


class Seats:
    def __init__(self, storage: Storage, games: LiveGames, table: Table, votes: Votes, tell: Tell = ignore) -> None:
        self.storage = storage
        self.games = games
        self.table = table
        self.votes = votes
        self.tell = tell

    async def stand_in(self, live: Live, seat: int, key: str) -> list[Event]:
        """A computer player takes an absent person's seat; the group is told with message ``key`` (under
        the game's lock)."""
        if live.level_of(seat) is not None or live.user_of(seat) is None:
            return []
        level = live.settings.computer_level
        await self.storage.games.set_stand_in(live.game_id, seat, level, live.seats[seat].timeouts)
        events: list[Event] = [SeatChanged(live, seat, key, live.seating.name(seat))]
        live.seats[seat] = live.seats[seat].model_copy(update={"stand_in": level})
        self.table.moved(live)
        return events

    async def come_back(self, game_id: int, user_id: int) -> str | None:
        """ "I'm back": the person takes his seat from the computer player again."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            if live is None:  # (told in the language of the game's chat, as a press on its hand is)
                game = await self.storage.games.get(game_id)
                return t(await self.games.chat_lang(game.chat_id) if game else "en", "press.over")
            seat = live.seat_of(user_id)
            if seat is None:
                return t(live.chat_lang, "press.not_yours")
            if live.seats[seat].stand_in is None:
                return t(live.lang_of(seat), "press.not_away")
            await self.storage.games.set_stand_in(game_id, seat, None, 0)
            live.seats[seat] = live.seats[seat].model_copy(update={"stand_in": None, "timeouts": 0})
            self.table.moved(live)
            events: list[Event] = [SeatChanged(live, seat, "seat.back", live.seating.name(seat), back=True)]
        await self.tell(events)
        return None

    async def kick(self, chat_id: int, actor: int, target: int | None, is_admin: Asker) -> Rendered:
        """/kick: hand an absent person's seat to a computer player (the creator or an admin); without a
        target, the choice of seats.  The reply ("" for none)."""
        lang = await self.games.chat_lang(chat_id)
        game = await self.storage.games.open_game(chat_id)
        if game is None or game.status != "active":
            return t(lang, "kick.nothing"), None
        if actor != game.creator_id and not await is_admin():
            return t(lang, "kick.not_allowed"), None
        async with self.games.lock(game.game_id):
            live = await self.games.load(game.game_id)
            if live is None:
                return t(lang, "kick.nothing"), None
            if target is None:
                present = [s for s in range(len(live.seats)) if live.user_of(s) is not None and not live.level_of(s)]
                if not present:
                    return t(lang, "kick.nobody"), None
                return render_kick_choices(game.game_id, live.seating, present, lang)
            seat = live.seat_of(target)
            if seat is None:
                return t(lang, "kick.not_seated"), None
            if live.level_of(seat):
                return t(lang, "kick.already"), None
            events = await self.stand_in(live, seat, "seat.kicked")
        await self.tell(events)
        return "", None

    async def kick_press(self, game_id: int, seat: int, actor: int, is_admin: Asker) -> str | None:
        """A press on one of /kick's buttons: the alert, or None."""
        game = await self.storage.games.get(game_id)
        if game is None:
            return t("en", "press.bad")
        user = next((s.user_id for s in await self.storage.games.seats(game_id) if s.seat == seat), None)
        text, _ = await self.kick(game.chat_id, actor, user if user is not None else 0, is_admin)
        return text or None

    async def absent(self, chat_id: int | None, user_id: int, key: str) -> None:
        """A person can no longer play (blocked the bot, left the group): computer players take his seats in
        the running games (of this chat, or of every chat), and he hears no more of games opening there."""
        await self.storage.notices.drop(user_id, chat_id)
        for live in self.games.running(chat_id):
            async with self.games.lock(live.game_id):
                seat = live.seat_of(user_id) if self.games.is_current(live) else None
                events = await self.stand_in(live, seat, key) if seat is not None else []
            await self.tell(events)

    async def welcome_back(self, user_id: int) -> None:
        """A person (re)started the bot in private: his hands in running games where a computer holds his
        seat come again, with the "I'm back" button."""
        for live in self.games.running():
            seat = live.seat_of(user_id)
            if seat is None or live.seats[seat].stand_in is None:
                continue
            async with self.games.lock(live.game_id):
                current = self.games.is_current(live)
            if current:
                await self.tell([HandResent(live, seat)])

    async def player_blocked(self, user_id: int) -> None:
        """A person blocked the bot (403 in his private chat): his seats go to computer players."""
        await self.storage.players.set_can_message(user_id, False)
        await self.absent(None, user_id, "seat.blocked")

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: its open game ends (cancelled), nothing more is sent there."""
        game = await self.storage.games.open_game(chat_id)
        if game is None:
            return
        async with self.games.lock(game.game_id):
            game = await self.storage.games.get(game.game_id)  # as it is now: computers may have moved
            events = await self.votes.end(game, None) if game and game.status in ("lobby", "active") else []
        await self.tell(events)

