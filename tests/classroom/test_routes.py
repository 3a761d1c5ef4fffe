"""The class's HTTP routes through starlette's TestClient, over both stores: the teacher's cookie,
Origin and secret checks, joins and their signed tokens, answers of joined phones only, refusals
that leave the tally alone, rate limits (per phone, per code, per browser: never one budget a
stranger spends for everyone), caps (phones, live classes), the passcode, expiry, the store that
lost a class, the teacher's room, summary and export."""

from __future__ import annotations

import csv
import io
import json
import time
import uuid

import pytest
from starlette.testclient import TestClient

import classroom
from classroom import Classroom, limits, tokens
from classroom import state as st
from classroom.limits import Limits
from classroom.redis_store import RedisStore
from classroom.service import Settings
from classroom.store import MemoryStore
from tests.classroom.class_support import PHONES, QUESTION, REDIS_SLOW, app_of

ORIGIN = {"Origin": "http://testserver"}
Q2 = {
    "id": "q2",
    "choices": ["x", "y"],
    "answer": "y",
    "labels": {"x": "=1+1", "y": {"zh": "是", "en": "yes"}},
}


class Ticks:
    """The limits' clock: buckets refill only when a test turns it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def service_of(store, clock, **settings) -> Classroom:
    made = Classroom(store, Settings(**settings), clock=clock)
    made.limits = Limits(Ticks())
    return made


@pytest.fixture
def service(store, clock) -> Classroom:
    return service_of(store, clock)


@pytest.fixture
def teacher(service):
    with TestClient(app_of(service)) as client:
        yield client


@pytest.fixture
def phone(service, teacher):
    """Another client: no cookies of the teacher's; the lifespan runs once. Its requests run on
    the teacher's event loop, as a server's all do (a TestClient outside `with` starts a thread
    and an event loop per request: the guessing flood's 470 requests took 1.8 s, not 0.5)."""
    client = TestClient(app_of(service))
    client.portal = teacher.portal
    return client


def start(teacher, **body) -> tuple[str, str]:
    """A class with QUESTION current: (code, the teacher's secret as the cookie holds it)."""
    made = teacher.post(
        "/class/new", json={"scene": "s1", "question": QUESTION, **body}, headers=ORIGIN
    )
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    return code, teacher.cookies[f"al_lead_{code}"]


def join(client, code: str, phone_id: str):
    return client.post(f"/class/{code}/join", json={"phone": phone_id}, headers=ORIGIN)


def token_of(client, code: str, phone_id: str) -> str:
    joined = join(client, code, phone_id)
    assert joined.status_code == 200, joined.text
    return joined.json()["token"]


def answer(client, code, token, choice, question="q1", **more):
    body = {"token": token, "question": question, "choice": choice, **more}
    return client.post(f"/class/{code}/answer", json=body, headers=ORIGIN)


def counts(teacher, code) -> dict:
    return teacher.get(f"/class/{code}").json()["tally"]["counts"]


def error(reply) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]


def lose(store, code: str) -> None:
    """The store loses a class (Redis flushed or replaced; the memory store's process restarted)."""
    if isinstance(store, MemoryStore):
        store._classes.clear()
    else:
        store._redis.delete(*store._keys(code)[:-1])


# ---- the teacher's secret -------------------------------------------------------------------


def test_creating_a_class_sets_the_secret_only_in_a_strict_httponly_cookie(teacher, phone):
    made = teacher.post("/class/new", json={"scene": "s1"}, headers=ORIGIN)
    code = made.json()["code"]
    lead, maker = made.headers.get_list("set-cookie")
    secret = teacher.cookies[f"al_lead_{code}"]
    assert lead.startswith(f"al_lead_{code}={secret};")
    for flag in ("HttpOnly", "SameSite=strict", "Path=/", f"Max-Age={st.TTL_S}"):
        assert flag in lead, lead
    assert "Secure" not in lead  # plain http here; https sets it
    assert maker.startswith("al_maker=") and "HttpOnly" in maker and "Path=/class/" in maker
    assert made.json()["join"] == {
        "url": f"http://testserver/lesson?join={code}",
        "reachable": False,
        "reason": "loopback",
    }
    token = token_of(phone, code, PHONES[0])
    seen = [
        made,
        teacher.get(f"/class/{code}"),
        teacher.get(f"/class/{code}/join"),
        teacher.get(f"/class/{code}/qr.svg"),
        teacher.get(f"/class/{code}/me"),
        phone.get(f"/class/{code}"),
        answer(phone, code, token, "a", "none"),
        join(phone, code, PHONES[1]),
        teacher.get(f"/class/{code}/summary"),
    ]
    seen.append(teacher.post(f"/class/{code}/state", json={"step": "s1.b"}, headers=ORIGIN))
    assert all(secret not in r.text for r in seen)
    assert teacher.get(f"/class/{code}/me").json()["teacher"] is True
    assert phone.get(f"/class/{code}/me").json()["teacher"] is False


