"""The table as a picture (bot/present/pictures.py) and the results as pictures (bot/present/result_pictures.py): every game
and phase draws, at the size Telegram keeps, under its byte budget, with the marks the table needs; a
picture is its scene, built from the group's view only."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from PIL import Image, ImageChops

from bot.delivery.sending import MAX_CAPTION
from bot.present import Seating, presenter
from bot.present.base import plain
from bot.present.pictures import (
    GOLD,
    HEIGHT,
    RED,
    TAKER,
    TO_MOVE,
    WIDTH,
    TableScene,
    TableText,
    draw_table,
    table_scene,
)
from bot.present.render import deal_result_picture, score_line, table_caption, table_picture
from bot.present.result_pictures import ResultLine, ResultText, draw_result
from engine import DealResult, GameState, Kind, find_variant, variant_names
from engine.registry import samples
from tests.helpers import doubled_czech

MAX_BYTES = 80_000


def states(variant: str, options: dict[str, object], seed: int, count: int) -> list[GameState]:
    """``count`` positions of random play, each a copy."""
    state = find_variant(variant).new_game(seed, options)
    rng, found = random.Random(seed), list[GameState]()
    while len(found) < count and not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
        if rng.random() < 0.3:
            found.append(state.clone())
    return found


def picture(state: GameState, computers: frozenset[int] = frozenset()) -> Image.Image:
    names = tuple(f"Player {seat}" for seat in range(state.num_players))
    data = table_picture(state.view(None), Seating(names, "Friends"), computers, "en").data
    assert data[:2] == b"\xff\xd8" and len(data) <= MAX_BYTES, len(data)
    image = Image.open(BytesIO(data))
    assert image.size == (WIDTH, HEIGHT) and image.format == "JPEG"
    return image.convert("RGB")


def pixels(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 24) -> int:
    """How many pixels of the picture are within ``tolerance`` of ``colour`` in each channel."""
    r, g, b = (channel.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
               for channel, c in zip(image.split(), colour, strict=True))  # fmt: skip
    both = ImageChops.multiply(ImageChops.multiply(r, g), b)
    return sum(both.histogram()[255:])


def near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    """Whether a patch of the picture (100 pixels or more) is ``colour``, give or take ``tolerance``."""
    return pixels(image, colour, tolerance) >= 100


@pytest.mark.parametrize(("variant", "options"), samples(every=True))
def test_every_phase_draws_within_the_budget(variant: str, options: dict[str, object]) -> None:
    for state in states(variant, options, 5, 12):
        picture(state, frozenset({1}))


def test_the_seat_to_move_is_lit() -> None:
    state = states("classic", {}, 2, 1)[0]
    assert state.to_move is not None
    assert near(picture(state), TO_MOVE)


def test_F10_a_molodka_on_the_table_is_marked_in_gold() -> None:
    state, rng = find_variant("four_card").new_game(0), random.Random(0)
    while not any(p.kind is Kind.MOLODKA for p in state.view(None).trick):  # a molodka whenever one is legal
        assert not state.is_over, "no molodka in the series"
        actions = state.all_legal_actions()
        molodkas = [a for a in actions if a.kind is Kind.MOLODKA]
        state.apply(molodkas[0] if molodkas else rng.choice(actions))
    assert near(picture(state), GOLD)


def test_K6_the_double_is_marked_by_its_seat() -> None:
    assert near(picture(doubled_czech(4)), RED, tolerance=16)


def test_a_result_draws_goats_beside_the_goats_and_eggs_where_there_are_eggs() -> None:
    lines = (
        ResultLine("Team 1 (Ann & Bob)", "24 card points · +4", 13, 12, goat=True),
        ResultLine("Team 2 (Cid & Dan)", "96 card points", 6, 12, winner=True),
    )
    with_goat = Image.open(BytesIO(draw_result(ResultText("Series over", lines, "Winners: Team 2")))).convert("RGB")
    plain = Image.open(BytesIO(draw_result(ResultText("Deal 3", (ResultLine("A", "", 4, 12),
                                                                ResultLine("B", "", 6, 12)))))).convert("RGB")  # fmt: skip
    horn = (120, 98, 74)
    assert near(with_goat, horn, tolerance=14) and not near(plain, horn, tolerance=14)
    eggs = Image.open(BytesIO(draw_result(ResultText("Deal 4", lines[:1], "60:60", eggs=2)))).convert("RGB")
    shell = (250, 240, 215)
    assert pixels(eggs, shell, 6) > 2_000 and pixels(plain, shell, 6) < 200
    six = tuple(ResultLine(f"Player {n}", "+1", n * 15, 100) for n in range(6))
    data = draw_result(ResultText("Czech Kozel", six))
    assert len(data) <= MAX_BYTES and Image.open(BytesIO(data)).size[0] == WIDTH


def names_of(state: GameState) -> Seating:
    return Seating(tuple(f"Player {seat}" for seat in range(state.num_players)), "Friends")


def text_of(state: GameState) -> TableText:
    return TableText("Four-card Kozel · deal 1", names_of(state).names, (), top="to beat")


def test_a_picture_is_known_by_its_scene_and_drawn_only_when_it_is_sent() -> None:
    """Equal tables are one picture (Telegram's file id of it serves again); it is drawn only when uploaded,
    so the renders a newer one replaces cost no drawing; any change shown is another picture."""
    state = states("four_card", {}, 3, 1)[0]
    seating = names_of(state)
    first = table_picture(state.view(None), seating, (1,), "en")
    assert first.key == table_picture(state.view(None), seating, [1], "en").key
    assert "data" not in vars(first)  # nothing drawn yet
    others = [
        table_picture(state.view(None), seating, (), "en"),  # a computer's mark
        table_picture(state.view(None), seating, (1,), "ru"),  # the language of its words
        table_picture(state.view(None), Seating(("Ann", *seating.names[1:])), (1,), "en"),  # a name
    ]
    state.apply(state.all_legal_actions()[0])
    others.append(table_picture(state.view(None), seating, (1,), "en"))  # a move
    assert len({first.key, *(other.key for other in others)}) == 5
    assert first.data is first.data and first.data[:2] == b"\xff\xd8"  # drawn once, however often sent


def test_F8_the_cards_an_answer_must_beat_are_outlined() -> None:
    """Four-card Kozel: once a lead has been answered, the current top (the cards the next answer must beat)
    is outlined and labelled; a lead alone, and classic Kozel's tricks, mark nothing."""
    rng = random.Random(8)
    state = find_variant("four_card").new_game(8)
    while len(state.view(None).trick) < 2 or state.view(None).trick_top is None:
        assert not state.is_over
        state.apply(rng.choice(state.all_legal_actions()))
    view = state.view(None)
    marked = table_scene(view, text_of(state), marks_top=True)
    assert [p.top for p in marked.plays] == [i == view.trick_top for i in range(len(marked.plays))]
    plain_scene = table_scene(view, text_of(state))
    assert not any(p.top for p in plain_scene.plays)
    lit = Image.open(BytesIO(draw_table(marked))).convert("RGB")
    unlit = Image.open(BytesIO(draw_table(plain_scene))).convert("RGB")
    assert pixels(lit, TO_MOVE) > pixels(unlit, TO_MOVE) + 500


def test_X1_a_face_down_discard_is_drawn_as_backs_and_its_cards_are_not_in_the_picture() -> None:
    """F8/X1: the picture is drawn from the group's view; a discard's cards are not even in its scene."""
    rng = random.Random(4)
    state = find_variant("four_card").new_game(4)
    while not any(p.kind is Kind.DISCARD for p in state.view(None).trick):
        assert not state.is_over
        discards = [a for a in state.all_legal_actions() if a.kind is Kind.DISCARD]
        state.apply(discards[0] if discards else rng.choice(state.all_legal_actions()))
    scene = table_scene(state.view(None), text_of(state))
    down = [p for p in scene.plays if p.backs]
    assert down and all(p.cards == () for p in down)
    hidden = {c for a in state.history if a.kind is Kind.DISCARD for c in a.cards}
    assert not hidden & {c for p in scene.plays for c in p.cards}


def test_a_finished_trick_stays_with_who_took_it_until_the_next_lead() -> None:
    """Classic Kozel: after a trick's last card the picture keeps that trick, the card that took it outlined;
    the next lead clears it."""
    rng = random.Random(6)
    state = find_variant("classic").new_game(6)
    while state.view(None).trick or not state.view(None).last_trick:
        assert not state.is_over
        state.apply(rng.choice(state.all_legal_actions()))
    view = state.view(None)
    scene = table_scene(view, text_of(state))
    assert scene.taker == view.last_trick_winner is not None
    assert [p.seat for p in scene.plays] == [p.seat for p in view.last_trick]
    assert [p.took for p in scene.plays] == [p.seat == scene.taker for p in scene.plays]
    assert near(Image.open(BytesIO(draw_table(scene))).convert("RGB"), TAKER)
    state.apply(rng.choice(state.all_legal_actions()))
    after = table_scene(state.view(None), text_of(state))
    assert after.taker is None and len(after.plays) <= 1


@pytest.mark.parametrize(("variant", "options"), samples(every=True))
def test_a_picture_tables_caption_says_whose_turn_and_the_score_not_the_trick(
    variant: str, options: dict[str, object]
) -> None:
    """The caption holds what is read better than seen: the deal, whose turn, tricks and the series' score;
    the trick is the picture's.  With six long names it stays within Telegram's 1,024."""
    for state in states(variant, options, 9, 6):
        view = state.view(None)
        seating = Seating(tuple("Кристина-Александра " + str(s) for s in range(state.num_players)), "Friends")
        caption = table_caption(view, seating, "ru")
        assert len(caption) <= MAX_CAPTION
        seating = names_of(state)
        caption = table_caption(view, seating, "en")
        assert caption.startswith("🐐 <b>") and f"· deal {view.deal_no + 1}" in caption.split("\n")[0]
        if view.to_move is not None:
            assert f"Turn: <b>{seating.name(view.to_move)}</b>" in caption
        assert score_line(view, seating, "en") in caption and "On the table" not in caption


def test_a_name_is_drawn_with_its_emoji_and_without_html() -> None:
    """A person's 🌸 stays in the pictures, as Telegram shows it; an escaped name reads as typed; on the table
    a computer's seat has the robot drawn beside its name, which so loses the 🤖 of the text; a name with
    nothing a bundled typeface has is written as its seat's player."""
    seating = Seating(("Ann 🌸", "Bob & <Co>", "Cid 🤖", "\u0905\u0906"))
    assert [seating.drawn(s, "en") for s in range(4)] == ["Ann 🌸", "Bob & <Co>", "Cid 🤖", "Player 4"]
    assert seating.drawn(3, "ru") == "Игрок 4" and seating.drawn(3, "cs") == "Hráč 4"
    assert seating.drawn_team(1, "en") == "Team 2 (Bob & <Co> & Player 4)"
    assert plain(seating.team(0, "en")) == "Team 1 (Ann 🌸 & Cid 🤖)"
    state = states("classic", {}, 2, 1)[0]
    scene = table_picture(state.view(None), seating, (2,), "en").scene
    assert isinstance(scene, TableScene) and scene.text.names == ("Ann 🌸", "Bob & <Co>", "Cid", "Player 4")


def deal_results(variant: str, options: dict[str, object], seed: int) -> GameState:
    """A series of random play, played to its end."""
    state, rng = find_variant(variant).new_game(seed, options), random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.all_legal_actions()))
    return state


