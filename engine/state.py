"""What every game's state shares: chance, records, views and the state base class.

A game is its variant, options, seed and list of actions (OpenSpiel's idea of a state as its history): the
shuffles are drawn from the seed, so replaying the actions from the seed rebuilds the state exactly.  A state
also serialises to JSON and back (a snapshot), which compares equal to the original.

The legal-action generator of each variant is the single source of truth: ``apply`` accepts exactly the
actions that ``legal_actions`` lists and raises a typed error for anything else, before changing anything.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, NamedTuple, Self

from pydantic import BaseModel, ConfigDict, TypeAdapter

from engine.actions import Action, Kind
from engine.cards import Card, Suit, parse_cards
from engine.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    ParseError,
)

# ---------------------------------------------------------------------------------------------------------
# Chance


def deal_rng(seed: int, deal_no: int, attempt: int) -> random.Random:
    """The random source of one deal (and of each redeal of it).

    ``random.Random`` seeded with a string hashes it with SHA-512 (seeding version 2), and ``shuffle`` is a
    Fisher–Yates shuffle on ``getrandbits``: both are documented and the same on every platform, unlike
    ``hash()`` or set order.
    """
    return random.Random(f"kozel/{seed}/{deal_no}/{attempt}")


def first_dealer(seed: int, num_players: int) -> int:
    """The random first dealer of a series (F16, C8, K3)."""
    return random.Random(f"kozel/{seed}/dealer").randrange(num_players)


_BIT_LENGTH = [(i + 1).bit_length() for i in range(64)]  # of i + 1, the bound of the index drawn at i


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``: the same Fisher–Yates shuffle drawing the same bits in the same order (each
    index below ``n`` is ``getrandbits(n.bit_length())``, drawn again while it is ``n`` or more), without
    the two method calls per card that ``random.Random`` spends on it."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = _BIT_LENGTH[i] if i < 64 else (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def deal_round_robin(deck: Sequence[Card], dealer: int, num_players: int, per_hand: int) -> list[list[Card]]:
    """Deal ``per_hand`` cards to each seat one at a time, starting left of the dealer, dealer last (F4):
    seat ``s`` gets every ``num_players``-th card from the ``(s - dealer - 1) % num_players``-th on."""
    end = per_hand * num_players
    return [list(deck[(seat - dealer - 1) % num_players : end : num_players]) for seat in range(num_players)]


@dataclass(frozen=True)
class Layout:
    """The outcome of one shuffle and deal: the hands by seat, the undealt cards in order (the stock of
    four-card Kozel, top first; the talon of Czech Kozel) and, for four-card Kozel, the index in the stock of
    the card shown as trump (F5).

    Written in a compact notation for tests, like FEN for chess: hands by seat separated by ``|``, then
    ``/`` and the rest, then ``@`` and the trump index, e.g. ``"AS KS QS JS | 6H 7H 8H 9H | … / 6D … @ 7"``.
    A rest that ends with ``...`` is completed with the unused cards of the deck in canonical order.
    """

    hands: tuple[tuple[Card, ...], ...]
    rest: tuple[Card, ...] = ()
    cut: int = 0

    @classmethod
    def parse(cls, text: str, deck: Sequence[Card] | None = None) -> Layout:
        cut = 0
        if "@" in text:
            text, _, cut_text = text.rpartition("@")
            try:
                cut = int(cut_text)
            except ValueError:
                raise ParseError(f"bad trump index {cut_text!r} in layout") from None
        hands_text, _, rest_text = text.partition("/")
        hands = tuple(parse_cards(h) for h in hands_text.split("|"))
        fill = rest_text.rstrip().endswith("...")
        rest = parse_cards(rest_text.replace("...", " "))
        if fill:
            if deck is None:
                raise ParseError("a layout ending in '...' needs the deck to complete it")
            used = {c for h in hands for c in h} | set(rest)
            rest = rest + tuple(c for c in deck if c not in used)
        return cls(hands, rest, cut)

    def cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + list(self.rest)


# ---------------------------------------------------------------------------------------------------------
# Records


class TrickRecord(NamedTuple):
    """A completed trick: its plays in order and the seat that took it."""

    plays: tuple[Action, ...]
    winner: int


@dataclass(frozen=True)
class DealResult:
    """What one deal gave.  ``points`` are card points per team (team games) or penalty points per player
    (Czech); ``score`` is what the deal added to the series: defeat points (F14), series points (C13) or
    penalties (K5–K7); ``totals`` are the series totals after it."""

    deal_no: int
    dealer: int
    leader: int
    points: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]
    tricks: tuple[int, ...]
    eggs: bool = False
    events: tuple[str, ...] = ()
    last_trick_winner: int | None = None


@dataclass(frozen=True)
class Outcome:
    """How a series (F15, C14) or game (K8) ended.  ``losers`` are the goats of a team game or the players
    over 100 in Czech Kozel; ``table_points`` (K9) are by seat, empty in team games."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    reason: str
    with_eggs: bool = False
    table_points: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeenPlay:
    """An action as one seat saw it: face-down cards are hidden and only counted."""

    seat: int
    kind: Kind
    cards: tuple[Card, ...]
    count: int

    @property
    def face_down(self) -> bool:
        return len(self.cards) < self.count


