"""The default Wood and Steel board for tests on a flushed database."""

from __future__ import annotations


def ensure_wood_and_steel_board() -> None:
    """Reload the default Wood and Steel board when an earlier transactional test's flush
    removed the rows its data migration loaded (a no-op when it is there)."""
    try:
        from companion.models import Board
        from companion.services import board_load_default
    except ImportError:  # the companion app is not installed
        return
    if not Board.objects.filter(is_default=True).exists():
        board_load_default()
