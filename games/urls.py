from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/sit/", views.table_sit, name="sit"),
    path("<int:table_id>/bot/", views.table_bot, name="bot"),
    path("<int:table_id>/leave/", views.table_leave, name="leave"),
]
