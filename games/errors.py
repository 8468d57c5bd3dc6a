"""Errors the platform reports to clients, with a stable code and an HTTP status.

Edges translate them: the API to ``{"status": "error", "error": {"code", "message"}}``
with ``status``; the WebSocket to ``{"type": "error", "error": {...}}``.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400

    def __init__(self, code: str, message: str, *, status: int | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"status": "error", "error": {"code": self.code, "message": self.message}, **self.extra}


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409
