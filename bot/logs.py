"""The log: lines for people by default, or one JSON object a line (``LOG_FORMAT=json``) for a machine.

Each record says which chat and game it is about when that is known: a handler sets the chat of its update
(``bot.app``), a telling the game and chat it tells (``bot.delivery.notify``), through a context variable that the tasks
they start inherit.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

ABOUT: ContextVar[tuple[tuple[str, int], ...]] = ContextVar("about", default=())
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s%(about)s"


@contextmanager
def about(**ids: int | None) -> Iterator[None]:
    """Records logged meanwhile (and by the tasks started meanwhile) say they are about these ids."""
    given = tuple((key, value) for key, value in ids.items() if value is not None)
    token = ABOUT.set((*((k, v) for k, v in ABOUT.get() if k not in ids), *given))
    try:
        yield
    finally:
        ABOUT.reset(token)


def note(**ids: int | None) -> None:
    """As ``about``, for the rest of the current task (a handler: the update it handles)."""
    ABOUT.set(tuple((key, value) for key, value in ids.items() if value is not None))


class About(logging.Filter):
    """Puts the ids a record is about on it: ``record.ids``, and ``record.about`` as text."""

    def filter(self, record: logging.LogRecord) -> bool:
        ids = dict(ABOUT.get())
        record.ids = ids
        record.about = " [" + " ".join(f"{key} {value}" for key, value in ids.items()) + "]" if ids else ""
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, the ids it is about, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **getattr(record, "ids", {}),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, form: str) -> None:
    """Log at ``level`` to standard error, as ``form`` says (``text`` or ``json``)."""
    handler = logging.StreamHandler()
    handler.addFilter(About())
    handler.setFormatter(JsonLines() if form == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("httpx").setLevel(logging.WARNING)
