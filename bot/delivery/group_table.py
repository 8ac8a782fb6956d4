"""The group's table message of a running game: posted for each deal, kept current, posted again when the chat
changes how its table is shown, and closed when its deal ends.

A table is a text, or a picture under a caption (the chat's setting, ``ChatSettings.table``); the kind of a
message never changes, so each game keeps which kind its table message is (``GameRow.table_picture``).  A text
table is headed by the previous deal's result, and a finished deal's text table keeps its last trick; a picture
table becomes the picture of its deal's result, and the end of a series is a picture of its own.  Every call
into the group goes through the notifier's line of the game (``Notifier.in_group``), in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.outbox import Priority
from bot.delivery.publisher import Publisher
from bot.delivery.sending import MAX_CAPTION, Picture, telegram_length
from bot.i18n import t
from bot.miniapp.links import AppLinks
from bot.present.render import (
    deal_result_picture,
    game_title,
    outcome_picture,
    render_deal_result,
    render_outcome,
    render_table,
    table_caption,
    table_picture,
)
from bot.usecases.live import Live, LiveGames
from storage import Storage


@dataclass(frozen=True)
class Closing:
    """What a finished deal's table message shows once the deal is over: a text table its ``text`` (the
    previous result, the last trick, "deal N is over"), a picture table the deal's result ``picture`` under its
    ``caption`` (the last trick, the result in words)."""

    deal_no: int
    text: str
    caption: str
    picture: Picture


class GroupTable:
    def __init__(self, storage: Storage, publisher: Publisher, games: LiveGames, links: AppLinks | None = None) -> None:
        """``links``: the Mini App's; a running deal's table then links to it (when Telegram can open it from a
        group: ``AppLinks.group``)."""
        self.storage = storage
        self.publisher = publisher
        self.games = games
        self.links = links

    def markup(self, live: Live) -> InlineKeyboardMarkup | None:
        """The running deal's table's button: the Mini App's table; a finished or cancelled one has none."""
        url = self.links.group(live.game_id) if self.links is not None else None
        if url is None:
            return None
        return InlineKeyboardMarkup([[InlineKeyboardButton(t(live.chat_lang, "app.open"), url=url)]])

    def prelude(self, live: Live, deal_no: int) -> str:
        """The head of deal ``deal_no``'s text table: the previous deal's result, so that every result stays in
        the group's history without a message of its own."""
        deals = live.state.deals
        if 1 <= deal_no <= len(deals):
            return render_deal_result(deals[deal_no - 1], live.game.variant, live.seating, live.chat_lang) + "\n\n"
        return ""

    def render(self, live: Live, picture: bool) -> tuple[str, Picture | None]:
        """The table of the current deal: a picture under its caption, or the text."""
        view = live.state.view(None)
        if picture:
            computers = [seat for seat in range(len(live.seats)) if live.level_of(seat) is not None]
            caption = table_caption(view, live.seating, live.chat_lang)
            return caption, table_picture(view, live.seating, computers, live.chat_lang)
        return self.prelude(live, live.state.deal_no) + render_table(view, live.seating, live.chat_lang), None

    def show(self, live: Live) -> None:
        """Edit the table, once the current deal's is posted (the one posted last may be a finished deal's:
        ``close_deal`` closes it)."""
        game = live.game
        if game.table_message_id is not None and game.table_deal_no == live.state.deal_no:
            text, photo = self.render(live, game.table_picture)
            markup = self.markup(live)
            self.publisher.edit(game.chat_id, game.table_message_id, text, markup, priority=Priority.TABLE, photo=photo)

    async def post(self, live: Live, deal_no: int) -> None:
        """Post the table of deal ``deal_no``, the way the chat shows its table, unless that deal has ended
        meanwhile (its result comes with the next deal's table, or as its own picture)."""
        await live.settled()
        if live.state.deal_no != deal_no:
            return
        picture = live.settings.table == "picture"
        text, photo = self.render(live, picture)
        message_id = await self.publisher.send(live.game.chat_id, text, self.markup(live), photo=photo)
        await self.storage.games.set_table_message(live.game_id, message_id, deal_no, picture=picture)
        table = {"table_message_id": message_id, "table_deal_no": deal_no, "table_picture": picture}
        live.game = live.game.model_copy(update=table)
        await live.settled()
        self.show(live)  # what was played while it waited for the group's budget

    async def move(self, live: Live) -> None:
        """The chat chose another way to show its table: the running deal's table is posted the new way, and
        the old one goes (a text table, which may hold the previous deal's result, says where it went)."""
        await live.settled()
        game, state = live.game, live.state
        picture = live.settings.table == "picture"
        posted = game.table_message_id is not None and game.table_deal_no == state.deal_no
        if not posted or game.table_picture == picture or state.is_over or not self.games.is_current(live):
            return
        old = game.table_message_id
        assert old is not None
        moved = self.prelude(live, state.deal_no) + t(live.chat_lang, f"table.moved_{live.settings.table}")
        await self.post(live, state.deal_no)
        if game.table_picture:
            await self.publisher.delete(game.chat_id, old, Priority.TABLE)
        else:
            self.publisher.edit(game.chat_id, old, moved)

    def closing(self, live: Live, last_trick: list[str]) -> Closing:
        """How the table of the deal that just ended (the last of ``live.state.deals``) is closed;
        ``last_trick``: the lines of its last trick as the group sees it."""
        lang, variant = live.chat_lang, live.game.variant
        result = live.state.deals[-1]
        shown = "\n".join(last_trick)
        over = t(lang, "hand.deal_over", deal=result.deal_no + 1)
        if shown:  # the deal's last trick, under its deal's header
            header = t(lang, "table.header", game=game_title(variant, lang), deal=result.deal_no + 1)
            over = f"{header}\n{shown}\n\n{over}"
        told = render_deal_result(result, variant, live.seating, lang)
        return Closing(
            deal_no=result.deal_no,
            text=self.prelude(live, result.deal_no) + over,
            caption=f"{shown}\n\n{told}" if shown else told,
            picture=deal_result_picture(result, variant, live.seating, lang),
        )

    async def close_deal(self, live: Live, closing: Closing) -> bool:
        """Close a finished deal's table (in the group's line: after that table was posted, if it was still on
        its way); a picture table that was never posted, which no text table will head, is sent as its result.
        Whether Telegram answered it: false while it is still owed, so the deal is not yet told."""
        table = live.game
        if table.table_message_id is not None and table.table_deal_no == closing.deal_no:
            if table.table_picture:  # the table becomes the deal's result
                self.publisher.edit(table.chat_id, table.table_message_id, closing.caption, photo=closing.picture)
            else:
                self.publisher.edit(table.chat_id, table.table_message_id, closing.text)
            return await self.publisher.edited(table.chat_id, table.table_message_id)
        if live.settings.table == "picture":
            await self.publisher.send(table.chat_id, closing.caption, photo=closing.picture)
        return True

    def ending(self, live: Live, deals_before: int, ratings: str) -> list[tuple[str, Picture | None]]:
        """The messages that end a series: the results the group was not shown and the outcome, with the
        ratings (``render_changes``); as a text, or as the picture of the end under them as its caption (the
        last deal's result is then the picture its table became)."""
        state, variant, lang = live.state, live.game.variant, live.chat_lang
        assert state.outcome is not None
        unseen = state.deals[deals_before:]
        outcome = render_outcome(state.outcome, variant, live.seating, lang)
        if live.settings.table != "picture":
            parts = [render_deal_result(r, variant, live.seating, lang) for r in unseen]
            return [("\n\n".join([*parts, outcome, ratings] if ratings else [*parts, outcome]), None)]
        parts = [render_deal_result(r, variant, live.seating, lang) for r in unseen[:-1]]
        picture = outcome_picture(state.outcome, state.totals, variant, live.seating, lang)
        caption = "\n\n".join([*parts, outcome, ratings] if ratings else [*parts, outcome])
        if telegram_length(caption) <= MAX_CAPTION or not ratings:
            return [(caption, picture)]
        return [("\n\n".join([*parts, outcome]), picture), (ratings, None)]  # a caption never cuts a rating

    def cancelled(self, live: Live, notice: str) -> None:
        """A cancelled game's table says why, under what it showed."""
        table = live.game
        if table.table_message_id is not None:
            text, photo = self.render(live, table.table_picture)
            self.publisher.edit(table.chat_id, table.table_message_id, text + "\n\n" + notice, photo=photo)
