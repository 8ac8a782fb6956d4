"""The group's table drawn as one picture (Pillow): the players' places around a card table, each play of the
trick at its player's place, the stock and trump, the cards left in each hand, and who is to move.

What is drawn once is kept: each card's face and the card back (drawn at twice the size and scaled down, so
their edges and letters are smooth), and the empty table for each number of places.  A picture is then those
pieces pasted and a few names written, and sent as a JPEG: Telegram recompresses every photo to JPEG anyway.
Everything the picture says in words comes in already translated (``TableText``): the presenters choose the
words, this module only where they go.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.present.lettering import Box, fitted, put, write
from bot.present.typeface import typeface
from engine import Card, Kind, Rank, Suit, View

WIDTH, HEIGHT = 1024, 768
CARD_W, CARD_H = 84, 120
FELT = (24, 102, 66)
FELT_RIM = (14, 66, 42)
WOOD = (92, 58, 33)
PLATE = (250, 250, 247)
TO_MOVE = (255, 213, 79)
TAKER = (129, 199, 132)
INK = (28, 31, 35)
WHITE = (255, 255, 255)
MUTED = (96, 104, 112)
RED = (198, 40, 40)
BLACK = (26, 26, 26)
GREEN = (46, 125, 50)
BROWN = (121, 77, 38)
GOLD = (214, 160, 0)
# French suits by their printed colour; the German ones of Czech Kozel (K2) by theirs, each with its own shape,
# so hearts and leaves differ in shape as much as in colour.
FRENCH = {Suit.SPADES: ("♠", BLACK), Suit.CLUBS: ("♣", BLACK), Suit.DIAMONDS: ("♦", RED), Suit.HEARTS: ("♥", RED)}
GERMAN = {Suit.HEARTS: ("heart", RED), Suit.SPADES: ("leaf", GREEN), Suit.CLUBS: ("acorn", BROWN),
          Suit.DIAMONDS: ("bell", GOLD)}  # fmt: skip
GERMAN_RANKS = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "A"}
JPEG_QUALITY = 80
NAME_SIZE = 26
NAME_ROOM = 250  # the widest a name is written on its plate: six plates round the table stay apart
NAME_SMALLEST = 18  # a longer name is cut (with "…") rather than written smaller: it stays readable


@dataclass(frozen=True)
class TableText:
    """The words of a table picture, in the chat's language."""

    title: str  # "Four-card Kozel · deal 3"
    names: tuple[str, ...]  # by seat
    computers: tuple[int, ...]  # the seats a computer plays (a computer's own, or a stand-in's)
    taken_by: str = ""  # "Taken by Ann" under a finished trick, "" while none is shown
    stock: str = ""  # "Stock: 12" (four-card), "Talon: 2" (Czech), "" without one
    trump: str = ""  # "Trumps ♠" (four-card), "" in a game whose trumps never change
    marks: tuple[tuple[int, str], ...] = ()  # (seat, "×2" / "⇄"): the K6 double, the C7 exchange
    molodka: str = "M"  # the mark of a molodka on the table (F10)
    top: str = ""  # "to beat", under the cards the next answer must beat (F8)


_font = typeface


# --- cards --------------------------------------------------------------------------------------------------


def _suit_shape(
    draw: ImageDraw.ImageDraw, shape: str, at: tuple[float, float], size: float, colour: tuple[int, int, int]
) -> None:
    """A German suit sign drawn as a shape centred ``at`` (DejaVu has no leaf, acorn or bell)."""
    (cx, cy), r = at, size / 2
    if shape == "heart":
        draw.ellipse([cx - r, cy - r * 0.8, cx, cy + r * 0.1], fill=colour)
        draw.ellipse([cx, cy - r * 0.8, cx + r, cy + r * 0.1], fill=colour)
        draw.polygon([(cx - r * 0.97, cy - r * 0.2), (cx + r * 0.97, cy - r * 0.2), (cx, cy + r)], fill=colour)
    elif shape == "leaf":
        points = [(cx + r * 0.75 * math.sin(a) * math.sin(a / 2) * 1.6, cy - r * math.cos(a))
                  for a in [i * math.pi / 24 for i in range(49)]]  # fmt: skip
        draw.polygon(points, fill=colour)
        draw.line([(cx, cy - r * 0.7), (cx, cy + r * 1.15)], fill=(240, 248, 240), width=max(1, int(size / 14)))
    elif shape == "acorn":
        draw.ellipse([cx - r * 0.55, cy - r * 0.35, cx + r * 0.55, cy + r], fill=colour)
        draw.chord([cx - r * 0.75, cy - r * 0.85, cx + r * 0.75, cy + r * 0.15], 180, 360, fill=(78, 52, 28))
        draw.rectangle([cx - r * 0.75, cy - r * 0.38, cx + r * 0.75, cy - r * 0.25], fill=(78, 52, 28))
        draw.line([(cx, cy - r * 0.85), (cx + r * 0.15, cy - r * 1.1)], fill=(78, 52, 28), width=max(1, int(size / 10)))
    else:  # a bell
        draw.chord([cx - r * 0.8, cy - r, cx + r * 0.8, cy + r * 0.6], 180, 360, fill=colour)
        draw.polygon([(cx - r * 0.8, cy - r * 0.2), (cx + r * 0.8, cy - r * 0.2), (cx + r, cy + r * 0.55),
                      (cx - r, cy + r * 0.55)], fill=colour)  # fmt: skip
        draw.ellipse([cx - r * 0.22, cy + r * 0.5, cx + r * 0.22, cy + r * 0.94], fill=(150, 110, 0))


