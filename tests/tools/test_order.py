"""tests/conftest.py's order of the test files: longest first, by the seconds a file's tests took
last time (pytest's cache) where known, else by the estimate per test."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import tests.conftest as suite


class Item:
    """What longest_files_first reads of a pytest item."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid, self.path = nodeid, Path(nodeid.split("::")[0])

    def get_closest_marker(self, name: str) -> None:
        return None


def items_of(**counts: int) -> list[Item]:
    return [Item(f"tests/{f}.py::t{i}") for f, n in counts.items() for i in range(n)]


def test_a_file_of_a_few_long_tests_goes_first_once_measured():
    items = items_of(many=30, few=3)
    suite.longest_files_first(items, {})
    assert items[0].nodeid == "tests/many.py::t0"  # 30 × 0.04 s > 3 × 0.04 s
    suite.longest_files_first(items, {"tests/few.py": 2.0, "tests/many.py": 0.01})
    assert [i.nodeid for i in items[:4]] == [*(f"tests/few.py::t{i}" for i in range(3)),
                                             "tests/many.py::t0"]  # fmt: skip


class Cache(dict):
    def get(self, key, default):
        return super().get(key, default)

    def set(self, key, value):
        self[key] = value


def test_a_run_keeps_each_file_s_mean_per_test_and_a_worker_keeps_nothing(monkeypatch):
    monkeypatch.setattr(suite, "_measured", {})
    for when, seconds in (("setup", 0.5), ("call", 1.0), ("teardown", 0.5), ("call", 2.0)):
        report = SimpleNamespace(nodeid="tests/x.py::t", when=when, duration=seconds, passed=True)
        suite.pytest_runtest_logreport(report)
    cache = Cache({suite.MEASURED_KEY: {"tests/y.py": 0.3}})
    worker = SimpleNamespace(config=SimpleNamespace(cache=cache, workerinput={}))
    suite.pytest_sessionfinish(worker)
    assert cache[suite.MEASURED_KEY] == {"tests/y.py": 0.3}
    suite.pytest_sessionfinish(SimpleNamespace(config=SimpleNamespace(cache=cache)))
    assert cache[suite.MEASURED_KEY] == {"tests/y.py": 0.3, "tests/x.py": 2.0}  # 4 s / 2 tests
