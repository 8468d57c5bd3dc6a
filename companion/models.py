"""Wood and Steel data in the ORM.

The board (cities, routes, commodities) is editable by game masters; a new game
takes a snapshot of the default board, so editing the map never changes a game
in progress. Per-game tables (players, contracts, independent railroads) are a
read model of the engine's state, rewritten in the same transaction as every
accepted command: the state and its log stay the single source of truth.
"""

from __future__ import annotations

from django.db import models


class Board(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    is_default = models.BooleanField(default=False, help_text="New Wood and Steel games use the default board.")
    image_width = models.PositiveIntegerField(default=1110)
    image_height = models.PositiveIntegerField(default=696)
    sections = models.JSONField(default=list, help_text='[{"code": "west", "label": "Western"}, ...] west to east')
    regions = models.JSONField(default=list, help_text='[{"code": "NW", "label": "Northwest", "section": "west"}, ...]')
    tie_matrix = models.JSONField(default=dict, help_text="Region-to-region ties (the region-matrix option).")
    starting_routes = models.JSONField(default=list, help_text='[["Montreal", "Quebec City"], ...]')
    avoid_cities = models.JSONField(default=list, blank=True, help_text="Cities independents never start in.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["is_default"], condition=models.Q(is_default=True), name="one_default_board"),
        ]

    def __str__(self) -> str:
        return self.name + (" (default)" if self.is_default else "")


class Commodity(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="commodities")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["board", "name"]
        verbose_name_plural = "commodities"
        constraints = [models.UniqueConstraint(fields=["board", "name"], name="commodity_unique_per_board")]

    def __str__(self) -> str:
        return self.name


class City(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="cities")
    name = models.CharField(max_length=60)
    code = models.CharField(max_length=10)
    label = models.CharField(max_length=60, blank=True)
    state = models.CharField(max_length=10, blank=True)
    country = models.CharField(max_length=10, blank=True)
    region = models.CharField(max_length=4)
    latitude = models.FloatField()
    longitude = models.FloatField()
    x = models.IntegerField(help_text="Position on the board image (pixels).")
    y = models.IntegerField()
    large = models.BooleanField(default=False)
    west_coast = models.BooleanField(default=False)
    east_coast = models.BooleanField(default=False)
    near_west_coast = models.BooleanField(default=False)
    near_east_coast = models.BooleanField(default=False)
    commodities = models.ManyToManyField(Commodity, blank=True, related_name="cities")

    class Meta:
        ordering = ["board", "name"]
        verbose_name_plural = "cities"
        constraints = [models.UniqueConstraint(fields=["board", "name"], name="city_unique_per_board")]

    def __str__(self) -> str:
        return self.name


class Route(models.Model):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="routes")
    city_a = models.ForeignKey(City, on_delete=models.CASCADE, related_name="+")
    city_b = models.ForeignKey(City, on_delete=models.CASCADE, related_name="+")
    length = models.PositiveSmallIntegerField(help_text="Track segments.")
    mountainous = models.BooleanField(default=False)

    class Meta:
        ordering = ["board", "city_a__name", "city_b__name"]
        constraints = [models.UniqueConstraint(fields=["board", "city_a", "city_b"], name="route_unique_per_board")]

    def __str__(self) -> str:
        return f"{self.city_a.name}-{self.city_b.name}"


# --- per-game read model -----------------------------------------------------------


class PlayerProgress(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="ws_players")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    start_route = models.CharField(max_length=80, blank=True)
    engine_city = models.CharField(max_length=60, blank=True)
    engine_model = models.CharField(max_length=60, blank=True)
    active_cities = models.JSONField(default=list)
    hub = models.CharField(max_length=60, blank=True)
    regional_offices = models.JSONField(default=list)
    exchanges = models.JSONField(default=list, help_text="Commodities exchange offices.")
    money = models.IntegerField(default=0)
    debt = models.IntegerField(default=0)
    deliveries = models.PositiveIntegerField(default=0)
    ties = models.IntegerField(default=0)
    ties_by_source = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "seat"]
        verbose_name_plural = "player progress"
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="progress_unique_per_seat")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat}): {self.ties} ties"


class Contract(models.Model):
    class Kind(models.TextChoices):
        PRIVATE = "private"
        MARKET = "market"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="ws_contracts")
    contract_id = models.PositiveIntegerField(help_text="The engine's id.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    commodity = models.CharField(max_length=40)
    destination = models.CharField(max_length=60)
    holder = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20)
    created_round = models.IntegerField(null=True, blank=True)
    turns_held = models.IntegerField(default=0)
    value = models.IntegerField()
    ties = models.IntegerField(default=0)

    class Meta:
        ordering = ["game", "contract_id"]
        constraints = [models.UniqueConstraint(fields=["game", "contract_id"], name="contract_unique_per_game")]

    def __str__(self) -> str:
        return f"#{self.contract_id} {self.commodity} → {self.destination} ({self.kind}, {self.status})"


class IndependentRailroad(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="ws_railroads")
    railroad_id = models.PositiveIntegerField()
    name = models.CharField(max_length=80)
    routes = models.JSONField(default=list, help_text='[{"route": "A-B", "round": n}, ...]')
    acquired_by = models.PositiveSmallIntegerField(null=True, blank=True)
    acquired_round = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "railroad_id"]
        constraints = [models.UniqueConstraint(fields=["game", "railroad_id"], name="railroad_unique_per_game")]

    def __str__(self) -> str:
        return self.name
