"""Load the designers' North America board as the default map."""

from types import SimpleNamespace

from django.db import migrations


def load(apps, schema_editor):
    from companion.services import board_load_default

    models = SimpleNamespace(**{name: apps.get_model("companion", name) for name in ("Board", "City", "Commodity", "Route")})
    board_load_default(models=models)


def unload(apps, schema_editor):
    apps.get_model("companion", "Board").objects.filter(slug="north-america").delete()


class Migration(migrations.Migration):
    dependencies = [("companion", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]
