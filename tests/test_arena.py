"""The arena (bench/arena.py) never hides a player's failure: it counts it against the level and exits
non-zero."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bench import arena, regret
from engine import Action, find_variant, variant_names
from engine.cards import Card
from engine.compiled import solver
from engine.players import Player, find_player
from engine.players.contract import nothing_unforeseen
from engine.players.expert import worth
from engine.players.worlds import Knowledge
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
    monkeypatch.setattr("sys.argv", ["arena", "--a", "crasher", "--b", "basic", "--shuffles", "1", "--games", "czech"])
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
        seeds.append(task.seed)
        return play_pair(task)

    monkeypatch.setattr("bench.arena.play_pair", spy)
    report = arena.arena(
        level_a="basic",
        level_b="random",
        shuffles=2,
        budget=None,
        worlds=None,
        iterations=None,
        jobs=1,
        games=["czech"],
        first_seed=7,
    )
    assert seeds == [7, 8]
    assert report[0]["seeds"] == [7, 8]
    assert report[0]["shuffles"] == 2 and report[0]["deals"] == 8  # four players: A alone in each seat


def test_level_b_may_have_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--budget-b``: a level against itself with more time, A's seats at ``--budget``, B's at its own."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    budgets: list[tuple[int, float | None]] = []

    def find(level: str, budget: float | None = None, **kwargs: object) -> Player:
        budgets.append((len(budgets) % 4, budget))
        return find_player("basic")

    monkeypatch.setattr("bench.arena.find_player", find)
    argv = "arena --a strong1 --b strong1 --budget 0.3 --budget-b 0.06 --shuffles 1 --games czech"
    monkeypatch.setattr("sys.argv", argv.split())
    arena.main()
    # each for himself: one table for each seat, A alone in it against B in the others
    assert [budgets[4 * table : 4 * table + 4] for table in range(4)] == [
        [(s, 0.3 if s == table else 0.06) for s in range(4)] for table in range(4)
    ]


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


@pytest.mark.parametrize("game", variant_names())
def test_the_ceiling_by_playouts_values_each_world_as_the_expert_does(game: str) -> None:
    """``ceiling-playout`` knows what the ceiling knows and values a world by ``expert.worth``: in a world
    with nothing left unseen, each candidate's value is the expert's valuation of the true deal after it, and
    in every game, where the thorough valuation is another one early in a deal, some value of it differs from
    the ceiling's."""
    variant = find_variant(game)
    game_solver = solver(game)
    differs = False
    for seed in range(10):
        state = variant.new_game(seed, variant.samples[0])
        rng = random.Random(seed)
        for _ in range(6):  # past the first trick's announcements (C6, C7), into play
            state.apply(rng.choice(state.all_legal_actions()))
        seat = state.to_move
        assert seat is not None
        by_playouts = arena.CeilingByPlayouts(reshuffles=1).values(state, seat, random.Random(1))
        differs |= by_playouts != arena.Ceiling(reshuffles=1).values(state, seat, random.Random(1))
        if variant.computer.unforeseen is nothing_unforeseen:
            for option, value in by_playouts.items():
                world = state.fork()
                if option is not None:
                    world.apply(option)
                assert value == worth(game_solver, world, seat, len(state.deals), waiting=option is None, same_world=False)
    assert differs
    played = arena.make_player("ceiling-playout", budget=0.5, max_worlds=None, iterations=None)
    assert played == arena.CeilingByPlayouts(reshuffles=None, budget=0.5)


