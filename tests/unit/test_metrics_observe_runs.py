"""``metrics.observe_runs``: runs of equal solve times observed at once give the histogram n observes would."""

from __future__ import annotations

import random

import prometheus_client as prom

from sudoku_server.net.metrics import SOLVE_BUCKETS, observe_runs


def _samples(histogram: prom.Histogram) -> list[tuple[str, dict[str, str], float]]:
    return [
        (sample.name, sample.labels, sample.value)
        for metric in histogram.collect()
        for sample in metric.samples
        if not sample.name.endswith("_created")
    ]


def test_runs_fill_the_buckets_and_sum_as_single_observes() -> None:
    rng = random.Random(29)
    times: list[float] = []
    for _ in range(200):  # bulk shares (runs), bucket bounds exactly (a bound is its own bucket), singles
        seconds = rng.choice([rng.random() * 0.003, SOLVE_BUCKETS[rng.randrange(12)], 25.0])
        times += [seconds] * rng.choice([1, 1, 2, 7, 32])
    one_by_one = prom.Histogram("t", "t", buckets=SOLVE_BUCKETS, registry=prom.CollectorRegistry())
    runs = prom.Histogram("t", "t", buckets=SOLVE_BUCKETS, registry=prom.CollectorRegistry())
    for seconds in times:
        one_by_one.observe(seconds)
    observe_runs(runs, times)
    expected, got = _samples(one_by_one), _samples(runs)
    assert [(name, labels) for name, labels, _ in got] == [(name, labels) for name, labels, _ in expected]
    for (name, _, want), (_, _, value) in zip(expected, got):
        if name == "t_sum":
            assert abs(value - want) < 1e-9 * want
        else:
            assert value == want  # every bucket's count, and the count
    assert got[-2][0] == "t_count" and got[-2][2] == len(times)


class _Plain:
    """A histogram with only ``observe`` (not prometheus_client's parts): one observe a time."""

    def __init__(self) -> None:
        self.seen: list[float] = []

    def observe(self, seconds: float) -> None:
        self.seen.append(seconds)


def test_a_histogram_without_buckets_gets_every_time() -> None:
    plain = _Plain()
    observe_runs(plain, [0.5, 0.5, 0.25, 0.5])
    assert plain.seen == [0.5, 0.5, 0.25, 0.5]
