"""Events → renders → the publisher, after the game's lock is released.

Nothing is shown before it is committed: each render first waits while an applied action of its game is
still being stored (``Live.settled``).

A flood wait on one send stalls only the telling, never the next press of the game, nor any other update:
the use cases tell through ``bot.delivery.background``, so the handler of the press that caused the events is done at
once.  The tellings of one game run one after the other (a lock per game of its own), so the chats see the
changes in the order they were made; each render reads the state as it is when it is sent, so a later
change is never undone.  A new message into the group may wait long for the group's budget (about 20 a
minute): it goes out after the game's earlier ones but outside the telling (``in_group``), so that nobody's
own chat waits for the group's — the next press is shown to its presser at once.  What the chats show (the
hand and reminder messages here, the group's table in ``bot.delivery.group_table``) is these modules': they keep the
messages' ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from html import escape

from bot.clock import Clock
from bot.delivery.background import Background
from bot.delivery.group_table import Closing, GroupTable
from bot.delivery.outbox import Priority
from bot.delivery.publisher import Publisher
from bot.delivery.sending import Picture
from bot.i18n import t
from bot.logs import about
from bot.miniapp.links import AppLinks
from bot.present.hand import render_hand
from bot.present.leaderboard import render_changes, render_own_end
from bot.present.render import (
    Rendered,
    finished_trick_lines,
    render_hand_closed,
)
from bot.usecases.events import (
    Applied,
    DealEnded,
    DealOpened,
    Edit,
    Event,
    GameEnded,
    HandChanged,
    HandResent,
    Pressed,
    Say,
    SeatChanged,
    SeriesEnded,
    TableMoved,
    TrickTaken,
    TurnCame,
    TurnMissed,
)
from bot.usecases.live import Live, LiveGames
from bot.usecases.pings import TurnPings
from engine import Action
from storage import Storage
from storage.models import RatingChange


class Notifier:
    def __init__(
        self,
        storage: Storage,
        publisher: Publisher,
        games: LiveGames,
        clock: Clock,
        turn_ping: float,
        *,
        turn_ping_watching: float | None = None,
        links: AppLinks | None = None,
    ) -> None:
        """``turn_ping``: seconds before a player whose turn came is notified; ``turn_ping_watching``: the
        same for a player who pressed a button of his hand within ``pings.WATCHING`` seconds (he is probably
        looking at it: a notification would only buzz), by default the same; ``links``: the Mini App's, whose
        buttons the hands and tables carry (none without it)."""
        self.storage = storage
        self.publisher = publisher
        self.games = games
        self.clock = clock
        self._telling: dict[int, asyncio.Lock] = {}
        self._group_line: dict[int, asyncio.Task[None]] = {}  # game -> the last of its calls into the group
        self.links = links
        self.watchers: list[Callable[[int], None]] = []  # told of each game a telling is about (bot.miniapp)
        self.table = GroupTable(storage, publisher, games, links)
        self.background = Background(self.tell)  # what the use cases tell goes through it (``tell_soon``)
        watching = turn_ping if turn_ping_watching is None else turn_ping_watching
        self.pings = TurnPings(publisher, games, clock, self.telling_lock, turn_ping=turn_ping, watching=watching)

    async def tell(self, events: Sequence[Event]) -> None:
        """Show what ``events`` changed, in order (one game's tellings one after the other)."""
        if not events:
            return
        game_id = next((key for e in events if (key := self._game_of(e)) is not None), None)
        pressed = {e.seat for e in events if isinstance(e, Pressed)}  # who is looking at his hand now
        since = self.clock.monotonic()  # when the change was asked for: a hand's latency counts from here
        if game_id is None:
            for event in events:
                await self._one(event, pressed, since)
            return
        for watcher in self.watchers:  # a page reads the state itself, without waiting for Telegram
            watcher(game_id)
        lock = self.telling_lock(game_id)
        live = self.games.get(game_id)
        with about(game=game_id, chat=live.game.chat_id if live else None):
            async with lock:
                for event in events:
                    await self._one(event, pressed, since)
        if not lock.locked() and self.games.get(game_id) is None:
            self._telling.pop(game_id, None)  # nothing is being told about it now

    def telling_lock(self, game_id: int) -> asyncio.Lock:
        """Held while something is told about the game: its tellings one after the other."""
        return self._telling.setdefault(game_id, asyncio.Lock())

    def in_group(self, live: Live, call: Callable[[], Awaitable[None]], what: str) -> None:
        """Make ``call`` into the game's group after the game's earlier ones, without holding up its tellings."""
        game_id = live.game_id
        before = self._group_line.get(game_id)

        async def in_turn() -> None:
            if before is not None:
                await asyncio.wait([before])  # its failure is logged and counted on its own
            await call()

        def done(task: asyncio.Task[None]) -> None:
            if self._group_line.get(game_id) is task:
                del self._group_line[game_id]

        task = self.background.soon(in_turn(), what)
        self._group_line[game_id] = task
        task.add_done_callback(done)

    def say_in_group(self, live: Live, text: str) -> None:
        async def say() -> None:
            await self.publisher.send(live.game.chat_id, text)

        self.in_group(live, say, "a notice")

    @staticmethod
    def _game_of(event: Event) -> int | None:
        live = getattr(event, "live", None)
        if isinstance(live, Live):
            return live.game_id
        return event.lobby_of if isinstance(event, Say) else None

    async def _one(self, event: Event, pressed: set[int], since: float) -> None:
        live = getattr(event, "live", None)
        if isinstance(live, Live):
            await live.settled()  # each render below reads the state before any further await
        await self._one_event(event, pressed, since)
        if isinstance(live, Live):
            await self.pings.drop(live)

    async def _one_event(self, event: Event, pressed: set[int], since: float) -> None:
        """Show one event; ``pressed``: the seats whose press caused it (their own hands come first);
        ``since``: when its telling began."""

        def priority(live: Live, seat: int) -> Priority:
            """The presser looks at his hand; a player who may act now (out of turn) needs his at once too;
            the others' hands only follow the table."""
            if seat in pressed:
                return Priority.OWN_HAND
            return Priority.TURN_HAND if live.state.legal_actions(seat) else Priority.HAND

        match event:
            case Applied(live=live, seats=seats):
                self.table.show(live)
                for seat in seats:
                    self.show_hand(live, seat, priority(live, seat), since)
            case TrickTaken():
                pass  # the table of the same action shows it
            case TurnCame(live=live, seat=seat, version=version):
                self.show_hand(live, seat, Priority.TURN_HAND, since)  # where it is: he may be choosing cards in it
                if self.pings.delay(live.game_id, seat) <= 0:
                    await self.pings.send(live, seat)
                else:
                    self.pings.schedule(live.game_id, seat, version)
            case Pressed(live=live, seat=seat):
                self.pings.pressed(live.game_id, seat)
            case DealEnded(live=live, deals_before=before, last_trick=last, winner=winner):
                await self.announce(live, before, last, winner)
                await self.open_deal(live)
            case DealOpened(live=live, resume=resume):
                await self.open_deal(live, resume=resume)
            case HandResent(live=live, seat=seat):
                await self.resend_hand(live, seat)
            case SeriesEnded(live=live, deals_before=before, last_trick=last, winner=winner):
                for seat in range(len(live.seats)):
                    self.pings.cancel(live.game_id, seat)
                self.pings.forget_presses(live.game_id)
                await self.announce(live, before, last, winner)
            case HandChanged(live=live, seat=seat):
                self.show_hand(live, seat, priority(live, seat), since)
            case SeatChanged(live=live, seat=seat, key=key, name=name, back=back):
                self.table.show(live)
                if back:
                    await self.resend_hand(live, seat)
                else:
                    self.show_hand(live, seat)
                self.say_in_group(live, t(live.chat_lang, key, name=name))
            case TurnMissed(live=live, name=name, count=count):
                key = "timer.away" if count >= 2 else "timer.expired"
                self.say_in_group(live, t(live.chat_lang, key, name=name, count=count))
            case TableMoved(live=live):
                self.in_group(live, lambda: self.table.move(live), "the table moved")
            case GameEnded(live=ended):
                self.close(event)
                if ended is not None:
                    await self.pings.drop(ended, every=True)
                    self.pings.forget_presses(ended.game_id)
            case Say(chat_id=chat_id, text=text, markup=markup, lobby_of=lobby_of, loud=loud):
                message_id = await self.publisher.send(chat_id, text, markup, notify=loud)
                if lobby_of is not None:
                    await self.storage.games.set_lobby_message(lobby_of, message_id)
            case Edit(chat_id=chat_id, message_id=message_id, text=text, markup=markup):
                self.publisher.edit(chat_id, message_id, text, markup)

    # --- the hands ------------------------------------------------------------------------------------------

    def hand(self, live: Live, seat: int) -> Rendered:
        """The seat's hand message as it stands: his view, his chosen cards, "I'm back" while away."""
        return render_hand(
            live.state.view(seat),
            live.seating,
            live.lang_of(seat),
            game_id=live.game_id,
            version=live.version,
            selection=live.selection.get(seat, frozenset()),
            away=live.seats[seat].stand_in is not None,
            app_url=self.links.hand(live.game_id) if self.links is not None else None,
        )

    def show_hand(
        self, live: Live, seat: int, priority: Priority = Priority.MESSAGE, since: float | None = None
    ) -> None:
        user = live.user_of(seat)
        message_id = live.seats[seat].hand_message_id if seat < len(live.seats) else None
        if user is not None and message_id is not None:
            text, markup = self.hand(live, seat)
            self.publisher.edit(user, message_id, text, markup, priority=priority, since=since)

    async def resend_hand(self, live: Live, seat: int, *, notify: bool = True, keep_old: bool = False) -> None:
        """Send the seat's hand as a new message at the bottom of the private chat (with a notification
        when ``notify``), and delete the one it replaces — unless ``keep_old``: a finished deal's closed
        hand stays, showing that deal's last trick."""
        user = live.user_of(seat)
        if user is None:
            return
        await live.settled()
        deal_no = live.state.deal_no
        text, markup = self.hand(live, seat)
        old = live.seats[seat].hand_message_id
        if old is not None and not keep_old:
            await self.publisher.delete(user, old)
        priority = Priority.TURN_HAND if notify else Priority.MESSAGE
        message_id = await self.publisher.send(user, text, markup, notify=notify, priority=priority)
        await self.storage.games.set_hand_message(live.game_id, seat, message_id, deal_no)
        live.seats[seat] = live.seats[seat].model_copy(update={"hand_message_id": message_id, "hand_deal_no": deal_no})

    async def open_deal(self, live: Live, *, resume: bool = False) -> None:
        """Post the table of the current deal and each hand (or, on resume, bring them up to date)."""
        await live.settled()
        state = live.state
        if live.game.table_message_id is not None and live.game.table_deal_no == state.deal_no:
            self.table.show(live)  # on resume; or the first deal's, which is the lobby's message
        else:
            deal_no = state.deal_no
            self.in_group(live, lambda: self.table.post(live, deal_no), "the table")
        for seat in range(state.num_players):
            current = live.seats[seat]
            if resume and current.hand_message_id is not None and current.hand_deal_no == state.deal_no:
                await live.settled()
                self.show_hand(live, seat)
            else:  # a deal that just ended keeps its closed hands (announce showed its last trick there)
                ended = not resume and current.hand_deal_no is not None and current.hand_deal_no < state.deal_no
                await self.resend_hand(live, seat, notify=seat == state.to_move, keep_old=ended)

    def last_trick(self, live: Live, plays: Sequence[Action], winner: int | None, seat: int | None) -> list[str]:
        """The lines of a finished deal's last trick as ``seat`` (None: the group) sees it."""
        if not plays:
            return []
        seen = [live.state.seen(a, seat) for a in plays]
        lang = live.chat_lang if seat is None else live.lang_of(seat)
        return finished_trick_lines(seen, winner, live.game.variant, live.seating, lang)

    async def announce(
        self, live: Live, deals_before: int, last: Sequence[Action] = (), winner: int | None = None
    ) -> None:
        """A deal has ended: close its table and hand messages (showing its last trick, completing card
        included; a picture table becomes the picture of the deal's result); at the end of the series post
        the outcome (a text table's series shows each result at the head of the next deal's table, and its
        last with the outcome)."""
        await live.settled()
        state = live.state
        game = live.game
        lang = live.chat_lang
        closing: Closing | None = None
        if deals_before < len(state.deals):
            result = state.deals[-1]
            for seat in range(len(live.seats)):
                user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
                stale = live.seats[seat].hand_deal_no != state.deal_no or state.is_over
                if user is not None and message_id is not None and stale:
                    seen = self.last_trick(live, last, winner, seat)
                    closed = render_hand_closed(
                        result, game.variant, live.seating, live.lang_of(seat), outcome=state.outcome, before=seen
                    )
                    self.publisher.edit(user, message_id, closed)
            closing = self.table.closing(live, self.last_trick(live, last, winner, None))
        announced = len(state.deals)
        ending: list[tuple[str, Picture | None]] = []  # the messages that end the series
        changes: list[RatingChange] = []
        if state.outcome is not None and deals_before <= len(state.deals):
            changes = await self.storage.ratings.changes(live.game_id)
            ratings = render_changes(changes, names_of(live), lang, seats=live.seating.names)
            ending = self.table.ending(live, deals_before, ratings)
            announced += 1

        async def to_group() -> None:  # after the finished deal's table was posted, if it was still on its way
            # the deal is told once Telegram has its table's closing: one still owed at a stop is the next
            # start's, and the last deal's result shows before the end of the series below it
            if closing is not None and not await self.table.close_deal(live, closing):
                return
            for text, photo in ending:
                await self.publisher.send(live.game.chat_id, text, photo=photo)
            await self.storage.games.set_announced_deals(live.game_id, announced)
            live.game = live.game.model_copy(update={"announced_deals": announced})
            if ending:  # once told: a start that tells the end again, which it was not, writes to nobody twice
                await self.tell_seated(live, changes)

        self.in_group(live, to_group, "a deal's end")

    async def tell_seated(self, live: Live, changes: Sequence[RatingChange]) -> None:
        """The series' end in each seated person's private chat: how it went for him, his rating's change and
        what next; nobody who never started a private chat with the bot (or blocked it) is written to."""
        outcome = live.state.outcome
        assert outcome is not None
        by_seat = {change.seat: change for change in changes}
        users = {seat: user for seat in range(len(live.seats)) if (user := live.user_of(seat)) is not None}
        people = await self.storage.players.many(list(users.values()))
        for seat, user in users.items():
            if user not in people or not people[user].can_message:
                continue
            text = render_own_end(outcome, live.game.variant, seat, change=by_seat.get(seat), chat=live.chat_title,
                                  lang=live.lang_of(seat))  # fmt: skip
            await self.publisher.send(user, text)

    def close(self, ended: GameEnded) -> None:
        """A cancelled game: the table, hands and lobby lose their buttons."""
        live, notice = ended.live, ended.notice
        if notice is not None and ended.lobby_message_id is not None and ended.was_lobby:
            self.publisher.edit(ended.chat_id, ended.lobby_message_id, notice)
        if live is None:
            return
        for seat in range(len(live.seats)):
            self.pings.cancel(live.game_id, seat)
        if notice is not None:

            async def close_table() -> None:  # once the current table was posted, if it was still on its way
                self.table.cancelled(live, notice)
                # a series cancelled after its first deal is rated as it stood (docs/ratings.md)
                changes = await self.storage.ratings.changes(live.game_id)
                if changes:
                    lang = live.chat_lang
                    rated = render_changes(changes, names_of(live), lang, seats=live.seating.names,
                                           note=t(lang, "rating.cancelled"))  # fmt: skip
                    await self.publisher.send(live.game.chat_id, rated)

            self.in_group(live, close_table, "a closed table")
        for seat in range(len(live.seats)):
            user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
            if user is not None and message_id is not None:
                lang = live.lang_of(seat)
                closed = t(lang, "hand.cancelled") if notice else t(lang, "bot.closed")
                self.publisher.edit(user, message_id, closed)

    def close_all(self) -> None:
        """Cancel pending turn notifications and tellings (on shutdown: the next start brings every chat up to
        date from the database)."""
        self.pings.stop()
        self.background.cancel()

    def reminder_text(self, live: Live, seat: int, left: int) -> str:
        return t(live.lang_of(seat), "timer.reminder", chat=escape(live.seating.chat_title), seconds=left)


def names_of(live: Live) -> dict[int, str]:
    """The people of a game by user id, by name as they are (the table marks a stand-in; a rating does not)."""
    return {user_id: player.name for user_id, player in live.players.items()}
