"""The log (issue 35): LOG_FORMAT=json gives one JSON object a line, with the game's and the chat's ids where
they apply; the default stays lines for people, with the same ids."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import About, JsonLines, about, configure, note


@pytest.fixture
def captured() -> Iterator[tuple[io.StringIO, logging.Handler]]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(About())
    logger = logging.getLogger("kozel.test")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield out, handler
    finally:
        logger.removeHandler(handler)


def test_json_lines_carry_the_ids_a_record_is_about_and_its_traceback(
    captured: tuple[io.StringIO, logging.Handler],
) -> None:
    out, handler = captured
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("kozel.test")
    with about(chat=-1001, game=7):
        logger.warning("edit of %s failed", "the table")
        with about(game=8):
            try:
                raise RuntimeError("boom")
            except RuntimeError:
                logger.exception("a telling raised")
    logger.info("nothing in particular")
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(x["level"], x["message"], x.get("chat"), x.get("game")) for x in lines] == [
        ("WARNING", "edit of the table failed", -1001, 7),
        ("ERROR", "a telling raised", -1001, 8),
        ("INFO", "nothing in particular", None, None),
    ]
    assert "RuntimeError: boom" in lines[1]["exception"] and lines[0]["logger"] == "kozel.test"
    assert lines[0]["time"].endswith("+00:00")


async def test_a_task_keeps_what_its_update_was_about_and_people_read_it_in_brackets(
    captured: tuple[io.StringIO, logging.Handler],
) -> None:
    out, handler = captured
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s%(about)s"))
    logger = logging.getLogger("kozel.test")

    async def handled(chat: int) -> None:  # a handler notes its update's chat; the next update's task is its own
        note(chat=chat)
        await asyncio.sleep(0)
        logger.info("handled")

    await asyncio.gather(handled(-1), handled(-2))
    logger.info("outside")
    assert out.getvalue().splitlines() == ["INFO handled [chat -1]", "INFO handled [chat -2]", "INFO outside"]


def test_configure_sets_one_handler_of_the_chosen_form() -> None:
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    try:
        configure("warning", "json")
        assert root.level == logging.WARNING and len(root.handlers) == 1
        assert isinstance(root.handlers[0].formatter, JsonLines)
        configure("info", "text")
        assert not isinstance(root.handlers[0].formatter, JsonLines)
    finally:
        root.handlers[:] = before
        root.setLevel(level)
