"""The class's HTTP routes (Starlette, served by the launcher's st.App): create, read, follow
(Server-Sent Events), lead, answer. classroom/README.md documents each one."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from classroom.codes import (
    MAKER_COOKIE,
    cookie_name,
    is_id,
    is_phone,
    new_secret,
    normal_code,
    secret_matches,
)
from classroom.errors import ClassError
from classroom.hub import Stream
from classroom.join import qr_svg
from classroom.service import Classroom
from classroom.state import (
    ANSWER_CAP,
    CHANGE_CAP,
    apply_change,
    end_class,
    parse_change,
    public,
    reset_question,
    tally_of,
)
from classroom.summary import to_csv, to_json

Handler = Callable[[Classroom, Request], Awaitable[Response]]
NO_STORE = {"Cache-Control": "no-store"}
STREAM_HEADERS = {**NO_STORE, "X-Accel-Buffering": "no"}  # nginx: pass each event on at once
SMALL_CAP = 256  # bytes of a body that carries at most a question or phone id
PASSCODE_CAP = 200  # characters of a teachers' passcode as sent
MAKER_MAX_AGE_S = 30 * 24 * 3600  # the teacher's browser keeps its maker id a month
EXPORTS = {"csv": ("text/csv; charset=utf-8", to_csv), "json": ("application/json", to_json)}

ROUTES: list[tuple[str, str, Handler]] = []  # (method, path, handler), filed by @route


def route(method: str, path: str) -> Callable[[Handler], Handler]:
    """Files the handler below as the one for METHOD PATH (make_routes serves it)."""

    def file(handler: Handler) -> Handler:
        ROUTES.append((method, path, handler))
        return handler

    return file


def refusal(err: ClassError) -> JSONResponse:
    """A refusal as JSON {"error": code, "detail": text}, with Retry-After when it helps."""
    headers = dict(NO_STORE)
    if err.retry_after is not None:
        headers["Retry-After"] = str(max(1, round(err.retry_after)))
    return JSONResponse(err.body(), status_code=err.status, headers=headers)


def endpoint(service: Classroom, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A Starlette endpoint: the handler with its service; a ClassError becomes its refusal."""

    async def run(request: Request) -> Response:
        try:
            return await handler(service, request)
        except ClassError as err:
            return refusal(err)

    return run


def check_origin(service: Classroom, request: Request) -> None:
    """Refuse a change whose Origin is neither this request's own origin nor PUBLIC_URL's."""
    origin = request.headers.get("origin", "").lower()
    own = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
    public_url = "/".join(service.settings.public_url.lower().split("/", 3)[:3])
    if not origin or origin not in (own, public_url):
        raise ClassError("bad_origin")


