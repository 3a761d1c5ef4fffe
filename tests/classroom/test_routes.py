"""The class's HTTP routes through starlette's TestClient, over both stores: the teacher's cookie,
Origin and secret checks, answers, refusals that leave the tally alone, rate limits, expiry."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import classroom
from classroom import Classroom
from classroom import state as st
from classroom.limits import Limits
from classroom.redis_store import RedisStore
from classroom.service import Settings
from tests.classroom.class_support import PHONES, QUESTION, app_of

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def service(store, clock) -> Classroom:
    made = Classroom(store, clock=clock)
    made.limits = Limits(lambda: 0.0)  # buckets refill only when a test turns this clock
    return made


@pytest.fixture
def teacher(service):
    with TestClient(app_of(service)) as client:
        yield client


@pytest.fixture
def phone(service):
    return TestClient(app_of(service))  # no cookies of the teacher's; the lifespan runs once


def start(teacher, **body) -> tuple[str, str]:
    """A class with QUESTION current: (code, the teacher's secret as the cookie holds it)."""
    made = teacher.post("/class/new", json={"scene": "s1", "question": QUESTION, **body},
                        headers=ORIGIN)  # fmt: skip
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    return code, teacher.cookies[f"al_lead_{code}"]


def answer(client, code, phone_token, choice, question="q1", **more):
    body = {"phone": phone_token, "question": question, "choice": choice, **more}
    return client.post(f"/class/{code}/answer", json=body, headers=ORIGIN)


def counts(teacher, code) -> dict:
    return teacher.get(f"/class/{code}").json()["tally"]["counts"]


def test_creating_a_class_sets_the_secret_only_in_a_strict_httponly_cookie(teacher, phone):
    made = teacher.post("/class/new", json={"scene": "s1"}, headers=ORIGIN)
    code = made.json()["code"]
    cookie = made.headers["set-cookie"]
    secret = teacher.cookies[f"al_lead_{code}"]
    assert cookie.startswith(f"al_lead_{code}={secret};")
    for flag in ("HttpOnly", "SameSite=strict", "Path=/", f"Max-Age={st.TTL_S}"):
        assert flag in cookie, cookie
    assert "Secure" not in cookie  # plain http here; https sets it
    assert made.json()["join"] == {"url": f"http://testserver/lesson?join={code}",
                                   "reachable": False, "reason": "loopback"}  # fmt: skip
    seen = [made, teacher.get(f"/class/{code}"), teacher.get(f"/class/{code}/join"),
            teacher.get(f"/class/{code}/qr.svg"), teacher.get(f"/class/{code}/me"),
            phone.get(f"/class/{code}"), answer(phone, code, PHONES[0], "a", "none")]  # fmt: skip
    seen.append(teacher.post(f"/class/{code}/state", json={"step": "s1.b"}, headers=ORIGIN))
    assert all(secret not in r.text for r in seen)
    assert teacher.get(f"/class/{code}/me").json()["teacher"] is True
    assert phone.get(f"/class/{code}/me").json()["teacher"] is False


def test_a_change_without_the_secret_or_from_another_origin_is_refused(teacher, phone):
    code, secret = start(teacher)
    before = teacher.get(f"/class/{code}").json()["v"]
    for path in ("state", "reset", "end"):
        forged = phone.post(f"/class/{code}/{path}", json={"question": "q1"}, headers=ORIGIN)
        assert (forged.status_code, forged.json()["error"]) == (403, "not_teacher"), path
    phone.cookies.set(f"al_lead_{code}", secret[:-2] + "xx")
    wrong = phone.post(f"/class/{code}/state", json={"step": "x"}, headers=ORIGIN)
    assert wrong.status_code == 403
    for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"}):
        cross = teacher.post(f"/class/{code}/state", json={"step": "x"}, headers=headers)
        assert (cross.status_code, cross.json()["error"]) == (403, "bad_origin")
    assert teacher.get(f"/class/{code}").json()["v"] == before


def test_a_public_url_is_a_valid_origin(store, clock):
    service = Classroom(store, Settings(public_url="https://lab.school.example/"), clock)
    with TestClient(app_of(service)) as client:
        made = client.post("/class/new", headers={"Origin": "https://lab.school.example"})
        assert made.status_code == 201 and "Secure" in made.headers["set-cookie"]
        assert made.json()["join"]["url"].startswith("https://lab.school.example/lesson?join=")


def test_answers_are_tallied_replaced_counted_once_and_closed_by_the_reveal(teacher, phone):
    code, _ = start(teacher)
    assert answer(phone, code, PHONES[0], "a").json()["result"] == "new"
    assert answer(phone, code, PHONES[0], "a").json()["result"] == "same"  # a retry
    assert answer(phone, code, PHONES[1], "c").json()["result"] == "new"
    assert answer(phone, code, PHONES[0], "b").json()["result"] == "changed"
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}
    own = phone.get(f"/class/{code}", params={"phone": PHONES[0]}).json()
    assert own["mine"] == "b" and "tally" not in own and "answer" not in own["question"]
    teacher.post(f"/class/{code}/state", json={"revealed": True}, headers=ORIGIN)
    late = answer(phone, code, PHONES[2], "a")
    assert (late.status_code, late.json()["error"]) == (409, "revealed")
    shown = phone.get(f"/class/{code}", params={"phone": PHONES[0]}).json()
    assert shown["question"]["answer"] == "b" and shown["question"]["why"] == QUESTION["why"]
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"phone": PHONES[1], "question": "q1", "choice": "z"}, 422, "bad_choice"),
        ({"phone": PHONES[1], "question": "q7", "choice": "a"}, 409, "unknown_question"),
        ({"phone": "short", "question": "q1", "choice": "a"}, 422, "bad_phone"),
        ({"phone": PHONES[1], "question": "q1", "choice": "a", "n": 2}, 422, "bad_field"),
        ({"phone": PHONES[1], "question": "q1", "choice": "a", "pad": "x" * 3000}, 413,
         "too_large"),
        (b'{"phone": ', 400, "bad_json"),
        (b"[1, 2]", 400, "bad_json"),
        (b'{"phone": NaN}', 400, "bad_json"),
        (b"[" * 1020 + b"]" * 1020, 400, "bad_json"),  # deeper than json.loads goes
    ],
)  # fmt: skip
def test_a_bad_answer_is_refused_without_touching_the_tally(teacher, phone, body, status, error):
    code, _ = start(teacher)
    answer(phone, code, PHONES[0], "a")
    url = f"/class/{code}/answer"
    if isinstance(body, bytes):
        refused = phone.post(url, content=body, headers=ORIGIN)
    else:
        refused = phone.post(url, json=body, headers=ORIGIN)
    assert (refused.status_code, refused.json()["error"]) == (status, error)
    assert counts(teacher, code) == {"a": 1, "b": 0, "c": 0}