def test_a_change_without_the_secret_or_from_another_origin_is_refused(teacher, phone):
    code, secret = start(teacher)
    before = teacher.get(f"/class/{code}").json()["v"]
    for path in ("state", "reset", "end"):
        forged = phone.post(f"/class/{code}/{path}", json={"question": "q1"}, headers=ORIGIN)
        assert error(forged) == (403, "not_teacher"), path
    phone.cookies.set(f"al_lead_{code}", secret[:-2] + "xx")
    refused = phone.post(f"/class/{code}/state", json={"step": "x"}, headers=ORIGIN)
    assert error(refused) == (403, "not_teacher")
    for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"}):
        cross = teacher.post(f"/class/{code}/state", json={"step": "x"}, headers=headers)
        assert error(cross) == (403, "bad_origin")
    assert teacher.get(f"/class/{code}").json()["v"] == before


def test_a_public_url_is_a_valid_origin(store, clock):
    service = service_of(store, clock, public_url="https://lab.school.example/")
    with TestClient(app_of(service)) as client:
        made = client.post("/class/new", headers={"Origin": "https://lab.school.example"})
        assert made.status_code == 201 and "Secure" in made.headers["set-cookie"]
        assert made.json()["join"]["url"].startswith("https://lab.school.example/lesson?join=")


def test_after_the_store_lost_a_class_its_teacher_is_told_no_class(teacher, phone, store):
    code, _ = start(teacher)
    lose(store, code)
    for path in ("state", "reset", "end"):
        said = teacher.post(f"/class/{code}/{path}", json={"question": "q1"}, headers=ORIGIN)
        assert error(said) == (404, "no_class"), path
    assert error(teacher.get(f"/class/{code}/summary")) == (404, "no_class")
    assert error(teacher.get(f"/class/{code}/events")) == (404, "no_class")
    # without the teacher's cookie nothing is looked up: not_teacher, as for any code
    assert error(phone.post(f"/class/{code}/end", headers=ORIGIN)) == (403, "not_teacher")


# ---- joining: a signed token ------------------------------------------------------------------


def test_a_join_hands_the_phone_a_token_signed_for_this_class_only(teacher, phone, service):
    code, _ = start(teacher)
    other, _ = start(teacher)
    joined = join(phone, code, PHONES[0])
    body = joined.json()
    assert joined.status_code == 200 and body["code"] == code and body["mine"] is None
    assert "answer" not in body["question"] and "tally" not in body
    token = body["token"]
    assert token.startswith(PHONES[0] + ".") and tokens.TOKEN_RE.fullmatch(token)
    assert service.phone_of(code, token) == PHONES[0]
    assert service.phone_of(other, token) is None, "a token opens its own class only"
    assert error(answer(phone, other, token, "a")) == (403, "bad_token")
    again = token_of(phone, code, PHONES[0])  # a reload joins again: the same phone
    assert answer(phone, code, again, "a").json()["result"] == "new"
    assert answer(phone, code, token, "a").json()["result"] == "same"
    mine = phone.get(f"/class/{code}", params={"token": token}).json()
    assert mine["mine"] == "a" and mine["teacher"] is False
    assert join(phone, code, PHONES[0]).json()["mine"] == "a"


