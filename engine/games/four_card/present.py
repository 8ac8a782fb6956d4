"""Four-card Kozel: one trump suit shown with its card and the stock; cards are chosen, then played."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import t, tn
from bot.present.base import Seating
from bot.present.teams import TeamPresenter
from engine import Action, Card, Kind, View
from engine.games.four_card.rules import ORDER, SERIES_LIMIT


class FourCardPresenter(TeamPresenter):
    name = "four_card"
    selects_cards = True  # F7/F8: a lead or an answer is several cards
    marks_trick_top = True
    score_key = "deal.defeat"
    totals_key = "table.penalty_teams"  # F15: toward 12 that lose, not 12 that win as in classic Kozel
    limit = SERIES_LIMIT
    stats_counts = ("eggs", "molodkas")  # F14, F10

    def sort_hand(self, cards: Iterable[Card], trump: int | None = None) -> list[Card]:
        return sorted(cards, key=lambda c: (c.suit == trump, int(c.suit), ORDER[c]))

    def status_lines(self, view: View, seating: Seating, lang: str) -> list[str]:
        lines = []
        if view.trump is not None and view.trump_card is not None:
            card = self.card_label(view.trump_card)
            if view.trump_card_holder is None:
                lines.append(t(lang, "table.trump", suit=view.trump.symbol, card=card))
            else:
                holder = seating.name(view.trump_card_holder)
                lines.append(t(lang, "table.trump_taken", suit=view.trump.symbol, card=card, name=holder))
            if view.stock_size:  # an empty stock is not news: the line goes
                lines.append(t(lang, "table.stock", count=view.stock_size))
        if view.eggs_pending:
            lines.append(tn(lang, "table.eggs_four", view.eggs_pending))
        return lines

    def chosen_lines(self, view: View, chosen: Sequence[Card], lang: str) -> list[str]:
        """An answer is as many cards as the lead (F8): how many more, or how many too many; a lead is of one
        suit (F7): why no lead button shows for the cards chosen."""
        cards = self.cards_label(chosen)
        if view.trick:
            more = len(view.trick[0].cards) - len(chosen)
            if more > 0:
                return [tn(lang, "hand.chosen_more", more, cards=cards)]
            if more < 0:  # no move takes these: Clear, or tap one off
                return [tn(lang, "hand.chosen_over", -more, cards=cards)]
            return [t(lang, "hand.chosen", cards=cards)]
        lines = [t(lang, "hand.chosen", cards=cards)]
        leads = [a for a in view.legal if a.kind is Kind.LEAD]
        if view.to_move == view.seat and leads and not any(set(chosen) <= set(a.cards) for a in leads):
            lines.append(t(lang, "hand.lead_one_suit"))
        return lines

    def forced_cards(self, view: View) -> tuple[Card, ...] | None:
        """A lead or an answer whose every legal form uses the same cards (an answer with the whole hand, a
        lead of the last card): the Beat / Discard / Lead buttons come at once, no card to choose."""
        if view.seat is None or view.to_move != view.seat:
            return None
        sets = {frozenset(a.cards) for a in view.legal if a.kind in (Kind.LEAD, Kind.BEAT, Kind.DISCARD)}
        return tuple(sorted(next(iter(sets)))) if len(sets) == 1 else None

    def one_tap(self, view: View) -> dict[Card, Action]:
        if view.seat is None or view.to_move != view.seat:
            return {}
        uses: dict[Card, list[Action]] = {}
        for action in view.legal:
            if action.kind in (Kind.LEAD, Kind.BEAT, Kind.DISCARD):
                for card in action.cards:
                    uses.setdefault(card, []).append(action)
        return {card: moves[0] for card, moves in uses.items() if len(moves) == 1 and len(moves[0].cards) == 1}

    def answer_prompt(self, view: View, lang: str, *, choosing: bool = False) -> str | None:
        if not view.trick:
            return None
        count = len(view.trick[0].cards)
        forced = self.forced_cards(view)
        if forced is not None and len(forced) == len(view.hand):  # his last card is his whole hand: say it so
            return t(lang, "hand.your_answer_last") if count == 1 else tn(lang, "hand.your_answer_all", count)
        prompt = tn(lang, "hand.your_answer", count)
        # once a card is chosen the keyboard's taps only choose: no card shows the 🂠 the hint explains
        if not choosing and any(action.kind is Kind.DISCARD for action in self.one_tap(view).values()):
            prompt += "\n" + t(lang, "hand.discard_at_once")
        return prompt


PRESENTER = FourCardPresenter()
