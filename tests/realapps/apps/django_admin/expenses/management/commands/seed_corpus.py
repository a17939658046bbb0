"""Seed the expense desk: the admin user, vendors enough that the autocomplete pages, tags and a few expenses."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from expenses.models import Expense, ExpenseLine, Tag, Vendor

VENDORS = [
    "Adventure Works", "Alpine Ski House", "Bellows College", "Best For You Organics", "Blue Yonder Airlines",
    "City Power & Light", "Coho Vineyard", "Coho Winery", "Consolidated Messenger", "Contoso Hotels",
    "Contoso Pharmaceuticals", "Fabrikam Taxi", "Fourth Coffee", "Graphic Design Institute", "Humongous Insurance",
    "Litware", "Lucerne Publishing", "Margie's Travel", "Northwind Traders", "Northwind Traders Lisbon",
    "Proseware", "School of Fine Art", "Southridge Video", "Tailspin Airlines", "Tailspin Toys",
    "Trey Research", "Wide World Importers", "Wingtip Toys", "Woodgrove Bank", "World Wide Travel",
]
TAGS = ["client-x", "conference", "lodging", "meals", "office", "q4", "software", "travel"]
EXPENSES = [
    # title, vendor, amount, billable, date, time, tags, lines (description, quantity, unit price)
    ("Flight to Lisbon", "Tailspin Airlines", "420.00", True, dt.date(2026, 3, 2), dt.time(8, 30),
     ["travel", "client-x"], [("Ticket", 1, "400.00"), ("Seat choice", 1, "20.00")]),
    ("Team lunch", "Fourth Coffee", "86.50", False, dt.date(2026, 3, 5), dt.time(12, 30), ["meals"], []),
    ("Hotel Lisbon", "Contoso Hotels", "310.00", True, dt.date(2026, 3, 3), dt.time(19, 0), ["lodging"],
     [("Room, two nights", 2, "155.00")]),
    ("Taxi to airport", "Fabrikam Taxi", "38.20", False, dt.date(2026, 3, 2), dt.time(6, 45), ["travel"], []),
    ("Annual IDE licence", "Litware", "199.00", False, dt.date(2026, 2, 20), dt.time(10, 0), ["software"], []),
    ("Conference pass", "Margie's Travel", "650.00", True, dt.date(2026, 4, 1), dt.time(9, 0), ["conference"], []),
]


class Command(BaseCommand):
    help = "Seed a fresh expense desk database (run after migrate)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--password", required=True)

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        get_user_model().objects.create_superuser("admin", "admin@example.com", options["password"])
        vendors = {name: Vendor.objects.create(name=name) for name in VENDORS}
        tags = {name: Tag.objects.create(name=name) for name in TAGS}
        for title, vendor, amount, billable, day, time, tag_names, lines in EXPENSES:
            expense = Expense.objects.create(title=title, vendor=vendors[vendor], amount=Decimal(amount),
                                             billable=billable, spent_on=day, spent_at=time)
            expense.tags.set([tags[name] for name in tag_names])
            for description, quantity, price in lines:
                ExpenseLine.objects.create(expense=expense, description=description, quantity=quantity,
                                           unit_price=Decimal(price))
