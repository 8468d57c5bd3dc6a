"""Companion pages (the table screen)."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<str:code>/table", views.table, name="ws-table"),
]
