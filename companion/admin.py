"""Game masters edit the map; per-game rows are shown read-only and folded on the game's page
(never as inline forms: a long game's rows would be posted back; fix a game through its state in
the Games admin: these rows are rebuilt from it on save)."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.db.models import Q
from django.utils.html import format_html, format_html_join

from games.admin import GameAdmin
from games.models import Game
from games.redaction import reveals_all

from .models import Board, City, Commodity, Contract, IndependentRailroad, PlayerProgress, Route


class CityInline(admin.TabularInline):
    model = City
    extra = 0
    fields = ("name", "region", "x", "y", "large", "west_coast", "east_coast", "commodities")
    filter_horizontal = ("commodities",)
    show_change_link = True


class BoardForm(forms.ModelForm):
    class Meta:
        model = Board
        fields = ("name", "slug", "is_default", "image_width", "image_height", "sections", "regions", "tie_matrix", "starting_routes", "avoid_cities")

    def clean_avoid_cities(self):
        """The engine refuses a board whose avoid_cities are not its cities (invalid-board),
        so a game master learns it here rather than when a game starts."""
        avoid = self.cleaned_data.get("avoid_cities")
        if avoid in (None, ""):
            return []
        if not isinstance(avoid, list) or not all(isinstance(c, str) for c in avoid):
            raise forms.ValidationError('A list of city names, e.g. ["Boston", "New York"].')
        if self.instance.pk:
            known = set(self.instance.cities.values_list("name", flat=True))
            unknown = [c for c in avoid if c not in known]
            if unknown:
                raise forms.ValidationError("Not cities of this board: " + ", ".join(unknown) + ".")
        return avoid


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    form = BoardForm
    list_display = ("name", "slug", "is_default", "city_count", "route_count")
    prepopulated_fields = {"slug": ("name",)}

    @admin.display(description="cities")
    def city_count(self, obj):
        return obj.cities.count()

    @admin.display(description="routes")
    def route_count(self, obj):
        return obj.routes.count()


@admin.register(City)
class CityAdmin(admin.ModelAdmin):
    list_display = ("name", "board", "region", "large", "west_coast", "east_coast", "commodity_list")
    list_filter = ("board", "region", "large", "west_coast", "east_coast")
    search_fields = ("name", "code")
    filter_horizontal = ("commodities",)

    @admin.display(description="commodities")
    def commodity_list(self, obj):
        return ", ".join(c.name for c in obj.commodities.all())


@admin.register(Route)
class RouteAdmin(admin.ModelAdmin):
    list_display = ("__str__", "board", "length", "mountainous")
    list_filter = ("board", "mountainous", "length")
    search_fields = ("city_a__name", "city_b__name")
    autocomplete_fields = ("city_a", "city_b")


@admin.register(Commodity)
class CommodityAdmin(admin.ModelAdmin):
    list_display = ("name", "board")
    list_filter = ("board",)
    search_fields = ("name",)


def rows_table(title: str, rows, columns: tuple[str, ...]) -> str:
    """A folded, read-only table of a game's per-game rows (never a form: nothing is posted back)."""
    rows = list(rows)
    body = format_html_join(
        "", "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((_cell(getattr(row, c)),) for c in columns)),) for row in rows),
    )
    head = format_html_join("", "<th>{}</th>", ((c.replace("_", " "),) for c in columns))
    return format_html(
        "<details><summary>{} ({})</summary><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></details>",
        title, len(rows), head, body,
    )


def _cell(value) -> str:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


class CompanionGameAdmin(GameAdmin):
    """The Games admin, with Wood and Steel's per-game tables (read-only, folded) for its games."""

    WS_TABLES = ("ws_players_table", "ws_contracts_table", "ws_railroads_table")

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        # the read model holds every seat's offers and private contracts: a game master who is not a
        # superuser reads a running game as a spectator (games/redaction.py), without them
        if obj is not None and obj.kind == "wood-and-steel" and not (self._spectating(request) and not reveals_all(obj)):
            at = fields.index("log_folded" if "log_folded" in fields else "log_spectator")
            fields[at:at] = self.WS_TABLES
        return fields

    def get_readonly_fields(self, request, obj=None):
        return (*super().get_readonly_fields(request, obj), *self.WS_TABLES)

    @admin.display(description="Wood and Steel: players")
    def ws_players_table(self, obj):
        return rows_table("players", PlayerProgress.objects.filter(game=obj).order_by("seat"),
                          ("seat", "name", "start_route", "engine_city", "hub", "money", "debt", "deliveries", "ties"))

    @admin.display(description="Wood and Steel: contracts")
    def ws_contracts_table(self, obj):
        return rows_table("contracts", Contract.objects.filter(game=obj).order_by("contract_id"),
                          ("contract_id", "kind", "commodity", "destination", "holder", "status", "value", "ties"))

    @admin.display(description="Wood and Steel: independent railroads")
    def ws_railroads_table(self, obj):
        return rows_table("independent railroads", IndependentRailroad.objects.filter(game=obj).order_by("railroad_id"),
                          ("railroad_id", "name", "acquired_by", "acquired_round"))


admin.site.unregister(Game)
admin.site.register(Game, CompanionGameAdmin)


@admin.register(Contract)
class ContractAdmin(admin.ModelAdmin):
    list_display = ("game", "contract_id", "kind", "commodity", "destination", "holder", "status", "value", "ties")
    list_filter = ("kind", "status")
    search_fields = ("game__code", "commodity", "destination")

    def get_queryset(self, request):
        """A game master who is not a superuser sees what a spectator may (games/redaction.py): a running
        game's market contracts and the private ones already fulfilled; every contract of a finished game."""
        rows = super().get_queryset(request)
        if request.user.is_superuser:
            return rows
        return rows.filter(Q(game__status=Game.Status.FINISHED) | Q(kind="market") | Q(status="fulfilled"))

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(IndependentRailroad)
class IndependentRailroadAdmin(admin.ModelAdmin):
    list_display = ("game", "railroad_id", "name", "acquired_by", "acquired_round")
    search_fields = ("game__code", "name")

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False
