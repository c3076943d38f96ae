from django.urls import path

from .views import account

urlpatterns = [
    path("signup/", account.signup, name="signup"),
    path("profile/", account.profile, name="profile"),
]
