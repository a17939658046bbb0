"""Seed the newsroom: an editor (a Moderator, who may publish, with the author snippet's permissions), a news
index with four published news pages, and one author snippet."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from news.models import Author, NewsIndexPage, NewsPage
from wagtail.models import Page

NEWS = [
    # title, slug, date, intro, body, tags
    ("Lisbon office opening", "lisbon-office-opening", dt.date(2026, 3, 10), "We open an office in Lisbon.",
     "<p>Our new office is near the river.</p>", ["offices"]),
    ("Quarterly results", "quarterly-results", dt.date(2026, 4, 2), "Results of the first quarter.",
     "<p>Revenue grew in every region.</p>", ["finance"]),
    ("Summer party", "summer-party", dt.date(2026, 6, 20), "Everyone is invited to the summer party.",
     "<p>Bring your family.</p>", []),
    ("Old parking rules", "old-parking-rules", dt.date(2025, 1, 15), "The parking rules of last year.",
     "<p>These rules no longer apply.</p>", []),
]


class Command(BaseCommand):
    help = "Seed a fresh newsroom database (run after migrate)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--password", required=True)

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        editor = get_user_model().objects.create_user("editor", "editor@example.com", options["password"],
                                                      first_name="Eva", last_name="Editor")
        editor.groups.add(Group.objects.get(name="Moderators"))
        editor.user_permissions.add(*Permission.objects.filter(content_type__app_label="news",
                                                               codename__endswith="_author"))
        home = Page.objects.get(depth=2)
        index = home.add_child(instance=NewsIndexPage(title="News", slug="news", intro="What happens here."))
        index.save_revision().publish()
        for title, slug, day, intro, body, tags in NEWS:
            page = index.add_child(instance=NewsPage(title=title, slug=slug, date=day, intro=intro, body=body))
            page.tags.add(*tags)
            page.save_revision().publish()
        Author.objects.create(name="Ana Pereira", job_title="Editor", email="ana@example.com")
