"""/stats as one SQL aggregate: it counts exactly what replaying every finished series would."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.present import presenter
from engine import GameState, Kind, find_variant, variant_names
from engine.registry import default_variant_name, samples
from engine.simulate import play_random
from storage import PlayerStats, Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "records.db")
    yield opened
    await opened.close()


async def finished_series(storage: Storage, variant: str, seed: int, players: int, *, finish: bool = True) -> None:
    """A series of random play by users 1…players (seated in order), committed move by move."""
    options = {"players": players} if len(find_variant(variant).players) > 1 else {}
    await storage.chats.ensure(-5, "Table", "group")
    for user in range(1, players + 1):
        await storage.players.upsert(user, f"P{user}", None, None)
    game = await storage.games.create(-5, variant, options, seed, 1)
    for seat in range(players):
        await storage.games.take_seat(game.game_id, seat, user_id=seat + 1)
    await storage.games.set_status(game.game_id, "active")
    row = await storage.games.get(game.game_id)
    assert row is not None
    state = find_variant(variant).new_game(seed, options)
    play_random(state, random.Random(seed), max_deals=None if finish else 1)
    await storage.games.record(row, state)
    if not finish:
        await storage.games.cancel((await storage.games.get(game.game_id)) or row)


def recount(variant: str, states: list[GameState], seat: int) -> PlayerStats:
    """What /stats counted before, from the engine's own record of each series."""
    kozel = presenter(variant).kozel_points
    won = lost = eggs = molodkas = kozels = 0
    for state in states:
        assert state.outcome is not None
        won += seat in state.outcome.winners
        lost += seat in state.outcome.losers
        eggs += sum(d.eggs for d in state.deals)
        molodkas += sum(1 for a in state.history if a.seat == seat and a.kind is Kind.MOLODKA)
        if kozel is not None:
            kozels += sum(1 for d in state.deals if d.points[seat] >= kozel)
    return PlayerStats(
        variant=variant, played=len(states), won=won, lost=lost, eggs=eggs, molodkas=molodkas, kozels=kozels
    )


async def test_player_stats_are_the_sum_over_his_finished_series(storage: Storage) -> None:
    plan = [(name, int(str(options.get("players", 4))), seed) for name, options in samples(every=True) for seed in (21, 22)]
    states: dict[str, list[GameState]] = {}
    for variant, players, seed in plan:
        await finished_series(storage, variant, seed, players)
        options = {"players": players} if len(find_variant(variant).players) > 1 else {}
        state = find_variant(variant).new_game(seed, options)
        play_random(state, random.Random(seed))
        states.setdefault(variant, []).append(state)
    await finished_series(storage, default_variant_name(), 99, 4, finish=False)  # cancelled: not counted
    kozels = {name: points for name in variant_names() if (points := presenter(name).kozel_points) is not None}
    counted = [recount(variant, played, seat) for variant, played in states.items() for seat in range(3)]
    assert any(c.kozels for c in counted) and any(c.molodkas for c in counted)  # the test sees some of each
    for seat in range(3):
        stats = {s.variant: s for s in await storage.results.player_stats(seat + 1, kozels)}
        assert stats == {variant: recount(variant, played, seat) for variant, played in states.items()}
    assert await storage.results.player_stats(42, kozels) == []
