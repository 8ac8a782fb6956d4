"""The pages watching each game: told of every change the notifier tells, each page then reads the game as it
stands, so a page that was busy (or slow) skips to the newest state instead of replaying every step."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager


class Watchers:
    def __init__(self) -> None:
        self._pages: dict[int, set[asyncio.Event]] = {}
        self.closed = False  # set at shutdown: every page's stream ends

    def changed(self, game_id: int) -> None:
        """Something about the game changed: its pages read it again."""
        for page in self._pages.get(game_id, ()):
            page.set()

    @contextmanager
    def watch(self, game_id: int) -> Iterator[asyncio.Event]:
        """A page of the game, while the block lasts: the event is set when the page should read it again."""
        page = asyncio.Event()
        self._pages.setdefault(game_id, set()).add(page)
        try:
            yield page
        finally:
            pages = self._pages[game_id]
            pages.discard(page)
            if not pages:
                del self._pages[game_id]

    def close(self) -> None:
        """The bot stops: every page's stream ends (a page reconnects to the next start by itself)."""
        self.closed = True
        for pages in self._pages.values():
            for page in pages:
                page.set()

    def __len__(self) -> int:
        """The pages watching now."""
        return sum(len(pages) for pages in self._pages.values())
