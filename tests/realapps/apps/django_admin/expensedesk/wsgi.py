"""WSGI entry point of the expense desk."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "expensedesk.settings")
application = get_wsgi_application()
