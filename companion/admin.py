"""Game masters edit the map; per-game rows are shown read-only (fix a game through
its state in the Games admin: these rows are rebuilt from it on save)."""

from __future__ import annotations

from django.contrib import admin

from games.admin import GameAdmin
from games.models import Game

from .models import Board, City, Commodity, Contract, IndependentRailroad, PlayerProgress, Route


class CityInline(admin.TabularInline):
    model = City
    extra = 0
    fields = ("name", "region", "x", "y", "large", "west_coast", "east_coast", "commodities")
    filter_horizontal = ("commodities",)
    show_change_link = True


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
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


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    max_num = 0

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields if f.name not in ("id", "game")]


class PlayerProgressInline(ReadOnlyInline):
    model = PlayerProgress
    verbose_name_plural = "Wood and Steel: players"


class ContractInline(ReadOnlyInline):
    model = Contract
    verbose_name_plural = "Wood and Steel: contracts"


class RailroadInline(ReadOnlyInline):
    model = IndependentRailroad
    verbose_name_plural = "Wood and Steel: independent railroads"


class CompanionGameAdmin(GameAdmin):
    """The Games admin, with Wood and Steel's per-game tables for its games."""

    def get_inlines(self, request, obj):
        inlines = list(super().get_inlines(request, obj))
        if obj is not None and obj.kind == "wood-and-steel":
            inlines += [PlayerProgressInline, ContractInline, RailroadInline]
        return inlines


admin.site.unregister(Game)
admin.site.register(Game, CompanionGameAdmin)


@admin.register(Contract)
class ContractAdmin(admin.ModelAdmin):
    list_display = ("game", "contract_id", "kind", "commodity", "destination", "holder", "status", "value", "ties")
    list_filter = ("kind", "status")
    search_fields = ("game__code", "commodity", "destination")

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