@pytest.mark.parametrize(
    ("body", "status", "err"),
    [
        ({"phone": "short"}, 422, "bad_phone"),
        ({"phone": PHONES[0], "extra": 1}, 422, "bad_field"),
        ({}, 422, "bad_phone"),
        ({"phone": PHONES[0], "pad": "x" * 300}, 413, "too_large"),
    ],
)
def test_a_malformed_join_is_refused(teacher, phone, body, status, err):
    code, _ = start(teacher)
    said = phone.post(f"/class/{code}/join", json=body, headers=ORIGIN)
    assert error(said) == (status, err)
    foreign = phone.post(
        f"/class/{code}/join", json={"phone": PHONES[0]}, headers={"Origin": "http://evil.example"}
    )
    assert error(foreign) == (403, "bad_origin")


def test_made_up_tokens_count_nothing(teacher, phone, service, store):
    code, _ = start(teacher)
    token = token_of(phone, code, PHONES[0])
    phone_id, issued, mac = token.split(".")
    never_joined = tokens.sign(service.signing_key(), code, PHONES[1], int(issued))
    forged = [
        f"{PHONES[2]}.{issued}.{mac}",  # another phone's id under this MAC
        f"{phone_id}.{int(issued) + 1}.{mac}",  # another time
        tokens.sign(b"k" * 32, code, PHONES[3], int(issued)),  # another key
        tokens.sign(service.signing_key(), code, PHONES[4], int(issued) - st.TTL_S - 3600),  # old
        PHONES[5],  # a bare phone id, as phones sent before tokens
        "",
        None,
        7,
        "x" * 500,
    ]
    for k, made_up in enumerate(forged):
        assert error(answer(phone, code, made_up, "a")) == (403, "bad_token"), k
        if isinstance(made_up, str) and made_up:
            read = phone.get(f"/class/{code}", params={"token": made_up})
            assert error(read) == (403, "bad_token")
    # signed by this server for this class, but the store never saw this phone join
    assert error(answer(phone, code, never_joined, "a")) == (403, "bad_token")
    for i in range(60):  # a script with made-up tokens, a new one per request (3 bursts of 20)
        made_up = tokens.sign(bytes([i % 256]) * 32, code, f"fake-phone-{i:05d}-abcdefghijkl", 1)
        assert answer(phone, code, made_up, "b").status_code == 403
    assert counts(teacher, code) == {"a": 0, "b": 0, "c": 0}
    assert store.room(code, 0)["joined"] == 1


def test_answers_are_tallied_replaced_counted_once_and_closed_by_the_reveal(teacher, phone):
    code, _ = start(teacher)
    one, two, three = (token_of(phone, code, p) for p in PHONES[:3])
    assert answer(phone, code, one, "a").json()["result"] == "new"
    assert answer(phone, code, one, "a").json()["result"] == "same"  # a retry
    assert answer(phone, code, two, "c").json()["result"] == "new"
    assert answer(phone, code, one, "b").json()["result"] == "changed"
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}
    own = phone.get(f"/class/{code}", params={"token": one}).json()
    assert own["mine"] == "b" and "tally" not in own and "answer" not in own["question"]
    teacher.post(f"/class/{code}/state", json={"revealed": True}, headers=ORIGIN)
    assert error(answer(phone, code, three, "a")) == (409, "revealed")
    shown = phone.get(f"/class/{code}", params={"token": one}).json()
    assert shown["question"]["answer"] == "b" and shown["question"]["why"] == QUESTION["why"]
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}


@pytest.mark.parametrize(
    ("body", "status", "err"),
    [
        ({"question": "q1", "choice": "z"}, 422, "bad_choice"),
        ({"question": "q7", "choice": "a"}, 409, "unknown_question"),
        ({"question": "q1", "choice": "a", "n": 2}, 422, "bad_field"),
        ({"question": "q1", "choice": "a", "pad": "x" * 3000}, 413, "too_large"),
        ({"phone": PHONES[1], "question": "q1", "choice": "a"}, 422, "bad_field"),
        (b'{"token": ', 400, "bad_json"),
        (b"[1, 2]", 400, "bad_json"),
        (b'{"token": NaN}', 400, "bad_json"),
        (b"[" * 1020 + b"]" * 1020, 400, "bad_json"),  # deeper than json.loads goes
    ],
)
def test_a_bad_answer_is_refused_without_touching_the_tally(teacher, phone, body, status, err):
    code, _ = start(teacher)
    token = token_of(phone, code, PHONES[0])
    answer(phone, code, token, "a")
    url = f"/class/{code}/answer"
    if isinstance(body, bytes):
        refused = phone.post(url, content=body, headers=ORIGIN)
    else:
        body = body if "phone" in body else {"token": token_of(phone, code, PHONES[1]), **body}
        refused = phone.post(url, json=body, headers=ORIGIN)
    assert error(refused) == (status, err)
    assert counts(teacher, code) == {"a": 1, "b": 0, "c": 0}


