"""Pure render functions of a game: engine views and results in, message text and inline keyboards out.

Nothing here talks to Telegram or decides a rule: the choices offered are exactly ``view.legal``.  What
differs between the games is asked of their presenter (``bot.present``).  Texts are HTML (names are
escaped here).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from telegram import InlineKeyboardMarkup

from bot.delivery.sending import Picture
from bot.i18n import t
from bot.present import GAMES, Seating, game_title, presenter
from bot.present.pictures import TableScene, TableText, draw_table, table_scene
from bot.present.result_pictures import draw_result
from engine import Card, DealResult, Kind, Outcome, SeenPlay, View

FACE_DOWN = "🂠"
ROBOT = "🤖"  # the mark of a computer's seat in the texts
VARIANT_NAMES = GAMES
Rendered = tuple[str, InlineKeyboardMarkup | None]

__all__ = ["VARIANT_NAMES", "Rendered", "Seating", "game_title"]


# --- cards --------------------------------------------------------------------------------------------------


def card_label(card: Card, variant: str) -> str:
    return presenter(variant).card_label(card)


def cards_label(cards: Sequence[Card], variant: str) -> str:
    return presenter(variant).cards_label(cards)


def sort_hand(cards: Iterable[Card], variant: str, trump: int | None = None) -> list[Card]:
    """Cards sorted for display: by suit and rank order of the game (trumps together, classic trumps first)."""
    return presenter(variant).sort_hand(cards, trump)


def play_label(play: SeenPlay, variant: str) -> str:
    if play.face_down:
        return FACE_DOWN * play.count
    return cards_label(play.cards, variant)


# --- the table ----------------------------------------------------------------------------------------------


def play_line(play: SeenPlay, variant: str, seating: Seating, lang: str) -> str:
    text = play_label(play, variant)
    if play.kind is Kind.MOLODKA:  # the 🔥 says what it is where it is seen
        text = t(lang, "table.molodka", cards=text)
    elif play.kind is Kind.DISCARD and not play.face_down:  # one's own discard: cards beside a lead read as a beat
        text = t(lang, "table.own_discard", cards=text)
    return "  " + t(lang, "table.play", name=seating.name(play.seat), cards=text)


def finished_trick_lines(
    plays: Sequence[SeenPlay], winner: int | None, variant: str, seating: Seating, lang: str
) -> list[str]:
    """A trick that is over, every card of it, and who took it (None: the deal stopped before it was
    complete, and nobody took it)."""
    lines = [t(lang, "table.trick") if winner is None else t(lang, "table.trick_taken", name=seating.name(winner))]
    return lines + [play_line(play, variant, seating, lang) for play in plays]


def trick_lines(view: View, seating: Seating, lang: str) -> list[str]:
    """The trick on the table; between a trick's last card and the next lead, the finished trick (its
    completing card included) with who took it."""
    if not view.trick and view.last_trick:
        return finished_trick_lines(view.last_trick, view.last_trick_winner, view.variant, seating, lang)
    if not view.trick:
        return [t(lang, "table.trick_empty")]
    marks_top = presenter(view.variant).marks_trick_top
    lines = [t(lang, "table.trick")]
    for index, play in enumerate(view.trick):
        line = play_line(play, view.variant, seating, lang)
        if marks_top and index == view.trick_top and len(view.trick) > 1:
            line += t(lang, "table.top")
        lines.append(line)
    return lines


def tricks_lines(view: View, seating: Seating, lang: str) -> list[str]:
    """Tricks taken so far in the deal, per team or player (never card points: face-down discards, X1)."""
    if not view.tricks_taken or not any(view.tricks_taken):
        return []
    return [presenter(view.variant).tricks_line(view.tricks_taken, seating, lang)]


def score_line(view: View, seating: Seating, lang: str) -> str:
    return presenter(view.variant).score_line(view.totals, seating, lang)


def announcements(view: View, seating: Seating, lang: str) -> list[str]:
    keys = {
        Kind.EXCHANGE: "table.announce.exchange",
        Kind.DOUBLE: "table.announce.double",
    }
    return [t(lang, keys[p.kind], name=seating.name(p.seat)) for p in view.deal_log if p.kind in keys]


def status_lines(view: View, seating: Seating, lang: str) -> list[str]:
    """Trump, stock or talon and the special state of the deal."""
    return presenter(view.variant).status_lines(view, seating, lang)


def render_table(view: View, seating: Seating, lang: str) -> str:
    """The group's one table message for the current deal (public view only)."""
    lines = [
        t(lang, "table.header", game=game_title(view.variant, lang), deal=view.deal_no + 1),
        t(lang, "table.dealer", name=seating.name(view.dealer)),
        *status_lines(view, seating, lang),
        *announcements(view, seating, lang),
        "",
        *trick_lines(view, seating, lang),
        *tricks_lines(view, seating, lang),
        "",
    ]
    if view.to_move is not None:
        lines.append(t(lang, "table.turn", name=seating.name(view.to_move)))
    lines.append(score_line(view, seating, lang))
    return "\n".join(lines)


