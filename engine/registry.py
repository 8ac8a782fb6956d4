"""The variant registry: each game is a small object found by name (``find_variant("czech")``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from engine.actions import Action
from engine.cards import Card
from engine.errors import OptionsError, ParseError, UnknownVariantError
from engine.state import GameState, Layout, Options

if TYPE_CHECKING:
    from engine.players.contract import ComputerPlay


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    state_class: type[GameState]
    options_model: type[Options]
    players: tuple[int, ...]
    deck: tuple[Card, ...]
    card_points: tuple[int, ...]
    computer: ComputerPlay  # what its computer players need of it
    aliases: tuple[str, ...] = ()  # other names people type for this game (lower case, no spaces)
    compiled: str | None = None  # the bridge module of its compiled search core (``engine.compiled.load``), if any
    # The configurations tests and benches play it in, the usual one first, and the deal of a series they
    # measure (a game whose first deal has rules of its own is measured on its second).
    samples: tuple[Mapping[str, object], ...] = ({},)
    typical_deal: int = 0

    @property
    def package(self) -> str:
        """The game's package, which holds everything particular to it (``engine.games.czech``)."""
        return self.state_class.__module__.rpartition(".")[0]

    @property
    def teams(self) -> bool:
        """Whether partners play as two teams (seats 0 & 2 against 1 & 3) rather than each for himself."""
        return self.state_class.TEAMS

    def options(self, values: Options | Mapping[str, Any] | None = None) -> Options:
        """Validated options; raises ``OptionsError`` naming what is wrong."""
        if isinstance(values, self.options_model):
            return values
        try:
            return self.options_model.model_validate(dict(values or {}))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}" for e in exc.errors())
            raise OptionsError(f"bad options for {self.name}: {problems}") from None

    def new_game(
        self,
        seed: int,
        options: Options | Mapping[str, Any] | None = None,
        *,
        stacked: Iterable[Layout | str] = (),
        dealer: int | None = None,
    ) -> GameState:
        layouts = [self.layout(s) if isinstance(s, str) else s for s in stacked]
        return self.state_class.new(seed, self.options(options), stacked=layouts, dealer=dealer)

    def replay(
        self,
        seed: int,
        actions: Iterable[Action],
        options: Options | Mapping[str, Any] | None = None,
        *,
        stacked: Iterable[Layout | str] = (),
        dealer: int | None = None,
    ) -> GameState:
        state = self.new_game(seed, options, stacked=stacked, dealer=dealer)
        for action in actions:
            state.apply(action)
        return state

    def layout(self, text: str) -> Layout:
        return Layout.parse(text, self.deck)

    def load(self, data: dict[str, Any]) -> GameState:
        return self.state_class.from_dict(data)


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.name] = variant
    return variant


def find_variant(name: str) -> Variant:
    """The variant registered as ``name``; raises ``UnknownVariantError`` (a ``ValueError``) otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownVariantError(f"unknown variant {name!r}; known: {known}") from None


def variant_names() -> list[str]:
    return list(_REGISTRY)


def samples(every: bool = False) -> list[tuple[str, dict[str, object]]]:
    """(game, options) of each game's usual configuration, or of every configuration tests and benches play it
    in (``Variant.samples``), in the registry's order."""
    return [(v.name, dict(o)) for v in _REGISTRY.values() for o in (v.samples if every else v.samples[:1])]


def default_variant_name() -> str:
    """The game a chat plays until it picks another: the first registered (``engine.games.PACKAGES``)."""
    return next(iter(_REGISTRY))


def variant_named(text: str) -> Variant | None:
    """The variant a person means by ``text``: its name or one of its aliases, in any case, spaces and
    hyphens ignored (``"Four-Card"``, ``"4"``, ``"чешский"``); None when no game is called that."""
    key = text.strip().lower().replace("-", "_").replace(" ", "")
    for variant in _REGISTRY.values():
        if key == variant.name or key in variant.aliases:
            return variant
    return None


def load_state(data: dict[str, Any]) -> GameState:
    """Rebuild a state from ``GameState.to_dict`` output, whatever its variant."""
    return find_variant(str(data.get("variant"))).load(data)


def check_layout(layout: Layout, deck: Sequence[Card], hand_sizes: Sequence[int], rest_size: int) -> None:
    """A stacked layout must hold exactly the deck, with the right hand and stock sizes."""
    sizes = [len(h) for h in layout.hands]
    if sizes != list(hand_sizes) or len(layout.rest) != rest_size:
        raise ParseError(
            f"layout has hands of {sizes} and {len(layout.rest)} more cards; "
            f"expected {list(hand_sizes)} and {rest_size}"
        )
    counts = Counter(layout.cards())
    if counts != Counter(deck):
        extra = sorted((counts - Counter(deck)).elements())
        missing = sorted((Counter(deck) - counts).elements())
        raise ParseError(
            f"layout is not the deck: extra {[str(c) for c in extra]}, missing {[str(c) for c in missing]}"
        )