def test_a_flooding_phone_is_slowed_down_and_counted_once(teacher, phone):
    code, _ = start(teacher)
    one, two = token_of(phone, code, PHONES[0]), token_of(phone, code, PHONES[1])
    said = [answer(phone, code, one, "ab"[i % 2]).status_code for i in range(30)]
    assert said[:10] == [200] * 10 and set(said[10:]) == {429}
    flood = answer(phone, code, one, "c")
    assert flood.json()["error"] == "too_many_requests" and int(flood.headers["retry-after"]) >= 1
    assert answer(phone, code, two, "c").status_code == 200
    assert counts(teacher, code) == {"a": 0, "b": 1, "c": 1}


# ---- guessing ---------------------------------------------------------------------------------


def test_guessing_codes_is_limited_per_phone_id_and_per_code(teacher, phone):
    code, _ = start(teacher)
    misses = [
        join(phone, guess, PHONES[0]).status_code
        for guess in ("AAAAAA", "AAAAAB", "AAAAAC", "AAAAAD", "AAAAAE")
    ]
    assert misses == [404] * 5
    refused = join(phone, code, PHONES[0])  # this id is out of guesses: even a real code waits
    assert error(refused) == (429, "too_many_guesses") and int(refused.headers["retry-after"]) > 1
    assert join(phone, code, PHONES[1]).status_code == 200
    for k in range(5):  # one unknown code, a new id each time
        assert phone.get("/class/ZZZZZZ", params={"phone": PHONES[10 + k]}).status_code == 404
    refused = phone.get("/class/ZZZZZZ", params={"phone": PHONES[20]})
    assert error(refused) == (429, "too_many_guesses")
    assert error(phone.get("/class/ZZZZZZ")) == (429, "too_many_guesses")
    assert phone.get(f"/class/{code}", params={"phone": PHONES[20]}).status_code == 200
    assert error(phone.get(f"/class/{code}", params={"phone": "bad"})) == (422, "bad_phone")


