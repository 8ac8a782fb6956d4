"""What the Mini App's page shows one person, as JSON: the table from his seat's view (a spectator's is the
group's), the caption's lines, the trick before the one on the table, the last deal's result, and his hand
with the hints of his private chat — only what his view holds (X1).  Every button of the hand carries the press
a tap in his private chat would send."""

from __future__ import annotations

from typing import Any

from bot.delivery.sending import visible
from bot.i18n import t
from bot.present import presenter
from bot.present.hand import hand_buttons, hand_hints
from bot.present.pictures import PLAYED, Placed, TableScene
from bot.present.render import render_deal_result, table_caption, table_view_scene
from bot.usecases.live import Live
from engine import Card, View

WORDS = ("app.hand", "app.last_trick", "app.previous", "app.offline", "app.spectator", "app.your_seat")


def card(c: Card, variant: str) -> dict[str, Any]:
    """A card as the page draws it: its label in the game's own names, and its suit (for its colour)."""
    return {"label": presenter(variant).card_label(c), "suit": int(c.suit)}


def placed(play: Placed, variant: str) -> dict[str, Any]:
    return {"seat": play.seat, "cards": [card(c, variant) for c in play.cards], "backs": play.backs,
            "molodka": play.molodka, "top": play.top, "took": play.took}  # fmt: skip


def lines(text: str) -> list[str]:
    """An HTML text of the chats as the page's lines of plain text (the page sets them as text, never HTML)."""
    return [line for line in visible(text).split("\n") if line.strip()]


def table(scene: TableScene, variant: str) -> dict[str, Any]:
    text = scene.text
    marks: dict[int, list[str]] = {}
    for seat, mark in text.marks:
        marks.setdefault(seat, []).append(mark)
    seats = [
        {"name": name, "computer": s in text.computers, "cards": scene.hand_sizes[s], "marks": marks.get(s, [])}
        for s, name in enumerate(text.names)
    ]
    return {
        "title": text.title,
        "players": scene.players,
        "to_move": scene.to_move,
        "seats": seats,
        "plays": [placed(p, variant) for p in scene.plays],
        "taken_by": text.taken_by,
        "stock": text.stock,
        "trump": text.trump,
        "trump_card": card(scene.trump_card, variant) if scene.trump_card is not None else None,
        "top": text.top,
        "molodka": text.molodka,
        "german": scene.german,
        "kozel": card(scene.kozel, variant) if scene.kozel is not None else None,
    }


def last_trick(view: View, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The trick taken before the one being played (the table itself shows a trick just taken)."""
    if not view.trick or not view.last_trick:
        return None
    plays = [p for p in view.last_trick if p.kind in PLAYED]
    return {
        "plays": [{"seat": p.seat, "cards": [card(c, view.variant) for c in p.cards] if not p.face_down else [],
                   "backs": p.count if p.face_down else 0} for p in plays],
        "taker": names[view.last_trick_winner] if view.last_trick_winner is not None else "",
    }  # fmt: skip


def page_state(live: Live, user_id: int, lang: str) -> dict[str, Any]:
    """The page of ``user_id`` at ``live``'s game: a seated person's from his seat (in his language), anyone
    else's as the group sees it (no hand), in ``lang``."""
    seat = live.seat_of(user_id)
    state = live.state
    view = state.view(seat)
    computers = [s for s in range(len(live.seats)) if live.level_of(s) is not None]
    lang = live.lang_of(seat) if seat is not None else lang
    seating = live.seating
    scene = table_view_scene(view, seating, computers, lang)
    previous = render_deal_result(view.deals[-1], view.variant, seating, lang) if view.deals else ""
    page: dict[str, Any] = {
        "game": live.game_id,
        "version": live.version,
        "variant": view.variant,
        "lang": lang,
        "you": seat,
        "table": table(scene, view.variant),
        "caption": lines(table_caption(view, seating, lang)),
        "last_trick": last_trick(view, scene.text.names),
        "previous": lines(previous),
        "over": state.outcome is not None,
        "hand": None,
        "words": {key.removeprefix("app."): t(lang, key) for key in WORDS},
    }
    if seat is not None:
        away = live.seats[seat].stand_in is not None
        selection = live.selection.get(seat, frozenset())
        buttons = hand_buttons(view, lang, live.game_id, live.version, selection, away=away)
        page["hand"] = {
            "cards": [{**card(b.card, view.variant), "state": b.state, "data": b.data} for b in buttons.cards],
            "moves": [{"text": b.text, "data": b.data} for b in buttons.moves],
            "hints": lines("\n".join(hand_hints(view, seating, lang, selection=selection, away=away))),
        }  # fmt: skip
    return page


def gone(lang: str) -> dict[str, Any]:
    """What a page of a game that is no longer running shows."""
    return {"gone": True, "text": t(lang, "app.gone"), "lang": lang}
