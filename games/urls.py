from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("join/<str:code>", views.join, name="join"),
    path("games/<str:code>/", views.room, name="room"),
    path("games/<str:code>/replay", views.replay, name="replay"),
    path("games/<str:code>/qr.svg", views.join_qr, name="join-qr"),
]
