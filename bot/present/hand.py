"""A player's hand as he is shown it: the private chat's message (its text and buttons) and the same buttons as
values (``hand_buttons``), which the Mini App draws its own way.  Every button carries the press a tap sends
(``bot.callbacks``), so a tap in either place is the same press."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.callbacks import Back, Clear, Play, Toggle, Unplayable
from bot.i18n import t
from bot.present import Seating, game_title, presenter
from bot.present.render import cards_label, score_line, status_lines, trick_lines, tricks_lines
from engine import Action, Card, Kind, View

CARDS_PER_ROW = 5
CardState = Literal["chosen", "at_once", "discard_at_once", "playable", "greyed"]


@dataclass(frozen=True)
class CardButton:
    """One card of the hand: how it stands (chosen, played at one tap — face down for a discard —, playable,
    or greyed: no move takes it now) and the press a tap sends."""

    card: Card
    label: str
    state: CardState
    data: str

    @property
    def text(self) -> str:
        """As the private chat writes it: ✅ chosen, 🂠 a discard at one tap, ·greyed·."""
        mark = {"chosen": "✅", "discard_at_once": "🂠"}.get(self.state, "")
        return f"·{self.label}·" if self.state == "greyed" else mark + self.label


@dataclass(frozen=True)
class MoveButton:
    """A move that is no single card's: lead, beat or discard the cards chosen, clear them, a molodka, a
    redeal, going out of trumps, the double, coming back."""

    text: str
    data: str


@dataclass(frozen=True)
class HandButtons:
    cards: tuple[CardButton, ...]
    moves: tuple[MoveButton, ...]


def hand_status(view: View, seating: Seating, lang: str, *, choosing: bool = False) -> str:
    """What the seat is to do now; ``choosing``: cards of his are chosen (a tap then chooses, never plays)."""
    assert view.seat is not None
    plays = [a for a in view.legal if a.kind in (Kind.PLAY, Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.GIVE_BACK)]
    if any(a.kind is Kind.GIVE_BACK for a in view.legal):
        received = view.deal_log[-1].cards if view.deal_log and view.deal_log[-1].cards else ()
        return t(lang, "hand.giveback", card=cards_label(received, view.variant))
    if view.to_move == view.seat and plays:
        answer = presenter(view.variant).answer_prompt(view, lang, choosing=choosing)
        if answer is not None:
            return answer
        return t(lang, "hand.your_turn_lead" if not view.trick else "hand.your_turn")
    return t(lang, "hand.wait", name=seating.name(view.to_move))


def hand_hints(
    view: View, seating: Seating, lang: str, *, selection: frozenset[Card] = frozenset(), away: bool = False
) -> list[str]:
    """What the hand says under the table: the exchange he knows of, the cards chosen and what they still
    lack, what he is to do, and what a greyed card means — or, while a computer holds his seat, his cards and
    how to come back."""
    shown = presenter(view.variant)
    lines = []
    if view.exchange is not None:
        given, back = view.exchange
        lines.append(t(lang, "hand.exchange_known", given=shown.card_label(given), back=shown.card_label(back)))
    selection = frozenset(c for c in selection if c in view.hand)
    trump = int(view.trump) if view.trump is not None else None
    if shown.selects_cards and selection:
        lines += shown.chosen_lines(view, shown.sort_hand(selection, trump), lang)
    if away:
        return [*lines, "", shown.cards_label(shown.sort_hand(view.hand, trump)), t(lang, "hand.away")]
    lines += ["", hand_status(view, seating, lang, choosing=bool(selection))]
    if view.to_move == view.seat and not set(view.hand) <= playable_cards(view):  # what ·J♥· means, on his turn
        lines.append(t(lang, "hand.greyed"))
    return lines


def render_hand(
    view: View,
    seating: Seating,
    lang: str,
    *,
    game_id: int,
    version: int,
    selection: frozenset[Card] = frozenset(),
    away: bool = False,
    app_url: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A player's hand message: the table as he sees it, and his cards as buttons (legal ones active).
    ``away``: a computer player holds his seat; he sees his cards and one button to come back.  ``app_url``:
    the Mini App's address, opened by a last button (none without it)."""
    assert view.seat is not None
    lines = [
        t(lang, "hand.header", game=game_title(view.variant, lang), chat=escape(seating.chat_title),
          deal=view.deal_no + 1),
        *status_lines(view, seating, lang),
        *trick_lines(view, seating, lang),
        *tricks_lines(view, seating, lang),
        score_line(view, seating, lang),
        *hand_hints(view, seating, lang, selection=selection, away=away),
    ]  # fmt: skip
    buttons = hand_buttons(view, lang, game_id, version, selection, away=away)
    return "\n".join(lines), hand_keyboard(buttons, lang, app_url)


