"""``manage.py run_clocks``: the clock runner, beside Daphne (the Procfile's ``clock:`` process;
``make run`` starts one with the server).

Every ``JUNCTION_CLOCK_TICK`` seconds (default 2) it hands the seats whose turn's time ran out to
a bot (games/clocks.py). The deadlines are in the database, so stopping it, or a crash, loses
none: the next runner fires what fell due meanwhile. Several may run at once (PostgreSQL: each
game is claimed with SKIP LOCKED). ``--once``: one pass, then exit (cron, tests)."""

from __future__ import annotations

import logging
import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from games.clocks import clocks_fire

log = logging.getLogger("games.clocks")


class Command(BaseCommand):
    help = "Hand the seats whose turn's time ran out (games with a clock) to a bot, every JUNCTION_CLOCK_TICK seconds."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one pass, then exit")
        parser.add_argument("--tick", type=float, default=None,
                            help=f"seconds between passes (default JUNCTION_CLOCK_TICK, now {settings.JUNCTION_CLOCK_TICK})")

    def handle(self, *args, once=False, tick=None, verbosity=1, **options):
        tick = settings.JUNCTION_CLOCK_TICK if tick is None else tick
        if tick <= 0:
            raise CommandError("--tick must be more than 0 seconds.")
        if once:
            # The bots that take seats move in this pass, not in threads this process would not wait for.
            settings.JUNCTION_BOTS_INLINE = True
            fired = clocks_fire()
            if verbosity:
                self.stdout.write(f"{fired} seat(s) handed to a bot.")
            return
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        if verbosity:
            self.stdout.write(f"clocks: running every {tick:g} s", ending="\n")
            self.stdout.flush()
        while not stop.is_set():
            try:
                fired = clocks_fire()
                if fired and verbosity:
                    self.stdout.write(f"clocks: {fired} seat(s) handed to a bot")
                    self.stdout.flush()
            except Exception:  # the database away for a moment: next pass
                log.exception("clock pass failed")
            finally:
                close_old_connections()
            stop.wait(tick)
        if verbosity:
            self.stdout.write("clocks: stopped")
