from django.urls import path

from .views import account, login

urlpatterns = [
    path("login/", login.login, name="login"),
    path("signup/", account.signup, name="signup"),
    path("profile/", account.profile, name="profile"),
]
