from django.urls import path

from portal import views

# Portolan's paths, trailing slash and all.
urlpatterns = [
    path("v1/rest-auth/user/", views.UserView.as_view()),
    path("v1/me/organizations/and/clients/", views.MyOrganizationsAndClientsView.as_view()),
    path("v1/user/notification/new/", views.NewNotificationsView.as_view()),
]
