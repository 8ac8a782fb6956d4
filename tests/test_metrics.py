"""The bot's metrics (issue 35): what a scrape says after some play, counted where it happened; no label
carries a name or an id."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr, ValidationError

from bot.config import Settings
from bot.metrics import Metrics
from tests.e2e import GAME_DATA, GROUP, World, free_port, open_game, play_moves, running_world


def scrape(world: World) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The application's metrics as Prometheus reads them: (sample name, labels) -> value."""
    metrics = world.runner.app.bot_data["metrics"] if world.runner.app else None
    assert isinstance(metrics, Metrics)
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(metrics.render().decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_a_scrape_counts_updates_presses_calls_games_and_latencies(tmp_path: Path) -> None:
    async with running_world(tmp_path, metrics=True, health_port=free_port()) as world:
        people, _ = await open_game(world, "/newgame 4", 4)
        await play_moves(people, 8, random.Random(35))
        mover = next(p for p in people if p.my_turn())
        hand = mover.hand()
        assert hand is not None
        await mover.press(hand, "g1:forged")  # data the bot never sends
        pressed = GAME_DATA.fullmatch(hand.buttons()[0]["callback_data"])
        assert pressed is not None
        await mover.press(hand, f"g{pressed[1]}:{int(pressed[2]) - 1}:{pressed[3]}")  # a keyboard of a move ago
        await world.runner.settle()
        samples = scrape(world)

        assert value(samples, "kozel_updates_total", kind="callback_query") >= 10
        assert value(samples, "kozel_updates_total", kind="message") >= 5  # /newgame, the /start of each
        assert value(samples, "kozel_presses_total", result="applied") >= 8
        assert value(samples, "kozel_presses_total", result="forged") == 1
        assert value(samples, "kozel_presses_total", result="stale") == 1
        assert value(samples, "kozel_bot_api_calls_total", method="editMessageText", outcome="ok") > 8
        assert value(samples, "kozel_bot_api_calls_total", method="getUpdates", outcome="ok") > 0
        assert value(samples, "kozel_games_running", game="four_card") == 1
        assert value(samples, "kozel_computer_seats") == 0
        assert value(samples, "kozel_hand_latency_seconds_count", kind="own_hand") >= 8
        assert value(samples, "kozel_hand_latency_seconds_count", kind="turn_hand") >= 4
        assert value(samples, "kozel_database_commit_seconds_count") > 8
        assert value(samples, "kozel_database_bytes") > 10_000
        assert value(samples, "kozel_telegram_reachable") == 1
        assert ("kozel_outbox_waiting", (("kind", "own_hand"),)) in samples

        # No label carries a name, a chat id or a user id.
        secret = {str(GROUP), *(str(p.user_id) for p in people), *(p.name for p in people), "Friends"}
        for _, labels in samples:
            assert not {v for _, v in labels} & secret, labels
            assert not any(v.lstrip("-").isdigit() and v not in ("429",) for _, v in labels), labels


def test_metrics_need_the_health_endpoint() -> None:
    """METRICS alone would serve nothing: the configuration says what is missing instead."""
    with pytest.raises(ValidationError, match="HEALTH_PORT"):
        Settings(bot_token=SecretStr("1:x"), metrics=True, health_port=0, _env_file=None)  # type: ignore[call-arg]
