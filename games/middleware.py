"""Request middleware of the platform."""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotFound, JsonResponse
from django.views.defaults import page_not_found

from .errors import (
    BUSY_PAGE,
    DATABASE_BUSY_RETRY_AFTER,
    INTERNAL_ERROR_MESSAGE,
    database_fault,
    error_body,
)

log = logging.getLogger(__name__)


# An error answer under /api that Django made itself (no route matched, a method not allowed,
# a request it refused before any view) gets the API's shape too, with one of these codes.
_CODES = {
    400: ("bad-request", "The request could not be understood."),
    403: ("forbidden", "This request is not allowed."),
    404: ("not-found", "Not found."),
    405: ("method-not-allowed", "This method is not allowed here."),
    413: ("payload-too-large", "The request body is too large."),
    500: ("internal-error", INTERNAL_ERROR_MESSAGE),
}


# Control characters (NUL among them: PostgreSQL refuses it in a query) are in no route's path:
# such a request is a 404 before any middleware or view could take them to the database.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _site_page(path: str) -> bool:
    """A page of the site a person opens (not the API, the admin or a static file)."""
    return not path.startswith(("/api/", "/admin/", "/static/"))


def _is_html(response) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


def _api_error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status)


class ErrorMiddleware:
    """What a view raised and nobody answered becomes an answer a client can act on:

    - a busy database (no connection in time) or one that went away (``database-unavailable``:
      the connection refused, lost or shut down) is a 503 with ``Retry-After``: the API's JSON
      error under ``/api``, a short page that reloads itself elsewhere;
    - any other exception under ``/api`` is the API's JSON error ``internal-error`` (500),
      never Django's HTML page, so a client always finds a ``code``;
    - any other error answer under ``/api`` that is not JSON (Django's 404 page when no route
      matched, in development too, say) is replaced by the API's JSON error for its status;
    - elsewhere a 404 is the site's own page (templates/404.html) in development too (with
      DEBUG off Django renders it itself, and templates/500.html for a failure);
    - a path with a control character (a NUL, say) is a 404 at once, whatever route it would
      match (a player's name, the admin's object ids, allauth's keys): never a query.

    DRF views answer their own errors through ``games.api.errors``; this covers the pages, the
    admin, and what DRF's handler passes on (a defect)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if _CONTROL.search(request.path):
            if request.path.startswith("/api/"):
                return _api_error(*_CODES[404], 404)
            return page_not_found(request, Http404())
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            code, message = _CODES.get(response.status_code, ("error", "The request failed."))
            replaced = _api_error(code, message, response.status_code)
            for header in ("Retry-After", "Allow"):
                if header in response:
                    replaced[header] = response[header]
            return replaced
        if settings.DEBUG and type(response) is HttpResponseNotFound and _site_page(request.path) and _is_html(response):
            # In development too, a person who mistyped a game code or followed a stale link
            # sees the site's own 404 page (templates/404.html), not Django's debug page (an
            # HttpResponseNotFound; a page's own 404, rendered with a status, is left alone).
            return page_not_found(request, Http404())
        return response

    def process_exception(self, request, exception):
        api = request.path.startswith("/api/")
        fault = database_fault(exception)
        if fault is not None:
            if api:
                response = _api_error(*fault, 503)
            else:
                response = HttpResponse(BUSY_PAGE, status=503)
            response["Retry-After"] = str(DATABASE_BUSY_RETRY_AFTER)
            return response
        if api:
            log.error("internal error on %s %s", request.method, request.path, exc_info=exception)
            return _api_error("internal-error", INTERNAL_ERROR_MESSAGE, 500)
        return None
