"""Computer players at a running table: one driver task per game lets them act, one at a time, with a pause
so people can follow.  They think outside the game's lock (in a worker process by default); a decision
made for a state that has since moved on is dropped.

The engine is the judge of their choices too: a choice that fails or is refused is replaced by the basic
player's, logged at ERROR and counted in ``fallbacks`` (the end-to-end tests fail on any they did not ask
for).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from concurrent.futures import Executor

from bot.clock import Clock
from bot.usecases.live import Live, LiveGames
from bot.usecases.stored import once_stored
from bot.usecases.table import Table
from engine import Action, View
from engine.players import BasicPlayer, decide

log = logging.getLogger(__name__)


class Computers:
    def __init__(
        self,
        games: LiveGames,
        table: Table,
        clock: Clock,
        *,
        budget: float,
        pause: float,
        executor: Executor | None = None,
    ) -> None:
        self.games = games
        self.table = table
        self.clock = clock
        self.tasks = clock.tasks
        self.budget = budget  # the strong player's thinking time per decision
        self.pause = pause  # before each computer move
        self.executor = executor  # where they think (None: the loop's default thread pool)
        self.fallbacks = 0  # choices that failed or were refused, so the basic player chose instead
        self.decisions = 0  # choices asked of a computer player (its own seats, and turns a person let run out)
        self.on_decision: Callable[[float], None] | None = None  # told each decision's thinking time, in seconds
        self._drivers: dict[int, asyncio.Task[None]] = {}

    def drive(self, live: Live) -> None:
        """Make sure a task is letting the game's computer players act (one task per game)."""
        game_id = live.game_id
        task = self._drivers.get(game_id)
        if task is None or task.done():
            self._drivers[game_id] = self.tasks.spawn(self._drive(game_id))

    async def _drive(self, game_id: int) -> None:
        db = self.table.storage.db
        try:
            while await once_stored(db, lambda: self._step(game_id), lambda: self.games.reload(game_id)):
                pass
        finally:
            if self._drivers.get(game_id) is asyncio.current_task():
                del self._drivers[game_id]

    async def _step(self, game_id: int) -> bool:
        """One computer move (or a decision to wait); False when no computer has anything to decide."""
        await self.clock.sleep(self.pause)
        if self.games.get(game_id) is None:
            return False  # the game ended: its lock is gone and stays gone
        async with self.games.lock(game_id):
            live = self.games.get(game_id)
            turn = self.turn(live) if live is not None else None
            if live is None or turn is None:
                return False
            seat, level = turn
            version = live.version
            view = live.state.view(seat)
            seed = live.game.seed ^ (version << 3) ^ seat
        action = await self.think(level, view, seed)
        if not self.games.is_current(live):
            return False
        async with self.games.lock(game_id):
            if not self.games.is_current(live) or live.version != version or live.level_of(seat) is None:
                return self.games.is_current(live)
            if action is None:  # it waits: not asked again until the state moves on
                live.waited = {w for w in live.waited if w[1] == version} | {(seat, version)}
                return True
            events = await self.table.act(live, self.checked(live, seat, action), None)
        await self.table.tell(events)
        return True

    @staticmethod
    def turn(live: Live) -> tuple[int, str] | None:
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
        log.error("game %s: computer chose %s, not legal now; the basic player decides", live.game_id, action)
        fallback = BasicPlayer().choose(live.state.view(seat), random.Random(0))
        return fallback if fallback is not None else live.state.legal_actions(seat)[0]

    async def think(self, level: str, view: View, seed: int) -> Action | None:
        """A computer player's decision, computed off the event loop (a worker process by default)."""
        loop = asyncio.get_running_loop()
        self.decisions += 1
        started = self.clock.monotonic()
        try:
            decided = await loop.run_in_executor(self.executor, decide, level, view, seed, self.budget, self.clock.perf)
            if self.on_decision is not None:
                self.on_decision(self.clock.monotonic() - started)
            return decided
        except Exception:  # never let a seat stall: the heuristics always have an answer
            self.fallbacks += 1
            log.exception("computer player %s failed; the basic player decides", level)
            return BasicPlayer().choose(view, random.Random(seed))
