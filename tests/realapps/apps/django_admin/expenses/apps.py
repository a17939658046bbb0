from django.apps import AppConfig


class ExpensesConfig(AppConfig):
    name = "expenses"
    verbose_name = "Expenses"
