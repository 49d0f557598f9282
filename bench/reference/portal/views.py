from collections import defaultdict

from django.conf import settings
from django.db.models import Exists, F, FilteredRelation, OuterRef, Prefetch, Q
from django.db.models.functions import Lower
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Client, ClientModule, Notification, OrganizationMember
from .pagination import PageLimitPagination
from .serializers import MODULE_CODES, MyOrganizationEntrySerializer, UserSerializer

# The modules of each app profile (packages/contract constants.ts APP_PROFILES).
APP_PROFILES = {
    "mwrw": ["MAP"],
    "matrix": ["DS", "RA", "MT", "MAP"],
    "data_central": ["DC"],
    "precise_financial": ["PF"],
    "transit": ["TR"],
    "skuflex": ["SKUF"],
}


class UserView(APIView):
    """GET /v1/rest-auth/user/"""

    def get(self, request):
        return Response(UserSerializer(request.user).data)


class NewNotificationsView(APIView):
    """GET /v1/user/notification/new/: how many of the caller's notifications are unseen."""

    def get(self, request):
        count = Notification.objects.filter(
            recipient_id=request.user.id, is_seen=False, deleted_at__isnull=True
        ).count()
        return Response({"count": count})


class OrganizationPagination(PageLimitPagination):
    default_limit = 250


class MyOrganizationsAndClientsView(ListAPIView):
    """
    GET /v1/me/organizations/and/clients/: a page of the caller's organizations (by name), each
    with the workspaces the caller sees in it. Four queries whatever the page size: the count,
    the page, the page's visible workspaces and their modules (prefetched).
    """

    serializer_class = MyOrganizationEntrySerializer
    pagination_class = OrganizationPagination

    def get_queryset(self):
        return (
            OrganizationMember.objects.filter(
                user_id=self.request.user.id, organization__deleted_at__isnull=True
            )
            .select_related("organization")
            .order_by(Lower("organization__name"), "organization_id")
        )

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        context = {**self.get_serializer_context(), "clients": self.visible_clients(page)}
        serializer = self.get_serializer(page, many=True, context=context)
        return self.get_paginated_response(serializer.data)

    def visible_clients(self, memberships):
        """
        Who sees what (REFERENCE "Who may do what"): an accepted OWNER or ADMIN every live
        workspace of the organization; anyone else the active ones they are an accepted member
        of and the pending ones they created; only workspaces with a module of the app profile.
        """
        user_id = self.request.user.id
        org_role = {
            m.organization_id: m.role if m.status == "MEMBER" else None for m in memberships
        }
        admin_of = [org for org, role in org_role.items() if role in ("OWNER", "ADMIN")]
        clients = (
            Client.objects.annotate(
                mine=FilteredRelation("members", condition=Q(members__user_id=user_id)),
                my_role=F("mine__role"),
                my_status=F("mine__status"),
            )
            .filter(deleted_at__isnull=True, organization_id__in=list(org_role))
            .filter(
                Q(organization_id__in=admin_of)
                | Q(active=True, mine__status="MEMBER")
                | Q(active=False, owner_id=user_id)
            )
            .filter(
                Exists(
                    ClientModule.objects.filter(
                        client_id=OuterRef("pk"), module__in=APP_PROFILES[settings.APP_PROFILE]
                    )
                )
            )
            .prefetch_related(
                Prefetch("modules", queryset=ClientModule.objects.filter(module__in=MODULE_CODES))
            )
            .order_by(Lower("name"), "id")
        )
        by_organization = defaultdict(list)
        for client in clients:
            client.org_role = org_role[client.organization_id]
            by_organization[client.organization_id].append(client)
        return by_organization