def _sign(draw: ImageDraw.ImageDraw, card: Card, german: bool, at: tuple[float, float], size: int) -> None:
    if german:
        shape, colour = GERMAN[card.suit]
        _suit_shape(draw, shape, at, size, colour)
    else:
        symbol, colour = FRENCH[card.suit]
        draw.text(at, symbol, font=_font(size, False), fill=colour, anchor="mm")


@cache
def card_face(card: Card, german: bool, kozel: bool = False) -> Image.Image:
    """A card face, face up: its rank and suit in the corner, the suit large in the middle; the kozel (K5)
    framed in gold."""
    s = 2
    image = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([1, 1, CARD_W * s - 2, CARD_H * s - 2], radius=10 * s, fill=(255, 255, 255),
                           outline=GOLD if kozel else (150, 150, 150), width=(5 if kozel else 2) * s)  # fmt: skip
    rank = GERMAN_RANKS.get(card.rank, card.rank.text) if german else card.rank.text
    colour = (GERMAN if german else FRENCH)[card.suit][1]
    draw.text((10 * s, 6 * s), rank, font=_font(34 * s, True), fill=colour)
    _sign(draw, card, german, (22 * s, 62 * s), 26 * s)
    _sign(draw, card, german, (54 * s, 86 * s), 44 * s)
    return image.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


@cache
def card_back() -> Image.Image:
    s = 2
    image = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([1, 1, CARD_W * s - 2, CARD_H * s - 2], radius=10 * s, fill=(255, 255, 255),
                           outline=(150, 150, 150), width=2 * s)  # fmt: skip
    draw.rounded_rectangle([7 * s, 7 * s, (CARD_W - 7) * s, (CARD_H - 7) * s], radius=6 * s, fill=(44, 82, 150))
    for i in range(-CARD_H, CARD_W + CARD_H, 12):  # a lattice
        draw.line([(i * s, 7 * s), ((i + CARD_H) * s, (CARD_H + 7) * s)], fill=(70, 110, 180), width=s)
        draw.line([(i * s, (CARD_H - 7) * s), ((i + CARD_H) * s, -7 * s)], fill=(70, 110, 180), width=s)
    draw.rounded_rectangle([1, 1, CARD_W * s - 2, CARD_H * s - 2], radius=10 * s, outline=(150, 150, 150),
                           width=2 * s)  # fmt: skip
    return image.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)


@cache
def mini_back() -> Image.Image:
    """The card back as small as a letter: the count of the cards in a hand."""
    return card_back().resize((19, 27), Image.Resampling.LANCZOS)


# --- the table ------------------------------------------------------------------------------------------------


def place(seat: int, players: int, rx: float, ry: float) -> tuple[float, float]:
    """Where seat ``seat`` of ``players`` sits on an ellipse round the middle: seat 0 at the bottom, then
    clockwise as play goes, so partners (0 and 2, 1 and 3) face each other across the table."""
    angle = math.pi / 2 + 2 * math.pi * seat / players
    return WIDTH / 2 + rx * math.cos(angle), HEIGHT / 2 + 20 + ry * math.sin(angle)


