"""Reading what the bot serves on TUTE_METRICS_PORT: Prometheus's text parsed back into
samples, and the three pages fetched over HTTP as Prometheus and a healthcheck would."""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from prometheus_client.parser import text_string_to_metric_families


@dataclass(frozen=True)
class Scrape:
    """What ``/metrics`` said: each sample by its name and labels."""

    families: frozenset[str]
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float]

    def value(self, name: str, **labels: str) -> float:
        return self.samples[(name, tuple(sorted(labels.items())))]

    def total(self, name: str, **labels: str) -> float:
        """The sum of ``name`` over the labels not given."""
        wanted = set(labels.items())
        return sum(
            value
            for (sample, pairs), value in self.samples.items()
            if sample == name and wanted <= set(pairs)
        )

    def labels(self, name: str, label: str) -> set[str]:
        return {
            dict(pairs)[label]
            for (sample, pairs), _ in self.samples.items()
            if sample == name and label in dict(pairs)
        }


def parse(text: str) -> Scrape:
    families: set[str] = set()
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        families.add(family.name)
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return Scrape(frozenset(families), samples)


async def get(port: int, path: str) -> tuple[int, str, str]:
    """The status, the content type and the text of ``path``."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, answer.headers.get("Content-Type", ""), await answer.text()


async def scrape(port: int) -> Scrape:
    status, kind, text = await get(port, "/metrics")
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    return parse(text)