def test_a_joined_phone_and_a_new_one_are_never_refused_during_a_guessing_flood(
    teacher, phone, service
):
    """A script guesses codes with a new id each time (and none), reads and opens streams with
    made-up tokens: the class's own phones answer, read and rejoin; a new phone joins; the
    teacher leads. No budget of theirs was spent."""
    code, _ = start(teacher)
    token = token_of(phone, code, PHONES[0])
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    for k in range(200):  # 10 times the largest burst of any bucket (20)
        guess = "".join(alphabet[(k // 32**i) % 32] for i in range(6))
        if guess == code:
            continue
        assert join(phone, guess, f"guesser-{k:06d}-abcdefghijkl").status_code in (404, 429)
        if k % 3 == 0:
            phone.get(f"/class/{guess}")
            phone.get(f"/class/{code}/events", params={"token": f"{PHONES[9]}.1.{'A' * 43}"})
        if k % 40 == 0:  # within the phone's own budget (10 answers at once)
            assert answer(phone, code, token, "abc"[k % 3]).status_code == 200
            assert phone.get(f"/class/{code}", params={"token": token}).status_code == 200
    assert answer(phone, code, token, "c").status_code == 200
    assert join(phone, code, PHONES[1]).status_code == 200, "a phone joining now"
    assert join(phone, code, PHONES[0]).status_code == 200, "a phone rejoining (a reload)"
    assert (
        teacher.post(f"/class/{code}/state", json={"step": "s1.b"}, headers=ORIGIN).status_code
        == 200
    )
    assert counts(teacher, code) == {"a": 0, "b": 0, "c": 1}


def test_the_process_s_bounded_buckets_never_refuse_a_joined_phone(teacher, phone, monkeypatch):
    """The only process-wide bound is the buckets' memory: a flood of strangers beyond it makes
    the process forget buckets (full again), never refuse a phone that joined."""
    monkeypatch.setattr(limits, "MAX_KEYS", 50)
    code, _ = start(teacher)
    tokens_ = [token_of(phone, code, p) for p in PHONES[:3]]
    for k in range(150):  # three times the buckets kept
        phone.get(
            f"/class/AAA{k:03d}".translate(str.maketrans("01", "BC")),
            params={"phone": f"stranger-{k:05d}-abcdefghijkl"},
        )
    for token, choice in zip(tokens_, "abc", strict=True):
        assert answer(phone, code, token, choice).status_code == 200
        assert phone.get(f"/class/{code}", params={"token": token}).status_code == 200


# ---- caps -------------------------------------------------------------------------------------


def test_a_class_takes_at_most_its_cap_of_phones_and_answers_no_more(store, clock):
    service = service_of(store, clock, max_phones=3)
    with TestClient(app_of(service)) as client:
        code, _ = start(client)
        joined = [token_of(client, code, p) for p in PHONES[:3]]
        full = join(client, code, PHONES[3])
        assert error(full) == (409, "class_full") and "3" in full.json()["detail"]
        assert join(client, code, PHONES[1]).status_code == 200, "a phone that joined rejoins"
        for token in joined:
            assert answer(client, code, token, "a").status_code == 200
        assert sum(counts(client, code).values()) == 3
        assert client.get(f"/class/{code}").json()["room"]["joined"] == 3


def test_live_classes_are_capped_and_an_ended_one_frees_its_place(store, clock):
    service = service_of(store, clock, max_classes=2)
    with TestClient(app_of(service)) as client:
        first, _ = start(client)
        service.limits = Limits(Ticks())  # a browser's own budget is the next test's
        start(client)
        full = client.post("/class/new", json={}, headers=ORIGIN)
        assert error(full) == (429, "too_many_classes") and "2" in full.json()["detail"]
        client.post(f"/class/{first}/end", headers=ORIGIN)
        assert client.post("/class/new", json={}, headers=ORIGIN).status_code == 201


def test_a_browser_starts_a_few_classes_and_another_browser_is_not_held_up(store, clock):
    service = service_of(store, clock)
    with TestClient(app_of(service)) as one, TestClient(app_of(service)) as two:
        made = [one.post("/class/new", headers=ORIGIN).status_code for _ in range(5)]
        assert made == [201] * 3 + [429] * 2
        assert error(one.post("/class/new", headers=ORIGIN)) == (429, "too_many_requests")
        assert two.post("/class/new", headers=ORIGIN).status_code == 201
        service.limits.classes._clock.now += 60  # a minute later
        assert one.post("/class/new", headers=ORIGIN).status_code == 201


def test_a_teachers_passcode_when_set_is_needed_to_start_a_class(store, clock):
    service = service_of(store, clock, passcode="blue-river-7-lanterns")
    with TestClient(app_of(service)) as client:
        for body in ({}, {"passcode": "blue"}, {"passcode": 7}, {"passcode": "x" * 150}):
            service.limits = Limits(Ticks())
            said = client.post("/class/new", json=body, headers=ORIGIN)
            assert error(said) == (403, "bad_passcode"), body
        made = client.post(
            "/class/new", json={"passcode": "blue-river-7-lanterns", "scene": "s1"}, headers=ORIGIN
        )
        assert made.status_code == 201 and "passcode" not in made.text
        assert made.json()["state"]["scene"] == "s1"


def test_settings_come_from_the_environment_and_a_bad_one_is_a_clear_error():
    env = {
        "CLASS_MAX_PHONES": "40",
        "CLASS_MAX_LIVE": "3",
        "CLASS_MAX_STREAMS": "100",
        "CLASS_TTL_S": "60",
        "TEACHER_PASSCODE": "p",
        "SERVE_HOST": "0.0.0.0",
    }
    settings = Settings.from_env(lambda: "127.0.0.1", env)
    assert (
        settings.max_phones,
        settings.max_classes,
        settings.max_streams,
        settings.ttl_s,
        settings.passcode,
        settings.stream_cap(),
    ) == (40, 3, 100, 60, "p", 100)
    assert settings.exposed()
    plain = Settings.from_env(lambda: "127.0.0.1", {})
    assert (plain.max_phones, plain.max_classes, plain.ttl_s) == (200, 50, st.TTL_S)
    assert not plain.exposed()
    assert 16 <= plain.stream_cap() <= limits.open_file_limit() - 16
    for bad in (
        {"CLASS_MAX_PHONES": "0"},
        {"CLASS_MAX_LIVE": "many"},
        {"CLASS_TTL_S": "-5"},
        {"TEACHER_PASSCODE": "x" * 101},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Settings.from_env(lambda: "127.0.0.1", bad)


# ---- expiry, the teacher's tools ------------------------------------------------------------


def test_unknown_and_expired_codes_say_no_class(teacher, phone, clock, service):
    clock.now -= st.TTL_S + 5  # made six hours ago
    code, _ = start(teacher)
    clock.now += st.TTL_S + 5
    token = tokens.sign(service.signing_key(), code, PHONES[0], int(clock.now) - 60)
    for path in (
        f"/class/{code}",
        f"/class/{code}/join",
        f"/class/{code}/qr.svg",
        "/class/O0O0O0",
        "/class/K7MX2Q",
    ):
        assert error(phone.get(path)) == (404, "no_class"), path
    assert error(join(phone, code, PHONES[1])) == (404, "no_class")
    assert error(answer(phone, code, token, "a")) == (404, "no_class")
    assert error(phone.get(f"/class/{code}/events", params={"token": token})) == (404, "no_class")
    assert error(teacher.post(f"/class/{code}/state", json={}, headers=ORIGIN)) == (404, "no_class")


def test_the_tally_is_hidden_at_the_next_question_and_after_a_reset(teacher, phone):
    code, _ = start(teacher)
    token = token_of(phone, code, PHONES[0])
    answer(phone, code, token, "a")
    shown = teacher.post(f"/class/{code}/state", json={"tally_visible": True}, headers=ORIGIN)
    assert shown.json()["state"]["tally_visible"]
    assert phone.get(f"/class/{code}", params={"token": token}).json()["tally"]["total"] == 1
    moved = teacher.post(
        f"/class/{code}/state", json={"question": Q2, "step": "s1.q2"}, headers=ORIGIN
    ).json()["state"]
    assert not moved["tally_visible"] and "tally" not in phone.get(f"/class/{code}").json()
    teacher.post(f"/class/{code}/state", json={"tally_visible": True}, headers=ORIGIN)
    reset = teacher.post(f"/class/{code}/reset", json={"question": "q2"}, headers=ORIGIN)
    assert not reset.json()["state"]["tally_visible"]
    teacher.post(f"/class/{code}/state", json={"question": None}, headers=ORIGIN)
    said = teacher.post(f"/class/{code}/state", json={"tally_visible": True}, headers=ORIGIN)
    assert error(said) == (409, "no_question")


def test_the_teacher_resets_a_question_and_ends_the_class(teacher, phone):
    code, _ = start(teacher)
    token = token_of(phone, code, PHONES[0])
    answer(phone, code, token, "a")
    teacher.post(f"/class/{code}/state", json={"revealed": True}, headers=ORIGIN)
    reset = teacher.post(f"/class/{code}/reset", json={"question": "q1"}, headers=ORIGIN)
    assert reset.status_code == 200 and not reset.json()["state"]["revealed"]
    assert counts(teacher, code) == {"a": 0, "b": 0, "c": 0}
    assert teacher.post(f"/class/{code}/reset", json={}, headers=ORIGIN).status_code == 422
    ended = teacher.post(f"/class/{code}/end", headers=ORIGIN).json()["state"]
    assert ended["ended"] and phone.get(f"/class/{code}").json()["ended"]
    assert error(answer(phone, code, token, "a")) == (410, "ended")
    assert error(join(phone, code, PHONES[1])) == (410, "ended")
    refused = teacher.post(f"/class/{code}/state", json={"step": "x"}, headers=ORIGIN)
    assert error(refused) == (410, "ended")


def test_the_teacher_reads_the_room_phones_joined_and_following(teacher, phone, clock):
    code, _ = start(teacher)
    for p in PHONES[:4]:
        join(phone, code, p)
    room = teacher.get(f"/class/{code}").json()["room"]
    assert room == {"joined": 4, "following": 4}  # a join counts as following for LEASE_S
    assert "room" not in phone.get(f"/class/{code}").json()
    clock.now += 31  # no stream open: the join's lease lapsed
    assert teacher.get(f"/class/{code}").json()["room"] == {"joined": 4, "following": 0}


def test_a_setup_blob_is_capped_and_phones_read_it_back(teacher, phone):
    code, _ = start(teacher, setup={"sentence": "小明把书放在了桌子上", "timings_ms": [1.5, 6.1]})
    assert phone.get(f"/class/{code}").json()["setup"]["timings_ms"] == [1.5, 6.1]
    big = {"setup": {"pad": "x" * st.SETUP_CAP}}
    too_big = teacher.post(f"/class/{code}/state", json=big, headers=ORIGIN)
    assert error(too_big) == (422, "bad_field")
    huge = teacher.post(
        f"/class/{code}/state", json={"setup": {"pad": "x" * st.CHANGE_CAP}}, headers=ORIGIN
    )
    assert huge.status_code == 413


def test_the_qr_code_is_an_svg_of_the_join_link(teacher):
    code, _ = start(teacher)
    qr = teacher.get(f"/class/{code}/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml") and qr.text.startswith("<svg")


# ---- the summary and its export ---------------------------------------------------------------


def test_the_summary_keeps_every_question_s_tally_and_names_the_hardest(teacher, phone):
    code, _ = start(teacher)
    toks = [token_of(phone, code, p) for p in PHONES[:5]]
    for token, choice in zip(toks, "bbbac", strict=True):
        answer(phone, code, token, choice)
    teacher.post(f"/class/{code}/state", json={"question": Q2, "scene": "s2"}, headers=ORIGIN)
    toks.append(token_of(phone, code, PHONES[5]))  # joined after q1 was asked
    for token, choice in zip(toks, "xxyxx", strict=False):
        assert answer(phone, code, token, choice, "q2").status_code == 200
    summary = teacher.get(f"/class/{code}/summary").json()
    q1, q2 = summary["questions"]
    assert (q1["id"], q1["scene"], q1["answered"], q1["joined"]) == ("q1", "s1", 5, 5)
    assert [(c["id"], c["count"], c["share"], c["right"]) for c in q1["choices"]] == [
        ("a", 1, 0.2, False),
        ("b", 3, 0.6, True),
        ("c", 1, 0.2, False),
    ]
    assert (q1["answer"], q1["right_share"]) == ("b", 0.6)
    got = (q2["id"], q2["scene"], q2["answered"], q2["joined"], q2["right_share"])
    assert got == ("q2", "s2", 5, 6, 0.2)
    assert summary["hardest"] == "q2" and summary["joined"] == 6
    assert not any(p in json.dumps(summary) for p in PHONES[:6])
    assert error(phone.get(f"/class/{code}/summary")) == (403, "not_teacher")


def test_the_export_is_an_attachment_equal_to_the_tally_without_any_phone(teacher, phone):
    code, _ = start(teacher)
    toks = [token_of(phone, code, p) for p in PHONES[:7]]
    for token, choice in zip(toks, "abcbbca", strict=True):
        answer(phone, code, token, choice)
    tally = counts(teacher, code)
    teacher.post(f"/class/{code}/state", json={"question": Q2}, headers=ORIGIN)
    for token, choice in zip(toks, "yyx", strict=False):
        assert answer(phone, code, token, choice, "q2").status_code == 200
    got = teacher.get(f"/class/{code}/export.csv")
    assert got.headers["content-disposition"] == (
        f'attachment; filename="attention-lab-class-{code}.csv"'
    )
    assert got.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert {r["choice"]: int(r["count"]) for r in rows if r["question"] == "q1"} == tally
    assert {r["choice"]: int(r["count"]) for r in rows if r["question"] == "q2"} == {"x": 1, "y": 2}
    assert [r["label_zh"] for r in rows if r["question"] == "q2"] == ["'=1+1", "是"]
    as_json = teacher.get(f"/class/{code}/export.json")
    assert as_json.headers["content-disposition"].startswith("attachment;")
    assert json.loads(as_json.text) == teacher.get(f"/class/{code}/summary").json()
    for text in (got.text, as_json.text):
        assert not any(p in text for p in PHONES[:7]), "a phone's id in the export"
        assert not any(t.split(".")[-1] in text for t in toks), "a token in the export"
    assert error(phone.get(f"/class/{code}/export.csv")) == (403, "not_teacher")
    assert error(teacher.get(f"/class/{code}/export.xml")) == (422, "bad_field")


# ---- the store, the pages -----------------------------------------------------------------


def test_an_unreachable_redis_answers_503_store_unavailable():
    service = Classroom(RedisStore("redis://127.0.0.1:1/0"))
    with TestClient(app_of(service)) as client:
        for reply in (
            client.post("/class/new", headers=ORIGIN),
            client.get("/class/K7MX2Q"),
            join(client, "K7MX2Q", PHONES[0]),
        ):
            assert error(reply) == (503, "store_unavailable")


def test_a_page_asks_whether_its_browser_leads_a_class(service, store):
    with TestClient(app_of(service)) as teacher:
        code, secret = start(teacher)
        other, other_secret = start(teacher)
        assert classroom.running() is service
        assert classroom.is_teacher(code, {f"al_lead_{code}": secret})
        assert not classroom.is_teacher(code, {f"al_lead_{code}": secret[:-1] + "x"})
        assert not classroom.is_teacher(code, {})
        assert classroom.leads_any({f"al_lead_{other}": other_secret, "al_maker": "x"})
        assert not classroom.leads_any({f"al_lead_{other}": secret, "al_lead_K7MX2Q": secret})
        assert not classroom.leads_any({})
        lose(store, other)  # expired, or the store lost it
        assert not classroom.leads_any({f"al_lead_{other}": other_secret})
    assert classroom.running() is None
    assert not classroom.is_teacher(code, {f"al_lead_{code}": secret}), "no server: no teacher"


@pytest.mark.parametrize(
    ("env", "host", "exposed"),
    [
        ({}, "127.0.0.1", False),
        ({}, "localhost", False),
        ({}, "0.0.0.0", True),
        ({}, "", True),  # Streamlit's default: every address
        ({}, "192.168.1.20", True),
        ({"SERVE_HOST": "0.0.0.0"}, "127.0.0.1", True),  # make serve HOST=0.0.0.0 (nginx)
        ({"SERVE_HOST": "127.0.0.1"}, "127.0.0.1", False),
        ({"PUBLIC_URL": "https://lab.school.example"}, "127.0.0.1", True),
    ],
)
def test_a_page_asks_whether_browsers_beyond_this_machine_reach_the_server(
    monkeypatch, env, host, exposed
):
    for name in ("SERVE_HOST", "PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert classroom.exposed(host) is exposed


@REDIS_SLOW
def test_a_redis_that_lost_its_key_gets_another_and_every_process_follows(redis_url, monkeypatch):
    """Redis restarted empty and a new app process made a new key: the processes that started
    before read it again when a token signed with it fails (in the background, at most once
    per KEY_RECHECK_S), and accept it from then on."""
    monkeypatch.setattr("classroom.service.KEY_RECHECK_S", 0.0)
    prefix = f"t{uuid.uuid4().hex}:"
    old = Classroom(RedisStore(redis_url, prefix=prefix))
    first = old.signing_key()
    old.store._redis.delete(f"{prefix}key")  # Redis lost it
    new = Classroom(RedisStore(redis_url, prefix=prefix))
    assert new.signing_key() != first
    token = tokens.sign(new.signing_key(), "K7MX2Q", PHONES[0], int(time.time()))
    assert old.phone_of("K7MX2Q", token) is None  # the first try: the key is read again
    for _ in range(100):
        if old.phone_of("K7MX2Q", token) == PHONES[0]:
            break
        time.sleep(0.02)
    assert old.phone_of("K7MX2Q", token) == PHONES[0]
    for service in (old, new):
        service.store.close()
