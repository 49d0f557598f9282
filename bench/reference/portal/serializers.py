"""The JSON of Portolan's answers (packages/contract: userSchema, myOrganizationEntrySchema)."""

from django.conf import settings
from rest_framework import serializers

ROLE_NAMES = {
    "OWNER": "Owner",
    "ADMIN": "Admin",
    "MANAGER": "Manager",
    "STAFF": "Staff",
    "CLIENT": "Client",
}
RANK = {"OWNER": 5, "ADMIN": 4, "MANAGER": 3, "STAFF": 2, "CLIENT": 1}
MODULE_CODES = ["MAP", "ROG", "RA", "DS", "MT", "DC", "PF", "TR", "SKUF"]


def role_ref(role):
    return {"key": role, "name": ROLE_NAMES[role]} if role else None


def effective_workspace_role(org_role, workspace_role):
    """An organization OWNER or ADMIN holds that role in its workspaces, unless their own is higher."""
    from_org = org_role if org_role in ("OWNER", "ADMIN") else None
    if workspace_role and from_org:
        return workspace_role if RANK[workspace_role] >= RANK[from_org] else from_org
    return workspace_role or from_org


def in_domains(email, domains):
    domain = email.rpartition("@")[2].strip().lower().rstrip(".") if "@" in email else ""
    return domain != "" and domain in domains


class UserSerializer(serializers.Serializer):
    user_id = serializers.UUIDField(source="id")
    pk = serializers.UUIDField(source="id")
    email = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    phone = serializers.CharField()
    avatar = serializers.CharField(allow_null=True)
    can_create_client = serializers.BooleanField()
    clientsViewOption = serializers.CharField(source="clients_view_option")
    custom_shipment_template = serializers.SerializerMethodField()
    is_internal = serializers.SerializerMethodField()

    def get_custom_shipment_template(self, user):
        return in_domains(user.email, settings.CUSTOM_TEMPLATE_EMAIL_DOMAINS)

    def get_is_internal(self, user):
        return in_domains(user.email, settings.INTERNAL_EMAIL_DOMAINS)


class ModuleStateSerializer(serializers.Serializer):
    module = serializers.CharField()
    enabled = serializers.BooleanField()


class MyClientSerializer(serializers.Serializer):
    """A workspace as the caller sees it: `org_role` is set on it by the view."""

    id = serializers.UUIDField()
    name = serializers.CharField()
    logo = serializers.CharField(allow_null=True)
    active = serializers.BooleanField()
    role = serializers.SerializerMethodField()
    modules = serializers.SerializerMethodField()
    dashboard_button_color = serializers.CharField()

    def get_role(self, client):
        own = client.my_role if client.my_status == "MEMBER" else None
        return role_ref(effective_workspace_role(client.org_role, own))

    def get_modules(self, client):
        modules = sorted(client.modules.all(), key=lambda m: MODULE_CODES.index(m.module))
        return ModuleStateSerializer(modules, many=True).data


class MyOrganizationSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="organization.id")
    name = serializers.CharField(source="organization.name")
    logo = serializers.CharField(source="organization.logo", allow_null=True)
    has_access = serializers.SerializerMethodField()
    role = serializers.SerializerMethodField()

    def get_has_access(self, membership):
        return membership.status == "MEMBER"

    def get_role(self, membership):
        return role_ref(membership.role)


class MyOrganizationEntrySerializer(serializers.Serializer):
    """One of the caller's memberships: its organization and the workspaces they see in it."""

    organization = MyOrganizationSerializer(source="*")
    clients = serializers.SerializerMethodField()

    def get_clients(self, membership):
        clients = self.context["clients"].get(membership.organization_id, [])
        return MyClientSerializer(clients, many=True).data
