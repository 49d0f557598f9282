"""
The Django REST Framework reference of `npm run bench` (issue 12): the same read endpoints as
Portolan, on the same PostgreSQL data, as the stack of the system the specification describes
would serve them. It is measured, never deployed: scripts/bench/reference.ts starts it with
gunicorn (2 sync workers) and passes everything through the environment:

  REFERENCE_DATABASE_URL   postgres://user[:password]@host:port/database (Portolan's database)
  JWT_SECRET               the secret Portolan signs its session tokens with
  APP_PROFILE              which module a listed workspace must have (transit: TR)
  INTERNAL_EMAIL_DOMAINS, CUSTOM_TEMPLATE_EMAIL_DOMAINS   as Portolan reads them

A usual production configuration: DEBUG off, persistent database connections, the JSON renderer
only, Django's security and common middleware.
"""

import os
from urllib.parse import unquote, urlparse

_db = urlparse(os.environ["REFERENCE_DATABASE_URL"])

SECRET_KEY = os.environ["JWT_SECRET"]
JWT_SECRET = os.environ["JWT_SECRET"]
APP_PROFILE = os.environ.get("APP_PROFILE", "transit")


def _domains(name):
    return [d.strip().lower() for d in os.environ.get(name, "").split(",") if d.strip()]


INTERNAL_EMAIL_DOMAINS = _domains("INTERNAL_EMAIL_DOMAINS")
CUSTOM_TEMPLATE_EMAIL_DOMAINS = _domains("CUSTOM_TEMPLATE_EMAIL_DOMAINS")

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "reference.urls"
WSGI_APPLICATION = "reference.wsgi.application"
USE_TZ = True
TIME_ZONE = "UTC"
APPEND_SLASH = False

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "portal",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _db.path.lstrip("/"),
        "USER": unquote(_db.username or ""),
        "PASSWORD": unquote(_db.password or ""),
        "HOST": _db.hostname or "",
        "PORT": str(_db.port or ""),
        # One connection per worker, kept between requests (as Portolan keeps its pool).
        "CONN_MAX_AGE": None,
    }
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["portal.authentication.SessionTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}

LOGGING = {"version": 1, "disable_existing_loggers": False}
