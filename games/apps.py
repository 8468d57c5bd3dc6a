from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        import importlib

        from django.conf import settings

        from .engines import registry

        registry.load_builtin_engines()
        for module in settings.JUNCTION_EXTRA_ENGINES:
            registry.register(importlib.import_module(module).ENGINE)
