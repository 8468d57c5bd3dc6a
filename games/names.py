"""Names people type (players' display names, seat names): one normal form, nothing invisible.

A name is normalised to NFC (so "é" typed as e + combining accent and as one character are
the same name) and stripped of surrounding whitespace. It is refused when it is then empty,
or when it holds a character that is not shown as itself: control characters (Unicode
category Cc), format characters (Cf: bidirectional overrides and isolates such as U+202E,
zero-width spaces and joiners, soft hyphens; this also refuses emoji joined by U+200D),
line and paragraph separators (Zl, Zp), and lone surrogates (Cs). Any of those lets one name
pass for another, or reorder the text around it on other people's screens.
"""

from __future__ import annotations

import unicodedata

NAME_MAX_LENGTH = 40  # Seat.name
_REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character", "Cs": "a lone surrogate",
            "Zl": "a line separator", "Zp": "a paragraph separator"}


def name_clean(value: str, *, max_length: int = NAME_MAX_LENGTH) -> str:
    """``value`` as a name is kept: NFC, stripped. Raises ``ValueError`` with a message a
    person can act on when it cannot be one."""
    if not isinstance(value, str):
        raise ValueError("A name must be text.")
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("A name may not be blank.")
    for char in name:
        what = _REFUSED.get(unicodedata.category(char))
        if what is not None:
            raise ValueError(f"A name may not contain {what} (U+{ord(char):04X}).")
    if len(name) > max_length:
        raise ValueError(f"A name has at most {max_length} characters.")
    return name
