"""Payload sent to the browser: the view's data (AppTest) and websocket bytes, decompressed and on
the wire (Chromium through a counting proxy).

What each row counts is BENCHMARKS.md's Method table, "payload" (the view's code rides in a
second, data-less element sent once per session; the browser forms Q·Kᵀ from the view's Q and
K). The baseline column is the baseline page's plotly JSON; the 150 KB target is for the first
load at 64 × 8 on the wire (TCP/IP headers not counted). `--breakdown` splits the view's bytes
into header and vectors.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/payload.py`

from bench import screencast as sc
from bench.common import (
    BASELINE_APP,
    CASES,
    DRAWN,
    MAIN_APP,
    Row,
    chromium,
    chromium_ok,
    options,
    print_table,
    running,
)
from bench.rerun import app_test

LIMIT_KB = 150.0  # target: first load on the wire, 64 × 8
VIEW_NAME = "attention_lab.explorer"
CODE_NAME = "attention_lab.explorer_code"
SWITCH = {"main": '[data-testid="explorer-scale"]', "baseline": ".st-key-scale label"}


# --- what the page holds (AppTest) ------------------------------------------------------------


def elements(at) -> dict:
    """{"view": bytes, "code": JS+CSS bytes, "plotly": [spec, …]} after the run AppTest made."""
    out: dict = {"view": b"", "code": 0, "plotly": [c.proto.spec for c in at.get("plotly_chart")]}
    for e in at.get("bidi_component"):
        if e.proto.component_name == VIEW_NAME:
            out["view"] = e.proto.bytes
        elif e.proto.component_name == CODE_NAME:
            out["code"] = len(e.proto.js_content.encode()) + len(e.proto.css_content.encode())
    return out


def spec_kb(specs: list[str]) -> float:
    """Total UTF-8 size of plotly specs in KB (1 KB = 1000 bytes)."""
    return sum(len(s.encode()) for s in specs) / 1000


def apptest_rows() -> tuple[list[Row], dict[str, dict]]:
    """View data (+ plotly JSON) per case and the view's code, against the baseline's JSON."""
    base = spec_kb(elements(app_test(BASELINE_APP))["plotly"])
    rows, held = [], {}
    for case in CASES:
        held[case.name] = got = elements(app_test(MAIN_APP, query=case.query()))
        kb = len(got["view"]) / 1000 + spec_kb(got["plotly"])
        label = f"view data {case.name} (+ plotly JSON of {len(got['plotly'])} charts)"
        rows.append(Row("payload", label, kb, "KB", base))
    code = held[CASES[0].name]["code"] / 1000
    rows.append(Row("payload", "view code (JS + CSS, once per session)", code, "KB"))
    return rows, held


# --- what travels (Chromium through a counting proxy) -----------------------------------------


class CountingProxy:
    """A TCP proxy on loopback that counts server → client bytes of `/_stcore/stream`."""

    def __init__(self, server: str) -> None:
        self.target = int(server.rsplit(":", 1)[1])  # the server's port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"  # the proxied base URL
        self.stream_bytes = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target))
        except OSError:
            client.close()
            return
        stream = {"is": False}
        up = threading.Thread(target=self._pump, args=(client, upstream, stream, False))
        up.start()
        self._pump(upstream, client, stream, True)
        up.join()
        client.close()
        upstream.close()

    def _pump(self, src: socket.socket, dst: socket.socket, stream: dict, down: bool) -> None:
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                with suppress(OSError):
                    dst.shutdown(socket.SHUT_WR)
                return
            if not down and data[:64].startswith(b"GET /_stcore/stream"):
                stream["is"] = True
            if down and stream["is"]:
                with self.lock:
                    self.stream_bytes += len(data)
            try:
                dst.sendall(data)
            except OSError:
                return

    def __enter__(self) -> CountingProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.listener.close()


def wire_kb(browser, server: str, path: str, kind: str) -> dict[str, float]:
    """KB for the first load of server/path and one √d_k switch, decompressed and on the wire."""
    with CountingProxy(server) as proxy:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        cast = sc.Screencast(page)  # counts the frames received; waits for quiet
        page.goto(proxy.url + path)
        page.wait_for_selector(DRAWN[kind], state="attached", timeout=120_000)
        cast.settle(time.time(), need_message=False)
        load = cast.received, proxy.stream_bytes
        cast.mark()
        page.locator(SWITCH[kind]).first.click()
        cast.settle(time.time())
        page.close()
        return {
            "load": load[0] / 1000,
            "load wire": load[1] / 1000,
            "switch": (cast.received - load[0]) / 1000,
            "switch wire": (proxy.stream_bytes - load[1]) / 1000,
        }


def wire_rows(browser, main_url: str, base_url: str) -> list[Row]:
    """Websocket KB (first load, √d_k switch; decompressed, on the wire) per case vs baseline."""
    base = wire_kb(browser, base_url, "/", "baseline")
    rows = []
    for case in CASES:
        got = wire_kb(browser, main_url, f"/{case.query_string()}", "main")
        for key, what in (("load", "first load"), ("switch", "√d_k switch in the view")):
            wire = got[f"{key} wire"]
            limited = key == "load" and case.heads == 8
            target, ok = (f"<{LIMIT_KB:g} KB", wire < LIMIT_KB) if limited else ("", None)
            label = f"websocket {case.name}: {what}"
            rows.append(
                Row("payload", f"{label}, on the wire", wire, "KB", base[f"{key} wire"], target, ok)
            )
            rows.append(Row("payload", f"{label}, decompressed", got[key], "KB", base[key]))
    return rows


def run() -> list[Row]:
    """View data rows, then websocket rows when Chromium is available."""
    rows, _ = apptest_rows()
    if chromium_ok("payload websocket rows"):
        with chromium() as browser, running(BASELINE_APP) as base, running(MAIN_APP) as main:
            rows += wire_rows(browser, main, base)
    return rows


def print_breakdown() -> None:
    """The view's bytes split into header JSON and float32 vectors (Q, K; Q₀, K₀), per case."""
    from ui.explorer import decode_vectors

    _, held = apptest_rows()
    for name, got in held.items():
        header, arrays = decode_vectors(got["view"])
        size = len(json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode())
        body = sum(a.nbytes for a in arrays.values())
        print(
            f"{name}: view {len(got['view']) / 1000:.1f} KB = header ~{size / 1000:.1f} KB "
            f"(text {len(json.dumps(header['text'], ensure_ascii=False).encode()) / 1000:.1f} KB)"
            f" + vectors {body / 1000:.1f} KB ({'/'.join(arrays)}: {len(arrays)} × "
            f"{header['h']} × {header['n']} × {header['d_k']} float32); "
            f"plotly JSON {spec_kb(got['plotly']):.1f} KB in {len(got['plotly'])} charts; "
            f"view code {got['code'] / 1000:.1f} KB"
        )


def main() -> None:
    if options(__doc__, breakdown=(False, "the view's bytes by part")).breakdown:
        print_breakdown()
        return
    print_table(run(), "Payload")


if __name__ == "__main__":
    main()
