"""/cancel and its vote: the creator or an admin ends the game at once; anyone seated opens (or joins) a
vote that a majority of the seated people decides.  Also how any game ends early."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape

from bot.i18n import t
from bot.present.menus import Rendered, render_cancel_vote
from bot.usecases.events import Edit, Event, GameEnded, Toast
from bot.usecases.live import LiveGames
from bot.usecases.people import Person
from bot.usecases.table import Table, Tell, ignore
from storage import GameRow, Storage

Asker = Callable[[], Awaitable[bool]]


class Votes:
    def __init__(self, storage: Storage, games: LiveGames, table: Table, tell: Tell = ignore) -> None:
        self.storage = storage
        self.games = games
        self.table = table
        self.tell = tell

    async def vote_posted(self, chat_id: int, message_id: int) -> None:
        """A vote message was posted in the chat: it is kept with its game, whose end takes its button away
        (at once, if the game ended meanwhile)."""
        lang = await self.games.chat_lang(chat_id)
        game = await self.storage.games.open_game(chat_id)
        events: list[Event] = [Edit(chat_id, message_id, t(lang, "cancel.vote_over"))]
        if game is not None:
            async with self.games.lock(game.game_id):
                game = await self.storage.games.get(game.game_id)
                if game is not None and game.status in ("lobby", "active"):
                    await self.storage.games.add_vote_message(game.game_id, message_id)
                    events = []
        await self.tell(events)

    async def cancel(self, chat_id: int, person: Person, is_admin: Asker) -> Rendered:
        """/cancel: the reply to post."""
        lang = await self.games.chat_lang(chat_id)
        game = await self.storage.games.open_game(chat_id)
        if game is None:
            return t(lang, "cancel.nothing"), None
        await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        admin = await is_admin()
        async with self.games.lock(game.game_id):
            game = await self.storage.games.get(game.game_id)  # as it is now, under the lock
            if game is None or game.status not in ("lobby", "active"):
                return t(lang, "cancel.nothing"), None
            if person.user_id == game.creator_id or admin:
                key = "cancel.done" if game.status == "active" else "cancel.lobby_done"
                events = await self.end(game, t(lang, key, name=escape(person.name)))
                reply: Rendered = t(lang, key, name=escape(person.name)), None
            else:
                outcome, reply, events = await self.vote(game, person.user_id, lang)
                if outcome == "refused":  # he asked to cancel, not to vote: say who can
                    reply = t(lang, "cancel.not_allowed"), None
        await self.tell(events)
        return reply

    async def press(self, game_id: int, chat_id: int, message_id: int, person: Person) -> str | None:
        """A press on "Cancel the game (k/n)": the alert; the vote message shows the count."""
        await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        async with self.games.lock(game_id):
            game = await self.storage.games.get(game_id)
            lang = await self.games.chat_lang(game.chat_id) if game else "en"
            if game is None or game.status not in ("lobby", "active"):
                alert: str | None = t(lang, "cancel.vote_over")
                events: list[Event] = [Edit(chat_id, message_id, t(lang, "cancel.vote_over"))] if message_id else []
            elif person.user_id in game.cancel_votes:
                alert, events = t(lang, "cancel.already_voted"), []
            else:
                outcome, (text, markup), events = await self.vote(game, person.user_id, lang)
                if outcome == "refused":
                    alert = text  # and nothing is kept of the press: its message may be anybody's
                else:
                    if outcome == "counted" and message_id and chat_id == game.chat_id:
                        await self.storage.games.add_vote_message(game.game_id, message_id)
                    alert = Toast(t(lang, "cancel.voted")) if outcome == "counted" else None
                    events += [Edit(chat_id, message_id, text, markup)] if message_id else []
        await self.tell(events)
        return alert

    async def vote(self, game: GameRow, user_id: int, lang: str) -> tuple[str, Rendered, list[Event]]:
        """Count one seated person's vote to cancel (under the game's lock): ``"refused"``, ``"counted"`` or
        ``"ended"`` (a majority: the game is cancelled), with the message to show."""
        people = [s.user_id for s in await self.storage.games.seats(game.game_id) if s.user_id is not None]
        if user_id not in people:
            return "refused", (t(lang, "cancel.not_seated"), None), []
        votes = [*game.cancel_votes, user_id] if user_id not in game.cancel_votes else list(game.cancel_votes)
        needed = len(people) // 2 + 1
        if len(votes) >= needed:
            return "ended", (t(lang, "cancel.by_vote"), None), await self.end(game, t(lang, "cancel.by_vote"))
        await self.storage.games.set_cancel_votes(game.game_id, votes)
        proposer = await self.storage.players.get(votes[0])
        rendered = render_cancel_vote(
            game.game_id,
            proposer=proposer.name if proposer else "?",
            votes=len(votes),
            needed=needed,
            total=len(people),
            lang=lang,
        )
        return "counted", rendered, []

    async def end(self, game: GameRow, notice: str | None) -> list[Event]:
        """Cancel a lobby or a running game (under the game's lock, ``game`` read under it): its results are
        kept, marked cancelled; the table, hands and lobby lose their buttons.  ``notice`` None: the group can
        no longer be written to (the bot was removed from it), so only the hands are closed, saying why."""
        await self.storage.games.cancel(game)
        live = self.games.drop(game.game_id)
        if live is not None:
            self.table.moved(live)  # its timers and computer players stop
        events: list[Event] = [GameEnded(live, game.chat_id, game.lobby_message_id, game.status == "lobby", notice)]
        if notice is not None:  # no vote button stays live under a game that is over
            events += [Edit(game.chat_id, message_id, notice) for message_id in game.vote_message_ids]
        return events