def table_caption(view: View, seating: Seating, lang: str) -> str:
    """The caption under the table picture: the text table without what the picture shows better (the trick,
    the dealer): its header (what a chat list shows of the message), the trump and what was announced, whose
    turn it is, the deal's tricks and the series' score."""
    said = [*status_lines(view, seating, lang), *announcements(view, seating, lang)]
    lines = [t(lang, "table.header", game=game_title(view.variant, lang), deal=view.deal_no + 1), *said, ""]
    if view.to_move is not None:
        lines.append(t(lang, "table.turn", name=seating.name(view.to_move)))
    lines += [*tricks_lines(view, seating, lang), score_line(view, seating, lang)]
    return "\n".join(lines)


def unmarked(name: str) -> str:
    """A computer's name without the robot its text carries ("🤖 Bot 2", "Ann 🤖"), for the table, which
    draws the robot beside it."""
    return name.removeprefix(ROBOT).removesuffix(ROBOT).strip() or name


def table_picture(view: View, seating: Seating, computers: Collection[int], lang: str) -> Picture:
    """The group's table of the current deal as a picture (public view only); ``computers``: the seats a
    computer plays now (each drawn with a robot)."""
    return Picture(table_view_scene(view, seating, computers, lang), draw_table)


def table_view_scene(view: View, seating: Seating, computers: Collection[int], lang: str) -> TableScene:
    """What the table of ``view`` shows, as a value: the group's picture draws the public view's, the Mini App
    a seat's (where his own face-down discards are his to see)."""
    look = presenter(view.variant)
    trump = t(lang, "picture.trump", suit=view.trump.symbol) if view.trump is not None else ""
    stock = t(lang, "table.stock", count=view.stock_size) if view.stock_size else ""
    if view.talon_size:
        stock = t(lang, "picture.talon", count=view.talon_size)
    marks = {Kind.EXCHANGE: "⇄", Kind.DOUBLE: "×2"}
    names = tuple(seating.drawn(seat, lang) for seat in range(len(seating.names)))
    # a computer's seat has its robot drawn beside the name, which so loses the robot the text marks it with
    plates = tuple(unmarked(name) if seat in computers else name for seat, name in enumerate(names))
    winner = view.last_trick_winner if not view.trick and view.last_trick else None
    text = TableText(
        title=t(lang, "picture.title", game=game_title(view.variant, lang), deal=view.deal_no + 1),
        names=plates,
        computers=tuple(sorted(computers)),
        taken_by=t(lang, "picture.taken_by", name=names[winner]) if winner is not None else "",
        stock=stock,
        trump=trump,
        marks=tuple((p.seat, marks[p.kind]) for p in view.deal_log if p.kind in marks),
        top=t(lang, "picture.top"),
    )
    return table_scene(view, text, german=look.german_cards, kozel=look.marked_card, marks_top=look.marks_trick_top)


def render_hand_closed(
    result: DealResult,
    variant: str,
    seating: Seating,
    lang: str,
    *,
    outcome: Outcome | None,
    before: Sequence[str] = (),
) -> str:
    """The hand message of a finished deal, without buttons: ``before`` (the deal's last trick), then the deal's
    result and, when it ended the series, its outcome, so that a player reads how it went where he played."""
    parts = [render_deal_result(result, variant, seating, lang)]
    if outcome is not None:
        parts.append(render_outcome(outcome, variant, seating, lang))
    last = "\n\n".join(parts)
    return "\n".join([*before, "", last]) if before else last


# --- results ------------------------------------------------------------------------------------------------


def render_deal_result(result: DealResult, variant: str, seating: Seating, lang: str) -> str:
    lines = [t(lang, "deal.header", deal=result.deal_no + 1, game=game_title(variant, lang))]
    lines += presenter(variant).result_lines(result, seating, lang)
    return "\n".join(lines)


def render_outcome(outcome: Outcome, variant: str, seating: Seating, lang: str) -> str:
    return "\n".join(presenter(variant).outcome_lines(outcome, seating, lang))


def deal_result_picture(result: DealResult, variant: str, seating: Seating, lang: str) -> Picture:
    return Picture(presenter(variant).result_picture(result, seating, lang), draw_result)


def outcome_picture(outcome: Outcome, totals: Sequence[int], variant: str, seating: Seating, lang: str) -> Picture:
    return Picture(presenter(variant).outcome_picture(outcome, totals, seating, lang), draw_result)


def deal_line(result: DealResult, variant: str, seating: Seating, lang: str) -> str:
    """One deal in /score's list of the series."""
    line = presenter(variant).deal_summary(result, seating, lang)
    return t(lang, "score.deal_line", deal=result.deal_no + 1, line=line)
