"""Every API error has one shape: ``{"status": "error", "error": {"code", "message"}}``."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import RulesError
from games.errors import (
    DATABASE_BUSY_RETRY_AFTER,
    ServiceError,
    database_fault,
    error_body,
)

_DRF_CODES = {
    exceptions.ParseError: "malformed-json",
    exceptions.UnsupportedMediaType: "unsupported-media-type",
    exceptions.MethodNotAllowed: "method-not-allowed",
    exceptions.NotAcceptable: "not-acceptable",
    exceptions.Throttled: "rate-limited",
    exceptions.NotFound: "not-found",
    exceptions.NotAuthenticated: "token-required",
    exceptions.AuthenticationFailed: "invalid-token",
    exceptions.PermissionDenied: "forbidden",
}


def error_response(code: str, message: str, http_status: int, **extra) -> Response:
    return Response(error_body(code, message, **extra), status=http_status)


def _flatten(detail, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else f"{prefix}{key}"
            out += _flatten(value, f"{name}." if name else "")
        return out
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    label = prefix.rstrip(".")
    return [f"{label}: {detail}" if label else str(detail)]


def database_fault_response(code: str, message: str) -> Response:
    response = error_response(code, message, status.HTTP_503_SERVICE_UNAVAILABLE)
    response["Retry-After"] = str(DATABASE_BUSY_RETRY_AFTER)
    return response


def exception_handler(exc, context):
    fault = database_fault(exc)  # busy, or gone away (database-unavailable): 503, retry
    if fault is not None:
        return database_fault_response(*fault)
    if isinstance(exc, ServiceError):
        return Response(exc.to_json(), status=exc.status)
    if isinstance(exc, RulesError):
        return error_response(exc.code, exc.message, status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):
        return error_response("payload-too-large", "The request body is too large.", status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        return error_response("not-found", "Not found.", status.HTTP_404_NOT_FOUND)
    if isinstance(exc, exceptions.ValidationError):
        return error_response("invalid-request", "; ".join(_flatten(exc.detail)), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, exceptions.APIException):
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), exc.default_code.replace("_", "-"))
        message = exc.detail if isinstance(exc.detail, str) else "; ".join(_flatten(exc.detail))
        response = error_response(code, str(message), exc.status_code)
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            response["Retry-After"] = str(int(exc.wait) + 1)
        return response
    return drf_exception_handler(exc, context)