@pytest.mark.parametrize(("variant", "options"), samples())
def test_F14_C13_K5_each_deals_result_draws_its_totals_and_who_it_went_to(
    variant: str, options: dict[str, object]
) -> None:
    """Each deal's picture: a side per team or player, its series total against the series' limit with the
    deal's part of it, the sides the deal went to lit as winners; under the byte budget."""
    state = deal_results(variant, options, 11)
    look = presenter(variant)
    seating = names_of(state)
    for result in state.deals:
        shown = look.result_picture(result, seating, "en")
        assert [line.total for line in shown.lines] == list(result.totals)
        assert [line.gained for line in shown.lines] == list(result.score)
        assert [line.winner for line in shown.lines] == [look.deal_won(result, s) for s in range(len(result.totals))]
        assert all(line.limit == look.limit for line in shown.lines) and shown.against == look.against
        assert not shown.goats and shown.eggs == (2 if result.eggs else 0)
    data = deal_result_picture(state.deals[-1], variant, seating, "en").data
    assert len(data) <= MAX_BYTES and Image.open(BytesIO(data)).size[0] == WIDTH


def test_K5_the_taker_of_the_kozel_is_drawn_with_a_goat() -> None:
    """Czech Kozel: the player who took the green over (13 penalty points, K5) has a goat by his name; one who
    took every trick (K7) has none: he scored nothing."""
    seen = 0
    for seed in range(8):
        state = deal_results("czech", {"players": 4}, seed)
        for result in state.deals:
            shown = presenter("czech").result_picture(result, names_of(state), "en")
            took = [s for s, p in enumerate(result.points) if p >= 13 and "all_tricks" not in result.events]
            assert [s for s, line in enumerate(shown.lines) if line.goat] == took
            seen += bool(took)
    assert seen


