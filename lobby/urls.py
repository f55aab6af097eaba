from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
]
