"""The table use case without Telegram: a press → the engine → a commit → the events, told outside the lock."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.callbacks import Clear, Lobby, LobbyOp, Play, Toggle, Unplayable
from bot.i18n import t
from bot.usecases.events import Applied, DealEnded, HandChanged, Pressed, SeriesEnded, TurnCame
from bot.usecases.live import Live, LiveGames
from engine.games.classic.rules import QUEEN_AND_SIX
from tests.usecases import CHAT, Bench, bench, no, people


async def started(b: Bench, variant: str, players: int) -> Live:
    seated = people(players)
    await b.lobbies.open(CHAT, variant, seated[0], "en")
    game = await b.storage.games.open_game(CHAT)
    assert game is not None
    for person in seated:
        await b.lobbies.join(game.game_id, "en", person)
    assert await b.lobbies.press(Lobby(game.game_id, LobbyOp.START), seated[0], no) is None
    b.told.take()
    live = b.games.get(game.game_id)
    assert live is not None
    return live


def user(seat: int) -> int:
    return seat + 1  # people(n) are users 1…n, seated in order


async def test_a_legal_press_is_committed_then_told(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        live = await started(b, "czech", 3)
        seat = live.state.to_move
        assert seat is not None
        action = live.state.legal_actions(seat)[0]
        assert await b.table.press(Play(live.game_id, live.version, action), user(seat)) is None
        row = await b.storage.games.get(live.game_id)
        assert row is not None and row.action_count == 1
        events = b.told.take()
        applied = next(e for e in events if isinstance(e, Applied))
        assert applied.action == action and seat in applied.seats
        came = [e for e in events if isinstance(e, TurnCame)]
        assert [e.seat for e in came] == ([live.state.to_move] if live.state.to_move not in (None, seat) else [])
        assert b.told.under_lock == 0


async def test_refused_presses_change_nothing(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        live = await started(b, "classic", 4)
        seat = live.state.to_move
        assert seat is not None
        other = (seat + 1) % 4
        action = live.state.legal_actions(seat)[0]
        stale = Play(live.game_id, live.version + 1, action)
        assert await b.table.press(stale, user(seat)) == t("en", "press.stale")
        assert b.told.take() == [Pressed(live, seat), HandChanged(live, seat)]  # his hand is shown anew
        assert await b.table.press(Play(live.game_id, 0, action), user(other)) == t("en", "press.not_yours")
        assert await b.table.press(Play(live.game_id, 0, action), 99) == t("en", "press.not_yours")
        card = live.state.hands[seat][0]
        assert await b.table.press(Toggle(live.game_id, 0, card), user(seat)) == t("en", "press.bad")  # classic
        unplayable = await b.table.press(Unplayable(live.game_id, 0), user(other))
        assert unplayable in (t("en", "press.not_your_turn"), t("en", "press.not_playable"))
        assert await b.table.press(Play(live.game_id, 0, action), user(seat)) is None
        assert live.version == 1
        assert await b.table.press(Play(live.game_id, 1, action), user(seat)) == t("en", "press.illegal")
        row = await b.storage.games.get(live.game_id)
        assert row is not None and row.action_count == 1


async def test_a_card_pressed_while_a_computer_holds_the_seat_says_to_come_back_first(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        live = await started(b, "czech", 3)
        seat = live.state.to_move
        assert seat is not None
        live.seats[seat] = live.seats[seat].model_copy(update={"stand_in": "basic"})
        action = live.state.legal_actions(seat)[0]
        assert await b.table.press(Play(live.game_id, live.version, action), user(seat)) == t("en", "press.away")
        row = await b.storage.games.get(live.game_id)
        assert row is not None and row.action_count == 0


async def test_cards_are_chosen_before_a_four_card_move(tmp_path: Path) -> None:
    """F7: a lead is one to four cards, chosen one by one, then played with the move button."""
    async with bench(tmp_path) as b:
        live = await started(b, "four_card", 4)
        seat = live.state.to_move
        assert seat is not None
        card = next(c for a in live.state.legal_actions(seat) for c in a.cards)
        assert await b.table.press(Toggle(live.game_id, 0, card), user(seat)) is None
        assert live.selection[seat] == frozenset({card}) and b.told.take() == [Pressed(live, seat), HandChanged(live, seat)]
        assert await b.table.press(Clear(live.game_id, 0), user(seat)) is None
        assert seat not in live.selection
        row = await b.storage.games.get(live.game_id)
        assert row is not None and row.action_count == 0


async def test_a_series_played_to_its_end_tells_every_deal_and_leaves_the_cache(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        live = await started(b, "czech", 3)
        ends = 0
        while not live.state.is_over:
            seat = next(s for s in range(3) if live.state.legal_actions(s))
            async with b.games.lock(live.game_id):
                events = await b.table.act(live, live.state.legal_actions(seat)[0], user(seat))
            ends += sum(isinstance(e, DealEnded) for e in events)
            assert len(live.state.deals) == ends + sum(isinstance(e, SeriesEnded) for e in events)
        assert isinstance(events[-1], SeriesEnded) and events[-1].deals_before == len(live.state.deals) - 1
        assert b.games.get(live.game_id) is None  # state, selection and lock dropped
        row = await b.storage.games.get(live.game_id)
        assert row is not None and row.status == "finished" and row.action_count == len(live.state.history)
        assert await b.table.press(Play(live.game_id, 0, live.state.history[0]), 1) == t("en", "press.over")


async def test_C12_a_deal_stopped_by_catching_the_queen_shows_its_trick_taken_by_nobody(tmp_path: Path) -> None:
    """Classic Kozel: the Q♣ and the 6♣ falling in one trick stop the deal at once, the trick unfinished or
    never taken (C12); the deal's last trick, told with the deal's end, is those cards, with no taker (before,
    nothing was shown, or the previous trick's taker)."""
    queen_and_six = set(QUEEN_AND_SIX)
    async with bench(tmp_path) as b:
        live = await started(b, "classic", 4)
        stopped = 0
        while not live.state.is_over and stopped < 3:
            seat = next(s for s in range(4) if live.state.legal_actions(s))
            legal = live.state.legal_actions(seat)
            eager = [a for a in legal if a.cards and a.cards[0] in queen_and_six]  # play them when allowed
            action = (eager or legal)[0]
            trick_before = tuple(live.state.trick)
            async with b.games.lock(live.game_id):
                events = await b.table.act(live, action, user(seat))
            ended = [e for e in events if isinstance(e, DealEnded | SeriesEnded)]
            if ended and "queen_caught" in live.state.deals[-1].events:
                stopped += 1
                assert ended[0].last_trick == (*trick_before, action)
                assert ended[0].winner is None
        assert stopped, "no deal was stopped by catching the queen: the test saw nothing"


async def test_a_lock_nobody_holds_goes_unless_its_game_runs(tmp_path: Path) -> None:
    """Issue 35: a press on a keyboard of a game long over takes the game's lock; it does not stay behind, or
    every game ever pressed after its end would keep one for the life of the process."""
    async with bench(tmp_path) as b:
        live = await started(b, "four_card", 4)
        async with b.games.lock(live.game_id):
            assert b.games.locked(live.game_id)
        assert live.game_id in b.games._locks  # a running game's lock stays
        async with b.games.lock(999):  # a game that is not running; another press waits behind this one
            waiting = asyncio.create_task(_hold(b.games, 999))
            await asyncio.sleep(0)
        await waiting
        assert 999 not in b.games._locks and not b.games._holders
        b.games.drop(live.game_id)
        assert live.game_id not in b.games._locks


async def _hold(games: LiveGames, game_id: int) -> None:
    async with games.lock(game_id):
        assert games.locked(game_id)
