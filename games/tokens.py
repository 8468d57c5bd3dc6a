"""Secret tokens: handed to a client once, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets

# Join codes avoid look-alikes (0/O, 1/I/L) and vowels-that-spell-words trouble is accepted.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 5


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_join_code(code: str) -> str:
    return code.strip().upper()