def playable_cards(view: View) -> set[Card]:
    """The cards of the hand that a tap may use now; the others are shown ·greyed·."""
    if presenter(view.variant).selects_cards:
        return {c for a in view.legal for c in a.cards}
    return {a.cards[0] for a in view.legal if a.kind in (Kind.PLAY, Kind.GIVE_BACK) and len(a.cards) == 1}


def hand_buttons(
    view: View, lang: str, game_id: int, version: int, selection: frozenset[Card], *, away: bool = False
) -> HandButtons:
    """The hand's card buttons (legal ones active) and its moves; while a computer holds the seat, only the
    button to come back."""
    if away:
        return HandButtons((), (MoveButton(t(lang, "hand.back_button"), Back(game_id).data()),))

    def play(action: Action) -> str:
        return Play(game_id, version, action).data()

    unplayable = Unplayable(game_id, version).data()
    shown = presenter(view.variant)
    trump = int(view.trump) if view.trump is not None else None
    selection = frozenset(c for c in selection if c in view.hand)
    cards: list[CardButton] = []
    at_once = {} if selection or not shown.selects_cards else shown.one_tap(view)  # once choosing, a tap chooses
    if shown.selects_cards:
        playable = playable_cards(view)
        for card in shown.sort_hand(view.hand, trump):
            label, toggle = shown.card_label(card), Toggle(game_id, version, card).data()
            if card in selection:
                cards.append(CardButton(card, label, "chosen", toggle))
            elif card in at_once:  # a discard is marked with the back it will show on the table
                state: CardState = "discard_at_once" if at_once[card].kind is Kind.DISCARD else "at_once"
                cards.append(CardButton(card, label, state, play(at_once[card])))
            elif card in playable:
                cards.append(CardButton(card, label, "playable", toggle))
            else:
                cards.append(CardButton(card, label, "greyed", unplayable))
    else:
        by_card: dict[Card, Action] = {
            a.cards[0]: a for a in view.legal if a.kind in (Kind.PLAY, Kind.GIVE_BACK) and len(a.cards) == 1
        }
        for card in shown.sort_hand(view.hand, trump):
            action = by_card.get(card)
            if action is not None:
                cards.append(CardButton(card, shown.card_label(card), "at_once", play(action)))
            else:
                cards.append(CardButton(card, shown.card_label(card), "greyed", unplayable))
    moves: list[MoveButton] = []
    forced = shown.forced_cards(view) if shown.selects_cards else None
    if shown.selects_cards and (selection or forced):
        chosen = forced or tuple(sorted(selection))  # a forced move takes one tap, nothing to choose
        assert view.seat is not None
        for kind, key in ((Kind.LEAD, "button.lead"), (Kind.BEAT, "button.beat"), (Kind.DISCARD, "button.discard")):
            action = Action(view.seat, kind, chosen)
            if action in view.legal and action not in at_once.values():  # no second button for one move
                moves.append(MoveButton(t(lang, key, count=len(chosen)), play(action)))
        if selection:
            moves.append(MoveButton(t(lang, "button.clear"), Clear(game_id, version).data()))
    for action in view.legal:
        if action.kind is Kind.MOLODKA:
            moves.append(MoveButton(t(lang, "button.molodka"), play(action)))
        elif action.kind is Kind.REDEAL:
            moves.append(MoveButton(t(lang, "button.redeal"), play(action)))
        elif action.kind is Kind.EXCHANGE:
            moves.append(MoveButton(t(lang, "button.exchange", card=shown.card_label(action.cards[0])), play(action)))
        elif action.kind is Kind.DOUBLE:
            moves.append(MoveButton(t(lang, "button.double"), play(action)))
    return HandButtons(tuple(cards), tuple(moves))


def hand_keyboard(buttons: HandButtons, lang: str, app_url: str | None = None) -> InlineKeyboardMarkup | None:
    """The hand's buttons as the private chat's keyboard: cards five a row, moves two a row, and the Mini App
    last where it is on; None for no button at all (Telegram refuses an empty keyboard)."""
    cards = [InlineKeyboardButton(b.text, callback_data=b.data) for b in buttons.cards]
    moves = [InlineKeyboardButton(b.text, callback_data=b.data) for b in buttons.moves]
    rows = [cards[i : i + CARDS_PER_ROW] for i in range(0, len(cards), CARDS_PER_ROW)]
    rows += [moves[i : i + 2] for i in range(0, len(moves), 2)]
    if app_url is not None and rows:
        rows.append([InlineKeyboardButton(t(lang, "app.open"), web_app=WebAppInfo(app_url))])
    return InlineKeyboardMarkup(rows) if rows else None