@dataclass(frozen=True)
class SeenTrick:
    """A completed trick as one seat saw it."""

    plays: tuple[SeenPlay, ...]
    winner: int


@dataclass(frozen=True)
class View:
    """What one seat may know (rules X1), or — with ``seat`` None — what the whole group may see.

    Built fresh from the state and sharing nothing mutable with it, so no other player's card can be
    reached from a view.  Fields that a game does not use keep their defaults.
    """

    variant: str
    seat: int | None
    num_players: int
    deal_no: int
    dealer: int
    leader: int
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    legal: tuple[Action, ...]
    trick: tuple[SeenPlay, ...]
    trick_top: int | None
    deal_log: tuple[SeenPlay, ...]
    last_trick: tuple[SeenPlay, ...]
    last_trick_winner: int | None
    tricks: tuple[SeenTrick, ...]
    tricks_taken: tuple[int, ...]
    totals: tuple[int, ...]
    deals: tuple[DealResult, ...]
    outcome: Outcome | None
    trump: Suit | None = None
    trump_card: Card | None = None
    trump_card_holder: int | None = None
    stock_size: int = 0
    talon_size: int = 0
    eggs_pending: int = 0
    doubled: bool = False
    trump_lead_banned: tuple[int, ...] = ()
    exchange: tuple[Card, Card] | None = None
    stock_trump_index: int | None = None
    trump_card_place: int | None = None  # where the shown trump card lay in the stock as dealt (F5)
    options: Any = None


# ---------------------------------------------------------------------------------------------------------
# Options


