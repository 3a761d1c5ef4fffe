"""The launcher as `make run` starts it (`streamlit run launcher.py`, a subprocess): the class's
routes beside the app, and a SIGTERM that ends the process with an event stream open."""

from __future__ import annotations

import asyncio
import signal
import subprocess

import pytest

from bench.class_client import Client
from deploy.local import start_streamlit
from tests.classroom.class_support import PHONES, join, run

pytestmark = pytest.mark.slow


def test_streamlit_run_launcher_serves_the_app_and_the_class_and_stops_on_sigterm():
    with start_streamlit("launcher.py") as server:

        async def body() -> list[str]:
            teacher = Client(server.url)
            made = await teacher.call("POST", "/class/new", {"scene": "s1"})
            assert made.status == 201
            cookie = made.header("set-cookie")
            assert "HttpOnly" in cookie and "SameSite=strict" in cookie
            code = made.json()["code"]
            assert (await teacher.call("GET", "/lesson")).status == 200  # Streamlit's page
            assert (await teacher.call("GET", "/_stcore/health")).body == b"ok"
            phone = Client(server.url)
            token = await join(phone, code, PHONES[0])
            stream = await phone.events(f"/class/{code}/events?token={token}")
            await stream.until(lambda e: e.event == "state")
            await teacher.call("POST", f"/class/{code}/state", {"step": "s1.b"})
            moved = await stream.until(lambda e: e.event == "state")
            assert moved.data["step"] == "s1.b"
            server.process.send_signal(signal.SIGTERM)  # as Ctrl+C or a supervisor would
            seen = []
            while (event := await stream.next(timeout=10)) is not None:
                seen.append(event.event)
            await asyncio.sleep(0)
            return seen

        seen = run(body())
        assert seen[-1] == "bye", seen
        try:
            server.process.wait(timeout=10)  # a stuck stream kept it alive past 30 s before
        except subprocess.TimeoutExpired:
            pytest.fail(f"SIGTERM did not stop the app with a stream open:\n{server.log_tail()}")
        assert server.process.returncode in (0, -signal.SIGTERM)
