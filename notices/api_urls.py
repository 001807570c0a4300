from cardsite.routers import api_router

from . import api

router = api_router()
router.register("notices", api.NoticeViewSet, basename="notice")

urlpatterns = router.urls
