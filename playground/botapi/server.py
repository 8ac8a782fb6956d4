"""The embedded Bot API server: its world, its HTTP side, the people's side and one class per API area."""

from __future__ import annotations

from playground.botapi.http import Http
from playground.botapi.messages import Messages
from playground.botapi.people import People
from playground.botapi.photos import Photos
from playground.botapi.updates import Updates
from playground.botapi.webapps import WebApps


class BotApiServer(Http, People, Updates, Messages, Photos, WebApps):
    """The server and the world it holds: users, chats, messages, updates."""
