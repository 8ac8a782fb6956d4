"""Moves at a running table: a press (or a computer's choice) → the engine applies it → storage commits it →
the events that tell what changed.  No Telegram here: the events go to ``tell`` once the game's lock is
released (``notify.Notifier.tell`` in the bot, a list in the unit tests).

Every accepted action is committed to SQLite before anything about it is sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence

from bot.callbacks import Clear, HandPress, Play, Toggle, Unplayable
from bot.i18n import pick_language, t
from bot.present import presenter
from bot.usecases.events import Applied, DealEnded, Edit, Event, HandChanged, Pressed, SeriesEnded, TrickTaken, TurnCame
from bot.usecases.live import Live, LiveGames
from engine import Action, Card
from storage import SeatRow, Storage, StorageUnavailable

log = logging.getLogger(__name__)

Tell = Callable[[Sequence[Event]], Awaitable[None]]


async def ignore(events: Sequence[Event]) -> None:
    """A ``Tell`` that tells nobody."""


class Table:
    def __init__(self, storage: Storage, games: LiveGames, tell: Tell = ignore) -> None:
        self.storage = storage
        self.games = games
        self.tell = tell
        self.moved_on: list[Callable[[Live], None]] = []  # told of every change of a running state (timers …)
        # hand presses by result: applied, stale, refused, forged, unsaved (the database took no writes)
        self.presses: Counter[str] = Counter()

    async def press(self, press: HandPress, user_id: int) -> str | None:
        """A button in a hand message: the alert to show, or None."""
        async with self.games.lock(press.game_id):
            alert, events = await self.pressed(press, user_id)
        await self.tell(events)
        return alert

    async def pressed(self, press: HandPress, user_id: int) -> tuple[str | None, list[Event]]:
        """``press`` under the game's lock: the alert and what changed."""
        live = await self.games.load(press.game_id)
        if live is None:
            game = await self.storage.games.get(press.game_id)
            chat = await self.storage.chats.get(game.chat_id) if game else None
            lang = pick_language(chat.settings.language if chat else None)
            self.presses["refused"] += 1
            return t(lang, "press.over" if game else "press.bad"), []
        seat = live.seat_of(user_id)
        if seat is None:
            self.presses["refused"] += 1
            return t(live.chat_lang, "press.not_yours"), []
        try:
            alert, events = await self.seated_press(live, seat, press, user_id)
        except StorageUnavailable:  # nothing of it was stored, and the game is read again on the next press
            self.presses["unsaved"] += 1
            return t(live.lang_of(seat), "error.storage"), []
        stale = alert == t(live.lang_of(seat), "press.stale")
        self.presses["applied" if alert is None else "stale" if stale else "refused"] += 1
        return alert, [Pressed(live, seat), *events]  # any press of his is activity: no turn notification

    def forged(self) -> None:
        """A press with data this bot never sends (refused before any game is looked at)."""
        self.presses["forged"] += 1

    async def seated_press(
        self, live: Live, seat: int, press: HandPress, user_id: int
    ) -> tuple[str | None, list[Event]]:
        lang = live.lang_of(seat)
        if press.version != live.version:
            return t(lang, "press.stale"), [HandChanged(live, seat)]
        match press:
            case Unplayable():
                mine = live.state.legal_actions(seat)
                return t(lang, "press.not_playable" if mine else "press.not_your_turn"), []
            case Clear():
                live.selection.pop(seat, None)
                return None, [HandChanged(live, seat)]
            case Toggle(card=card):
                return self.toggle(live, seat, card, lang)
            case Play(action=action):
                return await self.play(live, seat, action, user_id, lang)
        return t(lang, "press.bad"), []

    def toggle(self, live: Live, seat: int, card: Card, lang: str) -> tuple[str | None, list[Event]]:
        """Choose or unchoose a card, in a game where a move is several cards."""
        if not presenter(live.game.variant).selects_cards:
            return t(lang, "press.bad"), []
        playable = {c for a in live.state.legal_actions(seat) for c in a.cards}
        if card not in live.state.hands[seat] or card not in playable:
            return t(lang, "press.not_playable"), []
        live.selection[seat] = live.selection.get(seat, frozenset()) ^ {card}
        return None, [HandChanged(live, seat)]

    async def play(
        self, live: Live, seat: int, action: Action, user_id: int, lang: str
    ) -> tuple[str | None, list[Event]]:
        if action.seat != seat:
            return t(lang, "press.not_yours"), []
        if action not in live.state.legal_actions(seat):
            return t(lang, "press.illegal"), [HandChanged(live, seat)]
        if live.seats[seat].stand_in is not None:  # his hand shows "I'm back": an older message's card
            return t(lang, "press.away"), []
        back = live.seats[seat].model_copy(update={"timeouts": 0}) if live.seats[seat].timeouts else None
        return None, await self.act(live, action, user_id, back)  # his own move: no missed turns in a row

    async def act(
        self, live: Live, action: Action, user_id: int | None, seat_row: SeatRow | None = None
    ) -> list[Event]:
        """Apply and commit (with ``seat_row``, the acting seat's new stand-in and missed turns, if they
        change), under the game's lock; returns what changed."""
        state = live.state
        before_hands = [tuple(h) for h in state.hands]
        before_legal = {s for s in range(state.num_players) if state.legal_actions(s)}
        before_to_move = state.to_move
        before_deals = len(state.deals)
        before_tricks = sum(state.tricks_taken) if state.tricks_taken else 0
        before_trick = tuple(state.trick)
        committed = live.committing = asyncio.Event()  # the notifier shows this state once it is stored
        try:
            state.apply(action)
            await self.storage.games.record(live.game, state, user_id, seat_row)
        except Exception:
            self.games.forget(live.game_id)  # the database is the truth: read again on the next press
            raise
        finally:
            live.committing = None
            committed.set()
        live.game = live.game.model_copy(
            update={"action_count": len(state.history), "deal_no": state.deal_no, "totals": list(state.totals)}
        )
        if seat_row is not None:
            live.seats[seat_row.seat] = seat_row
        live.selection.clear()
        log.debug("game %s: %s applied at version %s", live.game_id, action, live.version - 1)
        last: tuple[Action, ...] = ()
        winner: int | None = None
        if len(state.deals) > before_deals and before_trick and action.cards:
            ended = state.deals[-1]
            last = (*before_trick, action)  # the deal's last trick: its completing card is shown too
            # ... taken by its winner, or stopped before anyone took it (C12: the queen caught)
            winner = ended.last_trick_winner if sum(ended.tricks) > before_tricks else None
        if state.is_over:
            self.games.drop(live.game_id)
            self.moved(live)
            row = await self.storage.games.get(live.game_id)
            over = t(live.chat_lang, "cancel.vote_over")  # a vote to cancel it was open: its button goes
            votes = [Edit(live.game.chat_id, message_id, over) for message_id in row.vote_message_ids] if row else []
            return [SeriesEnded(live, before_deals, last, winner), *votes]
        if len(state.deals) > before_deals:
            self.moved(live)
            return [DealEnded(live, before_deals, last, winner)]
        events: list[Event] = []
        if state.tricks_taken and sum(state.tricks_taken) > before_tricks:
            events.append(TrickTaken(live, state.tricks_done[-1].winner if state.tricks_done else None))
        changed = {s for s in range(state.num_players) if tuple(state.hands[s]) != before_hands[s]}
        now_legal = {s for s in range(state.num_players) if state.legal_actions(s)}
        touched = changed | before_legal | now_legal | {action.seat}
        if events:  # a trick was taken: every hand shows it, its completing card included
            touched |= set(range(state.num_players))
        came = state.to_move if state.to_move not in (before_to_move, action.seat) else None
        came = came if came in touched else None
        seats = sorted(touched - {came})
        events.append(Applied(live, action, tuple(seats)))
        if came is not None:
            events.append(TurnCame(live, came, live.version))
        self.moved(live)
        return events

    def moved(self, live: Live) -> None:
        for observer in self.moved_on:
            observer(live)
