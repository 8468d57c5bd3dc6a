from django.apps import AppConfig


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = "Wood and Steel companion"

    def ready(self) -> None:
        from games import hooks

        from .services import game_options_prepare, game_projection_sync, projection_writes

        hooks.register_options_provider("wood-and-steel", game_options_prepare)
        hooks.register_state_listener("wood-and-steel", game_projection_sync, writes=projection_writes())
