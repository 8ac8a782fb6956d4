"""Computer players against each other, in duplicate format.

Every deal is played twice from the same shuffle: once with level A in the even seats and level B in the odd
ones, once the other way round, so the luck of the cards cancels out.  Reported per game, with 95 %
confidence intervals over the deal pairs: the share of deals A won (a deal is won when it was worth more to
A's side than to B's: card points and series points in team games, penalty points where each plays for
himself; a draw counts half), A's mean score margin (card points in the team games, penalty points in the
others) and A's mean margin of series points (positive when A's side gained on the series, as the game's
``series_margin`` counts).  The whole deck's order is the shuffle's, so a stock is drawn in the same order at
both tables.

    python -m bench.arena --a basic --b random --shuffles 1000
    python -m bench.arena --a strong --b strong1 --shuffles 150 --worlds 40 --iterations 160
    python -m bench.arena --a strong1 --b strong1 --budget 0.3 --budget-b 0.06 --shuffles 100  # what time buys
    python -m bench.arena --timing 100          # time per decision of the strong player at its budget
    python -m bench.arena --timing 100 --a strong1
    python -m bench.arena --a all-seeing --b strong1 --shuffles 100 --games classic   # the upper bound
    python -m bench.arena --a ceiling --b strong1 --shuffles 100 --games four_card  # the honest ceiling
    python -m bench.arena --a ceiling-playout --b strong1 --shuffles 100 --games four_card  # its knowledge alone
    python -m bench.arena --a ceiling-inference --b strong1 --shuffles 100 --games four_card  # inference's best
    python -m bench.arena --a expert-sees-discards --b strong1 --shuffles 100 --games four_card  # discards read

``all-seeing`` is the arena's own player, never a level of the bot: it plays from the true deal, every card
known (``AllSeeing``), so the share of its lead over ``strong1`` that ``expert`` makes up tells how much of
what can be gained by search the expert already has.

``--worlds`` fixes the samples of ``strong1`` and ``--iterations`` the tree walks of ``strong`` (by default
four per world), for reproducible matches; without them each decision has the budget (0.5 s), and
``--budget-b`` gives level B another one: a level against itself with more time measures what a faster
engine would buy (its decision times and playouts are then reported as one level's).  A player that
raises, chooses an illegal action or does not move on its turn is counted as a failure of its level (the
basic player moves in its place so the deal goes on), logged, and makes the arena exit non-zero.  The report
gives the playouts per searched decision and the decision time (mean, p99) per level.

Uses every core (``--jobs``).  Each game is played in its usual configuration (``Variant.samples``) and
measured on its typical deal (``Variant.typical_deal``): a game whose first deal has rules of its own has the
deals before played by the basic player for everybody.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from engine import Action, DealResult, GameState, Variant, clock, find_variant, variant_names
from engine.cards import Card
from engine.clock import perf
from engine.compiled import solver
from engine.players import Player, find_player
from engine.players.contract import Unforeseen, nothing_unforeseen
from engine.players.expert import worth
from engine.players.flat import out_of_time
from engine.players.search import STATS, candidates
from engine.state import SeenPlay, SeenTrick, View

Failures = dict[str, int]  # level -> exceptions, illegal choices and refusals to move
Times = dict[str, list[float]]  # level -> seconds per decision


@dataclass
class Log:
    failures: Failures = field(default_factory=dict)
    times: Times = field(default_factory=dict)


@dataclass(frozen=True)
class AllSeeing:
    """The arena's upper bound, never a level of the bot: it values each of its candidates in the true deal,
    every card known, with the thorough form of the expert's valuation (``expert.worth``: the game's exact
    solver, or its best response to the others' heuristics, after the heuristics only where even a
    measurement could not afford it).  A redeal (C6) deals from a seed it does not know.  ``honest``: what
    nobody at the table could know (a stock's order, ``ComputerPlay.unforeseen``) it does not know either: it
    values each candidate over worlds with that drawn afresh, the honest ceiling of what search can reach:
    ``reshuffles`` of them, or with ``reshuffles`` None as many as its ``budget`` allows, like a level of the
    bot (stopping as ``FlatSearch`` does)."""

    name: ClassVar[str] = "all-seeing"
    honest: ClassVar[bool] = False
    thorough: ClassVar[bool] = True  # the thorough valuation; False: the expert's own
    reshuffles: int | None = 8
    budget: float | None = None
    clock: Callable[[], float] = perf  # the budget's clock

    def __post_init__(self) -> None:
        if (self.reshuffles is None and self.budget is None) or (self.reshuffles is not None and self.reshuffles < 1):
            raise ValueError("the ceiling needs a number of worlds (at least one) or a budget")

    def choose(self, view: View, rng: random.Random) -> Action | None:
        raise TypeError("the all-seeing player plays from the true state (choose_in), not from a view")

    def values(self, state: GameState, seat: int, rng: random.Random) -> dict[Action | None, float]:
        """Each candidate's value to ``seat`` as this player sees it."""
        view = state.view(seat)
        options = candidates(view, view.legal)
        game = solver(state.VARIANT)
        hide = self.hidden(state, seat)
        worlds = self.reshuffles if hide is not None else 1
        deal = len(state.deals)
        sums = dict.fromkeys(options, 0.0)
        started = self.clock()
        rounds = 0
        while worlds is None or rounds < worlds:
            base = state.fork()
            if hide is not None:
                hide(base, rng)
            base.seed = rng.getrandbits(32)
            for i, option in enumerate(options):
                world = base.fork() if i < len(options) - 1 else base
                if option is not None:
                    world.apply(option)
                # the other candidates are valued in the same world, where the solver's table holds
                sums[option] += worth(
                    game, world, seat, deal, waiting=option is None, same_world=i > 0, thorough=self.thorough
                )
            rounds += 1
            if self.budget is not None and out_of_time(started, self.clock(), rounds, self.budget):
                break
        return {option: total / rounds for option, total in sums.items()}

    def hidden(self, state: GameState, seat: int) -> Unforeseen | None:
        """What it does not know of the true deal, drawn afresh in each of its worlds; None: nothing."""
        unforeseen = find_variant(state.VARIANT).computer.unforeseen
        return unforeseen if self.honest and unforeseen is not nothing_unforeseen else None

    def choose_in(self, state: GameState, seat: int, rng: random.Random) -> Action | None:
        view = state.view(seat)
        if not view.legal:
            return None
        options = candidates(view, view.legal)
        if len(options) == 1:
            return options[0]
        values = self.values(state, seat, rng)
        return max(options, key=values.__getitem__)


@dataclass(frozen=True)
class Ceiling(AllSeeing):
    """The honest ceiling: ``AllSeeing`` that does not know what nobody at the table could know."""

    name: ClassVar[str] = "ceiling"
    honest: ClassVar[bool] = True


@dataclass(frozen=True)
class CeilingByPlayouts(Ceiling):
    """The honest ceiling valuing a world as the expert does (``expert.worth``), where the ceiling's own
    valuation is thorough: beside the ceiling, it tells how much of the ceiling's lead is what it knows and how
    much the way it values what it knows."""

    name: ClassVar[str] = "ceiling-playout"
    thorough: ClassVar[bool] = False


@dataclass(frozen=True)
class CeilingOfInference(Ceiling):
    """What the best reading of the others' play could reach: it knows each card the others held when they
    last chose a play, and the discards, but not what they drew since nor the stock's order
    (``ComputerPlay.unrevealed``).  A choice can tell something of the hand it was made from and nothing of
    the cards drawn after it, which lay at random in a stock nobody saw."""

    name: ClassVar[str] = "ceiling-inference"

    def hidden(self, state: GameState, seat: int) -> Unforeseen | None:
        unrevealed = find_variant(state.VARIANT).computer.unrevealed
        if unrevealed is None:
            raise ValueError(f"{state.VARIANT} refills no hand: its ceiling of inference is the ceiling")
        unseen = not_chosen_with(state, seat)
        return lambda world, rng: unrevealed(world, unseen, rng)


def not_chosen_with(state: GameState, seat: int) -> list[frozenset[Card]]:
    """By seat, the cards of his hand he has not chosen a play with in this deal: all of them until he first
    plays, then those drawn since his last play; none of ``seat``'s own.  Read from the deal replayed from its
    seed, which must come back to ``state``."""
    replay = find_variant(state.VARIANT).replay(state.seed, state.history[: state.deal_start], state.options)
    held: list[frozenset[Card]] = [frozenset()] * state.num_players
    for action in state.history[state.deal_start :]:
        held[action.seat] = frozenset(replay.hands[action.seat])
        replay.apply(action)
    if replay.hands != state.hands:
        raise ValueError("the deal replayed from its seed does not come back to the state")
    return [frozenset() if s == seat else frozenset(hand) - held[s] for s, hand in enumerate(state.hands)]


ALL_SEEING = {c.name: c for c in (AllSeeing, Ceiling, CeilingByPlayouts, CeilingOfInference)}  # the arena's own players


@dataclass(frozen=True)
class DiscardsSeen:
    """The expert shown the others' face-down plays of the deal (discards) as if face up, and nothing else
    the seat may not see: beside the expert, it tells how much a perfect reading of what was put face down
    would add.  Never a level of the bot."""

    name: ClassVar[str] = "expert-sees-discards"
    expert: Player

    def choose(self, view: View, rng: random.Random) -> Action | None:
        raise TypeError("it plays from the true state (choose_in), not from a view")

    def choose_in(self, state: GameState, seat: int, rng: random.Random) -> Action | None:
        return self.expert.choose(discards_shown(state, seat), rng)


def discards_shown(state: GameState, seat: int) -> View:
    """``seat``'s view with every face-down play of the deal so far face up."""

    def shown(action: Action) -> SeenPlay:
        return SeenPlay(action.seat, action.kind, action.cards, len(action.cards))

    return dataclasses.replace(
        state.view(seat),
        trick=tuple(map(shown, state.trick)),
        deal_log=tuple(map(shown, state.history[state.deal_start :])),
        last_trick=tuple(map(shown, state.tricks_done[-1].plays)) if state.tricks_done else (),
        tricks=tuple(SeenTrick(tuple(map(shown, t.plays)), t.winner) for t in state.tricks_done),
    )


def make_player(level: str, budget: float | None, max_worlds: int | None, iterations: int | None) -> Player:
    """A level of the bot by ``find_player``, or one of the arena's all-seeing players."""
    if level == DiscardsSeen.name:
        return DiscardsSeen(find_player("expert", budget=budget, max_worlds=max_worlds, iterations=iterations))
    if level in ALL_SEEING:  # as many worlds as a level's budget allows, unless their number is fixed
        if max_worlds is None and budget is None:
            return ALL_SEEING[level]()
        return ALL_SEEING[level](reshuffles=max_worlds, budget=budget)
    return find_player(level, budget=budget, max_worlds=max_worlds, iterations=iterations)


def ask(player: Player, state: GameState, seat: int, rng: random.Random, log: Log) -> Action | None:
    """One decision, timed; a failure (an exception, an action that is not legal, None from the seat to move)
    is counted against the level and logged, and the basic player acts instead so the deal can go on."""
    view = state.view(seat)
    started = clock.perf()
    problem = ""
    try:
        if isinstance(player, AllSeeing | DiscardsSeen):
            action = player.choose_in(state, seat, rng)
        else:
            action = player.choose(view, rng)
    except Exception as error:  # every failure is counted and reported, never hidden
        problem, action = f"raised {error!r}", None
    log.times.setdefault(player.name, []).append(clock.perf() - started)
    if not problem and action is not None and action not in view.legal:
        problem = f"chose the illegal {action}"
    if not problem and action is None and seat == state.to_move:
        problem = "did not move on its turn"
    if problem:
        log.failures[player.name] = log.failures.get(player.name, 0) + 1
        print(
            f"FAILURE: {player.name} in seat {seat} of {state.VARIANT} {state.options.model_dump()} seed {state.seed} "
            f"{problem}; the game's actions so far, to replay it: {' '.join(map(str, state.history))}",
            file=sys.stderr,
        )
        action = find_player("basic").choose(view, rng)
    return action


def advance(
    state: GameState,
    players: list[Player],
    rng: random.Random,
    until_deals: int,
    log: Log,
    *,
    record: Callable[[GameState, int, Action | None], None] | None = None,
) -> None:
    """Let the players act until ``until_deals`` deals are complete; ``record`` hears of every decision."""
    while len(state.deals) < until_deals and state.outcome is None:
        action = None
        for seat in range(state.num_players):  # out-of-turn actions first (molodka, double, redeal …)
            if seat != state.to_move and state.legal_actions(seat):
                action = ask(players[seat], state, seat, rng, log)
                if record is not None:
                    record(state, seat, action)
                if action is not None:
                    break
        if action is None:
            assert state.to_move is not None
            action = ask(players[state.to_move], state, state.to_move, rng, log)
            if record is not None:
                record(state, state.to_move, action)
            assert action is not None, "the basic player always moves on its turn"
        state.apply(action)


Budgets = tuple[float | None, float | None]  # seconds per decision of level A and of level B


@dataclass(frozen=True)
class Task:
    game: str
    options: dict[str, Any]
    level_a: str
    level_b: str
    budgets: Budgets
    worlds: int | None
    iterations: int | None
    seed: int
    log: bool = False  # record A's decisions, with the ceiling's value of each candidate


@dataclass
class PairResult:
    wins: float  # A's share of the tables
    margin: float  # A's mean margin
    series: float  # A's mean margin of series points (each for himself: the margin again)
    seconds: float
    failures: Failures
    times: Times
    playouts: dict[str, list[int]]  # level -> [searched decisions, playouts]
    positions: list[dict[str, Any]] = field(default_factory=list)  # A's decisions, when logged


def tables(variant: Variant, n: int) -> list[set[int]]:
    """A's seats at each table of one shuffle: the two teams in turn in a team game; elsewhere one seat alone
    against the others, in every seat in turn."""
    if variant.teams:
        return [{s for s in range(n) if s % 2 == side} for side in (0, 1)]
    return [{seat} for seat in range(n)]


def outcome(variant: Variant, state: GameState, result: DealResult, mine: set[int]) -> tuple[float, float, float]:
    """A's (value, margin, series margin) of a deal at a table where A holds ``mine``: in a team game the
    deal's value and the card points and series points over the other team; elsewhere the others' mean penalty
    points less A's (all three)."""
    if variant.teams:
        side = min(mine) % 2
        value = type(state).deal_value(result, side)
        return value, result.points[side] - result.points[1 - side], type(state).series_margin(result, side)
    others = [result.score[s] for s in range(len(result.score)) if s not in mine]
    diff = statistics.fmean(others) - statistics.fmean(result.score[s] for s in mine)
    return diff, diff, diff


def play_pair(task: Task) -> PairResult:
    """One shuffle played at every table of its format (``tables``), averaged over them."""
    variant = find_variant(task.game)
    wins = margin = series = 0.0
    log = Log()
    positions: list[dict[str, Any]] = []
    before = {level: list(counts) for level, counts in STATS.items()}
    started = clock.perf()
    state = variant.new_game(task.seed, task.options)
    layout = tables(variant, state.num_players)
    for number, mine in enumerate(layout):
        state = variant.new_game(task.seed, task.options)
        n = state.num_players
        warmup = variant.typical_deal
        if warmup:
            advance(state, [find_player("basic")] * n, random.Random(task.seed), warmup, Log(failures=log.failures))
        players = [
            make_player(
                task.level_a if s in mine else task.level_b,
                budget=task.budgets[0] if s in mine else task.budgets[1],
                max_worlds=task.worlds,
                iterations=task.iterations,
            )
            for s in range(n)
        ]
        recorder = Recorder(task, number, mine, positions) if task.log else None
        advance(state, players, random.Random(task.seed * 8 + number), warmup + 1, log, record=recorder)
        value, diff, points = outcome(variant, state, state.deals[warmup], mine)
        wins += 1.0 if value > 0 else 0.5 if value == 0 else 0.0
        margin += diff
        series += points
    playouts = {
        level: [counts[0] - before.get(level, [0, 0])[0], counts[1] - before.get(level, [0, 0])[1]]
        for level, counts in STATS.items()
    }
    seconds = clock.perf() - started
    k = len(layout)
    return PairResult(wins / k, margin / k, series / k, seconds, log.failures, log.times, playouts, positions)


@dataclass
class Recorder:
    """Writes down A's decisions with more than one choice: the game, the shuffle, the actions before, the
    seat, the candidates with the honest ceiling's value of each, and A's choice (``bench.regret`` scores a
    level on them offline)."""

    task: Task
    table: int
    mine: set[int]
    positions: list[dict[str, Any]]

    def __call__(self, state: GameState, seat: int, action: Action | None) -> None:
        if seat not in self.mine:
            return
        view = state.view(seat)
        options = candidates(view, view.legal)
        if len(options) < 2:
            return
        values = Ceiling().values(state, seat, random.Random(f"{self.task.seed}/{len(state.history)}"))
        self.positions.append(
            {
                "game": self.task.game,
                "options": self.task.options,
                "seed": self.task.seed,
                "table": self.table,
                "actions": [a.text() for a in state.history],
                "seat": seat,
                "candidates": {text_of(o): values[o] for o in options},
                "chosen": text_of(action),
            }
        )


def text_of(action: Action | None) -> str:
    return action.text() if action is not None else "wait"


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def arena(
    *,
    level_a: str,
    level_b: str,
    shuffles: int,
    budget: float | None,
    budget_b: float | None = None,
    worlds: int | None,
    iterations: int | None,
    jobs: int,
    games: list[str],
    options: dict[str, Any] | None = None,
    first_seed: int = 1,
    log: Path | None = None,
) -> list[dict[str, Any]]:
    report = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for variant_name in games:
            variant = find_variant(variant_name)
            chosen = dict(variant.samples[0]) | (options or {})
            budgets = (budget, budget if budget_b is None else budget_b)
            tasks = [
                Task(variant_name, chosen, level_a, level_b, budgets, worlds, iterations, seed, log is not None)
                for seed in range(first_seed, first_seed + shuffles)
            ]
            started = clock.perf()
            results = pool.map(play_pair, tasks, chunksize=max(1, shuffles // (jobs * 8)))
            wins, wins_ci = interval([r.wins for r in results])
            margin, margin_ci = interval([r.margin for r in results])
            series, series_ci = interval([r.series for r in results])
            sd = statistics.stdev([r.margin for r in results]) if len(results) > 1 else math.inf
            failures: Failures = {}
            times: Times = {}
            playouts: dict[str, list[int]] = {}
            for r in results:
                for level, n in r.failures.items():
                    failures[level] = failures.get(level, 0) + n
                for level, seconds in r.times.items():
                    times.setdefault(level, []).extend(seconds)
                for level, counts in r.playouts.items():
                    total = playouts.setdefault(level, [0, 0])
                    total[0] += counts[0]
                    total[1] += counts[1]
            if log is not None:
                with log.open("a", encoding="utf-8") as out:
                    for r in results:
                        for position in r.positions:
                            out.write(json.dumps(position) + "\n")
            table_count = len(tables(variant, variant.new_game(first_seed, chosen).num_players))
            report.append(
                {
                    "game": variant_name,
                    "options": chosen,
                    "a": level_a,
                    "b": level_b,
                    "shuffles": shuffles,
                    "deals": table_count * shuffles,
                    "format": "teams in turn" if variant.teams else f"A alone in each of {table_count} seats",
                    "budgets": list(budgets),
                    "seeds": [first_seed, first_seed + shuffles - 1],
                    "a_deals_won": round(wins, 3),
                    "a_deals_won_ci95": round(wins_ci, 3),
                    "a_margin": round(margin, 2),
                    "a_margin_ci95": round(margin_ci, 2),
                    "margin_unit": "card points" if variant.teams else "penalty points",
                    "margin_sd_per_shuffle": round(sd, 2),
                    # what a run must be for a given half-width of the margin's 95 % interval, at this sd
                    "shuffles_for_ci95_half_width": {
                        str(h): math.ceil((1.96 * sd / h) ** 2) for h in (0.5, 1.0, 1.5, 3.0) if math.isfinite(sd)
                    },
                    "a_series_margin": round(series, 3),
                    "a_series_margin_ci95": round(series_ci, 3),
                    "failures": failures,
                    "playouts_per_search": {lv: round(c[1] / c[0], 1) for lv, c in playouts.items() if c[0]},
                    "decision_seconds_mean": {lv: round(statistics.fmean(t), 4) for lv, t in times.items()},
                    "decision_seconds_p99": {lv: round(p99(t), 4) for lv, t in times.items()},
                    "wall_seconds": round(clock.perf() - started, 1),
                }
            )
            print(json.dumps(report[-1]), flush=True)
    return report


def timing(decisions: int, budget: float, level: str = "strong") -> dict[str, Any]:
    """Time a search player's decisions at ``budget`` in positions of real play (against basic)."""
    times: list[float] = []
    before = list(STATS.get(level, [0, 0]))
    seed = 0
    while len(times) < decisions:
        seed += 1
        for variant_name in variant_names():
            variant = find_variant(variant_name)
            state = variant.new_game(seed, variant.samples[0])
            players: list[Player] = [
                find_player(level if s == 0 else "basic", budget=budget) for s in range(state.num_players)
            ]
            rng = random.Random(seed)
            while state.outcome is None and not state.deals:
                for seat in range(state.num_players):
                    if state.legal_actions(seat) and seat in (state.to_move, 0):
                        started = clock.perf()
                        action = players[seat].choose(state.view(seat), rng)
                        if seat == 0 and len(state.legal_actions(0)) > 1:
                            times.append(clock.perf() - started)
                        if action is not None:
                            state.apply(action)
                            break
    times.sort()
    after = STATS.get(level, [0, 0])
    searched = after[0] - before[0]
    return {
        "level": level,
        "budget_seconds": budget,
        "playouts_per_search": round((after[1] - before[1]) / max(searched, 1), 1),
        "decisions": len(times),
        "mean_seconds": round(statistics.fmean(times), 3),
        "p99_seconds": round(times[min(len(times) - 1, int(len(times) * 0.99))], 3),
        "max_seconds": round(times[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="basic")
    parser.add_argument("--b", default="random")
    parser.add_argument("--shuffles", type=int, default=1000, help="shuffles per game, each played at every table")
    parser.add_argument("--budget", type=float, default=None, help="seconds per strong decision")
    parser.add_argument("--budget-b", type=float, default=None, help="level B's seconds per decision, if not --budget")
    parser.add_argument("--worlds", type=int, default=None, help="sampled worlds per strong1 decision")
    parser.add_argument("--iterations", type=int, default=None, help="tree walks per strong decision")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", nargs="+", default=variant_names(), choices=variant_names())
    parser.add_argument("--seed", type=int, default=1, help="the first shuffle (runs on other seeds add up)")
    parser.add_argument("--option", action="append", default=[], help="a game option, key=value (players=3)")
    parser.add_argument("--log", type=Path, help="append level A's decisions to this JSON-lines file (bench.regret)")
    parser.add_argument("--timing", type=int, default=0, help="only time this many decisions of level A")
    args = parser.parse_args()
    if args.timing:
        print(json.dumps(timing(args.timing, args.budget or 0.5, args.a if args.a.startswith("strong") else "strong")))
        return
    fixed = args.worlds is not None or args.iterations is not None
    budget = args.budget if args.budget is not None or fixed else 0.5
    report = arena(
        level_a=args.a,
        level_b=args.b,
        shuffles=args.shuffles,
        budget=budget,
        budget_b=args.budget_b,
        worlds=args.worlds,
        iterations=args.iterations,
        jobs=args.jobs,
        games=args.games,
        options={k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)},
        first_seed=args.seed,
        log=args.log,
    )
    failed = {(r["game"], level): n for r in report for level, n in r["failures"].items() if n}
    if failed:
        sys.exit(f"FAILED: player failures {failed}")


if __name__ == "__main__":
    main()
