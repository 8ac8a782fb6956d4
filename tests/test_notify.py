"""What the notifier asks of the publisher, without Telegram: whose hand is edited how urgently."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from bot.clock import Clock
from bot.delivery.notify import Notifier
from bot.delivery.outbox import Priority
from bot.delivery.publisher import Publisher
from bot.usecases.events import Applied, Event, Pressed, Say
from bot.usecases.pings import WATCHING
from tests.test_table import started, user
from tests.usecases import bench


async def test_F10_a_hand_that_may_act_out_of_turn_is_as_urgent_as_a_turn_and_idle_hands_wait(tmp_path: Path) -> None:
    """After a move: the mover's own hand is edited first, then the hand of every player who may act now (his
    turn, or out of turn: a molodka in four-card Kozel, F10), and last the hands of players who
    may not act, which only follow the table (the budget may shed those: his turn's edit shows the same)."""
    async with bench(tmp_path) as b:
        shown: list[tuple[int, Priority]] = []
        notifier = Notifier(b.storage, Publisher.__new__(Publisher), b.games, Clock(b.tasks), 5.0)

        def show_hand(live: Any, seat: int, priority: Priority = Priority.MESSAGE, since: float | None = None) -> None:
            shown.append((seat, priority))

        notifier.show_hand = show_hand  # type: ignore[method-assign]
        notifier.table.show = lambda live: None  # type: ignore[method-assign]
        rng = random.Random(3)
        out_of_turn = series = 0
        while not out_of_turn and series < 20:  # a molodka (F10) now and then lets a player act out of turn
            live = await started(b, "four_card", 4)
            series += 1
            while not live.state.is_over:
                action = rng.choice([a for s in range(4) for a in live.state.legal_actions(s)])
                async with b.games.lock(live.game_id):
                    events = await b.table.act(live, action, user(action.seat))
                applied = [e for e in events if isinstance(e, Applied)]
                if not applied:
                    continue
                shown.clear()
                await notifier.tell([Pressed(live, action.seat), *applied])
                assert shown, "a move changed no hand"
                for seat, kind in shown:
                    if seat == action.seat:
                        assert kind is Priority.OWN_HAND
                    elif live.state.legal_actions(seat):
                        assert kind is Priority.TURN_HAND, (seat, kind)
                        out_of_turn += seat != live.state.to_move
                    else:
                        assert kind is Priority.HAND, (seat, kind)
        assert out_of_turn, "no move left a player able to act out of turn: the test saw nothing"


class FakeClock:
    def __init__(self) -> None:
        self.at = 1000.0

    def now(self) -> float:
        return self.at

    def monotonic(self) -> float:
        return self.at


def test_a_player_who_pressed_lately_is_notified_later_unless_every_turn_is_notified_at_once() -> None:
    clock = FakeClock()
    never = cast(Any, None)

    def notifier(turn_ping: float) -> Notifier:
        return Notifier(never, never, never, cast(Clock, clock), turn_ping, turn_ping_watching=20.0)

    for ping, watching in ((5.0, 20.0), (0.0, 0.0)):  # 0: every turn notified at once, however he pressed
        n = notifier(ping)
        assert n.pings.delay(1, 2) == ping  # never pressed: away
        n.pings._pressed_at[(1, 2)] = clock.now()
        assert n.pings.delay(1, 2) == watching
        assert n.pings.delay(1, 3) == ping  # another seat
        clock.at += WATCHING
        assert n.pings.delay(1, 2) == ping  # a minute later he counts as away again
        n.pings.forget_presses(1)
        assert not n.pings._pressed_at


async def test_tell_soon_frees_the_caller_keeps_each_games_order_and_counts_what_failed() -> None:
    """A handler that stored a change is done at once (``tell_soon``), however long Telegram's budget makes
    the telling wait (handlers held meanwhile left none free for the next taps at 1,000 tables); one game's
    tellings still follow each other in order, and one that raises is logged and counted, not lost silently."""
    never, games = cast(Any, None), cast(Any, SimpleNamespace(get=lambda game_id: None))  # no game is live
    notifier = Notifier(never, never, games, cast(Clock, FakeClock()), 5.0)
    told: list[str] = []
    release = asyncio.Event()

    async def one_event(event: Any, pressed: set[int], since: float) -> None:
        if event.text == "slow":
            await release.wait()  # a send waiting for the budget
        if event.text == "bad":
            raise RuntimeError("a telling that fails")
        told.append(event.text)

    notifier._one_event = one_event  # type: ignore[method-assign]
    for text in ("slow", "a", "bad", "b"):  # one game's (its lobby, 7)
        events: list[Event] = [Say(-1, text, lobby_of=7)]
        await asyncio.wait_for(notifier.background.tell_soon(events), 0.5)  # returns while "slow" waits
    await asyncio.sleep(0.05)
    assert told == []  # the rest of the game waits behind its first telling
    release.set()
    await asyncio.wait_for(notifier.background.told(), 1)
    assert told == ["slow", "a", "b"] and notifier.background.failed == 1
