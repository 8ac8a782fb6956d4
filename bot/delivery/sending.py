"""What a message shows (``Render``) and the one Bot API call that shows it: a text or a photo sent, a text
edited, a caption edited under the same picture, or a new picture.  A picture is uploaded once: Telegram's
id of it (``FileIds``) sends it again.

A picture is known by its scene (``Picture``): everything it shows, as a value.  It is drawn only when it
must be uploaded, so the many renders that a newer one replaces before their turn cost nothing to draw, and
a picture sent before is never drawn again."""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

log = logging.getLogger(__name__)

MAX_TEXT = 4096
MAX_CAPTION = 1024
FILE_IDS_KEPT = 4096  # pictures whose Telegram id is kept (a table's picture repeats within a deal)
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# One thread draws the pictures, one after another: never behind a computer player thinking in the default
# executor, and never two at once on the typeface's shared FreeType faces.
DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drawing")


@dataclass(frozen=True, eq=False)
class Picture:
    """A picture to show: ``scene`` is everything it shows (a frozen value whose ``repr`` says it all), and
    ``paint`` draws a scene as the bytes of an image.  Equal scenes are the same picture."""

    scene: Hashable
    paint: Callable[[Any], bytes]

    @classmethod
    def of(cls, data: bytes) -> Picture:
        """A picture that is already drawn."""
        return cls(data, bytes)

    @cached_property
    def key(self) -> str:
        return hashlib.sha256(repr(self.scene).encode()).hexdigest()

    @cached_property
    def data(self) -> bytes:
        """The picture drawn (once, however often it is tried)."""
        return self.paint(self.scene)


@dataclass(frozen=True)
class Render:
    """What a message shows: its text (a photo's caption), its keyboard, and its picture, if it is a photo."""

    text: str
    markup: InlineKeyboardMarkup | None = None
    photo: Picture | None = None

    def key(self) -> tuple[bytes, str]:
        """What tells two renders apart, in little room (the publisher keeps one for each of thousands of
        messages): a digest of the text and keyboard, and the picture's key."""
        markup = json.dumps(self.markup.to_dict(), sort_keys=True) if self.markup else ""
        digest = hashlib.blake2b(f"{self.text}\0{markup}".encode(), digest_size=16).digest()
        return digest, self.photo.key if self.photo is not None else ""


TAG = re.compile(r"<[^>]*>")


def visible(text: str) -> str:
    """What an HTML text shows: its tags left out, its entities read."""
    return html.unescape(TAG.sub("", text))


def telegram_length(text: str) -> int:
    """How long Telegram counts an HTML text against its limits: what it shows (``visible``), in UTF-16 code
    units, as it counts its entities (an emoji beyond the first plane counts two)."""
    return len(visible(text).encode("utf-16-le")) // 2


def fit(text: str, limit: int = MAX_TEXT) -> str:
    """Telegram refuses texts over 4,096 (captions over 1,024) as it counts them (``telegram_length``); a long
    one is cut at a line end, so no HTML tag or entity is split, never the whole message lost.  A single line
    that long loses its markup and is cut within it."""
    if telegram_length(text) <= limit:
        return text
    cut = text.rfind("\n", 0, len(text))
    while cut > 0:
        if telegram_length(text[:cut]) + 1 <= limit:
            return text[:cut] + "…"
        cut = text.rfind("\n", 0, cut)
    shown, units = [], 0
    for char in visible(text):
        units += len(char.encode("utf-16-le")) // 2
        if units + 1 > limit:
            break
        shown.append(char)
    return html.escape("".join(shown), quote=False) + "…"