def test_the_arena_reports_series_points_beside_card_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """The series margin is in A's favour in every team game: basic against random gets fewer of four-card
    Kozel's defeat points (F14) and more of classic Kozel's series points (C13), so the margin is positive."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    report = arena.arena(
        level_a="basic",
        level_b="random",
        shuffles=30,
        budget=None,
        worlds=None,
        iterations=None,
        jobs=1,
        games=[name for name in variant_names() if find_variant(name).teams],
    )
    for game in report:
        assert {"a_series_margin", "a_series_margin_ci95", "a_margin"} <= set(game)
        assert game["a_margin"] > 0 and game["a_series_margin"] > 0, game


UNFORESEEN = [n for n in variant_names() if find_variant(n).computer.unforeseen is not nothing_unforeseen]


@pytest.mark.parametrize("game", UNFORESEEN)
def test_the_ceiling_does_not_know_what_nobody_at_the_table_could(game: str) -> None:
    """The honest ceiling values each candidate over worlds whose unseen order (a stock's) is drawn afresh:
    two deals that differ only there get the same values; the all-seeing player's differ."""
    variant = find_variant(game)
    for seed in range(20):
        state = variant.new_game(seed, variant.samples[0])
        twin = state.fork()
        variant.computer.unforeseen(twin, random.Random(seed))
        if twin == state:
            continue
        seat = state.to_move
        assert seat is not None
        values = arena.Ceiling(reshuffles=3).values(state, seat, random.Random(1))
        assert values == arena.Ceiling(reshuffles=3).values(twin, seat, random.Random(1))
        if arena.AllSeeing().values(state, seat, random.Random(1)) != arena.AllSeeing().values(
            twin, seat, random.Random(1)
        ):
            return
    pytest.fail("no deal where knowing the stock's order changed a value")


REFILLED = [n for n in variant_names() if find_variant(n).computer.unrevealed is not None]


def test_some_game_refills_its_hands() -> None:
    assert REFILLED


@pytest.mark.parametrize("game", REFILLED)
def test_the_ceiling_of_inference_knows_what_the_others_chose_with_and_not_what_they_drew_since(game: str) -> None:
    """``ceiling-inference`` knows a hand as its owner last chose a play with it: before anybody has played
    every other hand is unknown to it; once a trick is over and the hands refilled, exactly the cards drawn
    are; a seat that has played since knows nothing hidden of him."""
    variant = find_variant(game)
    for seed in range(10):
        state = variant.new_game(seed, variant.samples[0])
        rng = random.Random(seed)
        start = state.to_move
        assert start is not None
        assert arena.not_chosen_with(state, start) == [
            frozenset() if s == start else frozenset(h) for s, h in enumerate(state.hands)
        ]
        before: dict[int, frozenset[Card]] = {}  # each seat's hand when he played to the first trick
        while not state.tricks_done:
            action = rng.choice(state.all_legal_actions())
            before[action.seat] = frozenset(state.hands[action.seat])
            state.apply(action)
        seat = state.to_move
        assert seat is not None
        unseen = arena.not_chosen_with(state, seat)
        for s, hand in enumerate(state.hands):
            drawn = frozenset(hand) - before[s] if s in before else frozenset(hand)
            assert unseen[s] == (frozenset() if s == seat else drawn)
        state.apply(next(a for a in state.legal_actions(seat)))
        assert arena.not_chosen_with(state, state.to_move or 0)[seat] == frozenset()


@pytest.mark.parametrize("game", REFILLED)
def test_the_ceiling_of_inference_deals_afresh_only_what_it_does_not_know(game: str) -> None:
    """In each of its worlds the unseen cards and the stock are dealt again, nothing else: every hand keeps
    its size and its known cards, the deciding seat's hand and the table stay, the shown trump card keeps its
    place, and the unseen cards do move.  Where nothing is unseen, its values are the ceiling's."""
    variant = find_variant(game)
    unrevealed = variant.computer.unrevealed
    assert unrevealed is not None
    moved = same = False
    for seed in range(12):
        state: Any = variant.new_game(seed, variant.samples[0])  # a game with a stock and a shown trump card
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 14)):
            state.apply(rng.choice(state.all_legal_actions()))
            if state.outcome is not None or len(state.deals) > 0:
                break
        seat = state.to_move
        if seat is None or len(state.deals) > 0:
            continue
        unseen = arena.not_chosen_with(state, seat)
        everything = sorted([*(c for h in state.hands for c in h), *state.stock])
        for k in range(5):
            world = state.fork()
            unrevealed(world, unseen, random.Random(k))
            assert sorted([*(c for h in world.hands for c in h), *world.stock]) == everything
            assert world.trick == state.trick and world.tricks_done == state.tricks_done
            assert world.hands[seat] == state.hands[seat]
            for s, hand in enumerate(world.hands):
                assert len(hand) == len(state.hands[s])
                assert set(state.hands[s]) - unseen[s] <= set(hand)
            shown = state.trump_card
            holder = state.trump_card_holder
            if shown is not None and holder is not None and shown in state.hands[holder]:
                assert shown in world.hands[holder]
            elif shown is not None and holder is None:
                assert world.stock.index(shown) == state.stock.index(shown)
            moved |= world.hands != state.hands
        values = arena.CeilingOfInference(reshuffles=3).values(state, seat, random.Random(1))
        if not any(unseen):
            same = True
            assert values == arena.Ceiling(reshuffles=3).values(state, seat, random.Random(1))
    assert moved and same
    played = arena.make_player("ceiling-inference", budget=0.5, max_worlds=None, iterations=None)
    assert played == arena.CeilingOfInference(reshuffles=None, budget=0.5)


@pytest.mark.parametrize("game", [n for n in variant_names() if n not in REFILLED])
def test_the_ceiling_of_inference_refuses_a_game_where_nobody_draws(game: str) -> None:
    variant = find_variant(game)
    state = variant.new_game(1, variant.samples[0])
    with pytest.raises(ValueError, match="refills no hand"):
        arena.CeilingOfInference(reshuffles=2).values(state, state.to_move or 0, random.Random(1))


@pytest.mark.parametrize("game", REFILLED)
def test_the_ceiling_of_inference_refuses_a_state_its_seed_does_not_lead_to(game: str) -> None:
    variant = find_variant(game)
    state = variant.new_game(1, variant.samples[0])
    state.hands[0], state.hands[1] = state.hands[1], state.hands[0]
    with pytest.raises(ValueError, match="does not come back"):
        arena.not_chosen_with(state, 2)


