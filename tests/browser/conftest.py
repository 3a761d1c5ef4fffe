"""Fixtures of the browser tests of the live class (module scope: one class per test module).

- `redis`: a redis-server of the module's own, with its append-only file.
- `server`: `streamlit run launcher.py` with its classes in that redis-server (its base URL).
- `teacher`: the projector (1024 × 768) with a class made from /lesson?room=new: (page, code).
"""

from __future__ import annotations

import pytest

from deploy.local import start_streamlit
from deploy.redis_local import start_redis
from tests.browser.class_support import by_id, projector, status, wait_status
from tests.classroom.class_support import redis_or_skip
from tests.lesson_support import LOAD_MS


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    """A redis-server of the module's own, with its append-only file (a restart keeps classes)."""
    redis_or_skip()
    server = start_redis(tmp_path_factory.mktemp("class-redis"), persist=True)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def server(redis):
    """The app with the class's routes, its classes in that redis-server."""
    with start_streamlit("launcher.py", env={"REDIS_URL": redis.url}) as app:
        yield app.url


@pytest.fixture(scope="module")
def teacher(browser, server):
    """The projector, with a class made from /lesson?room=new: (page, code)."""
    page = projector(browser, server, "?room=new")
    by_id(page, "class-code").wait_for(timeout=LOAD_MS)
    wait_status(page, "s.state === 'joined' && !!s.code", "the teacher's class")
    code = status(page)["code"]
    yield page, code
    page.context.close()
