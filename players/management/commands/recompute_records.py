"""``manage.py recompute_records``: every player's record (players/record.py) thrown away and written
again from the finished games' stored final states."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from players.record import records_recompute


class Command(BaseCommand):
    help = "Delete every player's record and write it again for every game the rules finished."

    def handle(self, *args, verbosity=1, **options):
        written = records_recompute()
        if verbosity:
            self.stdout.write(f"{written} record(s) written.")
