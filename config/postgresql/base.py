"""Django's PostgreSQL backend with a health check that costs no round trip when it can.

With ``CONN_HEALTH_CHECKS`` Django probes a persistent connection with ``SELECT 1`` before
the first query of every request; channels closes old connections around every WebSocket
command, so that was one extra round trip per move (14 % of the database thread's time
under the latency bench). Here the probe is skipped when both hold:

- the connection served a request without a database error less than
  ``RECENTLY_PROVEN`` seconds ago, and
- its socket has nothing to read. An idle connection never has: a server that ends the
  session (restart, ``pg_terminate_backend``, crash) sends an error and/or closes the
  socket, which makes it readable.

Otherwise Django's probe runs as before and an unusable connection is replaced.
"""

from __future__ import annotations

import select
import time

from django.db.backends.postgresql import base

RECENTLY_PROVEN = 10.0  # seconds


class DatabaseWrapper(base.DatabaseWrapper):
    _proven_at = float("-inf")

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and not self.health_check_done
            and time.monotonic() - self._proven_at < RECENTLY_PROVEN
            and not self._socket_readable()
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def close_if_unusable_or_obsolete(self) -> None:
        # A request that used the connection (its health was settled) without a database
        # error has just proven it; one that never touched it proves nothing.
        proven = self.connection is not None and self.health_check_done and not self.errors_occurred
        super().close_if_unusable_or_obsolete()
        if self.connection is None:
            self._proven_at = float("-inf")
        elif proven:
            self._proven_at = time.monotonic()

    def _socket_readable(self) -> bool:
        try:
            readable, _, _ = select.select([self.connection.fileno()], [], [], 0)
        except Exception:  # closed or broken: let the probe decide
            return True
        return bool(readable)
