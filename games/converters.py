"""The ``<gamecode:code>`` path converter: only what can be a join code reaches a view or a
consumer (NUL, overlong or odd characters in a URL are a plain 404, never a query).

A code is ``tokens.CODE_LENGTH`` letters of ``tokens.CODE_ALPHABET``, in either case: people
type codes in lower case and ``tokens.normalize_join_code`` upper-cases them, as the views'
lookups still do. Importing this module registers the converter (once: modules load once);
every URLconf that routes a code imports it.
"""

from __future__ import annotations

from django.urls import register_converter

from .tokens import CODE_ALPHABET, CODE_LENGTH, normalize_join_code

NAME = "gamecode"
_LETTERS = "".join(sorted(set(CODE_ALPHABET.upper() + CODE_ALPHABET.lower())))


class GameCodeConverter:
    regex = f"[{_LETTERS}]{{{CODE_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return normalize_join_code(value)

    def to_url(self, value: str) -> str:
        return str(value)


register_converter(GameCodeConverter, NAME)
