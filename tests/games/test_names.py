"""Names people type have one normal form and nothing invisible (games/names.py), at the
API (400 naming the field) and at the services behind it."""

from __future__ import annotations

import unicodedata

import pytest

from games import services
from games.errors import ServiceError
from games.names import name_clean

# Each of these lets one name pass for another, or reorders the text around it.
REFUSED = [
    "Ann\u202e",  # RIGHT-TO-LEFT OVERRIDE (Cf)
    "\u202dAnn",  # LEFT-TO-RIGHT OVERRIDE
    "An\u2067n\u2069",  # RIGHT-TO-LEFT ISOLATE ... POP DIRECTIONAL ISOLATE
    "\u200fAnn",  # RIGHT-TO-LEFT MARK
    "An\u200bn",  # ZERO WIDTH SPACE
    "An\u200dn",  # ZERO WIDTH JOINER
    "An\u00adn",  # SOFT HYPHEN
    "\ufeffAnn",  # BYTE ORDER MARK
    "Ann\U000e0041",  # TAG LATIN CAPITAL LETTER A
    "An\x00n",  # NUL (Cc)
    "An\x1bn",  # ESC
    "An\nn",
    "An\tn",
    "An\x85n",  # NEXT LINE (Cc)
    "An\u2028n",  # LINE SEPARATOR (Zl)
    "An\u2029n",  # PARAGRAPH SEPARATOR (Zp)
    "An\ud800n",  # a lone surrogate (Cs)
    "",
    "   ",
    "\u3000\u00a0",  # ideographic and no-break spaces only
    "x" * 41,
]


@pytest.mark.parametrize("name", REFUSED, ids=[repr(n)[:20] for n in REFUSED])
def test_invisible_control_and_empty_names_are_refused(name):
    with pytest.raises(ValueError):
        name_clean(name)


def test_names_are_nfc_and_stripped():
    decomposed = "Zoe\u0301"  # e + COMBINING ACUTE ACCENT
    assert name_clean(decomposed) == "Zoé" == unicodedata.normalize("NFC", decomposed)
    assert name_clean("  Ann  ") == "Ann"
    assert name_clean("\u00a0Bo\u3000") == "Bo"
    for fine in ("Ann", "Ólafur Þór", "李小龍", "Jean-Luc O'Neil", "محمد", "Ann 🚂", "x" * 40):
        assert name_clean(fine) == fine


def test_a_name_is_at_most_40_after_normalising():
    assert name_clean(" " + "x" * 40 + " ") == "x" * 40
    assert len(name_clean("e\u0301" * 40)) == 40  # 80 code points typed, 40 kept


@pytest.mark.django_db
def test_the_services_refuse_and_normalise_names_too():
    with pytest.raises(ServiceError) as caught:
        services.game_create(kind="toy", host_name="Ann\u202e")
    assert caught.value.code == "invalid-request" and "name" in caught.value.message
    created = services.game_create(kind="toy", host_name="Zoe\u0301 ")
    assert created.seat.name == "Zoé"
    with pytest.raises(ServiceError):
        services.seat_join(code=created.game.code, name="B\u200bo")
    seat, _, _ = services.seat_join(code=created.game.code, name="Bo")
    assert seat.name == "Bo"
