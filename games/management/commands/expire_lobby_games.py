"""``manage.py expire_lobby_games``: lobby games nobody started become abandoned.

Run it from cron or the Procfile's ``scheduler:`` process (hourly is plenty)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.services import games_expire


class Command(BaseCommand):
    help = "Mark lobby games nobody started, joined or changed for JUNCTION_LOBBY_TTL seconds as abandoned."

    def add_arguments(self, parser):
        parser.add_argument(
            "--ttl", type=float, default=None,
            help=f"seconds a lobby game may sit untouched (default JUNCTION_LOBBY_TTL, now {settings.JUNCTION_LOBBY_TTL})",
        )

    def handle(self, *args, ttl=None, verbosity=1, **options):
        if ttl is not None and ttl < 0:
            raise CommandError("--ttl must be 0 or more seconds.")
        count = games_expire(ttl=ttl)
        if verbosity:
            self.stdout.write(f"{count} lobby game(s) expired.")
