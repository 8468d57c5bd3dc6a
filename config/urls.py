from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api.health import LivenessView, ReadinessView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("livez", LivenessView.as_view(), name="livez"),
    path("readyz", ReadinessView.as_view(), name="readyz"),
    path("healthz", ReadinessView.as_view(), name="healthz"),  # the old name: readiness
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/wood-and-steel/", include("companion.urls")),
    path("", include("companion.page_urls")),
    path("", include("games.urls")),
]
