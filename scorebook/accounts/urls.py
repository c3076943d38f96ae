from django.urls import path

from .views import account, login, password_link

urlpatterns = [
    path("login/", login.login, name="login"),
    path("password_change/", login.password_change, name="password_change"),
    path("password_reset/", login.password_reset, name="password_reset"),
    path("reset/<uidb64>/<token>/", login.password_reset_confirm, name="password_reset_confirm"),
    path("password/<token:token>/", password_link.password_link, name="password_link"),
    path("signup/", account.signup, name="signup"),
    path("profile/", account.profile, name="profile"),
]
