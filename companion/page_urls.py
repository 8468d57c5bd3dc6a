"""Companion pages (the table screen)."""

from django.urls import path

from games import converters  # noqa: F401  (registers <gamecode:…>)

from . import views

urlpatterns = [
    path("games/<gamecode:code>/table", views.table, name="ws-table"),
]
