from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        self._turn_notices_ready()
        self._ratings_ready()
        self._record_ready()

    def _turn_notices_ready(self) -> None:
        """Turn notices (players/notices.py): told by games.turns when a signed-in player's turn begins."""
        from games.turns import register_turn_started

        from .notices import turn_started

        register_turn_started(turn_started)

    def _ratings_ready(self) -> None:
        """Ratings (players/ratings.py): told by games.turns when the rules finish a watched game."""
        from games.turns import register_game_finished

        from .ratings import game_finished

        register_game_finished(game_finished)

    def _record_ready(self) -> None:
        """A player's record (players/record.py): told by games.turns when the rules finish a watched game."""
        from games.turns import register_game_finished

        from .record import game_finished

        register_game_finished(game_finished)