def test_the_expert_shown_the_discards_sees_them_and_nothing_else_it_may_not() -> None:
    """``expert-sees-discards`` plays the expert on the seat's view with the deal's face-down plays face up:
    its worlds hold the true discards, the view is otherwise the seat's, and it plays legally."""
    found = False
    for game in variant_names():
        variant = find_variant(game)
        for seed in range(6):
            state = variant.new_game(seed, variant.samples[0])
            rng = random.Random(seed)
            for _ in range(12):
                if state.outcome is not None or state.deals:
                    break
                seat = state.to_move
                assert seat is not None
                view, shown = state.view(seat), arena.discards_shown(state, seat)
                assert [p.cards for p in shown.deal_log] == [a.cards for a in state.history[state.deal_start :]]
                assert (shown.hand, shown.legal, shown.hand_sizes) == (view.hand, view.legal, view.hand_sizes)
                hidden = {c for a in state.history[state.deal_start :] if a.seat != seat for c in a.cards}
                hidden -= {c for p in view.deal_log for c in p.cards}
                if hidden:
                    found = True
                    assert not hidden & set(Knowledge(shown).unknown)
                    assert hidden & set(Knowledge(view).unknown)
                    player = arena.DiscardsSeen(find_player("expert", budget=None, max_worlds=4))
                    assert player.choose_in(state, seat, random.Random(1)) in view.legal
                state.apply(rng.choice(state.all_legal_actions()))
    assert found
    played = arena.make_player("expert-sees-discards", budget=0.5, max_worlds=None, iterations=None)
    assert played == arena.DiscardsSeen(find_player("expert", budget=0.5))


@pytest.mark.parametrize("game", UNFORESEEN)
def test_the_ceiling_in_play_values_as_many_worlds_as_a_level_s_budget_allows(game: str) -> None:
    """In the arena the ceiling has the levels' budget, not a fixed handful of worlds: on a clock that moves a
    second a reading, a 10 s budget stops it where ``FlatSearch`` would stop (9 worlds, the tenth would
    overrun 90 % of it), with exactly the values of 9 fixed worlds; a fixed number of worlds still holds."""
    variant = find_variant(game)
    state = variant.new_game(3, variant.samples[0])
    seat = state.to_move
    assert seat is not None
    readings: list[int] = []

    def clock() -> float:
        readings.append(1)
        return float(len(readings))

    budgeted = arena.Ceiling(reshuffles=None, budget=10.0, clock=clock).values(state, seat, random.Random(4))
    assert len(readings) == 1 + 9
    assert budgeted == arena.Ceiling(reshuffles=9).values(state, seat, random.Random(4))
    assert budgeted != arena.Ceiling(reshuffles=8).values(state, seat, random.Random(4))
    played = arena.make_player("ceiling", budget=0.5, max_worlds=None, iterations=None)
    assert played == arena.Ceiling(reshuffles=None, budget=0.5)
    assert arena.make_player("ceiling", budget=None, max_worlds=40, iterations=None) == arena.Ceiling(reshuffles=40)
    with pytest.raises(ValueError, match="number of worlds"):
        arena.Ceiling(reshuffles=None)


def test_the_log_holds_level_a_s_decisions_and_the_regret_tool_scores_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--log``: A's decisions with more than one choice, each candidate valued by the ceiling; bench.regret
    rebuilds each and scores a level's choice by what it loses against the ceiling's best (for the level that
    played them, exactly what the log says)."""
    monkeypatch.setattr("multiprocessing.get_context", lambda _: _Inline())
    log = tmp_path / "positions.jsonl"
    game = variant_names()[-1]
    arena.arena(level_a="basic", level_b="random", shuffles=1, budget=None, worlds=None, iterations=None, jobs=1,
                games=[game], log=log)  # fmt: skip
    positions = [json.loads(line) for line in log.read_text().splitlines()]
    assert positions
    for position in positions:
        assert position["chosen"] in position["candidates"] and len(position["candidates"]) > 1
        assert position["seat"] == position["table"] or find_variant(game).teams  # A alone in its seat
    report = regret.score(positions, "basic", None, None)
    assert report[0]["regret"] == report[0]["logged_regret"] >= 0 and report[0]["positions"] == len(positions)
    # Paired runs: each position's regret is written out, and a run against it is paired position by position.
    first = tmp_path / "basic.jsonl"
    regret.score(positions, "basic", None, None, tricks=1, out=first)
    rows = [json.loads(line) for line in first.read_text().splitlines()]
    assert rows and {row["trick"] for row in rows} == {1} and len(rows) < len(positions)
    again = regret.score(positions, "random", None, None, against=first)[0]
    assert again["paired"] == len(rows) and again["positions"] == len(positions)
    assert list(again["paired_by_trick"]) == ["1"] and again["paired_by_trick"]["1"][2] == len(rows)
    assert again["paired_by_trick"]["1"][0] == again["paired_difference"]
    same = regret.score(positions, "basic", None, None, against=first)[0]
    assert same["paired_difference"] == 0 and all(diff == 0 for diff, _, _ in same["paired_by_trick"].values())