class FileIds:
    """Telegram's ids of the pictures uploaded, by their scene (the newest ``FILE_IDS_KEPT``), and what was
    uploaded: how many pictures and their bytes."""

    def __init__(self) -> None:
        self._ids: OrderedDict[str, str] = OrderedDict()
        self.uploads = 0
        self.uploaded_bytes = 0
        self.refused = 0  # file ids Telegram no longer knew, so their pictures were uploaded again

    def get(self, photo: Picture) -> str | None:
        return self._ids.get(photo.key)

    async def media(self, photo: Picture) -> str | bytes:
        """What a request carries for ``photo``: its file id when it was uploaded before, else its bytes (drawn
        in the drawing thread: Pillow lets go of the interpreter while it encodes, so the event loop, and every
        hand waiting on it, goes on meanwhile)."""
        known = self._ids.get(photo.key)
        if known is not None:
            return known
        data = await asyncio.get_running_loop().run_in_executor(DRAWING, lambda: photo.data)
        self.uploads += 1
        self.uploaded_bytes += len(data)
        return data

    def remember(self, photo: Picture, message: Message | bool) -> None:
        if isinstance(message, Message) and message.photo:
            self._ids[photo.key] = message.photo[-1].file_id
            self._ids.move_to_end(photo.key)
            while len(self._ids) > FILE_IDS_KEPT:
                self._ids.popitem(last=False)

    async def showing(self, photo: Picture, call: Callable[[str | bytes], Awaitable[Message | bool]]) -> Message | bool:
        """``call`` with what shows ``photo`` (``media``), and remember its file id.  Telegram keeps a bot's
        file ids, but a server that forgot one (the embedded one keeps only so many pictures) refuses it: the
        picture is then uploaded again, and counted, rather than the message never being sent."""
        media = await self.media(photo)
        try:
            message = await call(media)
        except BadRequest as exc:
            if not isinstance(media, str) or "file identifier" not in str(exc).lower():
                raise
            self.refused += 1
            self._ids.pop(photo.key, None)
            log.info("a picture's file id was refused (%s); uploading it again", exc)
            message = await call(await self.media(photo))
        self.remember(photo, message)
        return message


async def post(bot: Bot, chat_id: int, render: Render, notify: bool, file_ids: FileIds) -> Message:
    """Send ``render`` as a new message."""
    if render.photo is None:
        return await bot.send_message(
            chat_id,
            render.text,
            parse_mode=ParseMode.HTML,
            reply_markup=render.markup,
            disable_notification=not notify,
            link_preview_options=NO_PREVIEW,
        )
    message = await file_ids.showing(render.photo, lambda media: bot.send_photo(
        chat_id,
        media,
        caption=render.text or None,
        parse_mode=ParseMode.HTML,
        reply_markup=render.markup,
        disable_notification=not notify,
    ))  # fmt: skip
    assert isinstance(message, Message)
    return message


def edit_method(shown: tuple[bytes, str] | None, render: Render) -> str:
    """The one call that makes a message that shows ``shown`` (its render's key; None: not known) show
    ``render``: its text, its caption alone (the picture it shows already), or its picture and caption."""
    if render.photo is None:
        return "editMessageText"
    return "editMessageCaption" if shown is not None and shown[1] == render.photo.key else "editMessageMedia"


async def change(bot: Bot, key: tuple[int, int], render: Render, method: str, file_ids: FileIds) -> None:
    """Edit message ``key`` to show ``render`` with ``method`` (``edit_method``)."""
    chat_id, message_id = key
    if method == "editMessageText":
        await bot.edit_message_text(
            render.text,
            chat_id=chat_id,
            message_id=message_id,
            parse_mode=ParseMode.HTML,
            reply_markup=render.markup,
            link_preview_options=NO_PREVIEW,
        )
        return
    assert render.photo is not None
    if method == "editMessageCaption":
        await bot.edit_message_caption(
            chat_id=chat_id, message_id=message_id, caption=render.text, parse_mode=ParseMode.HTML,
            reply_markup=render.markup,
        )  # fmt: skip
        return
    text, markup = render.text, render.markup
    await file_ids.showing(render.photo, lambda media: bot.edit_message_media(
        InputMediaPhoto(media, caption=text, parse_mode=ParseMode.HTML),
        chat_id=chat_id, message_id=message_id, reply_markup=markup,
    ))  # fmt: skip