@cache
def empty_table(players: int) -> Image.Image:
    """The table itself: wood, felt and its rim, drawn smooth once per number of places."""
    s = 2
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), WOOD)
    draw = ImageDraw.Draw(image)
    cx, cy = WIDTH * s / 2, (HEIGHT / 2 + 20) * s
    rx, ry = 470 * s, 320 * s
    draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=FELT_RIM)
    draw.ellipse([cx - rx + 14 * s, cy - ry + 14 * s, cx + rx - 14 * s, cy + ry - 14 * s], fill=FELT)
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _robot(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int]) -> None:
    """A small robot's head: the computer mark (🤖 in the text)."""
    draw.rounded_rectangle([x, y - 9, x + 20, y + 9], radius=4, fill=colour)
    draw.ellipse([x + 4, y - 4, x + 8, y], fill=PLATE)
    draw.ellipse([x + 12, y - 4, x + 16, y], fill=PLATE)
    draw.line([(x + 10, y - 9), (x + 10, y - 14)], fill=colour, width=2)
    draw.ellipse([x + 8, y - 17, x + 12, y - 13], fill=colour)


def _paste_cards(
    image: Image.Image, plays: Sequence[Image.Image], cx: float, cy: float, step: int = 30
) -> tuple[float, float, float, float]:
    """Cards side by side, overlapping, centred on (cx, cy); returns their box."""
    width = CARD_W + step * (len(plays) - 1)
    x0, y0 = cx - width / 2, cy - CARD_H / 2
    for i, face in enumerate(plays):
        image.paste(face, (round(x0 + i * step), round(y0)), face)
    return x0, y0, x0 + width, y0 + CARD_H


@dataclass(frozen=True)
class Placed:
    """One play of the trick at its player's place: cards face up, or as many backs (face-down discards);
    ``top``: the cards the next answer must beat (F8), ``molodka``: a molodka (F10)."""

    seat: int
    cards: tuple[Card, ...]
    backs: int = 0
    molodka: bool = False
    top: bool = False
    took: bool = False  # the play that took the finished trick shown


@dataclass(frozen=True)
class TableScene:
    """Everything a table picture shows, as a value: the picture is a function of it, and equal scenes are
    the same picture (``bot.delivery.sending.Picture``)."""

    text: TableText
    players: int
    to_move: int | None
    plays: tuple[Placed, ...]  # the trick on the table, or the finished one until the next lead
    taker: int | None  # who took the finished trick shown, None while a trick is being played
    hand_sizes: tuple[int, ...]
    stock: int = 0  # cards in the stock (four-card Kozel)
    trump_card: Card | None = None  # the shown trump card, while it lies in the stock (F5)
    talon: int = 0  # cards out of play, face down (Czech Kozel, K3)
    german: bool = False  # German-suited cards (K2)
    kozel: Card | None = None  # the card framed in gold (K5)


PLAYED = frozenset({Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.PLAY, Kind.MOLODKA})


def table_scene(
    view: View, text: TableText, *, german: bool = False, kozel: Card | None = None, marks_top: bool = False
) -> TableScene:
    """What the group's table of ``view`` (the public view) shows; ``marks_top``: the game answers the
    current top of the trick (four-card Kozel), which is marked once it has been answered."""
    finished = not view.trick and bool(view.last_trick)
    shown = view.last_trick if finished else view.trick
    top = view.trick_top if marks_top and not finished and len(view.trick) > 1 else None
    taker = view.last_trick_winner if finished else None
    plays = tuple(
        Placed(p.seat, () if p.face_down else p.cards, p.count if p.face_down else 0, p.kind is Kind.MOLODKA,
               index == top, p.seat == taker and not p.face_down)
        for index, p in enumerate(shown)
        if p.kind in PLAYED
    )  # fmt: skip
    held = view.trump_card_holder is not None
    return TableScene(
        text=text,
        players=view.num_players,
        to_move=view.to_move,
        plays=plays,
        taker=taker,
        hand_sizes=view.hand_sizes,
        stock=view.stock_size,
        trump_card=None if held else view.trump_card,
        talon=view.talon_size,
        german=german,
        kozel=kozel,
    )


def _faces(play: Placed, german: bool, kozel: Card | None) -> list[Image.Image]:
    if play.backs:
        return [card_back()] * play.backs
    return [card_face(card, german, card == kozel) for card in play.cards]


def _chip(image: Image.Image, at: tuple[float, float], label: str, fill: tuple[int, int, int]) -> None:
    """A small rounded label centred ``at``, as wide as its words (at most 180 pixels)."""
    shown = fitted(label, 20, True, "mm", (80, 80, 13, 13))
    half = max(-shown.ink[0], shown.ink[2]) + 10
    chip = (at[0] - half, at[1] - 14, at[0] + half, at[1] + 14)
    ImageDraw.Draw(image).rounded_rectangle(chip, radius=12, fill=fill)
    put(image, at, shown, INK, place=chip, text=label)


