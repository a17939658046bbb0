from django.apps import AppConfig


class SalesConfig(AppConfig):
    name = "sales"
    verbose_name = "Продажи"
