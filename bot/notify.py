"""Events → renders → the publisher, after the game's lock is released.

Nothing is shown before it is committed: each render first waits while an applied action of its game is
still being stored (``Live.settled``).

A flood wait on one send stalls only the telling, never the next press of the game, nor any other update:
the use cases tell through ``bot.background``, so the handler of the press that caused the events is done at
once.  The tellings of one game run one after the other (a lock per game of its own), so the chats see the
changes in the order they were made; each render reads the state as it is when it is sent, so a later
change is never undone.  What the chats show (the table, hand and reminder messages) is this module's: it
keeps their ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from html import escape

from bot.background import Background
from bot.clock import Clock, Handle
from bot.events import (
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
    TrickTaken,
    TurnCame,
    TurnMissed,
)
from bot.i18n import t
from bot.live import Live, LiveGames
from bot.outbox import Kind
from bot.publisher import Publisher
from bot.render import (
    Rendered,
    finished_trick_lines,
    game_title,
    render_deal_result,
    render_hand,
    render_hand_closed,
    render_outcome,
    render_table,
)
from engine import Action
from storage import Storage

WATCHING = 60.0  # seconds after a press of his hand in which a player is taken to be looking at it


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
    ) -> None:
        """``turn_ping``: seconds before a player whose turn came is notified; ``turn_ping_watching``: the
        same for a player who pressed a button of his hand within ``WATCHING`` seconds (he is probably
        looking at it: a notification would only buzz), by default the same."""
        self.storage = storage
        self.publisher = publisher
        self.games = games
        self.clock = clock
        self.turn_ping = turn_ping
        self.turn_ping_watching = turn_ping if turn_ping_watching is None else turn_ping_watching
        self._pressed_at: dict[tuple[int, int], float] = {}  # (game, seat) -> when he last pressed
        self._telling: dict[int, asyncio.Lock] = {}
        self.background = Background(self.tell)  # what the use cases tell goes through it (``tell_soon``)
        self._pings: dict[tuple[int, int], Handle] = {}
        self._pinged: dict[tuple[int, int], tuple[int, int]] = {}  # (game, seat) -> his turn notice (chat, id)

    async def tell(self, events: Sequence[Event]) -> None:
        """Show what ``events`` changed, in order (one game's tellings one after the other)."""
        if not events:
            return
        game_id = next((key for e in events if (key := self._game_of(e)) is not None), None)
        pressed = {e.seat for e in events if isinstance(e, Pressed)}  # who is looking at his hand now
        if game_id is None:
            for event in events:
                await self._one(event, pressed)
            return
        lock = self._telling.setdefault(game_id, asyncio.Lock())
        async with lock:
            for event in events:
                await self._one(event, pressed)
        if not lock.locked() and self.games.get(game_id) is None:
            self._telling.pop(game_id, None)  # nothing is being told about it now

    @staticmethod
    def _game_of(event: Event) -> int | None:
        live = getattr(event, "live", None)
        if isinstance(live, Live):
            return live.game_id
        return event.lobby_of if isinstance(event, Say) else None

    async def _one(self, event: Event, pressed: set[int]) -> None:
        live = getattr(event, "live", None)
        if isinstance(live, Live):
            await live.settled()  # each render below reads the state before any further await
        await self._one_event(event, pressed)
        if isinstance(live, Live):
            await self.drop_pings(live)

    async def _one_event(self, event: Event, pressed: set[int]) -> None:
        """Show one event; ``pressed``: the seats whose press caused it (their own hands come first)."""

        def kind(live: Live, seat: int) -> Kind:
            """The presser looks at his hand; a player who may act now (out of turn) needs his at once too;
            the others' hands only follow the table."""
            if seat in pressed:
                return Kind.OWN_HAND
            return Kind.TURN_HAND if live.state.legal_actions(seat) else Kind.HAND

        match event:
            case Applied(live=live, seats=seats):
                self.show_table(live)
                for seat in seats:
                    self.show_hand(live, seat, kind(live, seat))
            case TrickTaken():
                pass  # the table of the same action shows it
            case TurnCame(live=live, seat=seat, version=version):
                self.show_hand(live, seat, Kind.TURN_HAND)  # the hand stays where it is: he may be choosing cards in it
                if self.ping_delay(live.game_id, seat) <= 0:
                    await self.send_ping(live, seat)
                else:
                    self.schedule_ping(live.game_id, seat, version)
            case Pressed(live=live, seat=seat):
                self.cancel_ping(live.game_id, seat)
                self._pressed_at[(live.game_id, seat)] = self.clock.now()
            case DealEnded(live=live, deals_before=before, last_trick=last, winner=winner):
                await self.announce(live, before, last, winner)
                await self.open_deal(live)
            case DealOpened(live=live, resume=resume):
                await self.open_deal(live, resume=resume)
            case HandResent(live=live, seat=seat):
                await self.resend_hand(live, seat)
            case SeriesEnded(live=live, deals_before=before, last_trick=last, winner=winner):
                for seat in range(len(live.seats)):
                    self.cancel_ping(live.game_id, seat)
                self.forget_presses(live.game_id)
                await self.announce(live, before, last, winner)
            case HandChanged(live=live, seat=seat):
                self.show_hand(live, seat, kind(live, seat))
            case SeatChanged(live=live, seat=seat, key=key, name=name, back=back):
                self.show_table(live)
                if back:
                    await self.resend_hand(live, seat)
                else:
                    self.show_hand(live, seat)
                await self.publisher.send(live.game.chat_id, t(live.chat_lang, key, name=name))
            case TurnMissed(live=live, name=name, count=count):
                key = "timer.away" if count >= 2 else "timer.expired"
                await self.publisher.send(live.game.chat_id, t(live.chat_lang, key, name=name, count=count))
            case GameEnded(live=ended):
                self.close(event)
                if ended is not None:
                    await self.drop_pings(ended, every=True)
                    self.forget_presses(ended.game_id)
            case Say(chat_id=chat_id, text=text, markup=markup, lobby_of=lobby_of):
                message_id = await self.publisher.send(chat_id, text, markup)
                if lobby_of is not None:
                    await self.storage.games.set_lobby_message(lobby_of, message_id)
            case Edit(chat_id=chat_id, message_id=message_id, text=text, markup=markup):
                self.publisher.edit(chat_id, message_id, text, markup)

    # --- the table and the hands ------------------------------------------------------------------------

    def prelude(self, live: Live, deal_no: int) -> str:
        """The head of deal ``deal_no``'s table message: the previous deal's result, so that every result
        stays in the group's history without a message of its own."""
        deals = live.state.deals
        if 1 <= deal_no <= len(deals):
            return render_deal_result(deals[deal_no - 1], live.game.variant, live.seating, live.chat_lang) + "\n\n"
        return ""

    def table_text(self, live: Live) -> str:
        """The group's table of the current deal, headed by the previous deal's result."""
        state = live.state
        return self.prelude(live, state.deal_no) + render_table(state.view(None), live.seating, live.chat_lang)

    def show_table(self, live: Live) -> None:
        if live.game.table_message_id is not None:
            self.publisher.edit(live.game.chat_id, live.game.table_message_id, self.table_text(live), kind=Kind.TABLE)

    @staticmethod
    def hand(live: Live, seat: int) -> Rendered:
        """The seat's hand message as it stands: his view, his chosen cards, "I'm back" while away."""
        return render_hand(
            live.state.view(seat),
            live.seating,
            live.lang_of(seat),
            game_id=live.game_id,
            version=live.version,
            selection=live.selection.get(seat, frozenset()),
            away=live.seats[seat].stand_in is not None,
        )

    def show_hand(self, live: Live, seat: int, kind: Kind = Kind.MESSAGE) -> None:
        user = live.user_of(seat)
        message_id = live.seats[seat].hand_message_id if seat < len(live.seats) else None
        if user is not None and message_id is not None:
            text, markup = self.hand(live, seat)
            self.publisher.edit(user, message_id, text, markup, kind=kind)

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
        kind = Kind.TURN_HAND if notify else Kind.MESSAGE
        message_id = await self.publisher.send(user, text, markup, notify=notify, kind=kind)
        await self.storage.games.set_hand_message(live.game_id, seat, message_id, deal_no)
        live.seats[seat] = live.seats[seat].model_copy(update={"hand_message_id": message_id, "hand_deal_no": deal_no})

    async def open_deal(self, live: Live, *, resume: bool = False) -> None:
        """Post the table of the current deal and each hand (or, on resume, bring them up to date)."""
        await live.settled()
        state = live.state
        game = live.game
        # The hands first: people wait for their cards, and a new message in the group may have to wait
        # for the group's budget (about 20 a minute), which the table's edits share.
        for seat in range(state.num_players):
            current = live.seats[seat]
            if resume and current.hand_message_id is not None and current.hand_deal_no == state.deal_no:
                await live.settled()
                self.show_hand(live, seat)
            else:  # a deal that just ended keeps its closed hands (announce showed its last trick there)
                ended = not resume and current.hand_deal_no is not None and current.hand_deal_no < state.deal_no
                await self.resend_hand(live, seat, notify=seat == state.to_move, keep_old=ended)
        await live.settled()
        if resume and game.table_message_id is not None and game.table_deal_no == state.deal_no:
            self.show_table(live)
        else:
            deal_no = state.deal_no
            message_id = await self.publisher.send(game.chat_id, self.table_text(live))
            await self.storage.games.set_table_message(game.game_id, message_id, deal_no)
            live.game = live.game.model_copy(update={"table_message_id": message_id, "table_deal_no": deal_no})

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
        included); at the end of the series post the last result and the outcome (a continuing series shows
        the result at the head of the next table message)."""
        await live.settled()
        state = live.state
        game = live.game
        lang = live.chat_lang
        if deals_before < len(state.deals):
            finished = state.deals[-1].deal_no + 1
            for seat in range(len(live.seats)):
                user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
                stale = live.seats[seat].hand_deal_no != state.deal_no or state.is_over
                if user is not None and message_id is not None and stale:
                    seen = self.last_trick(live, last, winner, seat)
                    result, outcome = state.deals[-1], state.outcome
                    closed = render_hand_closed(
                        result, game.variant, live.seating, live.lang_of(seat), outcome=outcome, before=seen
                    )
                    self.publisher.edit(user, message_id, closed)
            if game.table_message_id is not None and (game.table_deal_no != state.deal_no or state.is_over):
                shown = "\n".join(self.last_trick(live, last, winner, None))
                over = t(lang, "hand.deal_over", deal=finished)
                if shown:  # the deal's last trick, under its deal's header
                    header = t(lang, "table.header", game=game_title(game.variant, lang), deal=finished)
                    over = f"{header}\n{shown}\n\n{over}"
                closed = self.prelude(live, finished - 1) + over
                self.publisher.edit(game.chat_id, game.table_message_id, closed)
        announced = len(state.deals)
        if state.outcome is not None and deals_before <= len(state.deals):
            parts = [render_deal_result(r, game.variant, live.seating, lang) for r in state.deals[deals_before:]]
            parts.append(render_outcome(state.outcome, game.variant, live.seating, lang))
            await self.publisher.send(game.chat_id, "\n\n".join(parts))
            announced += 1
        await self.storage.games.set_announced_deals(game.game_id, announced)
        live.game = live.game.model_copy(update={"announced_deals": announced})

    def close(self, ended: GameEnded) -> None:
        """A cancelled game: the table, hands and lobby lose their buttons."""
        live, notice = ended.live, ended.notice
        if notice is not None and ended.lobby_message_id is not None and ended.was_lobby:
            self.publisher.edit(ended.chat_id, ended.lobby_message_id, notice)
        if live is None:
            return
        for seat in range(len(live.seats)):
            self.cancel_ping(live.game_id, seat)
        if notice is not None and live.game.table_message_id is not None:
            self.publisher.edit(live.game.chat_id, live.game.table_message_id, self.table_text(live) + "\n\n" + notice)
        for seat in range(len(live.seats)):
            user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
            if user is not None and message_id is not None:
                lang = live.lang_of(seat)
                closed = t(lang, "hand.cancelled") if notice else t(lang, "bot.closed")
                self.publisher.edit(user, message_id, closed)

    # --- a private word when the turn came ------------------------------------------------------------------

    def ping_delay(self, game_id: int, seat: int) -> float:
        """How long a player whose turn came may take before he is notified: longer when he pressed a
        button of his hand lately (he is probably looking at it)."""
        pressed = self._pressed_at.get((game_id, seat))
        watching = pressed is not None and self.clock.now() - pressed < WATCHING
        return self.turn_ping_watching if watching and self.turn_ping > 0 else self.turn_ping  # 0: every turn

    def forget_presses(self, game_id: int) -> None:
        for key in [k for k in self._pressed_at if k[0] == game_id]:
            del self._pressed_at[key]

    def schedule_ping(self, game_id: int, seat: int, version: int) -> None:
        """Notify a player whose turn came, unless he moves within ``ping_delay`` seconds (a player who is
        watching needs no notification, and an edit costs one call where a notification costs two)."""
        self.cancel_ping(game_id, seat)
        delay = self.ping_delay(game_id, seat)
        self._pings[(game_id, seat)] = self.clock.later(delay, self.ping, game_id, seat, version)

    def cancel_ping(self, game_id: int, seat: int) -> None:
        if (old := self._pings.pop((game_id, seat), None)) is not None:
            old.cancel()

    async def ping(self, game_id: int, seat: int, version: int) -> None:
        self._pings.pop((game_id, seat), None)
        live = self.games.get(game_id)
        if live is None or live.version != version or live.state.to_move != seat:
            return
        user = live.user_of(seat)
        delay = self.ping_delay(game_id, seat)
        hand = live.seats[seat].hand_message_id
        if user is not None and (left := self.publisher.time_left(user, hand, self.clock.now() - delay, delay)) > 0:
            # His hand showed his turn late (Telegram's budget), or has not yet: the delay counts from then.
            self._pings[(game_id, seat)] = self.clock.later(left, self.ping, game_id, seat, version)
            return
        async with self._telling.setdefault(game_id, asyncio.Lock()):
            if live.version == version and self.games.is_current(live):
                await self.send_ping(live, seat)

    async def send_ping(self, live: Live, seat: int) -> None:
        """A short message of its own, with a notification: his turn has come.  His hand message is never
        moved for it; the notice is deleted when the turn passes (``drop_pings``)."""
        user = live.user_of(seat)
        if user is None or (live.game_id, seat) in self._pinged:
            return
        text = t(live.lang_of(seat), "turn.ping", chat=escape(live.seating.chat_title))
        message_id = await self.publisher.send(user, text, notify=True)
        if message_id is not None:
            self._pinged[(live.game_id, seat)] = (user, message_id)
        await self.drop_pings(live)  # the turn may have passed while it was on its way

    async def drop_pings(self, live: Live, *, every: bool = False) -> None:
        """Delete the turn notices of ``live`` whose turn has passed (``every``: all, the game is over)."""
        over = every or live.state.is_over or not self.games.is_current(live)
        for key in [k for k in self._pinged if k[0] == live.game_id]:
            if over or live.state.to_move != key[1]:
                chat_id, message_id = self._pinged.pop(key)
                self.publisher.delete_later(chat_id, message_id)  # cleanup: no hand waits behind it

    def stop_pings(self) -> None:
        """No turn notice is sent from now on (a stop has begun)."""
        for handle in self._pings.values():
            handle.cancel()
        self._pings.clear()

    def close_all(self) -> None:
        """Cancel pending turn notifications and tellings (on shutdown: the next start brings every chat up to
        date from the database)."""
        self.stop_pings()
        self.background.cancel()

    def reminder_text(self, live: Live, seat: int, left: int) -> str:
        return t(live.lang_of(seat), "timer.reminder", chat=escape(live.seating.chat_title), seconds=left)