def draw_table(scene: TableScene) -> bytes:
    """The group's table as a JPEG."""
    n, text = scene.players, scene.text
    image = empty_table(n).copy()
    draw = ImageDraw.Draw(image)
    title_right = WIDTH - 16.0
    if text.trump:  # the trump suit in the corner, big, all deal long (the trump card leaves with the stock)
        title_right = write(image, (WIDTH - 24, 16), text.trump, 30, WHITE, place=(WIDTH / 2, 6, WIDTH - 16, 58),
                            anchor="ra")[0] - 24  # fmt: skip
    write(image, (24, 16), text.title, 30, WHITE, place=(16, 6, title_right, 58))

    for play in scene.plays:
        x, y = place(play.seat, n, 215 if n <= 4 else 270, 172)
        box = _paste_cards(image, _faces(play, scene.german, scene.kozel), x, y)
        if play.top or play.took:  # what the next answer must beat, as the seat to move; what took the trick
            outline = TO_MOVE if play.top else TAKER
            draw.rounded_rectangle([box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5], radius=14, outline=outline,
                                   width=5)  # fmt: skip
        if play.top:
            _chip(image, ((box[0] + box[2]) / 2, box[3] + 4), text.top, TO_MOVE)
        if play.molodka:
            _chip(image, (box[0] + 14, box[1] - 1), text.molodka, GOLD)

    middle = (WIDTH / 2, HEIGHT / 2 + 20)
    if scene.stock or scene.trump_card is not None:  # four-card Kozel: the stock, and its trump card (F4, F5)
        if scene.trump_card is not None:
            trump = card_face(scene.trump_card, scene.german)
            image.paste(trump, (round(middle[0] - 2), round(middle[1] - CARD_H / 2)), trump)
        for i in range(min(3, (scene.stock + 7) // 8)):
            back = card_back()
            image.paste(back, (round(middle[0] - 92 + 3 * i), round(middle[1] - CARD_H / 2 - 3 * i)), back)
    elif scene.talon:  # Czech Kozel: the talon out of play (K3)
        back = card_back()
        image.paste(back, (round(middle[0] - CARD_W / 2), round(middle[1] - CARD_H / 2)), back)
    if text.stock:
        at = (middle[0] - 4, middle[1] + CARD_H / 2 + 16)
        write(image, at, text.stock, 22, WHITE, place=(at[0] - 150, at[1] - 16, at[0] + 150, at[1] + 16), anchor="mm")
    if scene.taker is not None and text.taken_by:  # between the plays of the seats at the sides
        at = (middle[0], middle[1] - CARD_H / 2 - 24)
        around = (at[0] - 190, at[1] - 24, at[0] + 190, at[1] + 17)
        write(image, at, text.taken_by, 26, WHITE, place=around, anchor="mm")

    marks = dict(text.marks)
    for seat in range(n):
        x, y = place(seat, n, 420, 290)
        name = text.names[seat] if seat < len(text.names) else "?"
        shown = fitted(name, NAME_SIZE, True, "lm", (6, NAME_ROOM, 22, 18), smallest=NAME_SMALLEST)
        robot = 30 if seat in text.computers else 0
        width = max(90, shown.ink[2] + robot + 36)  # room below the name for the count of cards
        lit = seat == scene.to_move
        fill = TO_MOVE if lit else TAKER if seat == scene.taker else PLATE
        chip_out = 46 if seat in marks else 0  # the mark's chip stands out of the plate's right end
        x = min(max(x, 12 + width / 2), WIDTH - 12 - chip_out - width / 2)  # a long name stays in the picture
        plate = (x - width / 2, y - 34, x + width / 2, y + 34)
        draw.rounded_rectangle(plate, radius=14, fill=fill, outline=INK if lit else MUTED, width=4 if lit else 1)
        left = plate[0] + 18
        if seat in text.computers:
            _robot(draw, left, y - 10, MUTED)
            left += robot
        name_place: Box = (left - 6, y - 32, plate[2] - 12, y + 8)
        put(image, (left, y - 10), shown, INK, place=name_place, text=name)
        cards = scene.hand_sizes[seat] if seat < len(scene.hand_sizes) else 0
        mini = mini_back()
        image.paste(mini, (round(x - 24), round(y + 3)), mini)
        write(image, (x + 3, y + 17), str(cards), 24, MUTED, place=(x, y + 3, plate[2] - 4, y + 32), anchor="lm")
        if seat in marks:
            chip = (plate[2] - 8, plate[1] - 14, plate[2] + 46, plate[1] + 18)
            draw.rounded_rectangle(chip, radius=12, fill=RED)
            write(image, ((chip[0] + chip[2]) / 2, (chip[1] + chip[3]) / 2), marks[seat], 20, WHITE, place=chip,
                  anchor="mm")  # fmt: skip

    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=False)
    return out.getvalue()
