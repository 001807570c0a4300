from django.urls import path

from . import views

app_name = "notices"

urlpatterns = [
    path("notices/", views.notice_list, name="list"),
    path("notices/read/", views.notices_read, name="read"),
    path("notices/settings/", views.notice_preference, name="preference"),
]
