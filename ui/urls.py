from django.urls import path

from ui import views

app_name = "ui"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables/new/", views.table_create, name="table_create"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/sit/", views.table_sit, name="table_sit"),
    path("tables/<int:table_id>/bot/", views.table_bot_add, name="table_bot_add"),
]
