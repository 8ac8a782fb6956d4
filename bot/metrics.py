"""The bot's metrics for Prometheus (``prometheus-client``), served at GET /metrics of the health endpoint when
``METRICS`` is on (``bot.app.start_health``).

Most figures are counted where they happen, by the module that knows them, with no knowledge of Prometheus:
updates and Bot API calls by the liveness and its connections (``bot.health``), presses by the table
(``bot.usecases.table``), retries by the publisher, the outbox's queue, the running games.  They are read when a scrape
comes (``Census``).  Only what needs buckets is observed here as it happens, through hooks the modules call:
the press → own hand and turn → hand latencies (the publisher), a computer's thinking time, a commit's time.

No label carries a name, a chat id or a user id: labels are kinds, methods, outcomes and games only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.delivery.outbox import Priority
from bot.health import Liveness
from bot.usecases.wiring import UseCases
from storage import Storage

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 5.0)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
LATENCY_KINDS = {Priority.OWN_HAND: "own_hand", Priority.TURN_HAND: "turn_hand"}


@dataclass(eq=False)  # the registry keeps its collectors by identity
class Census(Collector):
    """The figures read at each scrape from the modules that count them."""

    uses: UseCases
    liveness: Liveness
    storage: Storage

    def collect(self) -> Iterable[Metric]:
        updates = CounterMetricFamily("kozel_updates", "Updates handled, by kind", labels=["kind"])
        for kind, count in sorted(self.liveness.updates.items()):
            updates.add_metric([kind], count)
        yield updates
        presses = CounterMetricFamily("kozel_presses", "Hand presses, by result", labels=["result"])
        for result, count in sorted(self.uses.table.presses.items()):
            presses.add_metric([result], count)
        yield presses
        calls = CounterMetricFamily("kozel_bot_api_calls", "Bot API calls, by method and outcome",
                                    labels=["method", "outcome"])  # fmt: skip
        for (method, outcome), count in sorted(self.liveness.calls.items()):
            calls.add_metric([method, outcome], count)
        yield calls
        publisher = self.uses.notifier.publisher
        retries = CounterMetricFamily("kozel_retries", "Calls made again after a 5xx, network error or timeout",
                                      labels=["method"])  # fmt: skip
        for method, count in sorted(publisher.retries.items()):
            retries.add_metric([method], count)
        yield retries
        waiting = GaugeMetricFamily("kozel_outbox_waiting", "Calls waiting for their turn in the outbox",
                                    labels=["kind"])  # fmt: skip
        queued = publisher.outbox.waiting_by_priority()
        for whom in Priority:
            waiting.add_metric([whom.name.lower()], queued[whom])
        yield waiting
        cuts = CounterMetricFamily("kozel_budget_cuts", "Budgets lowered for a while after a 429", labels=["budget"])
        for budget, count in sorted(publisher.outbox.cuts.items()):
            cuts.add_metric([budget], count)
        yield cuts
        games = GaugeMetricFamily("kozel_games_running", "Games being played, by game", labels=["game"])
        running: dict[str, int] = {}
        computers = 0
        for live in self.uses.games.running():
            running[live.game.variant] = running.get(live.game.variant, 0) + 1
            computers += sum(1 for seat in range(len(live.seats)) if live.level_of(seat) is not None)
        for game, count in sorted(running.items()):
            games.add_metric([game], count)
        yield games
        yield GaugeMetricFamily("kozel_computer_seats", "Seats a computer plays in the running games",
                                value=computers)  # fmt: skip
        yield CounterMetricFamily("kozel_computer_fallbacks", "Computer choices that failed or were refused",
                                  value=self.uses.computers.fallbacks)  # fmt: skip
        yield GaugeMetricFamily("kozel_database_bytes", "The database's size on disk, its write-ahead log included",
                                value=self.storage.db.size())  # fmt: skip
        yield GaugeMetricFamily("kozel_telegram_reachable", "1 while Telegram answers, 0 once it stopped",
                                value=0 if self.liveness.unreachable_since is not None else 1)  # fmt: skip


class Metrics:
    """The registry of one application, and the hooks its modules call."""

    def __init__(self, uses: UseCases, liveness: Liveness, storage: Storage) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(Census(uses, liveness, storage))
        self.latency = Histogram(
            "kozel_hand_latency_seconds",
            "Press to the presser's own hand changed (own_hand); turn came to that hand showing it (turn_hand)",
            ["kind"], buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.thinking = Histogram("kozel_computer_decision_seconds", "A computer player's thinking time",
                                  buckets=THINKING_BUCKETS, registry=self.registry)  # fmt: skip
        self.commit = Histogram("kozel_database_commit_seconds", "A transaction's COMMIT (on disk when it returns)",
                                buckets=COMMIT_BUCKETS, registry=self.registry)  # fmt: skip

    def hooked(self, uses: UseCases, storage: Storage, monotonic: Callable[[], float]) -> Metrics:
        """Let the modules report what needs buckets; returns itself."""
        uses.notifier.publisher.on_latency = self.hand_latency
        uses.computers.on_decision = self.thinking.observe
        storage.db.time_commits(monotonic, self.commit.observe)
        return self

    def hand_latency(self, priority: Priority, seconds: float) -> None:
        label = LATENCY_KINDS.get(priority)
        if label is not None:
            self.latency.labels(label).observe(seconds)

    def render(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)