async def read_json(request: Request, cap: int, *, empty_ok: bool = False) -> dict:
    """The body as a JSON object, read no further than `cap` bytes."""
    declared = request.headers.get("content-length", "")
    if declared and (not declared.isdigit() or int(declared) > cap):
        raise ClassError("too_large", f"at most {cap} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            raise ClassError("too_large", f"at most {cap} bytes")
    if not body and empty_ok:
        return {}
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise ClassError("bad_json") from err
    if not isinstance(data, dict):
        raise ClassError("bad_json")
    return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def phone_param(request: Request) -> str | None:
    """The optional ?phone= id of a stranger's read (it counts that phone's guesses)."""
    phone = request.query_params.get("phone")
    if phone is not None and not is_phone(phone):
        raise ClassError("bad_phone")
    return phone


def path_code(request: Request) -> str:
    """The path's code in its stored form; a malformed one can name no class (no lookup)."""
    code = normal_code(request.path_params["code"])
    if code is None:
        raise ClassError("no_class")
    return code


async def find(service: Classroom, request: Request, code: str) -> dict:
    """The class for a stranger (no token, not its teacher): an unknown code is a guess, counted
    against the code and the ?phone= id."""
    phone = phone_param(request)
    service.limits.may_look_up(code, phone)
    state = await run_in_threadpool(service.store.get, code)
    if state is None:
        service.limits.missed(code, phone)
        raise ClassError("no_class")
    return state


def joined_phone(service: Classroom, request: Request, code: str) -> str | None:
    """The phone id of the ?token= of a joined phone (None without one); bad_token for a token
    the server did not sign for this class. Its own budget, never a guessing one."""
    token = request.query_params.get("token")
    if token is None:
        return None
    phone = service.phone_of(code, token)
    if phone is None:
        raise ClassError("bad_token")
    service.limits.request(phone)
    return phone


async def leads(service: Classroom, request: Request, code: str) -> bool:
    """True when this request carries class CODE's teacher's secret (no cookie: no lookup)."""
    secret = request.cookies.get(cookie_name(code))
    return bool(secret) and await run_in_threadpool(service.leads, code, secret)


async def teacher_code(service: Classroom, request: Request, *, change: bool = True) -> str:
    """The path's code, when this request comes from its teacher (Origin, for a change, and the
    secret). A teacher's cookie for a class the store no longer has: no_class (a guess)."""
    if change:
        check_origin(service, request)
    code = normal_code(request.path_params["code"])
    secret = request.cookies.get(cookie_name(code)) if code else None
    if not secret:
        raise ClassError("not_teacher")
    service.limits.may_look_up(code, None)
    lead = await run_in_threadpool(service.store.lead_hash, code)
    if lead is None:
        service.limits.missed(code, None)
        raise ClassError("no_class")
    if not secret_matches(secret, lead):
        raise ClassError("not_teacher")
    return code


# ---- anyone -------------------------------------------------------------------------------


@route("POST", "/class/new")
async def create(service: Classroom, request: Request) -> Response:
    """POST /class/new: a new class; its teacher's secret goes only into a cookie. Limited per
    browser (its maker cookie), by the cap on live classes, and by TEACHER_PASSCODE when set."""
    check_origin(service, request)
    body = await read_json(request, CHANGE_CAP + PASSCODE_CAP, empty_ok=True)
    passcode = body.pop("passcode", None)
    patch = parse_change(body)
    maker = request.cookies.get(MAKER_COOKIE, "")
    maker = maker if is_phone(maker) else new_secret()
    service.limits.new_class(maker)
    if not service.passcode_ok(passcode):
        raise ClassError("bad_passcode")
    secret = new_secret()
    state = await run_in_threadpool(service.create, patch, secret)
    code = state["code"]
    join = service.join(code, request.headers.get("host", ""), request.url.scheme)
    body = {
        "code": code,
        "join": join.body(),
        "qr": f"/class/{code}/qr.svg",
        "state": public(state),
    }
    response = JSONResponse(body, status_code=201, headers=NO_STORE)
    secure = request.url.scheme == "https" or service.settings.public_url.startswith("https:")
    for name, value, max_age, path in (
        (cookie_name(code), secret, service.settings.ttl_s, "/"),
        (MAKER_COOKIE, maker, MAKER_MAX_AGE_S, "/class/"),
    ):
        response.set_cookie(
            name, value, max_age=max_age, path=path, secure=secure, httponly=True, samesite="strict"
        )
    return response


@route("GET", "/class/{code}")
async def read(service: Classroom, request: Request) -> Response:
    """GET /class/CODE[?token=T | ?phone=ID]: the state; the tally when shown (or to the
    teacher, with the room: phones joined and following); a joined phone's own answer."""
    code = path_code(request)
    phone = joined_phone(service, request, code)
    teacher = phone is None and await leads(service, request, code)
    if phone is not None or teacher:
        state = await run_in_threadpool(service.store.get, code)
        if state is None:
            raise ClassError("no_class")
    else:
        state = await find(service, request, code)
    body = await run_in_threadpool(view, service, state, phone, teacher)
    return JSONResponse({**body, "teacher": teacher}, headers=NO_STORE)


def view(service: Classroom, state: dict, phone: str | None, teacher: bool) -> dict:
    """(A worker thread.) What a read answers: the public state; the tally when the class shows
    it or to its teacher; the room to its teacher; `mine` to a joined phone."""
    code = state["code"]
    body = public(state)
    question = (state["question"] or {}).get("id")
    if question is not None and (teacher or state["tally_visible"]):
        counts, rev = service.store.tally(code, question)
        body["tally"] = tally_of(state, question, counts, rev)
    if teacher:
        body["room"] = service.room(code)
    if question is not None and phone is not None:
        body["mine"] = service.store.mine(code, question, phone)
    return body


@route("GET", "/class/{code}/events")
async def events(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/events?token=T (a joined phone) or with the teacher's cookie: the class's
    changes as Server-Sent Events. One stream per phone; none for anyone else."""
    if service.hub.closing:
        raise ClassError("server_stopping")
    code = path_code(request)
    phone = joined_phone(service, request, code)
    if phone is not None:
        if not await run_in_threadpool(service.store.member, code, phone):
            gone = await run_in_threadpool(service.store.get, code) is None
            raise ClassError("no_class" if gone else "bad_token")
        stream = Stream(code, teacher=False, phone=phone)
    elif request.cookies.get(cookie_name(code)):
        stream = Stream(await teacher_code(service, request, change=False), teacher=True)
    else:
        raise ClassError("bad_token")
    service.hub.add(stream)  # before the read: nothing published after it is missed
    try:
        messages = await run_in_threadpool(lambda: service.refresh(code, room=stream.teacher))
        if messages[0]["kind"] == "gone":
            raise ClassError("no_class")
        if messages[0]["kind"] == "store":
            raise ClassError("store_unavailable")
    except ClassError:
        service.hub.remove(stream)
        raise
    service.hub.seed(stream, messages)
    chunks = service.hub.chunks(stream)
    return StreamingResponse(chunks, media_type="text/event-stream", headers=STREAM_HEADERS)


@route("GET", "/class/{code}/me")
async def me(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/me: {"teacher": true} only for the browser holding CODE's secret."""
    code = normal_code(request.path_params["code"]) or ""
    teacher = bool(code) and await leads(service, request, code)
    return JSONResponse({"code": code, "teacher": teacher}, headers=NO_STORE)


@route("GET", "/class/{code}/join")
async def link(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/join: the join link, whether phones can reach it, and the QR's address."""
    state = await find(service, request, path_code(request))
    code = state["code"]
    found = service.join(code, request.headers.get("host", ""), request.url.scheme)
    return JSONResponse({**found.body(), "qr": f"/class/{code}/qr.svg"}, headers=NO_STORE)


@route("GET", "/class/{code}/qr.svg")
async def qr(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/qr.svg: the join link's QR code."""
    state = await find(service, request, path_code(request))
    found = service.join(state["code"], request.headers.get("host", ""), request.url.scheme)
    return Response(qr_svg(found.url), media_type="image/svg+xml", headers=NO_STORE)


# ---- phones -------------------------------------------------------------------------------


@route("POST", "/class/{code}/join")
async def join(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/join {phone}: this phone joins (again): its signed token, and what a
    phone's read answers (its own answer to the current question included)."""
    check_origin(service, request)
    body = await read_json(request, SMALL_CAP)
    phone = body.get("phone")
    if not is_phone(phone):
        raise ClassError("bad_phone")
    if len(body) != 1:
        raise ClassError("bad_field", "send exactly the phone's id")
    code = path_code(request)
    service.limits.request(phone)
    service.limits.may_look_up(code, phone)
    try:
        state, token = await run_in_threadpool(service.admit, code, phone)
    except ClassError as err:
        if err.code == "no_class":
            service.limits.missed(code, phone)
        raise
    seen = await run_in_threadpool(view, service, state, phone, False)
    return JSONResponse({**seen, "teacher": False, "token": token}, headers=NO_STORE)


@route("POST", "/class/{code}/answer")
async def answer(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/answer {token, question, choice}: one answer per joined phone and
    question; a token the server did not sign for this class counts nothing."""
    check_origin(service, request)
    body = await read_json(request, ANSWER_CAP)
    token, question, choice = body.get("token"), body.get("question"), body.get("choice")
    if not (is_id(question) and is_id(choice)) or set(body) != {"token", "question", "choice"}:
        raise ClassError("bad_field", "send exactly token, question and choice")
    code = path_code(request)
    phone = service.phone_of(code, token)
    if phone is None:
        raise ClassError("bad_token")
    service.limits.answer(phone)
    said = await run_in_threadpool(service.answer, code, question, phone, choice)
    return JSONResponse({"ok": True, "result": said, "question": question, "choice": choice})


# ---- the teacher ----------------------------------------------------------------------------


@route("POST", "/class/{code}/state")
async def change(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/state {scene, step, question, revealed, tally_visible, setup}: any."""
    code = await teacher_code(service, request)
    patch = parse_change(await read_json(request, CHANGE_CAP))
    new = await run_in_threadpool(service.store.update, code, lambda s: apply_change(s, patch))
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


@route("POST", "/class/{code}/reset")
async def reset(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/reset {question}: that question's answers are gone; asked anew."""
    code = await teacher_code(service, request)
    question = (await read_json(request, SMALL_CAP)).get("question")
    if not is_id(question):
        raise ClassError("bad_field", "send the question id to reset")
    new = await run_in_threadpool(
        lambda: service.store.update(code, lambda s: reset_question(s, question), drop=question)
    )
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


@route("POST", "/class/{code}/end")
async def end(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/end: the class ends (its streams with it; it is gone 10 min later)."""
    code = await teacher_code(service, request)
    now = service.clock()
    new = await run_in_threadpool(service.store.update, code, lambda s: end_class(s, now))
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


@route("GET", "/class/{code}/summary")
async def summary(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/summary: per question, answered of joined, each choice's share, the
    right one's, the hardest question (classroom/summary.py); no phone named."""
    code = await teacher_code(service, request, change=False)
    found = await run_in_threadpool(service.summary, code)
    return JSONResponse(found, headers=NO_STORE)


@route("GET", "/class/{code}/export.{kind}")
async def export(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/export.csv | export.json: the summary as a file to keep."""
    kind = request.path_params["kind"]
    if kind not in EXPORTS:
        raise ClassError("bad_field", "export.csv or export.json")
    code = await teacher_code(service, request, change=False)
    found = await run_in_threadpool(service.summary, code)
    media, write = EXPORTS[kind]
    name = f"attention-lab-class-{code}.{kind}"
    headers = {**NO_STORE, "Content-Disposition": f'attachment; filename="{name}"'}
    return Response(write(found), media_type=media, headers=headers)


def make_routes(service: Classroom) -> list[Route]:
    """Every class route (each handler's `@route` above it), bound to `service`."""
    return [Route(path, endpoint(service, fn), methods=[method]) for method, path, fn in ROUTES]