def test_F14_C13_a_deal_of_eggs_draws_its_eggs() -> None:
    eggs = DealResult(deal_no=2, dealer=0, leader=1, points=(60, 60), score=(0, 0), totals=(4, 2), tricks=(5, 4),
                      eggs=True)  # fmt: skip
    seating = Seating(("Ann", "Bob", "Cid", "Dan"))
    for variant in (name for name in variant_names() if find_variant(name).teams):
        shown = presenter(variant).result_picture(eggs, seating, "en")
        assert shown.eggs == 2 and "eggs" in shown.footer and not any(line.winner for line in shown.lines)
        image = Image.open(BytesIO(draw_result(shown))).convert("RGB")
        assert pixels(image, (250, 240, 215), 6) > 2_000  # the shells


@pytest.mark.parametrize(("variant", "options"), samples(every=True))
def test_F15_C14_K8_the_goats_of_a_series_are_drawn_large_with_their_names(
    variant: str, options: dict[str, object]
) -> None:
    """The end of a series: each goat (a losing team's two players, or Czech Kozel's players over 100) drawn
    large with his name, the goats' eggs if they are goats with eggs (F15), the winners with a cup."""
    state = deal_results(variant, options, 21)
    assert state.outcome is not None
    seating = names_of(state)
    shown = presenter(variant).outcome_picture(state.outcome, state.totals, seating, "en")
    losers = sorted(state.outcome.losers)
    assert shown.goats == tuple(seating.names[s] for s in losers)
    sides = range(len(state.totals))
    teams = find_variant(variant).teams
    winners = {state.outcome.winners[0] % 2} if teams else set(state.outcome.winners)
    assert [line.winner for line in shown.lines] == [side in winners for side in sides]
    assert [line.goat for line in shown.lines] == [not line.winner and (teams or s in losers)
                                                   for s, line in enumerate(shown.lines)]  # fmt: skip
    assert shown.eggs == (2 if state.outcome.with_eggs else 0)
    image = Image.open(BytesIO(draw_result(shown))).convert("RGB")
    assert pixels(image, (120, 98, 74), 14) > 400 * len(losers)  # the goats' horns, large
