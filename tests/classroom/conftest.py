"""Fixtures for the class's tests: a real redis-server for the test session (a free loopback
port, its data in a temporary folder, stopped at the end) and a store of each kind.

Without redis-server the Redis cases skip, naming the install command (a failure under CI=true,
tests/conftest.py); a fake Redis never stands in for it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from classroom import redis_store
from classroom.redis_store import RedisStore
from classroom.store import MemoryStore
from deploy.redis_local import LocalRedis, start_redis
from tests.classroom.class_support import REDIS_SLOW, Clock, redis_or_skip


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory) -> Iterator[LocalRedis]:
    """A redis-server for the whole session (no persistence: the tests that restart one start
    their own)."""
    redis_or_skip()
    server = start_redis(tmp_path_factory.mktemp("redis"), persist=False)
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: LocalRedis, monkeypatch) -> str:
    """The session's Redis; a RedisStore's subscriber looks for close() every 10 ms instead of
    every 50 (each test closes its store: the wait was most of a Redis test's teardown)."""
    monkeypatch.setattr(redis_store, "LISTEN_POLL_S", 0.01)
    return redis_server.url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["memory", pytest.param("redis", marks=REDIS_SLOW)])
def store(request, clock) -> Iterator[MemoryStore | RedisStore]:
    """A fresh, empty store of each kind (Redis: its own key prefix in the session's server)."""
    if request.param == "memory":
        made = MemoryStore(clock)
    else:
        made = RedisStore(request.getfixturevalue("redis_url"), prefix=f"t{uuid.uuid4().hex}:")
    yield made
    made.close()