class Options(BaseModel):
    """Base of every variant's options: immutable, and unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @property
    def num_players(self) -> int:
        return 4


# ---------------------------------------------------------------------------------------------------------
# The state


@dataclass(eq=True)
class GameState:
    """A series of deals of one game, with the bookkeeping every game shares.

    Subclasses implement the phase logic: ``_legal(seat)``, ``_play(action)``, ``_begin_deal(layout)``,
    ``_make_layout(rng)`` and ``_hidden_from(action, seat)``.
    """

    VARIANT: ClassVar[str] = ""
    TEAMS: ClassVar[bool] = True
    # The series totals count against their side (defeat points F14, penalties K5) rather than for it (C13).
    TOTALS_AGAINST: ClassVar[bool] = False

    options: Any = None
    seed: int = 0
    history: list[Action] = field(default_factory=list)
    stacked: list[Layout] = field(default_factory=list)
    num_players: int = 4
    deal_no: int = 0
    attempt: int = 0
    deal_start: int = 0
    dealer: int = 0
    leader: int = 0
    to_move: int | None = None
    hands: list[list[Card]] = field(default_factory=list)
    trick: list[Action] = field(default_factory=list)
    tricks_done: list[TrickRecord] = field(default_factory=list)
    tricks_taken: list[int] = field(default_factory=list)
    deals: list[DealResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    outcome: Outcome | None = None

    # --- construction -----------------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seed: int,
        options: Options | None = None,
        *,
        stacked: Iterable[Layout] = (),
        dealer: int | None = None,
    ) -> Self:
        """A new series.  ``stacked`` layouts replace the shuffles of the first deals (tests); ``dealer``
        replaces the random first dealer."""
        opts = options if options is not None else cls.default_options()
        state = cls(options=opts, seed=seed, stacked=list(stacked), num_players=opts.num_players)
        state.totals = [0] * state.num_units()
        state.dealer = first_dealer(seed, state.num_players) if dealer is None else dealer
        state._start_series()
        state._deal()
        return state

    @classmethod
    def default_options(cls) -> Options:
        raise NotImplementedError

    @classmethod
    def replay(
        cls,
        seed: int,
        actions: Iterable[Action],
        options: Options | None = None,
        *,
        stacked: Iterable[Layout] = (),
        dealer: int | None = None,
    ) -> Self:
        state = cls.new(seed, options, stacked=stacked, dealer=dealer)
        for action in actions:
            state.apply(action)
        return state

    def __post_init__(self) -> None:
        self._cache: dict[int, tuple[Action, ...]] = {}

    # --- the API ----------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (possibly out of turn: molodka, redeal, double …)."""
        cached = self._cache.get(seat)
        if cached is None:
            if self.outcome is not None or not 0 <= seat < self.num_players:
                return ()
            cached = self._cache[seat] = tuple(self._legal(seat))
        return cached

    def all_legal_actions(self) -> list[Action]:
        """Every seat's legal actions, seat by seat: ``legal_actions(0) + legal_actions(1) + …``."""
        if self.outcome is not None:
            return []
        cache = self._cache
        mover = self.to_move
        if not cache and mover is not None and not self._others_may_act():
            # the usual moment: only the seat to move has anything to do, and the others' empty lists are
            # not built (``legal_actions`` builds one when it is asked for)
            actions = self._legal(mover)
            cache[mover] = tuple(actions)
            return actions
        actions = []
        for seat in range(self.num_players):  # legal_actions(seat), inlined
            legal = cache.get(seat)
            if legal is None:
                legal = cache[seat] = tuple(self._legal(seat))
            actions += legal
        return actions

    def apply(self, action: Action) -> None:
        """Apply a legal action, or raise a typed error and leave the state untouched."""
        if self.outcome is not None:
            raise GameOverError(f"{action}: the game is over ({self.outcome.reason}) after deal {self.deal_no}")
        legal = self._cache.get(action.seat)
        if legal is None:
            legal = self.legal_actions(action.seat)
        if action not in legal:
            if not 0 <= action.seat < self.num_players:
                raise IllegalActionError(f"{action}: there is no seat {action.seat} in a game of {self.num_players}")
            if not legal:
                raise NotYourTurnError(f"{action}: seat {action.seat} has nothing to do now; {self.situation()}")
            raise IllegalActionError(
                f"{action} is not legal now; {self.situation()}; "
                f"seat {action.seat} may: {', '.join(a.text() for a in legal[:8])}" + (" …" if len(legal) > 8 else "")
            )
        self.history.append(action)
        self._cache.clear()
        self._play(action)

    def situation(self) -> str:
        """A short description of the moment, for error messages and logs."""
        trick = " ".join(a.text() for a in self.trick) or "empty"
        return f"deal {self.deal_no}, to move: seat {self.to_move}, trick: {trick}"

    # --- what computer players ask of a game ------------------------------------------------------------

    @classmethod
    def deck_for(cls, options: Options) -> tuple[Card, ...]:
        """The cards a deal of this game uses with these options."""
        raise NotImplementedError

    @staticmethod
    def follow_suit(card: Card) -> int | None:
        """The suit a card counts as for the duty to follow, or None in a game without that duty (F8)."""
        return None

    @classmethod
    def deal_value(cls, result: DealResult, seat: int) -> float:
        """How good a finished deal was for ``seat``: his team's card-point margin plus 15 per series point
        of margin (``series_margin``; a Czech Kozel player: the others' mean penalty minus his own)."""
        us, them = seat % 2, 1 - seat % 2
        return result.points[us] - result.points[them] + 15 * cls.series_margin(result, seat)

    @classmethod
    def series_margin(cls, result: DealResult, seat: int) -> float:
        """What a finished deal did to the series for ``seat``, in series points: positive when it put his
        side ahead (series points won over the other team's; fewer defeat or penalty points)."""
        us, them = seat % 2, 1 - seat % 2
        return result.score[us] - result.score[them]

    @classmethod
    def deal_won(cls, result: DealResult, seat: int) -> bool:
        """Whether a finished deal went ``seat``'s way: it put his side ahead in the series."""
        return cls.series_margin(result, seat) > 0

    def team(self, seat: int) -> int:
        return seat % 2

    def standing(self) -> tuple[int, ...]:
        """Each seat's place in the series as it stands, 0 first, equal standing sharing a place (the places
        then run on without gaps).  A finished series ranks its winners first and its losers last (F15, C14,
        K8), the rest and Czech Kozel's players within those by their totals; one stopped before its end, by
        the totals alone."""
        outcome = self.outcome
        sign = 1 if self.TOTALS_AGAINST else -1

        def key(seat: int) -> tuple[bool, bool, int]:
            total = self.totals[seat % 2 if self.TEAMS else seat] if self.totals else 0
            if outcome is None:
                return False, False, sign * total
            return seat not in outcome.winners, seat in outcome.losers, sign * total

        keys = [key(seat) for seat in range(self.num_players)]
        order = sorted(set(keys))
        return tuple(order.index(k) for k in keys)

    def num_units(self) -> int:
        """Scores are kept per team (2) in team games and per player in Czech Kozel."""
        return 2 if self.TEAMS else self.num_players

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (X1); ``None`` gives the group's public view."""
        if seat is not None and not 0 <= seat < self.num_players:
            raise IllegalActionError(f"no seat {seat} in a game of {self.num_players}")
        top = self._trick_top()
        return View(
            variant=self.VARIANT,
            seat=seat,
            num_players=self.num_players,
            deal_no=self.deal_no,
            dealer=self.dealer,
            leader=self.leader,
            to_move=self.to_move,
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            legal=self.legal_actions(seat) if seat is not None else (),
            trick=tuple(self._seen(a, seat) for a in self.trick),
            trick_top=top,
            deal_log=tuple(self._seen(a, seat) for a in self.history[self.deal_start :]),
            last_trick=tuple(self._seen(a, seat) for a in self.tricks_done[-1].plays) if self.tricks_done else (),
            last_trick_winner=self.tricks_done[-1].winner if self.tricks_done else None,
            tricks=tuple(SeenTrick(tuple(self._seen(a, seat) for a in t.plays), t.winner) for t in self.tricks_done),
            tricks_taken=tuple(self.tricks_taken),
            totals=tuple(self.totals),
            deals=tuple(self.deals),
            outcome=self.outcome,
            options=self.options,
            **self._view_extra(seat),
        )

    # --- serialisation ----------------------------------------------------------------------------------

    _adapters: ClassVar[dict[type, TypeAdapter[Any]]] = {}

    @classmethod
    def _adapter(cls) -> TypeAdapter[Any]:
        adapter = GameState._adapters.get(cls)
        if adapter is None:
            adapter = GameState._adapters[cls] = TypeAdapter(cls)
        return adapter

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = self._adapter().dump_python(self, mode="json")
        data["variant"] = self.VARIANT
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        body = {k: v for k, v in data.items() if k != "variant"}
        if data.get("variant", cls.VARIANT) != cls.VARIANT:
            raise ParseError(f"a {data.get('variant')!r} state cannot load as {cls.VARIANT!r}")
        state: Self = cls._adapter().validate_python(body)
        state._cache = {}
        return state

    def clone(self) -> Self:
        return type(self).from_dict(self.to_dict())

    def fork(self) -> Self:
        """A fast independent copy for search: every list is copied, lists of lists one level deeper;
        the values inside (cards, actions, records, options) are immutable and shared."""
        cls = type(self)
        other = cls.__new__(cls)
        values = self.__dict__.copy()
        flat = cls._flat_lists()
        for name, value in values.items():
            if type(value) is list:
                if name in flat:
                    values[name] = value.copy()
                else:  # lists of lists (declared or not): their lists are copied too
                    values[name] = [v.copy() if type(v) is list else v for v in value]
        values["_cache"] = {}
        other.__dict__ = values
        return other

    _flat: ClassVar[dict[type, frozenset[str]]] = {}

    @classmethod
    def _flat_lists(cls) -> frozenset[str]:
        """The fields declared as lists of immutable values (history, tricks, stock …, not hands or piles):
        ``fork`` copies them without looking at their items one by one."""
        names = GameState._flat.get(cls)
        if names is None:
            declared = {f.name: str(f.type).replace(" ", "") for f in fields(cls)}
            names = GameState._flat[cls] = frozenset(
                n for n, t in declared.items() if t.startswith("list[") and not t.startswith("list[list[")
            )
        return names

    # --- the series -------------------------------------------------------------------------------------

    def _start_series(self) -> None:
        """Hook for series-level set-up before the first deal."""

    def _deal(self) -> None:
        """Shuffle (or take a stacked layout) and begin a deal."""
        if self.stacked:
            layout = self.stacked.pop(0)
            self._check_layout(layout)  # a shuffle of the engine's own needs no check
        else:
            layout = self._make_layout(deal_rng(self.seed, self.deal_no, self.attempt))
        self.deal_start = len(self.history)
        self.trick = []
        self.tricks_done = []
        self.tricks_taken = [0] * self.num_units()
        self.hands = [sorted(h) for h in layout.hands]
        self._begin_deal(layout)

    def _finish_deal(self, result: DealResult, outcome: Outcome | None) -> None:
        self.deals.append(result)
        self.totals = list(result.totals)
        if outcome is not None:
            self.outcome = outcome
            self.to_move = None
            return
        self.deal_no += 1
        self.attempt = 0
        self._next_deal_seats()
        self._deal()

    # --- hooks for the variants -------------------------------------------------------------------------

    def _legal(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now, in a new list."""
        raise NotImplementedError

    def _others_may_act(self) -> bool:
        """Whether a seat other than the one to move may have a legal action now (out of turn).  False is a
        promise that ``_legal`` is empty for every such seat; True only means: ask each of them."""
        return True

    def _play(self, action: Action) -> None:
        raise NotImplementedError

    def _make_layout(self, rng: random.Random) -> Layout:
        raise NotImplementedError

    def _check_layout(self, layout: Layout) -> None:
        """Refuse a stacked layout that is not this game's deck in this game's hand and stock sizes."""
        raise NotImplementedError

    def _begin_deal(self, layout: Layout) -> None:
        raise NotImplementedError

    def _next_deal_seats(self) -> None:
        """Set ``dealer`` (and anything else seat-related) for the next deal."""
        raise NotImplementedError

    def _trick_top(self) -> int | None:
        return None

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {}

    def _hidden_from(self, action: Action, seat: int | None) -> bool:
        """Whether ``seat`` (None: the group) must not see the cards of ``action`` (X1)."""
        return action.kind is Kind.DISCARD and action.seat != seat

    def seen(self, action: Action, seat: int | None) -> SeenPlay:
        """``action`` as ``seat`` (None: the group) sees it (X1): face-down cards are counted, not shown."""
        return self._seen(action, seat)

    def _seen(self, action: Action, seat: int | None) -> SeenPlay:
        if self._hidden_from(action, seat):
            return SeenPlay(action.seat, action.kind, (), len(action.cards))
        return SeenPlay(action.seat, action.kind, action.cards, len(action.cards))
