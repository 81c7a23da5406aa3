"""The API's errors: each is answered as ``{"error": message}`` with its status code.

Every error the app or its middleware answers goes through ``error_body`` /
``ErrorResponse``, so a client sees one JSON shape for every status, 500 included.
"""

from __future__ import annotations

import json

from starlette.responses import JSONResponse


class WebError(Exception):
    """An error the API answers with ``status`` and ``{"error": message}``."""

    status = 400

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status

    def headers(self) -> dict[str, str] | None:
        """Extra response headers (``Retry-After`` for 429)."""
        return None


class BadInput(WebError):
    status = 400


class Forbidden(WebError):
    status = 403


class NotFound(WebError):
    status = 404


class Conflict(WebError):
    status = 409


class UnsupportedMediaType(WebError):
    status = 415


class Busy(WebError):
    """Too many requests or a full queue (429); ``retry_after_s`` goes in Retry-After."""

    status = 429

    def __init__(self, message: str, retry_after_s: int = 2) -> None:
        super().__init__(message)
        self.retry_after_s = max(1, int(retry_after_s))

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after_s)}


def error_body(message: str) -> bytes:
    """The JSON body of every error answer."""
    return json.dumps({"error": message}).encode()


def error_response(
    status: int, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An error answer in the API's one shape."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)
