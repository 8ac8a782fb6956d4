"""Mini Apps as Telegram opens them: the page's address with the launch parameters in its fragment, among them
``tgWebAppData``, the initData signed with the bot's token as Telegram signs it (the HMAC-SHA-256 of the
sorted ``key=value`` lines, keyed by the HMAC-SHA-256 of the token keyed with ``WebAppData``).

A ``web_app`` button opens its address; a direct link ``https://t.me/<bot>/<app>?startapp=<param>`` opens the
address the app was registered with (``apps``, BotFather's /newapp) with ``start_param`` in the initData."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit

from playground.botapi.state import World
from playground.botapi.world import ApiError

VERSION = "8.0"  # the Bot API version of Mini Apps the launch says it speaks
START_PARAM = re.compile(r"[A-Za-z0-9_-]{0,512}")
LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "link_color": "#3390ec",
         "button_color": "#3390ec", "button_text_color": "#ffffff", "secondary_bg_color": "#f4f4f5"}  # fmt: skip
DARK = {"bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa", "link_color": "#8774e1",
        "button_color": "#8774e1", "button_text_color": "#ffffff", "secondary_bg_color": "#0f0f0f"}  # fmt: skip


class WebApps(World):
    """People opening the bot's Mini Apps."""

    def init_data(self, user_id: int, **fields: str) -> str:
        """What Telegram gives the page opened by ``user_id`` now: his user, the time, ``fields``, signed."""
        user = self.users[user_id]
        person = {"id": user.user_id, "first_name": user.first_name, "language_code": user.language_code,
                  "allows_write_to_pm": True}  # fmt: skip
        signed = {"user": json.dumps(person, ensure_ascii=False, separators=(",", ":")),
                  "auth_date": str(int(self.clock.now())), **fields}  # fmt: skip
        lines = "\n".join(f"{key}={signed[key]}" for key in sorted(signed))
        secret = hmac.new(b"WebAppData", self.token.encode(), hashlib.sha256).digest()
        signed["hash"] = hmac.new(secret, lines.encode(), hashlib.sha256).hexdigest()
        return urlencode(signed)

    def launch(self, user_id: int, url: str, *, dark: bool = False, **fields: str) -> str:
        """The address the Mini App's page is loaded at, its launch parameters in the fragment."""
        params = {
            "tgWebAppData": self.init_data(user_id, **fields),
            "tgWebAppVersion": VERSION,
            "tgWebAppPlatform": "web",
            "tgWebAppThemeParams": json.dumps(DARK if dark else LIGHT, separators=(",", ":")),
        }
        if "start_param" in fields:
            params["tgWebAppStartParam"] = fields["start_param"]
        return f"{url.split('#', maxsplit=1)[0]}#{urlencode(params)}"

    def open_button(self, user_id: int, chat_id: int, message_id: int, url: str, *, dark: bool = False) -> str:
        """A person taps a message's ``web_app`` button (only his own private chat has them)."""
        message = self.messages.get((chat_id, message_id))
        if chat_id != user_id or message is None or message.deleted:
            raise ApiError(400, "Bad Request: message not found")
        if not any(b.get("web_app", {}).get("url") == url for b in message.buttons()):
            raise ApiError(400, "Bad Request: the message has no such button")
        return self.launch(user_id, url, dark=dark)

    def open_link(self, user_id: int, link: str, *, dark: bool = False) -> str:
        """A person follows a Mini App's direct link, ``https://t.me/<bot>/<app>?startapp=<param>``."""
        parts = urlsplit(link)
        path = parts.path.strip("/").split("/")
        if parts.scheme != "https" or parts.hostname != "t.me" or len(path) != 2:
            raise ApiError(400, "Bad Request: not a Mini App's link")
        bot, name = path
        if bot.casefold() != self.username.casefold() or name not in self.apps:
            raise ApiError(400, "Bad Request: BOT_APP_INVALID")
        start = parse_qs(parts.query).get("startapp", [""])[0]
        if not START_PARAM.fullmatch(start):
            raise ApiError(400, "Bad Request: START_PARAM_INVALID")
        instance = int(hashlib.sha256(f"{user_id}:{name}".encode()).hexdigest()[:15], 16)  # stable, as Telegram's
        fields = {"chat_type": "supergroup", "chat_instance": str(instance)}
        if start:
            fields["start_param"] = start
        return self.launch(user_id, self.apps[name], dark=dark, **fields)
