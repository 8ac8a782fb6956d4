"""The table as a picture (bot/pictures.py): every game and phase draws, at the size Telegram keeps, under
its byte budget, with the marks the table needs."""

from __future__ import annotations

import random
from io import BytesIO

import pytest
from PIL import Image, ImageChops

from bot.pictures import GOLD, HEIGHT, RED, TO_MOVE, WIDTH, ResultLine, ResultText, draw_result
from bot.present import Seating
from bot.render import table_picture
from engine import GameState, Kind, find_variant

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
    data = table_picture(state.view(None), Seating(names, "Friends"), computers, "en")
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


@pytest.mark.parametrize(
    ("variant", "options"),
    [("four_card", {}), ("classic", {}), ("classic", {"deck": 32}), ("czech", {"players": 3}),
     ("czech", {"players": 6})],
)  # fmt: skip
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
    for seed in range(40):
        state = find_variant("czech").new_game(seed, {"players": 4})
        doubles = [a for a in state.all_legal_actions() if a.kind is Kind.DOUBLE]
        if doubles:
            state.apply(doubles[0])
            assert near(picture(state), RED, tolerance=16)
            return
    pytest.fail("no deal offered the double")


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
