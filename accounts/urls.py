from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import PasswordChangeMarkedForm

app_name = "accounts"

urlpatterns = [
    path("register/", views.register, name="register"),
    path("login/", views.PlayerLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(form_class=PasswordChangeMarkedForm,
                                              success_url=reverse_lazy("accounts:password_done")),
        name="password_change",
    ),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_done"),
    path("language/", views.language_set, name="language"),
    # Staff's second factor (docs/operations.md, "Staff two-factor sign-in").
    path("two-factor/", views.two_factor_enroll, name="two_factor_enroll"),
    path("two-factor/verify/", views.two_factor_verify, name="two_factor_verify"),
]
