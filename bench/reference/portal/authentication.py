"""
Portolan's session tokens, checked as Portolan checks them (apps/api/src/modules/auth/tokens.ts,
authenticate.ts, sessions.ts): an HS256 JWT with audience "portolan" and claims sub, sid, iat,
exp, then its live session and the session's enabled user in one query per request.
"""

import re
from datetime import datetime, timedelta, timezone

import jwt
from django.conf import settings
from django.db.models import Q
from django.utils import timezone as django_timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .models import Session

BEARER = re.compile(r"^(?:Bearer|JWT)\s+(\S+)$", re.IGNORECASE)
# A token replaced by a refresh keeps working this long (sessions.ts REPLACED_TOKEN_GRACE_MS).
REPLACED_TOKEN_GRACE = timedelta(seconds=10)


class SessionTokenAuthentication(BaseAuthentication):
    def authenticate(self, request):
        match = BEARER.match(request.META.get("HTTP_AUTHORIZATION", "").strip())
        if not match:
            return None
        try:
            claims = jwt.decode(
                match[1],
                settings.JWT_SECRET,
                algorithms=["HS256"],
                audience="portolan",
                options={"require": ["sub", "exp", "iat"]},
            )
        except jwt.PyJWTError:
            raise AuthenticationFailed("Authentication credentials were not provided.")
        if "sid" not in claims:
            raise AuthenticationFailed("Authentication credentials were not provided.")
        now = django_timezone.now()
        issued = datetime.fromtimestamp(claims["iat"] + 1, tz=timezone.utc)
        session = (
            Session.objects.select_related("user")
            .filter(
                Q(last_refreshed_at__lt=issued) | Q(last_refreshed_at__gt=now - REPLACED_TOKEN_GRACE),
                id=claims["sid"],
                user_id=claims["sub"],
                revoked_at__isnull=True,
                expires_at__gt=now,
                user__deleted_at__isnull=True,
                user__enabled=True,
            )
            .first()
        )
        if session is None:
            raise AuthenticationFailed("Your session has ended. Sign in again.")
        return (session.user, session)

    def authenticate_header(self, request):
        return "Bearer"
