"""Where the chats' buttons open the Mini App: the private hand's ``web_app`` button (Telegram allows those only
in private chats) and the group table's link, a ``url`` button to the app's direct link (``t.me/<bot>/<app>``,
which needs the app's short name at BotFather).  Both name the game by its ticket (``auth.ticket``)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from bot.config import Settings
from bot.miniapp.auth import ticket


@dataclass(frozen=True)
class AppLinks:
    url: str  # MINIAPP_URL, ending in "/"
    token: str
    bot_username: str
    name: str | None  # MINIAPP_NAME

    @classmethod
    def of(cls, settings: Settings, bot_username: str) -> AppLinks | None:
        """The links of the configured Mini App; None without one (no button opens it)."""
        if not settings.miniapp_url or settings.bot_token is None:
            return None
        return cls(settings.miniapp_url, settings.bot_token.get_secret_value(), bot_username, settings.miniapp_name)

    def hand(self, game_id: int) -> str:
        """The page of the game, as a private chat's ``web_app`` button opens it."""
        return f"{self.url}?{urlencode({'game': ticket(game_id, self.token)})}"

    def group(self, game_id: int) -> str | None:
        """The app's direct link to the game, for the group's table; None without the app's short name."""
        if self.name is None:
            return None
        return f"https://t.me/{self.bot_username}/{self.name}?{urlencode({'startapp': ticket(game_id, self.token)})}"
