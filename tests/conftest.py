"""Test-wide set-up: every asyncio test runs on virtual time, but those marked ``real_time``."""

import asyncio
import os
from collections.abc import Callable, Mapping

import pytest

from playground.virtual_time import VirtualTimeLoop

# python-telegram-bot 22 reports flood waits as timedelta when opted in (its future default); the bot
# handles both forms, and the opt-in keeps the test output free of the deprecation warning.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from tests.e2e import world  # noqa: F401 - the end-to-end fixture, shared by the e2e test modules


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "real_time: runs on the real clock with real sockets (a process, a webhook, health, the browser)",
    )


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    """A test's event loop: on virtual time (``playground.virtual_time``), unless it is marked ``real_time``."""
    if item.get_closest_marker("real_time") is not None:
        return {"real": asyncio.new_event_loop}
    return {"virtual": VirtualTimeLoop}
