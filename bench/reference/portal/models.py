"""Unmanaged models over Portolan's tables (apps/api/src/db/schema/*.ts): Portolan owns the schema."""

from django.db import models


class User(models.Model):
    id = models.UUIDField(primary_key=True)
    email = models.TextField()
    password_hash = models.TextField(null=True)
    first_name = models.TextField()
    last_name = models.TextField()
    phone = models.TextField()
    avatar = models.TextField(null=True)
    enabled = models.BooleanField()
    can_create_client = models.BooleanField()
    email_verified_at = models.DateTimeField(null=True)
    clients_view_option = models.TextField()
    created_at = models.DateTimeField()
    modified_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True)

    # What DRF's IsAuthenticated asks of request.user.
    is_authenticated = True
    is_anonymous = False

    class Meta:
        managed = False
        db_table = "users"


class Session(models.Model):
    id = models.UUIDField(primary_key=True)
    user = models.ForeignKey(User, on_delete=models.DO_NOTHING)
    created_at = models.DateTimeField()
    last_refreshed_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True)
    user_agent = models.TextField(null=True)
    ip = models.TextField(null=True)

    class Meta:
        managed = False
        db_table = "sessions"


class Organization(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.TextField()
    logo = models.TextField(null=True)
    owner = models.ForeignKey(User, null=True, on_delete=models.DO_NOTHING, related_name="+")
    created_at = models.DateTimeField()
    modified_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True)

    class Meta:
        managed = False
        db_table = "organizations"


class OrganizationMember(models.Model):
    id = models.UUIDField(primary_key=True)
    organization = models.ForeignKey(
        Organization, on_delete=models.DO_NOTHING, related_name="members"
    )
    user = models.ForeignKey(User, on_delete=models.DO_NOTHING, related_name="+")
    role = models.TextField()
    status = models.TextField()

    class Meta:
        managed = False
        db_table = "organization_members"


class Client(models.Model):
    """A workspace ("client" in the data and the API)."""

    id = models.UUIDField(primary_key=True)
    organization = models.ForeignKey(
        Organization, on_delete=models.DO_NOTHING, related_name="clients"
    )
    name = models.TextField()
    logo = models.TextField(null=True)
    active = models.BooleanField()
    owner = models.ForeignKey(User, null=True, on_delete=models.DO_NOTHING, related_name="+")
    dashboard_button_color = models.TextField()
    created_at = models.DateTimeField()
    modified_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True)

    class Meta:
        managed = False
        db_table = "clients"


class ClientModule(models.Model):
    id = models.UUIDField(primary_key=True)
    client = models.ForeignKey(Client, on_delete=models.DO_NOTHING, related_name="modules")
    module = models.TextField()
    enabled = models.BooleanField()

    class Meta:
        managed = False
        db_table = "client_modules"


class ClientMember(models.Model):
    id = models.UUIDField(primary_key=True)
    client = models.ForeignKey(Client, on_delete=models.DO_NOTHING, related_name="members")
    user = models.ForeignKey(User, on_delete=models.DO_NOTHING, related_name="+")
    role = models.TextField()
    status = models.TextField()

    class Meta:
        managed = False
        db_table = "client_members"


class Notification(models.Model):
    id = models.UUIDField(primary_key=True)
    type = models.TextField()
    recipient = models.ForeignKey(User, on_delete=models.DO_NOTHING, related_name="+")
    is_seen = models.BooleanField()
    status = models.TextField()
    created_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True)

    class Meta:
        managed = False
        db_table = "notifications"
