"""The API area of pictures: photos sent, their pictures and captions edited."""

from __future__ import annotations

from typing import Any

from playground.botapi.state import ATTACHED, World
from playground.botapi.world import ApiError, Message, Shown, Upload


class Photos(World):
    """sendPhoto, editMessageMedia, editMessageCaption."""

    async def m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(params["chat_id"])
        caption = self._caption(params)
        self._check_markup(params.get("reply_markup"), chat.chat_id)
        photo = params["photo"]
        if isinstance(photo, Upload):
            file_id = self.add_photo(photo.content)
        elif photo in self.photos:
            file_id = photo
        else:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        message_id = self._message_id(chat.chat_id)
        message = Message(
            chat.chat_id, message_id, caption, params.get("reply_markup"), True, self.clock.now(),
            notify=not params.get("disable_notification", False), photo=file_id,
        )  # fmt: skip
        self._show(file_id)
        self._store(message)
        self.shown.append(Shown(chat.chat_id, message_id, caption, message.markup, self.clock.now(), "sendPhoto"))
        return self._message_json(message)

    def _photo_of(self, media: str, params: dict[str, Any]) -> str:
        """The file id of a photo given as an uploaded part ("attach://<name>"), or as a file id sent before."""
        if media.startswith("attach://"):
            content = params.get(ATTACHED, {}).get(media.removeprefix("attach://"))
            if content is None:
                raise ApiError(400, f"Bad Request: the file part {media!r} was not sent")
            return self.add_photo(content)
        if media not in self.photos:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        return media

    def _caption(self, fields: dict[str, Any]) -> str:
        """A photo's caption (from a method's parameters or an InputMediaPhoto), checked as a text of 1,024."""
        caption = str(fields.get("caption", ""))
        if caption:
            self._check_text({"text": caption, "parse_mode": fields.get("parse_mode")}, limit=1024)
        return caption

    def _edited(self, message: Message, method: str, photo: str, caption: str, markup: dict[str, Any] | None) -> None:
        """A photo message now shows ``photo`` under ``caption`` (an empty keyboard is none)."""
        markup = None if not markup or markup == {"inline_keyboard": []} else markup
        if (message.photo, message.text, message.markup) == (photo, caption, markup):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message",
            )
        if photo != message.photo:
            self._show(photo)
            if message.photo is not None:
                self._unshow(message.photo)
        message.photo, message.text, message.markup = photo, caption, markup
        message.edits += 1
        self._tell("edit", message)
        self.shown.append(Shown(message.chat_id, message.message_id, caption, markup, self.clock.now(), method))

    async def m_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:
        """A photo message's picture (and caption: one left out is removed, as Telegram does) replaced."""
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        media = params["media"]
        if media.get("type") != "photo":
            raise ApiError(400, "Bad Request: only photos can be sent to this server")
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        caption = self._caption(media)
        self._check_markup(params.get("reply_markup"), message.chat_id)
        photo = self._photo_of(media["media"], params)
        self._edited(message, "editMessageMedia", photo, caption, params.get("reply_markup"))
        return self._message_json(message)

    async def m_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:
        if "chat_id" not in params or "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = self._own_message(params)
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption = self._caption(params)
        self._check_markup(params.get("reply_markup"), message.chat_id)
        self._edited(message, "editMessageCaption", message.photo, caption, params.get("reply_markup"))
        return self._message_json(message)
