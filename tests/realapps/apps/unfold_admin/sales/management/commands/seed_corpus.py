"""Seed the order desk: the admin user, clients enough that the autocomplete pages, tags and a few orders."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from sales.models import Client, Order, OrderLine, Tag

CLIENTS = [
    ("Альфа-Снаб", "Москва"), ("Балтийская верфь", "Санкт-Петербург"), ("Волга-Трейд", "Самара"),
    ("Газтехмонтаж", "Тюмень"), ("Деловые линии", "Москва"), ("Енисей Логистик", "Красноярск"),
    ("Железобетон-Урал", "Екатеринбург"), ("Зерновая компания «Юг»", "Краснодар"), ("Интерстрой", "Казань"),
    ("Камский кабель", "Пермь"), ("Ленэнерго-Сервис", "Санкт-Петербург"), ("Магнит-Опт", "Краснодар"),
    ("Новосибирский приборный завод", "Новосибирск"), ("Омский шинный завод", "Омск"), ("Промресурс", "Челябинск"),
    ("Ростехснаб", "Ростов-на-Дону"), ("Сибирская сталь", "Новокузнецк"), ("Северсталь-Метиз", "Череповец"),
    ("Тульский оружейный двор", "Тула"), ("Уралхимпласт", "Нижний Тагил"), ("Фармстандарт-Лексредства", "Курск"),
    ("Хабаровский порт", "Хабаровск"), ("Череповецкий азот", "Череповец"), ("Электросила", "Санкт-Петербург"),
    ("Ярославский шинный завод", "Ярославль"),
]
TAGS = ["VIP", "госзаказ", "новый клиент", "опт", "предоплата", "экспорт"]
ORDERS = [
    # number, client, status, delivery date, amount, urgent, tags, lines (description, quantity, price)
    ("З-1001", "Альфа-Снаб", "new", dt.date(2026, 3, 12), "48500.00", False, ["опт"],
     [("Кабель ВВГ 3х2,5", 500, "97.00")]),
    ("З-1002", "Камский кабель", "approved", dt.date(2026, 3, 20), "125000.00", True, ["VIP", "предоплата"],
     [("Провод ПВС 2х1,5", 1000, "75.00"), ("Гофротруба 20 мм", 1000, "50.00")]),
    ("З-1003", "Интерстрой", "new", dt.date(2026, 4, 2), "310400.50", False, ["госзаказ"],
     [("Арматура А500С 12 мм", 20, "15520.03")]),
    ("З-1004", "Волга-Трейд", "new", dt.date(2026, 4, 15), "7800.00", False, [], []),
    ("З-1005", "Сибирская сталь", "shipped", dt.date(2026, 2, 28), "990000.00", False, ["экспорт"],
     [("Лист г/к 10 мм", 30, "33000.00")]),
    ("З-1006", "Магнит-Опт", "new", dt.date(2026, 5, 5), "56250.00", True, ["опт", "новый клиент"], []),
]


class Command(BaseCommand):
    help = "Seed a fresh order desk database (run after migrate)."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--password", required=True)

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        get_user_model().objects.create_superuser("admin", "admin@example.com", options["password"])
        clients = {name: Client.objects.create(name=name, city=city) for name, city in CLIENTS}
        tags = {name: Tag.objects.create(name=name) for name in TAGS}
        for number, client, status, day, amount, urgent, tag_names, lines in ORDERS:
            order = Order.objects.create(number=number, client=clients[client], status=status, delivery_date=day,
                                         amount=Decimal(amount), urgent=urgent)
            order.tags.set([tags[name] for name in tag_names])
            for description, quantity, price in lines:
                OrderLine.objects.create(order=order, description=description, quantity=quantity,
                                         price=Decimal(price))
