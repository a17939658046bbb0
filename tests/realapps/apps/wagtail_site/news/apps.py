from django.apps import AppConfig


class NewsConfig(AppConfig):
    name = "news"
    verbose_name = "News"