def test_a_flooding_phone_is_slowed_down_and_counted_once(teacher, phone):
    code, _ = start(teacher)
    said = [answer(phone, code, PHONES[0], "ab"[i % 2]).status_code for i in range(30)]
    assert said[:10] == [200] * 10 and set(said[10:]) == {429}
    flood = answer(phone, code, PHONES[0], "c")
    assert flood.json()["error"] == "too_many_requests" and int(flood.headers["retry-after"]) >= 1
    assert answer(phone, code, PHONES[1], "c").status_code == 200
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}


def test_guessing_codes_is_rate_limited_per_phone(teacher, phone):
    code, _ = start(teacher)
    misses = [phone.get(f"/class/{guess}", params={"phone": PHONES[0]}).status_code
              for guess in ("AAAAAA", "AAAAAB", "AAAAAC", "AAAAAD", "AAAAAE")]  # fmt: skip
    assert misses == [404] * 5
    refused = phone.get(f"/class/{code}", params={"phone": PHONES[0]})
    assert (refused.status_code, refused.json()["error"]) == (429, "too_many_guesses")
    assert phone.get(f"/class/{code}", params={"phone": PHONES[1]}).status_code == 200
    assert phone.get(f"/class/{code}/events", params={"phone": "bad"}).status_code == 422


