from django.urls import path

from . import views

app_name = "decklists"

urlpatterns = [
    path("decklists/", views.search, name="index"),
    path("decklists/publish-set/", views.publish_set, name="publish-set"),
    path("decklists/sets/<int:pk>/", views.set_detail, name="set"),
    path("decklists/authors/<str:name>/", views.author, name="author"),
    path("decklists/authors/<str:name>/follow/", views.follow, name="follow"),
    path("decklists/<int:pk>/", views.detail, name="detail"),
    path("decklists/<int:pk>/like/", views.like, name="like"),
    path("decklists/<int:pk>/favourite/", views.favourite, name="favourite"),
    path("decklists/<int:pk>/comments/", views.comment, name="comment"),
    path(
        "decklists/<int:pk>/comments/<int:cid>/moderate/",
        views.comment_moderate,
        name="comment-moderate",
    ),
    path(
        "decklists/<int:pk>/comments/<int:cid>/report/", views.comment_report, name="comment-report"
    ),
    path("decklists/<int:pk>/moderate/", views.moderate, name="moderate"),
    path("decklists/<int:pk>/report/", views.report, name="report"),
    path("decklists/<int:pk>/copy/", views.copy, name="copy"),
    path("decklists/<int:pk>/export/<str:kind>/", views.export, name="export"),
    path("decklists/<slug:game>/", views.search, name="game"),
    path("decks/<int:pk>/publish/", views.publish, name="publish"),
]
