"""Secret tokens: handed to a client once, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets

# The letters a join code may hold: no look-alikes (0/O, 1/I/L). Games made before consonant-only
# codes keep theirs, so links and typed codes with these vowels still reach them.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
# The letters a new join code is made of: consonants only (no A, E, U, Y either), so a code never spells
# a word by accident. 19^5: about 2.5 million codes (game_create draws again on a clash).
NEW_CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ"
CODE_LENGTH = 5


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_join_code() -> str:
    return "".join(secrets.choice(NEW_CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_join_code(code: str) -> str:
    return code.strip().upper()


# Rejoin codes: a seat handed to a new device (games/services.py, rejoin_code_create). Typed or
# scanned once, within minutes: ten letters of the join code's alphabet (about 45 bits), shown
# in two groups of five; only their hash is stored, like a token's.
REJOIN_CODE_LENGTH = 10


def new_rejoin_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(REJOIN_CODE_LENGTH))


def normalize_rejoin_code(code: str) -> str:
    """What a person typed or a link carried, as stored: capitals, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch not in " -\t")


def rejoin_code_display(code: str) -> str:
    """``ABCDEFGHJK`` → ``ABCDE-FGHJK`` (easier to read out across a table)."""
    return f"{code[:5]}-{code[5:]}"
