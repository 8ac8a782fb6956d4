"""The engine's shared parts: cards, actions, errors, the registry, seeded chance, serialisation and replay."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    Action,
    Card,
    EngineError,
    GameOverError,
    IllegalActionError,
    Kind,
    Layout,
    NotYourTurnError,
    OptionsError,
    ParseError,
    Rank,
    Suit,
    UnknownVariantError,
    find_variant,
    load_state,
    parse_cards,
    variant_names,
)
from engine.registry import samples
from engine.simulate import main as simulate_main
from engine.simulate import play_random
from engine.state import deal_rng, deal_round_robin, first_dealer
from tests.helpers import GAME_CONFIGS, check_views


class TestCards:
    def test_parse_and_format_pair(self) -> None:
        card = Card.parse("10♥")
        assert card is Card.parse("TH") is Card.parse("th") is Card.parse("10h")
        assert str(card) == "10♥"
        assert card.ascii == "TH"
        assert repr(card) == "Card.parse('10♥')"
        assert eval(repr(card)) is card
        assert (card.suit, card.rank) == (Suit.HEARTS, Rank.TEN)

    def test_compact_code_fits_one_byte_and_round_trips(self) -> None:
        for suit in Suit:
            for rank in Rank:
                card = Card(suit, rank)
                assert 0 <= card.code < 64
                assert Card.from_code(card.code) is card

    @pytest.mark.parametrize("text", ["", "X", "1♥", "10X", "AA", "11S", "♥10"])
    def test_bad_card_text_is_a_parse_error(self, text: str) -> None:
        with pytest.raises(ParseError, match="not a card"):
            Card.parse(text)

    @pytest.mark.parametrize("code", [-1, 0, 5, 15, 64, 200])
    def test_bad_card_code_is_a_parse_error(self, code: int) -> None:
        with pytest.raises(ParseError):
            Card.from_code(code)

    def test_parse_cards(self) -> None:
        assert parse_cards("AS, 10♥ 7c") == (Card.parse("AS"), Card.parse("TH"), Card.parse("7C"))


class TestActions:
    def test_text_round_trip_and_canonical_order(self) -> None:
        a = Action.parse("2 lead AH 10♥")
        assert a == Action.parse("2 lead TH AH")
        assert a.text() == "2 lead TH AH"
        assert Action.parse(a.text()) == a
        assert str(a) == "seat 2 lead 10♥ A♥"
        assert eval(repr(a)) == a

    def test_encoded_form_fits_button_data(self) -> None:
        a = Action.parse("3 molodka 6C 7C 8C 9C")
        data = a.encode()
        assert len(data.encode()) <= 11
        assert Action.decode(data) == a
        assert Action.decode(Action(1, Kind.REDEAL).encode()) == Action(1, Kind.REDEAL)

    @pytest.mark.parametrize("data", ["", "z1", "l", "lx", "l105", "l1zz", "l1ff"])
    def test_forged_encoded_actions_are_refused(self, data: str) -> None:
        with pytest.raises(ParseError):
            Action.decode(data)

    @pytest.mark.parametrize("text", ["", "lead AS", "1 fly AS", "1 lead ZZ"])
    def test_bad_action_text(self, text: str) -> None:
        with pytest.raises(ParseError):
            Action.parse(text)


class TestRegistry:
    def test_every_game_is_registered_by_the_name_of_its_package(self) -> None:
        assert variant_names()
        for name in variant_names():
            assert find_variant(name).name == name and find_variant(name).package == f"engine.games.{name}"

    def test_unknown_variant_is_a_value_error(self) -> None:
        with pytest.raises(UnknownVariantError, match="'poker'") as info:
            find_variant("poker")
        assert isinstance(info.value, ValueError)

    @pytest.mark.parametrize("name", variant_names())
    def test_options_are_validated(self, name: str) -> None:
        """An option no game has is refused, named (each game's own values are its rule tests')."""
        with pytest.raises(OptionsError, match="colour"):
            find_variant(name).options({"colour": "red"})

    def test_options_are_immutable(self) -> None:
        opts = find_variant("classic").options({"deck": 32})
        with pytest.raises(ValueError):
            opts.deck = 36  # type: ignore[attr-defined]


class TestChance:
    def test_same_seed_same_cards_on_every_machine(self) -> None:
        """A golden deal: random.Random seeded with a string (SHA-512) and Fisher–Yates shuffle."""
        game = find_variant("four_card").new_game(42)
        assert game.dealer == 3
        assert [" ".join(c.ascii for c in h) for h in game.hands] == [
            "KS JD 9H QH",
            "JC QD 6H KH",
            "6S 6C QC 7D",
            "6D 7H TH JH",
        ]
        assert str(getattr(game, "trump_card", None)) == "K♣"

    def test_deal_rng_depends_on_seed_deal_and_attempt(self) -> None:
        keys = [(s, d, a) for s in (1, 2) for d in (0, 1) for a in (0, 1)]
        draws = {tuple(deal_rng(*key).random() for _ in range(3)) for key in keys}
        assert len(draws) == 8
        assert deal_rng(5, 1, 0).random() == deal_rng(5, 1, 0).random()

    def test_first_dealer_is_random_but_seeded(self) -> None:
        dealers = {first_dealer(seed, 4) for seed in range(40)}
        assert dealers == {0, 1, 2, 3}
        assert first_dealer(9, 4) == first_dealer(9, 4)

    def test_deal_round_robin_starts_left_of_dealer(self) -> None:
        deck = list(range(8))
        assert deal_round_robin(deck, dealer=1, num_players=4, per_hand=2) == [[2, 6], [3, 7], [0, 4], [1, 5]]  # type: ignore[arg-type]

    def test_layout_notation(self) -> None:
        deck = find_variant("four_card").deck
        layout = Layout.parse("AS KS QS JS | 6H 7H 8H 9H | 6C 7C 8C 9C | 6D 7D 8D 9D / TH ... @ 3", deck)
        assert len(layout.rest) == 20 and layout.rest[0] == Card.parse("TH") and layout.cut == 3
        with pytest.raises(ParseError):
            bad = "AS AS QS JS | 6H 7H 8H 9H | 6C 7C 8C 9C | 6D 7D 8D 9D / ..."  # two A♠
            find_variant("four_card").new_game(1, stacked=[bad])


@pytest.mark.parametrize(("name", "options"), GAME_CONFIGS)
class TestStateContract:
    def test_json_round_trip_and_replay_equal(self, name: str, options: dict[str, object]) -> None:
        variant = find_variant(name)
        rng = random.Random(11)
        state = variant.new_game(123, options)
        for step in range(400):
            if state.is_over:
                break
            state.apply(rng.choice(state.all_legal_actions()))
            if step % 37 == 0:
                data = json.loads(json.dumps(state.to_dict()))
                assert load_state(data) == state
        assert load_state(json.loads(json.dumps(state.to_dict()))) == state
        assert variant.replay(123, state.history, options) == state

    def test_illegal_action_changes_nothing(self, name: str, options: dict[str, object]) -> None:
        variant = find_variant(name)
        state = variant.new_game(5, options)
        before = state.to_dict()
        mover = state.to_move
        assert mover is not None
        idle = next(s for s in range(state.num_players) if not state.legal_actions(s))
        with pytest.raises(NotYourTurnError, match=f"seat {idle} has nothing to do"):
            state.apply(Action(idle, Kind.PLAY, (variant.deck[0],)))
        bogus = Action(mover, Kind.PLAY, tuple(c for c in variant.deck if c not in state.hands[mover])[:1])
        with pytest.raises(IllegalActionError, match="is not legal now") as info:
            state.apply(bogus)
        assert bogus.text() in str(info.value) or str(bogus) in str(info.value)
        with pytest.raises(IllegalActionError, match="no seat 9"):
            state.apply(Action(9, Kind.PLAY, (variant.deck[0],)))
        assert state.to_dict() == before

    def test_game_over_refuses_actions(self, name: str, options: dict[str, object]) -> None:
        state = find_variant(name).new_game(8, options)
        play_random(state, random.Random(8))
        assert state.is_over and state.outcome is not None
        assert state.all_legal_actions() == []
        with pytest.raises(GameOverError, match="the game is over"):
            state.apply(Action(0, Kind.PLAY, (find_variant(name).deck[0],)))
        assert isinstance(GameOverError("x"), EngineError)


@pytest.mark.parametrize(("name", "options"), samples(every=True))
def test_X1_a_view_holds_only_what_its_seat_may_know(name: str, options: dict[str, object]) -> None:
    """X1: own hand, face-up cards and announcements — never another hand; a view shares nothing with the
    state, so later play cannot reach into it."""
    state = find_variant(name).new_game(21, options)
    rng = random.Random(21)
    for _ in range(120):
        if state.is_over:
            break
        check_views(state)
        views = [state.view(seat) for seat in range(state.num_players)]
        before = [(v.hand, v.trick, v.legal) for v in views]
        state.apply(rng.choice(state.all_legal_actions()))
        assert [(v.hand, v.trick, v.legal) for v in views] == before


def test_simulate_cli_prints_a_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_main(["simulate", "--variant", "four_card", "--deals", "20", "--seed", "3"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 20
    assert summary["deals_per_second"] > 0
    assert {"series_finished", "eggs", "mean_points", "score_distribution"} <= summary.keys()
    assert sum(summary["score_distribution"].values()) == 40


def test_simulate_cli_options_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_main(["simulate", "--variant", "czech", "--players", "5", "--deals", "5"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"players": 5}
    assert simulate_main(["simulate", "--variant", "classic", "--option", "deck=33", "--deals", "5"]) == 2
    assert "deck" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "options"), GAME_CONFIGS)
def test_X3_every_action_is_recorded_and_the_game_replays_exactly(name: str, options: dict[str, object]) -> None:
    variant = find_variant(name)
    state = variant.new_game(31, options)
    rng = random.Random(31)
    applied = []
    while len(state.deals) < 2 and not state.is_over:
        action = rng.choice(state.all_legal_actions())
        state.apply(action)
        applied.append(action)
    assert state.history == applied
    again = variant.replay(31, applied, options)
    assert again == state and again.hands == state.hands and again.deals == state.deals
    assert load_state(json.loads(json.dumps(state.to_dict()))) == state
