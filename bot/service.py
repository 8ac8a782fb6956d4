"""The game service: lobbies, presses and what each chat is shown, between the handlers and storage.

Every accepted action is committed to SQLite before anything about it is sent.  One lock per game makes
two presses at once apply one after the other; the second finds the state moved on and is refused as stale.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from bot.callbacks import GamePress
from bot.i18n import pick_language, t
from bot.publisher import Publisher
from bot.render import (
    LobbySeat,
    Seating,
    deal_line,
    game_title,
    render_deal_result,
    render_hand,
    render_hand_closed,
    render_lobby,
    render_outcome,
    render_table,
    score_line,
)
from engine import Action, Card, EngineError, GameState, find_variant
from storage import GameRow, OpenGameExistsError, PlayerRow, SeatRow, SeatTakenError, Storage

log = logging.getLogger(__name__)

ALIASES: dict[str, str] = {
    "four_card": "four_card",
    "4": "four_card",
    "four": "four_card",
    "4card": "four_card",
    "yard": "four_card",
    "четыре": "four_card",
    "4карты": "four_card",
    "классика": "classic",
    "classic": "classic",
    "klassik": "classic",
    "классический": "classic",
    "czech": "czech",
    "cz": "czech",
    "чешский": "czech",
    "чех": "czech",
    "cesky": "czech",
    "český": "czech",
}


def variant_from_text(text: str | None, default: str) -> str | None:
    if not text:
        return default
    return ALIASES.get(text.strip().lower().replace("-", "_").replace(" ", ""))


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
    seating: Seating
    chat_lang: str
    selection: dict[int, frozenset[Card]] = field(default_factory=dict)

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


class GameService:
    def __init__(
        self, storage: Storage, publisher: Publisher, bot_username: str, lobby_ttl: float, turn_ping: float = 5.0
    ) -> None:
        self.storage = storage
        self.publisher = publisher
        self.bot_username = bot_username
        self.lobby_ttl = lobby_ttl
        self.turn_ping = turn_ping
        self.live: dict[int, Live] = {}
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pings: dict[tuple[int, int], asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

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
            for s in seats
            if s.user_id is not None
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
            capacity = 4 if game.variant != "czech" else 6
            free = [s for s in range(capacity) if s not in taken]
            if not free:
                return t(lang, "lobby.full")
            try:
                await self.storage.games.take_seat(game_id, free[0], user_id=person.user_id)
            except SeatTakenError:
                return t(lang, "join.already", chat=title)
            await self.storage.games.touch(game_id)
        await self.refresh_lobby(game_id)
        return t(lang, "join.done", game=game_title(game.variant, lang), chat=title)

    async def lobby_press(self, game_id: int, op: str, person: Person, is_admin: bool) -> str | None:
        """Leave / Start / Cancel / sit at seat N.  Returns an alert text, or None."""
        async with self.locks[game_id]:
            game = await self.storage.games.get(game_id)
            lang = await self.chat_lang(game.chat_id) if game else "en"
            if game is None or game.status != "lobby":
                return t(lang, "lobby.gone")
            seats = await self.storage.games.seats(game_id)
            mine = next((s for s in seats if s.user_id == person.user_id), None)
            if op == "leave":
                if mine is None:
                    return t(lang, "lobby.not_seated")
                await self.storage.games.leave_seat(game_id, mine.seat)
                alert: str | None = t(lang, "lobby.left")
            elif op.startswith("seat"):
                seat = int(op.removeprefix("seat"))
                if mine is None:
                    return t(lang, "lobby.not_seated")
                if any(s.seat == seat for s in seats) or game.variant == "czech" or seat > 3:
                    return t(lang, "lobby.seat_taken")
                await self.storage.games.leave_seat(game_id, mine.seat)
                await self.storage.games.take_seat(game_id, seat, user_id=person.user_id)
                alert = t(lang, "lobby.moved", seat=seat + 1)
            else:
                if person.user_id != game.creator_id and not is_admin:
                    creator = await self.storage.players.get(game.creator_id or 0)
                    return t(lang, "lobby.only_creator", name=creator.name if creator else "?")
                if op == "cancel":
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
        if game.variant == "czech":
            return None if 3 <= count <= 6 else t(lang, "lobby.need_players_czech", count=count)
        if count != 4:
            return t(lang, "lobby.need_players_team", game=game_title(game.variant, lang), count=count)
        return None

    async def start(self, game: GameRow, seats: Sequence[SeatRow], lang: str) -> None:
        """Seat the players, deal, post the table and send every hand (called under the game's lock)."""
        await self.storage.games.reseat(game.game_id, [s.seat for s in seats])
        options = dict(game.options)
        if game.variant == "czech":
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
        names = tuple(players[s.user_id].name if s.user_id in players else "?" for s in seats)
        return Live(
            game=game,
            state=state,
            seats=list(seats),
            players=players,
            seating=Seating(names, chat.title if chat else ""),
            chat_lang=pick_language(chat.settings.language if chat else None),
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
            count += 1
        return count

    # --- presses ----------------------------------------------------------------------------------------

    async def press(self, press: GamePress, user_id: int) -> str | None:
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
            payload = press.payload
            if payload == "n":
                mine = live.state.legal_actions(seat)
                return t(lang, "press.not_playable" if mine else "press.not_your_turn")
            if payload == "c":
                live.selection.pop(seat, None)
                self.show_hand(live, seat)
                return None
            if payload.startswith("t") and live.game.variant == "four_card":
                return self.toggle(live, seat, payload[1:], lang)
            if payload.startswith("a"):
                try:
                    action = Action.decode(payload[1:])
                except EngineError:
                    return t(lang, "press.bad")
                if action.seat != seat:
                    return t(lang, "press.not_yours")
                if action not in live.state.legal_actions(seat):
                    self.show_hand(live, seat)
                    return t(lang, "press.illegal")
                await self.act(live, action, user_id)
                return None
            return t(lang, "press.bad")

    def toggle(self, live: Live, seat: int, code: str, lang: str) -> str | None:
        try:
            card = Card.from_code(int(code, 16))
        except (ValueError, EngineError):
            return t(lang, "press.bad")
        playable = {c for a in live.state.legal_actions(seat) for c in a.cards}
        if card not in live.state.hands[seat] or card not in playable:
            return t(lang, "press.not_playable")
        chosen = set(live.selection.get(seat, frozenset()))
        chosen ^= {card}
        live.selection[seat] = frozenset(chosen)
        self.show_hand(live, seat)
        return None

    async def act(self, live: Live, action: Action, user_id: int | None) -> None:
        """Apply, commit, then tell: the table, the hands that changed, and deal results."""
        state = live.state
        before_hands = [tuple(h) for h in state.hands]
        before_legal = {s for s in range(state.num_players) if state.legal_actions(s)}
        before_to_move = state.to_move
        before_deals = len(state.deals)
        before_version = live.version
        state.apply(action)
        try:
            await self.storage.games.record(live.game, state, user_id)
        except Exception:
            self.live.pop(live.game.game_id, None)  # the database is the truth: reload on the next press
            raise
        live.game = live.game.model_copy(
            update={"action_count": len(state.history), "deal_no": state.deal_no, "totals": list(state.totals)}
        )
        live.selection.clear()
        if len(state.deals) > before_deals or state.is_over:
            await self.announce(live, deal_count_before=before_deals)
            if state.is_over:
                self.live.pop(live.game.game_id, None)
            else:
                await self.open_deal(live)
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
        log.debug("game %s: %s applied at version %s", live.game.game_id, action, before_version)

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
        text, markup = render_hand(
            live.state.view(seat),
            live.seating,
            live.lang_of(seat),
            game_id=live.game.game_id,
            version=live.version,
            selection=live.selection.get(seat, frozenset()),
        )
        self.publisher.edit(user, message_id, text, markup)

    def schedule_ping(self, game_id: int, seat: int, version: int) -> None:
        """Notify a player whose turn came, unless he moves within ``turn_ping`` seconds (a player who is
        watching needs no notification, and an edit costs one call where a notification costs two)."""
        key = (game_id, seat)
        if (old := self._pings.pop(key, None)) is not None:
            old.cancel()

        def fire() -> None:
            task = asyncio.ensure_future(self.ping(game_id, seat, version))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._pings[key] = asyncio.get_running_loop().call_later(self.turn_ping, fire)

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
        text, markup = render_hand(
            live.state.view(seat), live.seating, live.lang_of(seat), game_id=live.game.game_id, version=live.version
        )
        message_id = await self.publisher.send(user, text, markup, notify=notify)
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
        for variant in ("four_card", "classic", "czech"):
            table = await self.storage.results.chat_table(chat_id, variant)
            if not table:
                continue
            lines.append(t(lang, "score.all_time", game=game_title(variant, lang)))
            for rank, line in enumerate(table[:20], 1):
                key = "score.all_time_czech_line" if variant == "czech" else "score.all_time_line"
                lines.append(
                    t(lang, key, rank=rank, name=escape(line.name), played=line.played, won=line.won,
                      lost=line.lost, points=line.table_points)
                )  # fmt: skip
            lines.append("")
        return "\n".join(lines).strip() or t(lang, "score.none")