def test_unknown_and_expired_codes_say_no_class(teacher, phone, clock):
    clock.now -= st.TTL_S + 5  # made six hours ago
    code, _ = start(teacher)
    clock.now += st.TTL_S + 5
    for path in (f"/class/{code}", f"/class/{code}/join", f"/class/{code}/qr.svg",
                 "/class/O0O0O0", "/class/K7MX2Q/events"):  # fmt: skip
        gone = phone.get(path)
        assert (gone.status_code, gone.json()["error"]) == (404, "no_class"), path
    assert answer(phone, code, PHONES[0], "a").json()["error"] == "no_class"
    assert teacher.post(f"/class/{code}/state", json={}, headers=ORIGIN).status_code == 403


def test_the_teacher_resets_a_question_and_ends_the_class(teacher, phone):
    code, _ = start(teacher)
    answer(phone, code, PHONES[0], "a")
    teacher.post(f"/class/{code}/state", json={"revealed": True}, headers=ORIGIN)
    reset = teacher.post(f"/class/{code}/reset", json={"question": "q1"}, headers=ORIGIN)
    assert reset.status_code == 200 and not reset.json()["state"]["revealed"]
    assert counts(teacher, code) == {"a": 0, "b": 0, "c": 0}
    assert teacher.post(f"/class/{code}/reset", json={}, headers=ORIGIN).status_code == 422
    ended = teacher.post(f"/class/{code}/end", headers=ORIGIN).json()["state"]
    assert ended["ended"] and phone.get(f"/class/{code}").json()["ended"]
    assert answer(phone, code, PHONES[0], "a").status_code == 410
    assert (
        teacher.post(f"/class/{code}/state", json={"step": "x"}, headers=ORIGIN).status_code == 410
    )


def test_a_setup_blob_is_capped_and_phones_read_it_back(teacher, phone):
    code, _ = start(teacher, setup={"sentence": "小明把书放在了桌子上", "timings_ms": [1.5, 6.1]})
    assert phone.get(f"/class/{code}").json()["setup"]["timings_ms"] == [1.5, 6.1]
    big = {"setup": {"pad": "x" * st.SETUP_CAP}}
    too_big = teacher.post(f"/class/{code}/state", json=big, headers=ORIGIN)
    assert too_big.status_code == 422 and too_big.json()["error"] == "bad_field"
    huge = teacher.post(f"/class/{code}/state", json={"setup": {"pad": "x" * st.CHANGE_CAP}},
                        headers=ORIGIN)  # fmt: skip
    assert huge.status_code == 413


def test_the_qr_code_is_an_svg_of_the_join_link(teacher):
    code, _ = start(teacher)
    qr = teacher.get(f"/class/{code}/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml") and qr.text.startswith("<svg")


def test_an_unreachable_redis_answers_503_store_unavailable():
    service = Classroom(RedisStore("redis://127.0.0.1:1/0"))
    with TestClient(app_of(service)) as client:
        for reply in (client.post("/class/new", headers=ORIGIN), client.get("/class/K7MX2Q"),
                      client.get("/class/K7MX2Q/events"),
                      answer(client, "K7MX2Q", PHONES[0], "a")):  # fmt: skip
            assert (reply.status_code, reply.json()["error"]) == (503, "store_unavailable")


def test_a_page_asks_whether_its_browser_leads_the_class(service):
    with TestClient(app_of(service)) as teacher:
        code, secret = start(teacher)
        assert classroom.running() is service
        assert classroom.is_teacher(code, {f"al_lead_{code}": secret})
        assert not classroom.is_teacher(code, {f"al_lead_{code}": secret[:-1] + "x"})
        assert not classroom.is_teacher(code, {})
    assert classroom.running() is None
    assert not classroom.is_teacher(code, {f"al_lead_{code}": secret}), "no server: no teacher"
