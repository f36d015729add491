"""Every error is JSON `{"error": "one clear line"}` with a 4xx status that says what kind it
is (or 503 when the server cannot do it now: Retry-After says when to try again), and the
OpenAPI description lists each one an endpoint can answer. A 500 is a bug."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from gridgames.compute.pool import Busy, Cancelled, JobFailed
from gridgames.core.errors import BadInput, IllegalMove, UnknownName
from gridgames.store import Conflict, Unavailable

log = logging.getLogger("gridgames")


class ErrorBody(BaseModel):
    error: str


class Unauthorized(BadInput):
    """A request that needs a player and came without one, or with a secret nobody has
    (401)."""


class RateLimited(BadInput):
    """Too many requests of one kind from one client (429)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


MEANING = {
    400: "malformed input: a bad params string, game ID, save file, body or move text",
    401: "no player: send `Authorization: Bearer SECRET` with a player's secret",
    403: "a state-changing request from another site",
    404: "no such game, session or level",
    409: "refused by the rules or the turn order, or the game changed meanwhile: nothing "
         "was changed",
    413: "the request body is too large (64 KiB; a save file 1 MB)",
    429: "too many requests from you (Retry-After says when to try again)",
    500: "a bug in the server: it should never happen",
    503: "the server is too busy thinking, a computation failed, or the database cannot be "
         "used now (Retry-After)",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI `responses` of an endpoint that can answer these errors."""
    return {code: {"model": ErrorBody, "description": MEANING[code]} for code in codes}


def describe_errors(app: FastAPI) -> None:
    """The OpenAPI description says what the app really answers: every state-changing
    operation can be refused as coming from another site (403, the Security middleware),
    and a body that does not validate is a 400 (FastAPI's default 422 is never sent)."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = make()
            for operations in schema.get("paths", {}).values():
                for method, operation in operations.items():
                    responses = operation.setdefault("responses", {})
                    responses.pop("422", None)
                    if method in ("post", "put", "patch", "delete"):
                        responses.setdefault("403", {
                            "description": MEANING[403],
                            "content": {"application/json": {"schema": {
                                "$ref": "#/components/schemas/ErrorBody"}}}})
            for name in ("HTTPValidationError", "ValidationError"):
                schema.get("components", {}).get("schemas", {}).pop(name, None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_error_handlers(app: FastAPI) -> None:
    def answer(message: str, status: int, retry_after: int | None = None) -> JSONResponse:
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    # The errors of the program's own layers: (status, Retry-After) of each kind, the most
    # specific first (a Conflict or a RateLimited is also a BadInput).
    kinds: list[tuple[type[Exception], Any]] = [
        (IllegalMove, lambda err: (409, None)),
        (Conflict, lambda err: (409, None)),
        (RateLimited, lambda err: (429, err.retry_after)),
        (Unauthorized, lambda err: (401, None)),
        (UnknownName, lambda err: (404, None)),
        (BadInput, lambda err: (400, None)),
        (Busy, lambda err: (429 if err.per_client else 503, err.retry_after)),
        (Cancelled, lambda err: (409, None)),
        (JobFailed, lambda err: (503, 2)),
        (Unavailable, lambda err: (503, err.retry_after)),
    ]

    async def known(request: Request, err: Exception) -> JSONResponse:
        status, retry_after = next(how(err) for kind, how in kinds if isinstance(err, kind))
        message = "the computation was cancelled; nothing was changed" \
            if isinstance(err, Cancelled) else f"{err}: try again in a moment" \
            if isinstance(err, Unavailable) else str(err)
        if isinstance(err, Unavailable):
            log.warning("%s %s: %s", request.method, request.url.path, err)
        return answer(message, status, retry_after)

    for kind, _ in kinds:
        app.add_exception_handler(kind, known)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        if first.get("type") == "json_invalid":
            return answer("request body is not valid JSON", 400)
        return answer(f"{where}: {first.get('msg', 'invalid')}"[:300], 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, err: StarletteHTTPException) -> JSONResponse:
        return answer(str(err.detail), err.status_code)

    @app.exception_handler(RecursionError)
    async def too_deep(_: Request, err: RecursionError) -> JSONResponse:
        return answer("the request is nested too deeply", 400)

    # A bug (any other exception) is answered by the Security middleware: a JSON 500 with
    # the security headers, which an exception handler here could not give it.
