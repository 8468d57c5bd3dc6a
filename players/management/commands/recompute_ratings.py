"""``manage.py recompute_ratings``: every rating thrown away and rebuilt from the games' logs.

Each rated game (players/ratings.py says which) is rated again in ``finished_at`` order, its
standings from the final state replayed from seed, options, seats and log, not from the stored
state. The result equals what the games did to the ratings as they finished."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from players.models import Rating
from players.ratings import ratings_recompute


class Command(BaseCommand):
    help = "Delete every rating and rating change and rate each finished game again from its log, in the order they finished."

    def handle(self, *args, verbosity=1, **options):
        def skipped(game, exc):
            self.stderr.write(f"Skipped {game.kind} {game.code}: its log does not replay ({exc}).")

        rated = ratings_recompute(on_skip=skipped)
        if verbosity:
            self.stdout.write(f"{rated} game(s) rated; {Rating.objects.count()} rating(s).")
