"""The join link's origin and reachability, and its QR code (classroom/join.py)."""

from __future__ import annotations

import pytest

from classroom import join


@pytest.mark.parametrize(
    ("host_header", "scheme", "public_url", "listen", "lan", "want"),
    [
        ("127.0.0.1:8501", "http", "", "127.0.0.1", "10.0.0.5",
         ("http://127.0.0.1:8501", False, "loopback")),
        ("localhost:8501", "http", "", "localhost", None,
         ("http://localhost:8501", False, "loopback")),
        ("localhost:8501", "http", "", "0.0.0.0", "192.168.1.20",
         ("http://192.168.1.20:8501", True, "lan")),
        ("10.1.1.1", "http", "", "0.0.0.0", "192.168.1.20", ("http://192.168.1.20", True, "lan")),
        ("localhost:8501", "http", "", "0.0.0.0", None, ("http://127.0.0.1:8501", False, "no_lan")),
        ("x:8600", "http", "", "192.168.1.7", None, ("http://192.168.1.7:8600", True, "address")),
        ("x:443", "https", "", "::", "fd00::5", ("https://[fd00::5]", True, "lan")),
        ("127.0.0.1:8501", "http", "https://lab.school.example/", "127.0.0.1", None,
         ("https://lab.school.example", True, "public_url")),
    ],
)  # fmt: skip
def test_phones_get_the_public_url_the_lan_address_or_a_plain_no(
    monkeypatch, host_header, scheme, public_url, listen, lan, want
):
    monkeypatch.setattr(join, "lan_address", lambda: lan)
    got = join.public_origin(host_header, scheme, public_url=public_url, listen_host=listen)
    assert got == want


def test_the_join_link_names_the_lesson_and_the_code():
    link = join.join_link("K7MX2Q", ("http://192.168.1.20:8501", True, "lan"))
    assert link.url == "http://192.168.1.20:8501/lesson?join=K7MX2Q"
    assert link.body() == {"url": link.url, "reachable": True, "reason": "lan"}


def test_this_machine_has_a_lan_address_or_says_none():
    address = join.lan_address()
    assert address is None or not join.is_loopback(address)


def test_the_qr_code_is_a_standalone_svg_that_the_page_sizes():
    svg = join.qr_svg("http://192.168.1.20:8501/lesson?join=K7MX2Q")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
    assert "width=" not in svg.split(">", 1)[0], "no fixed size: the projector makes it large"
    assert svg == join.qr_svg("http://192.168.1.20:8501/lesson?join=K7MX2Q")
    assert svg != join.qr_svg("http://192.168.1.20:8501/lesson?join=K7MX2R")
