"""The game service: lobbies, presses and what each chat is shown, between the handlers and storage.

Every accepted action is committed to SQLite before anything about it is sent.  One lock per game makes
two presses at once apply one after the other; the second finds the state moved on and is refused as stale.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from html import escape
from typing import Any

from bot.callbacks import Clear, HandPress, Lobby, LobbyOp, Sit, Toggle, Unplayable
from bot.config import Settings
from bot.i18n import pick_language, t
from bot.menus import (
    LobbySeat,
    apply_setting,
    render_cancel_vote,
    render_kick_choices,
    render_lobby,
    render_settings,
)
from bot.present import presenter
from bot.publisher import Publisher
from bot.records import Records
from bot.render import (
    Rendered,
    Seating,
    deal_line,
    game_title,
    render_deal_result,
    render_hand,
    render_hand_closed,
    render_outcome,
    render_table,
    score_line,
)
from engine import Action, Card, EngineError, GameState, View, find_variant, variant_named
from engine.players import BasicPlayer, decide
from storage import ChatSettings, GameRow, OpenGameExistsError, PlayerRow, SeatRow, SeatTakenError, Storage

log = logging.getLogger(__name__)

def variant_from_text(text: str | None, default: str) -> str | None:
    """The game a person named (by name or alias, from the engine's registry), ``default`` for none."""
    if not text:
        return default
    variant = variant_named(text)
    return variant.name if variant is not None else None


@dataclass
class Person:
    """A Telegram user as the service needs him."""

    user_id: int
    name: str
    username: str | None = None
    language: str | None = None


@dataclass
class Live:
    """A running game in memory: its row, engine state and seating."""

    game: GameRow
    state: GameState
    seats: list[SeatRow]
    players: dict[int, PlayerRow]
    chat_title: str
    chat_lang: str
    settings: ChatSettings = field(default_factory=ChatSettings)
    selection: dict[int, frozenset[Card]] = field(default_factory=dict)
    waited: set[tuple[int, int]] = field(default_factory=set)  # (seat, version): a computer chose to wait

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return self.seats[seat].user_id if seat < len(self.seats) else None

    def lang_of(self, seat: int) -> str:
        user = self.user_of(seat)
        player = self.players.get(user) if user is not None else None
        return pick_language(player.effective_language if player else None, self.chat_lang)

    @property
    def version(self) -> int:
        return len(self.state.history)

    def level_of(self, seat: int) -> str | None:
        """The computer level playing this seat now, or None for a person at the table."""
        return self.seats[seat].player_level if seat < len(self.seats) else None

    @property
    def seating(self) -> Seating:
        """Who sits where now (a person's name is marked while a computer stands in for him)."""
        return Seating(seat_names(self.seats, self.players, self.chat_lang), self.chat_title)


def seat_names(seats: Sequence[SeatRow], players: dict[int, PlayerRow], lang: str) -> tuple[str, ...]:
    """Names at the table: people by name (marked 🤖 while a computer plays for them), computers numbered."""
    names = []
    for s in seats:
        if s.user_id is None:
            names.append(t(lang, "computer.name", n=s.seat + 1))
            continue
        name = players[s.user_id].name if s.user_id in players else "?"
        names.append(f"{name} 🤖" if s.stand_in else name)
    return tuple(names)


class GameService:
    def __init__(
        self,
        storage: Storage,
        publisher: Publisher,
        bot_username: str,
        settings: Settings,
        executor: Executor | None = None,
    ) -> None:
        self.storage = storage
        self.records = Records(storage)
        self.publisher = publisher
        self.bot_username = bot_username
        self.lobby_ttl = settings.lobby_ttl_seconds
        self.turn_ping = settings.turn_ping_seconds
        self.computer_budget = settings.computer_budget_seconds
        self.computer_pause = settings.computer_pause_seconds
        self.timer_scale = settings.timer_scale
        self.executor = executor  # where computer players think (None: the loop's default thread pool)
        self.live: dict[int, Live] = {}
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pings: dict[tuple[int, int], asyncio.TimerHandle] = {}
        self._timers: dict[int, list[asyncio.TimerHandle]] = {}
        self._reminders: dict[int, tuple[int, int]] = {}  # game -> the private reminder of the current turn
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.fallbacks = 0  # computer choices that failed or were refused, so the basic player chose instead
        publisher.on_forbidden = self._blocked

    # --- chats and people -------------------------------------------------------------------------------

    async def chat_language(self, chat_id: int, title: str, kind: str, person: Person | None) -> str:
        chat = await self.storage.chats.ensure(chat_id, title, kind)
        if chat.settings.language is None and person is not None and person.language:
            settings = chat.settings.model_copy(update={"language": pick_language(person.language)})
            await self.storage.chats.save_settings(chat_id, settings)
            return settings.language or "en"
        return pick_language(chat.settings.language)

    async def set_chat_language(self, chat_id: int, language: str) -> None:
        chat = await self.storage.chats.ensure(chat_id)
        await self.storage.chats.save_settings(chat_id, chat.settings.model_copy(update={"language": language}))

    async def person(self, person: Person, *, can_message: bool | None = None) -> PlayerRow:
        row = await self.storage.players.upsert(person.user_id, person.name, person.username, person.language)
        if can_message is not None and row.can_message != can_message:
            await self.storage.players.set_can_message(person.user_id, can_message)
            row = row.model_copy(update={"can_message": can_message})
        return row

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its game, series and results follow the new id, and a running game's
        table is posted again there (messages of the old chat cannot be edited through the new id)."""
        await self.storage.chats.migrate(old_chat_id, new_chat_id)
        lobby = await self.storage.games.open_game(new_chat_id)
        if lobby is not None and lobby.status == "lobby":  # post the lobby again where people can press it
            async with self.locks[lobby.game_id]:
                text, markup = await self.lobby_render(lobby, await self.chat_lang(new_chat_id))
                message_id = await self.publisher.send(new_chat_id, text, markup)
                await self.storage.games.set_lobby_message(lobby.game_id, message_id)
        for game_id, live in list(self.live.items()):
            if live.game.chat_id != old_chat_id:
                continue
            async with self.locks[game_id]:
                live.game = live.game.model_copy(update={"chat_id": new_chat_id, "table_message_id": None})
                message_id = await self.publisher.send(new_chat_id, self.table_text(live))
                await self.storage.games.set_table_message(game_id, message_id, live.state.deal_no)
                live.game = live.game.model_copy(update={"table_message_id": message_id})

    # --- the lobby --------------------------------------------------------------------------------------

    async def open_lobby(self, chat_id: int, variant: str, creator: Person, lang: str) -> str | None:
        """Open a lobby and post its message; returns a refusal text, or None when done."""
        await self.person(creator)
        chat = await self.storage.chats.get(chat_id)
        options = dict(chat.settings.options.get(variant, {})) if chat else {}
        try:
            find_variant(variant).options(options)
        except EngineError:
            options = {}
        try:
            game = await self.storage.games.create(chat_id, variant, options, secrets.randbits(48), creator.user_id)
        except OpenGameExistsError:
            return t(lang, "lobby.exists")
        text, markup = await self.lobby_render(game, lang)
        message_id = await self.publisher.send(chat_id, text, markup)
        await self.storage.games.set_lobby_message(game.game_id, message_id)
        return None

    async def lobby_render(self, game: GameRow, lang: str) -> tuple[str, Any]:
        seats = await self.storage.games.seats(game.game_id)
        players = await self.storage.players.many([s.user_id for s in seats if s.user_id is not None])
        lobby_seats = [
            LobbySeat(s.seat, players[s.user_id].name if s.user_id in players else None)
            if s.user_id is not None
            else LobbySeat(s.seat, t(lang, "computer.name", n=s.seat + 1), computer=True)
            for s in seats
        ]
        return render_lobby(
            game.game_id, game.variant, game.options, lobby_seats, bot_username=self.bot_username, lang=lang
        )

    async def refresh_lobby(self, game_id: int) -> None:
        game = await self.storage.games.get(game_id)
        if game is None or game.lobby_message_id is None:
            return
        lang = await self.chat_lang(game.chat_id)
        if game.status == "lobby":
            text, markup = await self.lobby_render(game, lang)
            self.publisher.edit(game.chat_id, game.lobby_message_id, text, markup)

    async def chat_lang(self, chat_id: int) -> str:
        chat = await self.storage.chats.get(chat_id)
        return pick_language(chat.settings.language if chat else None)

    async def join(self, game_id: int, person: Person) -> str:
        """A player arrives through the Join deep link: he has started the bot, so he can be written to."""
        player = await self.person(person, can_message=True)
        lang = pick_language(player.effective_language)
        async with self.locks[game_id]:
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "lobby":
                return t(lang, "join.gone")
            chat = await self.storage.chats.get(game.chat_id)
            title = escape(chat.title) if chat else ""  # the reply is HTML
            seats = await self.storage.games.seats(game_id)
            if any(s.user_id == person.user_id for s in seats):
                return t(lang, "join.already", chat=title)
            taken = {s.seat for s in seats}
            free = [s for s in range(max(find_variant(game.variant).players)) if s not in taken]
            if not free:
                return t(lang, "lobby.full")
            try:
                await self.storage.games.take_seat(game_id, free[0], user_id=person.user_id)
            except SeatTakenError:
                return t(lang, "join.already", chat=title)
            await self.storage.games.touch(game_id)
        await self.refresh_lobby(game_id)
        return t(lang, "join.done", game=game_title(game.variant, lang), chat=title)

    async def lobby_press(self, press: Lobby | Sit, person: Person, is_admin: bool) -> str | None:
        """Leave / Start / Cancel / add or remove a computer / sit at seat N.  Returns an alert text, or None."""
        game_id = press.game_id
        op = press.op if isinstance(press, Lobby) else None
        async with self.locks[game_id]:
            game = await self.storage.games.get(game_id)
            lang = await self.chat_lang(game.chat_id) if game else "en"
            if game is None or game.status != "lobby":
                return t(lang, "lobby.gone")
            seats = await self.storage.games.seats(game_id)
            mine = next((s for s in seats if s.user_id == person.user_id), None)
            if op is LobbyOp.LEAVE:
                if mine is None:
                    return t(lang, "lobby.not_seated")
                await self.storage.games.leave_seat(game_id, mine.seat)
                alert: str | None = t(lang, "lobby.left")
            elif op is LobbyOp.ADD_COMPUTER:
                if len(seats) >= max(find_variant(game.variant).players):
                    return t(lang, "lobby.full")
                chat = await self.storage.chats.get(game.chat_id)
                level = chat.settings.computer_level if chat else ChatSettings().computer_level
                taken = {s.seat for s in seats}
                await self.storage.games.take_seat(game_id, min(set(range(6)) - taken), computer=level)
                alert = t(lang, "lobby.computer_added", level=t(lang, f"level.{level}"))
            elif op is LobbyOp.REMOVE_COMPUTER:
                computers = [s.seat for s in seats if s.computer]
                if not computers:
                    return t(lang, "lobby.no_computer")
                await self.storage.games.leave_seat(game_id, max(computers))
                alert = None
            elif isinstance(press, Sit):
                seat = press.seat
                if mine is None:
                    return t(lang, "lobby.not_seated")
                shown = presenter(game.variant)
                if any(s.seat == seat for s in seats) or not shown.choose_seats or seat >= shown.capacity:
                    return t(lang, "lobby.seat_taken")
                await self.storage.games.leave_seat(game_id, mine.seat)
                await self.storage.games.take_seat(game_id, seat, user_id=person.user_id)
                alert = t(lang, "lobby.moved", seat=seat + 1)
            else:
                if person.user_id != game.creator_id and not is_admin:
                    creator = await self.storage.players.get(game.creator_id or 0)
                    return t(lang, "lobby.only_creator", name=creator.name if creator else "?")
                if op is LobbyOp.CANCEL:
                    await self.storage.games.set_status(game_id, "cancelled")
                    if game.lobby_message_id is not None:
                        self.publisher.edit(game.chat_id, game.lobby_message_id, t(lang, "lobby.cancelled"))
                    return None
                refusal = self.seat_count_refusal(game, len(seats), lang)
                if refusal:
                    return refusal
                await self.start(game, seats, lang)
                return None
            await self.storage.games.touch(game_id)
        await self.refresh_lobby(game_id)
        return alert

    @staticmethod
    def seat_count_refusal(game: GameRow, count: int, lang: str) -> str | None:
        return presenter(game.variant).seat_count_refusal(count, lang)

    async def start(self, game: GameRow, seats: Sequence[SeatRow], lang: str) -> None:
        """Seat the players, deal, post the table and send every hand (called under the game's lock)."""
        await self.storage.games.reseat(game.game_id, [s.seat for s in seats])
        options = dict(game.options)
        if len(find_variant(game.variant).players) > 1:  # a game for a range of players is told how many
            options["players"] = len(seats)
        await self.storage.games.set_options(game.game_id, game.variant, options)
        await self.storage.games.set_status(game.game_id, "active")
        row = await self.storage.games.get(game.game_id)
        assert row is not None
        live = await self.build_live(row)
        players = ", ".join(live.seating.name(s) for s in range(len(live.seats)))
        if row.lobby_message_id is not None:
            self.publisher.edit(
                row.chat_id,
                row.lobby_message_id,
                t(lang, "lobby.started", game=game_title(row.variant, lang), players=players),
            )
        self.live[row.game_id] = live
        await self.open_deal(live)
        self.after_change(live)

    async def expire_lobby(self, game_id: int) -> None:
        async with self.locks[game_id]:
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "lobby":
                return
            await self.storage.games.set_status(game_id, "cancelled")
            lang = await self.chat_lang(game.chat_id)
            if game.lobby_message_id is not None:
                minutes = max(1, round(self.lobby_ttl / 60))
                self.publisher.edit(game.chat_id, game.lobby_message_id, t(lang, "lobby.expired", minutes=minutes))

    # --- loading ----------------------------------------------------------------------------------------

    async def build_live(self, game: GameRow) -> Live:
        state = await self.storage.games.load_state(game)
        seats = await self.storage.games.seats(game.game_id)
        players = await self.storage.players.many([s.user_id for s in seats if s.user_id is not None])
        chat = await self.storage.chats.get(game.chat_id)
        lang = pick_language(chat.settings.language if chat else None)
        return Live(
            game=game,
            state=state,
            seats=list(seats),
            players=players,
            chat_title=chat.title if chat else "",
            chat_lang=lang,
            settings=chat.settings if chat else ChatSettings(),
        )

    async def get_live(self, game_id: int) -> Live | None:
        live = self.live.get(game_id)
        if live is None:
            game = await self.storage.games.get(game_id)
            if game is None or game.status != "active":
                return None
            live = self.live[game_id] = await self.build_live(game)
        return live

    async def restore(self) -> int:
        """At start-up: load every running game and bring its messages up to date."""
        count = 0
        for game in await self.storage.games.unannounced():
            async with self.locks[game.game_id]:
                live = await self.build_live(game)
                if game.status == "active":
                    self.live[game.game_id] = live
                await self.announce(live, deal_count_before=game.announced_deals)
                if game.status == "active":
                    await self.open_deal(live, resume=True)
                    since = await self.storage.games.last_action_at(game.game_id)
                    self.arm_timer(live, elapsed=max(time.time() - since, 0.0) if since else 0.0)
                    self.drive(game.game_id)
            count += 1
        return count

    # --- presses ----------------------------------------------------------------------------------------

    async def press(self, press: HandPress, user_id: int) -> str | None:
        """A button in a hand message.  Returns the alert to show, or None."""
        async with self.locks[press.game_id]:
            live = await self.get_live(press.game_id)
            if live is None:
                game = await self.storage.games.get(press.game_id)
                lang = await self.chat_lang(game.chat_id) if game else "en"
                return t(lang, "press.over" if game else "press.bad")
            seat = live.seat_of(user_id)
            if seat is None:
                return t(live.chat_lang, "press.not_yours")
            lang = live.lang_of(seat)
            if press.version != live.version:
                self.show_hand(live, seat)
                return t(lang, "press.stale")
            if isinstance(press, Unplayable):
                mine = live.state.legal_actions(seat)
                return t(lang, "press.not_playable" if mine else "press.not_your_turn")
            if isinstance(press, Clear):
                live.selection.pop(seat, None)
                self.show_hand(live, seat)
                return None
            if isinstance(press, Toggle):
                if not presenter(live.game.variant).selects_cards:
                    return t(lang, "press.bad")
                return self.toggle(live, seat, press.card, lang)
            action = press.action
            if action.seat != seat:
                return t(lang, "press.not_yours")
            if action not in live.state.legal_actions(seat):
                self.show_hand(live, seat)
                return t(lang, "press.illegal")
            if live.seats[seat].stand_in is not None:
                return t(lang, "press.stale")
            back = live.seats[seat].model_copy(update={"timeouts": 0}) if live.seats[seat].timeouts else None
            await self.act(live, action, user_id, back)  # his own move: no missed turns in a row
            return None

    def toggle(self, live: Live, seat: int, card: Card, lang: str) -> str | None:
        playable = {c for a in live.state.legal_actions(seat) for c in a.cards}
        if card not in live.state.hands[seat] or card not in playable:
            return t(lang, "press.not_playable")
        chosen = set(live.selection.get(seat, frozenset()))
        chosen ^= {card}
        live.selection[seat] = frozenset(chosen)
        self.show_hand(live, seat)
        return None

    async def act(self, live: Live, action: Action, user_id: int | None, seat_row: SeatRow | None = None) -> None:
        """Apply, commit (with ``seat_row``, the acting seat's new stand-in and missed turns, if they change),
        then tell: the table, the hands that changed, and deal results."""
        state = live.state
        before_hands = [tuple(h) for h in state.hands]
        before_legal = {s for s in range(state.num_players) if state.legal_actions(s)}
        before_to_move = state.to_move
        before_deals = len(state.deals)
        before_version = live.version
        state.apply(action)
        try:
            await self.storage.games.record(live.game, state, user_id, seat_row)
        except Exception:
            self.live.pop(live.game.game_id, None)  # the database is the truth: reload on the next press
            raise
        live.game = live.game.model_copy(
            update={"action_count": len(state.history), "deal_no": state.deal_no, "totals": list(state.totals)}
        )
        if seat_row is not None:
            live.seats[seat_row.seat] = seat_row
        live.selection.clear()
        if len(state.deals) > before_deals or state.is_over:
            await self.announce(live, deal_count_before=before_deals)
            if state.is_over:
                self.live.pop(live.game.game_id, None)
                self.stop_timer(live.game.game_id)
            else:
                await self.open_deal(live)
                self.after_change(live)
            return
        self.show_table(live)
        changed = {s for s in range(state.num_players) if tuple(state.hands[s]) != before_hands[s]}
        now_legal = {s for s in range(state.num_players) if state.legal_actions(s)}
        for seat in sorted(changed | before_legal | now_legal | {action.seat}):
            turn_came = seat == state.to_move and seat not in (before_to_move, action.seat)
            if turn_came and self.turn_ping <= 0:
                await self.resend_hand(live, seat)
                continue
            self.show_hand(live, seat)
            if turn_came:
                self.schedule_ping(live.game.game_id, seat, live.version)
        self.after_change(live)
        log.debug("game %s: %s applied at version %s", live.game.game_id, action, before_version)

    def after_change(self, live: Live) -> None:
        """The state moved on: re-arm the turn timer and let computer players act."""
        self.arm_timer(live)
        self.drive(live.game.game_id)

    # --- computer players -------------------------------------------------------------------------------

    def drive(self, game_id: int) -> None:
        """Make sure a task is letting the game's computer players act (one task per game)."""
        task = self._drivers.get(game_id)
        if task is None or task.done():
            self._drivers[game_id] = self._spawn(self._drive(game_id))

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._log_failure)
        return task

    @staticmethod
    def _log_failure(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def _drive(self, game_id: int) -> None:
        """Computer players act one at a time with a short pause, so people can follow the table; they think
        outside the game's lock, and a decision made for a state that has since moved on is dropped."""
        while True:
            await asyncio.sleep(self.computer_pause)
            async with self.locks[game_id]:
                live = self.live.get(game_id)
                if live is None:
                    return
                turn = self.computer_turn(live)
                if turn is None:
                    return
                seat, level = turn
                version = live.version
                view = live.state.view(seat)
                seed = live.game.seed ^ (version << 3) ^ seat
            action = await self.think(level, view, seed)
            async with self.locks[game_id]:
                live = self.live.get(game_id)
                if live is None:
                    return
                if live.version != version or live.level_of(seat) is None:
                    continue
                if action is None:  # it waits: not asked again until the state moves on
                    live.waited = {w for w in live.waited if w[1] == version} | {(seat, version)}
                    continue
                await self.act(live, self.checked(live, seat, action), None)

    @staticmethod
    def computer_turn(live: Live) -> tuple[int, str] | None:
        """The next computer seat with something to decide: out-of-turn choices (molodka, double, redeal …)
        first, then the seat to move."""
        state = live.state
        seats = [s for s in range(state.num_players) if s != state.to_move]
        if state.to_move is not None:
            seats.append(state.to_move)
        for seat in seats:
            level = live.level_of(seat)
            if level and state.legal_actions(seat) and (seat, live.version) not in live.waited:
                return seat, level
        return None

    def checked(self, live: Live, seat: int, action: Action) -> Action:
        """The engine is the judge: a computer's choice that is not legal (a bug) is counted, logged and
        replaced by the basic player's, so the table never stalls."""
        if action.seat == seat and action in live.state.legal_actions(seat):
            return action
        self.fallbacks += 1
        log.error("game %s: computer chose %s, not legal now; the basic player decides", live.game.game_id, action)
        fallback = BasicPlayer().choose(live.state.view(seat), random.Random(0))
        return fallback if fallback is not None else live.state.legal_actions(seat)[0]

    async def think(self, level: str, view: View, seed: int) -> Action | None:
        """A computer player's decision, computed off the event loop (a worker process by default)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, decide, level, view, seed, self.computer_budget)
        except Exception:  # never let a seat stall: the heuristics always have an answer
            self.fallbacks += 1
            log.exception("computer player %s failed; the basic player decides", level)
            return BasicPlayer().choose(view, random.Random(seed))

    # --- turn timers ------------------------------------------------------------------------------------

    def stop_timer(self, game_id: int) -> None:
        for handle in self._timers.pop(game_id, []):
            handle.cancel()
        reminder = self._reminders.pop(game_id, None)
        if reminder is not None:  # the turn is over: its reminder goes
            self._spawn(self._delete(*reminder))

    async def _delete(self, chat_id: int, message_id: int) -> None:
        await self.publisher.delete(chat_id, message_id)

    def arm_timer(self, live: Live, elapsed: float = 0.0) -> None:
        """Time the turn of the person to move (chat setting ``turn_timer``, 0: off): a reminder at half
        time, and on expiry the computer player moves for him."""
        game_id = live.game.game_id
        self.stop_timer(game_id)
        seat = live.state.to_move
        seconds = live.settings.turn_timer * self.timer_scale
        if seconds <= 0 or seat is None or live.level_of(seat) is not None or live.user_of(seat) is None:
            return
        loop = asyncio.get_running_loop()
        version = live.version
        handles = [loop.call_later(max(seconds - elapsed, 0), self._fire, self.expire, game_id, seat, version)]
        if elapsed < seconds / 2:
            left = live.settings.turn_timer - live.settings.turn_timer // 2
            handles.append(
                loop.call_later(seconds / 2 - elapsed, self._fire, self.remind, game_id, seat, version, left)
            )
        self._timers[game_id] = handles

    def _fire(self, handler: Any, *args: Any) -> None:
        self._spawn(handler(*args))

    async def remind(self, game_id: int, seat: int, version: int, left: int) -> None:
        async with self.locks[game_id]:
            live = self.live.get(game_id)
            user = live.user_of(seat) if live else None
            if live is None or user is None or live.version != version or live.state.to_move != seat:
                return
            text = t(live.lang_of(seat), "timer.reminder", chat=escape(live.seating.chat_title), seconds=left)
            message_id = await self.publisher.send(user, text, notify=True)
            if message_id is not None:
                self._reminders[game_id] = (user, message_id)

    async def expire(self, game_id: int, seat: int, version: int) -> None:
        """The turn ran out: the computer player moves for the person; after two in a row it keeps his seat
        until he taps "I'm back"."""
        async with self.locks[game_id]:
            live = self.live.get(game_id)
            if live is None or live.version != version or live.state.to_move != seat or live.level_of(seat):
                return
            level = live.settings.computer_level
            view = live.state.view(seat)
        action = await self.think(level, view, live.game.seed ^ (version << 3) ^ seat)
        async with self.locks[game_id]:
            live = self.live.get(game_id)
            if live is None or live.version != version or action is None:
                return
            action = self.checked(live, seat, action)
            timeouts = live.seats[seat].timeouts + 1
            name = live.seating.name(seat)
            missed = live.seats[seat].model_copy(
                update={"timeouts": timeouts, "stand_in": level if timeouts >= 2 else None}
            )
            await self.act(live, action, None, missed)
            key = "timer.away" if timeouts >= 2 else "timer.expired"
            await self.publisher.send(live.game.chat_id, t(live.chat_lang, key, name=name, count=timeouts))

    async def stand_in(self, live: Live, seat: int, key: str) -> None:
        """A computer player takes an absent person's seat (kick, blocked bot, left the group); the group is
        told with message ``key`` (called under the game's lock)."""
        if live.level_of(seat) is not None or live.user_of(seat) is None:
            return
        level = live.settings.computer_level
        name = live.seating.name(seat)
        await self.storage.games.set_stand_in(live.game.game_id, seat, level, live.seats[seat].timeouts)
        live.seats[seat] = live.seats[seat].model_copy(update={"stand_in": level})
        self.show_table(live)
        self.show_hand(live, seat)
        await self.publisher.send(live.game.chat_id, t(live.chat_lang, key, name=name))
        self.after_change(live)

    async def come_back(self, game_id: int, user_id: int) -> str | None:
        """ "I'm back": the person takes his seat from the computer player again."""
        async with self.locks[game_id]:
            live = await self.get_live(game_id)
            if live is None:
                return t("en", "press.over")
            seat = live.seat_of(user_id)
            if seat is None:
                return t(live.chat_lang, "press.not_yours")
            if live.seats[seat].stand_in is None:
                return t(live.lang_of(seat), "press.not_away")
            await self.storage.games.set_stand_in(game_id, seat, None, 0)
            live.seats[seat] = live.seats[seat].model_copy(update={"stand_in": None, "timeouts": 0})
            self.show_table(live)
            await self.resend_hand(live, seat)
            await self.publisher.send(live.game.chat_id, t(live.chat_lang, "seat.back", name=live.seating.name(seat)))
            self.after_change(live)
        return None

    # --- what the chats see -----------------------------------------------------------------------------

    def show_table(self, live: Live) -> None:
        if live.game.table_message_id is None:
            return
        self.publisher.edit(live.game.chat_id, live.game.table_message_id, self.table_text(live))

    def show_hand(self, live: Live, seat: int) -> None:
        user = live.user_of(seat)
        message_id = live.seats[seat].hand_message_id if seat < len(live.seats) else None
        if user is None or message_id is None:
            return
        self.publisher.edit(user, message_id, *self.hand(live, seat))

    @staticmethod
    def hand(live: Live, seat: int) -> Rendered:
        """The seat's hand message as it stands: his view, his chosen cards, "I'm back" while away."""
        return render_hand(
            live.state.view(seat),
            live.seating,
            live.lang_of(seat),
            game_id=live.game.game_id,
            version=live.version,
            selection=live.selection.get(seat, frozenset()),
            away=live.seats[seat].stand_in is not None,
        )

    def schedule_ping(self, game_id: int, seat: int, version: int) -> None:
        """Notify a player whose turn came, unless he moves within ``turn_ping`` seconds (a player who is
        watching needs no notification, and an edit costs one call where a notification costs two)."""
        key = (game_id, seat)
        if (old := self._pings.pop(key, None)) is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._pings[key] = loop.call_later(self.turn_ping, self._fire, self.ping, game_id, seat, version)

    async def ping(self, game_id: int, seat: int, version: int) -> None:
        self._pings.pop((game_id, seat), None)
        async with self.locks[game_id]:
            live = self.live.get(game_id)
            if live is None or live.version != version or live.state.to_move != seat:
                return
            user = live.user_of(seat)
            if user is not None and self.publisher.busy(user):
                # His hand has not even reached him yet (flood limits): count the delay from its delivery.
                self.schedule_ping(game_id, seat, version)
                return
            await self.resend_hand(live, seat)

    async def close(self) -> None:
        """Cancel pending turn notifications (on shutdown)."""
        for handle in self._pings.values():
            handle.cancel()
        self._pings.clear()
        for game_id in list(self._timers):
            self.stop_timer(game_id)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def resend_hand(self, live: Live, seat: int, *, notify: bool = True) -> None:
        """Move the hand message down with a notification: the player's turn has come."""
        user = live.user_of(seat)
        if user is None:
            return
        old = live.seats[seat].hand_message_id
        if old is not None:
            await self.publisher.delete(user, old)
        message_id = await self.publisher.send(user, *self.hand(live, seat), notify=notify)
        await self.storage.games.set_hand_message(live.game.game_id, seat, message_id, live.state.deal_no)
        live.seats[seat] = live.seats[seat].model_copy(
            update={"hand_message_id": message_id, "hand_deal_no": live.state.deal_no}
        )

    async def open_deal(self, live: Live, *, resume: bool = False) -> None:
        """Post the table of the current deal and each hand (or, on resume, bring them up to date)."""
        state = live.state
        game = live.game
        if resume and game.table_message_id is not None and game.table_deal_no == state.deal_no:
            self.show_table(live)
        else:
            message_id = await self.publisher.send(game.chat_id, self.table_text(live))
            await self.storage.games.set_table_message(game.game_id, message_id, state.deal_no)
            live.game = game.model_copy(update={"table_message_id": message_id, "table_deal_no": state.deal_no})
        for seat in range(state.num_players):
            current = live.seats[seat]
            if resume and current.hand_message_id is not None and current.hand_deal_no == state.deal_no:
                self.show_hand(live, seat)
            else:
                await self.resend_hand(live, seat, notify=seat == state.to_move)

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

    async def announce(self, live: Live, deal_count_before: int) -> None:
        """A deal has ended: close its table and hand messages; at the end of the series post the last result
        and the outcome (a continuing series shows the result at the head of the next table message)."""
        state = live.state
        game = live.game
        lang = live.chat_lang
        if deal_count_before < len(state.deals):
            finished = state.deals[-1].deal_no + 1
            for seat in range(len(live.seats)):
                user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
                stale = live.seats[seat].hand_deal_no != state.deal_no or state.is_over
                if user is not None and message_id is not None and stale:
                    closed = render_hand_closed(finished, live.lang_of(seat), state.is_over)
                    self.publisher.edit(user, message_id, closed)
            if game.table_message_id is not None and (game.table_deal_no != state.deal_no or state.is_over):
                closed = self.prelude(live, finished - 1) + t(lang, "hand.deal_over", deal=finished)
                self.publisher.edit(game.chat_id, game.table_message_id, closed)
        announced = len(state.deals)
        if state.outcome is not None and deal_count_before <= len(state.deals):
            parts = [render_deal_result(r, game.variant, live.seating, lang) for r in state.deals[deal_count_before:]]
            parts.append(render_outcome(state.outcome, game.variant, live.seating, lang))
            await self.publisher.send(game.chat_id, "\n\n".join(parts))
            announced += 1
        await self.storage.games.set_announced_deals(game.game_id, announced)
        live.game = game.model_copy(update={"announced_deals": announced})

    # --- /cancel, /kick, /settings, /stats ----------------------------------------------------------------

    async def cancel(self, chat_id: int, person: Person, is_admin: bool) -> Rendered:
        """/cancel: the creator or an admin ends the game at once; anyone seated opens (or joins) a vote
        that a majority of the seated people decides."""
        lang = await self.chat_lang(chat_id)
        game = await self.storage.games.open_game(chat_id)
        if game is None:
            return t(lang, "cancel.nothing"), None
        await self.person(person)
        async with self.locks[game.game_id]:
            if person.user_id == game.creator_id or is_admin:
                key = "cancel.done" if game.status == "active" else "cancel.lobby_done"
                await self.end_game(game, t(lang, key, name=escape(person.name)))
                return t(lang, key, name=escape(person.name)), None
            return (await self.vote(game, person.user_id, lang))[1]

    async def cancel_vote_press(self, game_id: int, person: Person) -> tuple[str | None, Rendered | None]:
        """A press on "Cancel the game (k/n)": an alert, and the vote message's new text."""
        await self.person(person)
        async with self.locks[game_id]:
            game = await self.storage.games.get(game_id)
            lang = await self.chat_lang(game.chat_id) if game else "en"
            if game is None or game.status not in ("lobby", "active"):
                return t(lang, "cancel.vote_over"), (t(lang, "cancel.vote_over"), None)
            if person.user_id in game.cancel_votes:
                return t(lang, "cancel.already_voted"), None
            outcome, rendered = await self.vote(game, person.user_id, lang)
            if outcome == "refused":
                return rendered[0], None
            return (t(lang, "cancel.voted") if outcome == "counted" else None), rendered

    async def vote(self, game: GameRow, user_id: int, lang: str) -> tuple[str, Rendered]:
        """Count one seated person's vote to cancel (under the game's lock): ``"refused"``, ``"counted"`` or
        ``"ended"`` (a majority: the game is cancelled), with the message to show."""
        people = [s.user_id for s in await self.storage.games.seats(game.game_id) if s.user_id is not None]
        if user_id not in people:
            return "refused", (t(lang, "cancel.not_seated"), None)
        votes = [*game.cancel_votes, user_id] if user_id not in game.cancel_votes else list(game.cancel_votes)
        needed = len(people) // 2 + 1
        if len(votes) >= needed:
            await self.end_game(game, t(lang, "cancel.by_vote"))
            return "ended", (t(lang, "cancel.by_vote"), None)
        await self.storage.games.set_cancel_votes(game.game_id, votes)
        proposer = await self.storage.players.get(votes[0])
        return "counted", render_cancel_vote(
            game.game_id,
            proposer=proposer.name if proposer else "?",
            votes=len(votes),
            needed=needed,
            total=len(people),
            lang=lang,
        )

    async def end_game(self, game: GameRow, notice: str | None) -> None:
        """Cancel a lobby or a running game (under the game's lock): its results are kept, marked cancelled;
        the table, hands and lobby lose their buttons.  ``notice`` None: the group can no longer be written
        to (the bot was removed from it), so only the hands are closed, saying why."""
        await self.storage.games.cancel(game)
        self.stop_timer(game.game_id)
        live = self.live.pop(game.game_id, None)
        if notice is not None and game.lobby_message_id is not None and game.status == "lobby":
            self.publisher.edit(game.chat_id, game.lobby_message_id, notice)
        if live is None:
            return
        if notice is not None and live.game.table_message_id is not None:
            self.publisher.edit(live.game.chat_id, live.game.table_message_id, self.table_text(live) + "\n\n" + notice)
        for seat in range(len(live.seats)):
            user, message_id = live.user_of(seat), live.seats[seat].hand_message_id
            if user is not None and message_id is not None:
                lang = live.lang_of(seat)
                closed = render_hand_closed(live.state.deal_no + 1, lang, True) if notice else t(lang, "bot.closed")
                self.publisher.edit(user, message_id, closed)

    async def kick(self, chat_id: int, actor: Person, target: int | None, is_admin: bool) -> Rendered:
        """/kick: hand an absent person's seat to a computer player (the creator or an admin)."""
        lang = await self.chat_lang(chat_id)
        game = await self.storage.games.open_game(chat_id)
        if game is None or game.status != "active":
            return t(lang, "kick.nothing"), None
        if actor.user_id != game.creator_id and not is_admin:
            return t(lang, "kick.not_allowed"), None
        async with self.locks[game.game_id]:
            live = await self.get_live(game.game_id)
            if live is None:
                return t(lang, "kick.nothing"), None
            if target is None:
                present = [s for s in range(len(live.seats)) if live.user_of(s) is not None and not live.level_of(s)]
                return render_kick_choices(game.game_id, live.seating, present, lang)
            seat = live.seat_of(target)
            if seat is None:
                return t(lang, "kick.not_seated"), None
            if live.level_of(seat):
                return t(lang, "kick.already"), None
            await self.stand_in(live, seat, "seat.kicked")
        return "", None

    async def kick_press(self, game_id: int, seat: int, actor: Person, is_admin: bool) -> str | None:
        game = await self.storage.games.get(game_id)
        if game is None:
            return t("en", "press.bad")
        user = next((s.user_id for s in await self.storage.games.seats(game_id) if s.seat == seat), None)
        text, _ = await self.kick(game.chat_id, actor, user if user is not None else 0, is_admin)
        return text or None

    async def absent(self, chat_id: int | None, user_id: int, key: str) -> None:
        """A person can no longer play (blocked the bot, left the group): computer players take his seats in
        the running games (of this chat, or of every chat)."""
        for game_id, live in list(self.live.items()):
            if chat_id is not None and live.game.chat_id != chat_id:
                continue
            async with self.locks[game_id]:
                seat = live.seat_of(user_id)
                if seat is not None and self.live.get(game_id) is live:
                    await self.stand_in(live, seat, key)

    async def welcome_back(self, user_id: int) -> None:
        """A person (re)started the bot in private: his hands in running games where a computer holds his
        seat come again, with the "I'm back" button."""
        for game_id, live in list(self.live.items()):
            seat = live.seat_of(user_id)
            if seat is None or live.seats[seat].stand_in is None:
                continue
            async with self.locks[game_id]:
                if self.live.get(game_id) is live:
                    await self.resend_hand(live, seat)

    def _blocked(self, user_id: int) -> None:
        self._spawn(self.player_blocked(user_id))

    async def player_blocked(self, user_id: int) -> None:
        """A person blocked the bot (403 in his private chat): his seats go to computer players."""
        await self.storage.players.set_can_message(user_id, False)
        await self.absent(None, user_id, "seat.blocked")

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: its open game ends (cancelled), nothing more is sent there."""
        game = await self.storage.games.open_game(chat_id)
        if game is None:
            return
        async with self.locks[game.game_id]:
            await self.end_game(game, None)

    async def settings_menu(self, chat_id: int) -> Rendered:
        chat = await self.storage.chats.ensure(chat_id)
        return render_settings(chat.settings, chat.title, pick_language(chat.settings.language))

    async def may_configure(self, chat_id: int, user_id: int, is_admin: bool) -> bool:
        """A chat admin, or the creator of the chat's open game."""
        if is_admin:
            return True
        game = await self.storage.games.open_game(chat_id)
        return game is not None and game.creator_id == user_id

    async def change_setting(self, chat_id: int, key: str, value: str) -> Rendered | None:
        chat = await self.storage.chats.ensure(chat_id)
        settings = apply_setting(chat.settings, key, value)
        if settings is None:
            return None
        await self.storage.chats.save_settings(chat_id, settings)
        for live in self.live.values():  # the timer and computer level apply from the next turn
            if live.game.chat_id == chat_id:
                live.settings = settings
        return render_settings(settings, chat.title, pick_language(settings.language))

    async def stats(self, user_id: int, lang: str) -> str:
        return await self.records.stats(user_id, lang)

    # --- /score -----------------------------------------------------------------------------------------

    async def score(self, chat_id: int, lang: str) -> str:
        lines: list[str] = []
        game = await self.storage.games.open_game(chat_id)
        if game is not None and game.status == "active":
            live = await self.get_live(game.game_id)
            if live is not None:
                state = live.state
                lines.append(t(lang, "score.current", game=game_title(game.variant, lang), deal=state.deal_no + 1))
                lines += [deal_line(d, game.variant, live.seating, lang) for d in state.deals[-15:]]
                lines.append(score_line(state.view(None), live.seating, lang))
                lines.append("")
        lines += await self.records.all_time(chat_id, lang)
        return "\n".join(lines).strip() or t(lang, "score.none")
