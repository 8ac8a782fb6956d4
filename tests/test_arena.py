"""The arena (bench/arena.py) never hides a player's failure: it counts it against the level and exits
non-zero."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from bench import arena
from engine import Action, find_variant, variant_names
from engine.compiled import solver
from engine.players import Player, find_player
from engine.players.expert import worth
from engine.registry import samples
from engine.state import View


@dataclass(frozen=True)
class Crasher:
    name: ClassVar[str] = "crasher"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        raise RuntimeError("boom")


@dataclass(frozen=True)
class Cheater:
    name: ClassVar[str] = "cheater"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        seat = view.seat if view.seat is not None else 0
        return Action.parse(f"{(seat + 1) % view.num_players} play AD")  # another seat's move


@dataclass(frozen=True)
class Sulker:
    name: ClassVar[str] = "sulker"

    def choose(self, view: View, rng: random.Random) -> Action | None:
        return None


@pytest.mark.parametrize("player", [Crasher(), Cheater(), Sulker()])
def test_a_failing_player_is_counted_and_the_deal_goes_on(player: Player, capsys: pytest.CaptureFixture[str]) -> None:
    state = find_variant("czech").new_game(3, {"players": 4})
    log = arena.Log()
    arena.advance(state, [player] * 4, random.Random(1), 1, log)
    assert len(state.deals) == 1
    assert log.failures[player.name] >= 8  # every card of its hand was a failure
    assert "FAILURE" in capsys.readouterr().err


def test_the_arena_exits_non_zero_on_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:

    def find(level: str, **kwargs: object) -> Player:
        return Crasher() if level == "crasher" else find_player(level)

    monkeypatch.setattr("bench.arena.find_player", find)
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    monkeypatch.setattr("sys.argv", ["arena", "--a", "crasher", "--b", "basic", "--deals", "2", "--games", "czech"])
    with pytest.raises(SystemExit, match="FAILED"):
        arena.main()


class _Inline:
    """A pool that runs its tasks in this process (so the monkeypatched player is seen)."""

    def Pool(self, jobs: int) -> _Inline:  # the name of multiprocessing's method
        return self

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, function: object, tasks: list[object], chunksize: int = 1) -> list[object]:
        return [function(t) for t in tasks]  # type: ignore[operator]


def test_runs_from_another_first_seed_play_other_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--seed`` starts at another shuffle, so two runs add up to more deals instead of repeating them."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    seeds: list[int] = []
    play_pair = arena.play_pair

    def spy(task: arena.Task) -> arena.PairResult:
        seeds.append(task[-1])
        return play_pair(task)

    monkeypatch.setattr("bench.arena.play_pair", spy)
    report = arena.arena(
        level_a="basic",
        level_b="random",
        deals=4,
        budget=None,
        worlds=None,
        iterations=None,
        jobs=1,
        games=["czech"],
        first_seed=7,
    )
    assert seeds == [7, 8]
    assert report[0]["seeds"] == [7, 8]
    assert report[0]["deals"] == 4


def test_level_b_may_have_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--budget-b``: a level against itself with more time, A's seats at ``--budget``, B's at its own."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    budgets: list[tuple[int, float | None]] = []

    def find(level: str, budget: float | None = None, **kwargs: object) -> Player:
        budgets.append((len(budgets) % 4, budget))
        return find_player("basic")

    monkeypatch.setattr("bench.arena.find_player", find)
    argv = "arena --a strong1 --b strong1 --budget 0.3 --budget-b 0.06 --deals 2 --games czech"
    monkeypatch.setattr("sys.argv", argv.split())
    arena.main()
    first, second = budgets[:4], budgets[4:8]  # the seats of the two tables: A even, then A odd
    assert first == [(0, 0.3), (1, 0.06), (2, 0.3), (3, 0.06)]
    assert second == [(0, 0.06), (1, 0.3), (2, 0.06), (3, 0.3)]


@pytest.mark.parametrize(("game", "options"), samples())
def test_the_all_seeing_player_plays_the_true_deal_legally(game: str, options: dict[str, object]) -> None:
    """The arena's upper bound plays from the true state: a deal of it against basic has no failure, and
    it never plays through the bot's ``find_player``."""
    state = find_variant(game).new_game(5, options)
    log = arena.Log()
    players: list[Player] = [arena.AllSeeing() if s % 2 == 0 else find_player("basic") for s in range(4)]
    arena.advance(state, players, random.Random(1), 1, log)
    assert len(state.deals) == 1 and not log.failures
    with pytest.raises(ValueError, match="unknown computer level"):
        find_player(arena.AllSeeing.name)


def test_the_all_seeing_player_takes_the_solvers_best_card_in_an_open_end_position() -> None:
    """In a classic end position the all-seeing player's card is one that the solver values best for its
    side."""
    state = find_variant("classic").new_game(8)
    rng = random.Random(8)
    while sum(map(len, state.hands)) > 12 or state.trick:
        state.apply(rng.choice(state.all_legal_actions()))
    seat = state.to_move
    assert seat is not None
    choice = arena.AllSeeing().choose_in(state, seat, rng)
    values = {}
    for action in state.legal_actions(seat):
        world = state.fork()
        world.apply(action)
        values[action] = worth(solver("classic"), world, seat, len(state.deals), waiting=False, same_world=False)
    assert choice is not None and values[choice] == max(values.values())


def test_the_arena_reports_series_points_beside_card_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """The series margin is in A's favour in every team game: basic against random gets fewer of four-card
    Kozel's defeat points (F14) and more of classic Kozel's series points (C13), so the margin is positive."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    report = arena.arena(
        level_a="basic",
        level_b="random",
        deals=60,
        budget=None,
        worlds=None,
        iterations=None,
        jobs=1,
        games=[name for name in variant_names() if find_variant(name).teams],
    )
    for game in report:
        assert {"a_series_margin", "a_series_margin_ci95", "a_margin"} <= set(game)
        assert game["a_margin"] > 0 and game["a_series_margin"] > 0, game
