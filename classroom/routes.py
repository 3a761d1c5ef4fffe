"""The class's HTTP routes (Starlette, served by the launcher's st.App): create, read, follow
(Server-Sent Events), lead, answer. classroom/README.md documents each one."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from classroom.codes import is_id, is_phone, new_secret, normal_code
from classroom.errors import ClassError
from classroom.hub import Stream
from classroom.join import qr_svg
from classroom.service import Classroom, cookie_name
from classroom.state import (
    ANSWER_CAP,
    CHANGE_CAP,
    TTL_S,
    apply_change,
    end_class,
    parse_change,
    public,
    reset_question,
    tally_of,
)

Handler = Callable[[Classroom, Request], Awaitable[Response]]
NO_STORE = {"Cache-Control": "no-store"}
STREAM_HEADERS = {**NO_STORE, "X-Accel-Buffering": "no"}  # nginx: pass each event on at once
SMALL_CAP = 256  # bytes of a body that carries at most a question id


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
    """The optional ?phone= token of a read (it counts the phone's guesses)."""
    phone = request.query_params.get("phone")
    if phone is not None and not is_phone(phone):
        raise ClassError("bad_phone")
    return phone


async def find(service: Classroom, request: Request, phone: str | None) -> dict:
    """The class of the path's code for a phone; an unknown code counts as a guess."""
    service.limits.may_look_up(phone)
    code = normal_code(request.path_params["code"])
    state = None if code is None else await run_in_threadpool(service.store.get, code)
    if state is None:
        service.limits.missed(phone)
        raise ClassError("no_class")
    return state


async def teacher_code(service: Classroom, request: Request) -> str:
    """The path's code, when this request comes from its teacher (Origin and secret)."""
    check_origin(service, request)
    code = normal_code(request.path_params["code"]) or ""
    secret = request.cookies.get(cookie_name(code)) if code else None
    if not await run_in_threadpool(service.leads, code, secret):
        raise ClassError("not_teacher")
    return code


def is_https(service: Classroom, request: Request) -> bool:
    return request.url.scheme == "https" or service.settings.public_url.startswith("https:")


# ---- anyone -------------------------------------------------------------------------------


async def create(service: Classroom, request: Request) -> Response:
    """POST /class/new: a new class; its teacher's secret goes only into a cookie."""
    check_origin(service, request)
    patch = parse_change(await read_json(request, CHANGE_CAP, empty_ok=True))
    service.limits.new_class()
    secret = new_secret()
    state = await run_in_threadpool(service.create, patch, secret)
    code = state["code"]
    join = service.join(code, request.headers.get("host", ""), request.url.scheme)
    body = {"code": code, "join": join.body(), "qr": f"/class/{code}/qr.svg",
            "state": public(state)}  # fmt: skip
    response = JSONResponse(body, status_code=201, headers=NO_STORE)
    response.set_cookie(
        cookie_name(code), secret, max_age=TTL_S, path="/", secure=is_https(service, request),
        httponly=True, samesite="strict",
    )  # fmt: skip
    return response


async def read(service: Classroom, request: Request) -> Response:
    """GET /class/CODE[?phone=TOKEN]: the state; the tally when shown (or to the teacher); the
    phone's own answer to the current question."""
    phone = phone_param(request)
    state = await find(service, request, phone)
    code = state["code"]
    teacher = await run_in_threadpool(service.leads, code, request.cookies.get(cookie_name(code)))
    body = {**public(state), "teacher": teacher}
    question = (state["question"] or {}).get("id")
    if question is not None and (teacher or state["tally_visible"]):
        counts, rev = await run_in_threadpool(service.store.tally, code, question)
        body["tally"] = tally_of(state, question, counts, rev)
    if question is not None and phone is not None:
        body["mine"] = await run_in_threadpool(service.store.mine, code, question, phone)
    return JSONResponse(body, headers=NO_STORE)


async def events(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/events[?phone=TOKEN]: the class's changes as Server-Sent Events."""
    if service.hub.closing:
        raise ClassError("server_stopping")
    phone = phone_param(request)
    service.limits.may_look_up(phone)
    code = normal_code(request.path_params["code"])
    if code is None:
        service.limits.missed(phone)
        raise ClassError("no_class")
    teacher = await run_in_threadpool(service.leads, code, request.cookies.get(cookie_name(code)))
    stream = Stream(code, teacher)
    service.hub.add(stream)  # before the read: nothing published after it is missed
    try:
        messages = await run_in_threadpool(service.refresh, code)
        if messages[0]["kind"] == "gone":
            service.limits.missed(phone)
            raise ClassError("no_class")
        if messages[0]["kind"] == "store":
            raise ClassError("store_unavailable")
    except ClassError:
        service.hub.remove(stream)
        raise
    service.hub.seed(stream, messages)
    chunks = service.hub.chunks(stream)
    return StreamingResponse(chunks, media_type="text/event-stream", headers=STREAM_HEADERS)


async def me(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/me: {"teacher": true} only for the browser holding CODE's secret."""
    code = normal_code(request.path_params["code"]) or ""
    secret = request.cookies.get(cookie_name(code)) if code else None
    teacher = await run_in_threadpool(service.leads, code, secret)
    return JSONResponse({"code": code, "teacher": teacher}, headers=NO_STORE)


async def join(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/join: the join link, whether phones can reach it, and the QR's address."""
    state = await find(service, request, phone_param(request))
    code = state["code"]
    link = service.join(code, request.headers.get("host", ""), request.url.scheme)
    return JSONResponse({**link.body(), "qr": f"/class/{code}/qr.svg"}, headers=NO_STORE)


async def qr(service: Classroom, request: Request) -> Response:
    """GET /class/CODE/qr.svg: the join link's QR code."""
    state = await find(service, request, phone_param(request))
    link = service.join(state["code"], request.headers.get("host", ""), request.url.scheme)
    return Response(qr_svg(link.url), media_type="image/svg+xml", headers=NO_STORE)


# ---- phones -------------------------------------------------------------------------------


async def answer(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/answer {phone, question, choice}: one answer per phone and question."""
    check_origin(service, request)
    body = await read_json(request, ANSWER_CAP)
    phone, question, choice = body.get("phone"), body.get("question"), body.get("choice")
    if not is_phone(phone):
        raise ClassError("bad_phone")
    if not (is_id(question) and is_id(choice)) or len(body) != 3:
        raise ClassError("bad_field", "send exactly phone, question and choice")
    service.limits.answer(phone)
    service.limits.may_look_up(phone)
    code = normal_code(request.path_params["code"])
    try:
        if code is None:
            raise ClassError("no_class")
        said = await run_in_threadpool(service.store.answer, code, question, phone, choice)
    except ClassError as err:
        if err.code == "no_class":
            service.limits.missed(phone)
        raise
    return JSONResponse({"ok": True, "result": said, "question": question, "choice": choice})


# ---- the teacher ----------------------------------------------------------------------------


async def change(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/state {scene, step, question, revealed, tally_visible, setup}: any."""
    code = await teacher_code(service, request)
    patch = parse_change(await read_json(request, CHANGE_CAP))
    new = await run_in_threadpool(service.store.update, code, lambda s: apply_change(s, patch))
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


async def reset(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/reset {question}: that question's answers are gone; hidden again."""
    code = await teacher_code(service, request)
    question = (await read_json(request, SMALL_CAP)).get("question")
    if not is_id(question):
        raise ClassError("bad_field", "send the question id to reset")
    new = await run_in_threadpool(
        lambda: service.store.update(code, lambda s: reset_question(s, question), drop=question)
    )
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


async def end(service: Classroom, request: Request) -> Response:
    """POST /class/CODE/end: the class ends (phones are told; it is gone 10 min later)."""
    code = await teacher_code(service, request)
    now = service.clock()
    new = await run_in_threadpool(service.store.update, code, lambda s: end_class(s, now))
    return JSONResponse({"state": public(new)}, headers=NO_STORE)


def make_routes(service: Classroom) -> list[Route]:
    """Every class route, bound to `service`."""
    table = [
        ("/class/new", create, ["POST"]),
        ("/class/{code}", read, ["GET"]),
        ("/class/{code}/events", events, ["GET"]),
        ("/class/{code}/me", me, ["GET"]),
        ("/class/{code}/join", join, ["GET"]),
        ("/class/{code}/qr.svg", qr, ["GET"]),
        ("/class/{code}/answer", answer, ["POST"]),
        ("/class/{code}/state", change, ["POST"]),
        ("/class/{code}/reset", reset, ["POST"]),
        ("/class/{code}/end", end, ["POST"]),
    ]
    return [Route(path, endpoint(service, fn), methods=methods) for path, fn, methods in table]
