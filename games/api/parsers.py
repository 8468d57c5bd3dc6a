"""Request bodies are read bounded: at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes, and JSON
nested at most ``MAX_DEPTH`` levels, both checked *before* the text is parsed.

The standard library's parser recurses once per level: a body of a few thousand ``[``
(well under the size limit) ran it out of stack, and the ``RecursionError`` was a 500. Our
bodies are shallow (a command is one flat object; a game's options a few levels), so a
small bound costs nothing legitimate. :func:`loads_bounded` is the same check for any JSON
text (the WebSocket's frames use it too).
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings

MAX_DEPTH = 32

# A JSON string, escapes included (the unrolled form: linear, no backtracking).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class TooDeep(ValueError):
    """JSON text nested deeper than allowed (a ``ValueError``, as ``json.loads``' own)."""

    def __init__(self, max_depth: int) -> None:
        super().__init__(f"The JSON nests deeper than {max_depth} levels.")
        self.max_depth = max_depth


class InvalidJSON(exceptions.APIException):
    """400 ``invalid-json``: well-formed perhaps, but not JSON we read (nested too deep).
    Not a ``ParseError``, which the error handler answers as ``malformed-json``."""

    status_code = 400
    default_code = "invalid_json"
    default_detail = f"The JSON body nests deeper than {MAX_DEPTH} levels."


def depth_exceeds(text: str, max_depth: int) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest deeper than ``max_depth``
    (brackets inside strings do not count). Text that is not JSON gets an answer too; the
    parser then says what is wrong with it."""
    if text.count("[") + text.count("{") <= max_depth:
        return False  # the common case: too few brackets to be too deep
    depth = 0
    for bracket in _NOT_BRACKETS.sub("", _STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth -= 1
    return False


def loads_bounded(text: str | bytes, max_depth: int = MAX_DEPTH, **kwargs: Any) -> Any:
    """``json.loads(text)``, refused with :class:`TooDeep` (a ``ValueError``) when the text
    nests deeper than ``max_depth``; other ``ValueError``s as ``json.loads`` raises them."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError too
    if depth_exceeds(text, max_depth):
        raise TooDeep(max_depth)
    return json.loads(text, **kwargs)


def _strict_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON.")


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the body's size and nesting bounded before parsing:
    a larger body is 413 ``payload-too-large``, a deeper one 400 ``invalid-json``, anything
    else that is not JSON 400 ``malformed-json`` (as before)."""

    max_depth = MAX_DEPTH

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
        kwargs = {"parse_constant": _strict_constant} if api_settings.STRICT_JSON else {}
        try:
            return loads_bounded(raw.decode(encoding), self.max_depth, **kwargs)
        except TooDeep as exc:
            raise InvalidJSON(str(exc)) from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None
