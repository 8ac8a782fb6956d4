"""playground.record: a chat's transcript keeps every version of a message once, in order, as read."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from PIL import Image

from playground.botapi import BotApiServer, Message
from playground.record import Recorder, keyboard, plain


def message(text: str, markup: dict[str, Any] | None = None, *, from_bot: bool = True) -> Message:
    return Message(-1, 7, text, markup, from_bot, 0.0, from_user=None if from_bot else 1)


def test_a_transcript_shows_each_version_once_and_reads_html_as_text() -> None:
    recorder = Recorder(BotApiServer(), {1: "Ann"})
    buttons = {"inline_keyboard": [[{"text": "6♠", "callback_data": "x"}, {"text": "7♠", "callback_data": "y"}]]}
    recorder("new", Message(-1, 6, "/newgame", None, False, 0.0, from_user=1))
    recorder("new", message("<b>Table</b> &amp; co", buttons))
    recorder("edit", message("<b>Table</b> &amp; co", buttons))  # the same again: not repeated
    recorder("edit", message("Trick taken by Ann"))
    recorder("delete", message("Trick taken by Ann"))
    full = recorder.render(-1, "Friends", final=False)
    assert full.index("✍ Ann: /newgame") < full.index("Table & co") < full.index("Trick taken by Ann")
    assert full.count("Table & co") == 1 and "[ 6♠ ] [ 7♠ ]" in full and "#7 deleted" in full
    final = recorder.render(-1, "Friends", final=True)
    assert "Table & co" not in final and "Trick taken by Ann" in final and "(deleted later)" in final
    assert plain("<i>a</i> &lt;b&gt;") == "a <b>" and keyboard(None) == []


def test_a_transcript_names_each_picture_and_keeps_it_once() -> None:
    """Issue 34: a photo's message shows its picture by file name above its caption; each picture is kept
    once, under the name it was first shown by, however often it comes back."""
    server = BotApiServer()
    red, blue = server.add_photo(png((200, 0, 0))), server.add_photo(png((0, 0, 200)))
    recorder = Recorder(server, {})
    table = Message(-1, 3, "<b>deal 1</b>", None, True, 0.0, photo=red)
    recorder("new", table)
    recorder("edit", Message(-1, 3, "<b>deal 1</b> · Ann", None, True, 0.0, photo=blue))
    recorder("edit", Message(-1, 3, "deal 1 over", None, True, 0.0, photo=red))
    full = recorder.render(-1, "Friends", final=False)
    assert full.count("🖼 picture-001.jpg") == 2 and full.count("🖼 picture-002.jpg") == 1
    assert full.index("🖼 picture-001.jpg\ndeal 1") < full.index("🖼 picture-002.jpg")
    assert recorder.pictures == {"picture-001.jpg": server.photos[red], "picture-002.jpg": server.photos[blue]}


def png(colour: tuple[int, int, int]) -> bytes:
    out = BytesIO()
    Image.new("RGB", (8, 8), colour).save(out, format="PNG")
    return out.getvalue()
