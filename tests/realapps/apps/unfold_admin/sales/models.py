"""Clients, tags, orders and their lines, named in Russian as the desk's users read them."""

from django.db import models


class Client(models.Model):
    name = models.CharField("Название", max_length=200, unique=True)
    city = models.CharField("Город", max_length=100, blank=True)

    class Meta:
        verbose_name = "клиент"
        verbose_name_plural = "клиенты"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Tag(models.Model):
    name = models.CharField("Название", max_length=60, unique=True)

    class Meta:
        verbose_name = "метка"
        verbose_name_plural = "метки"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Order(models.Model):
    class Status(models.TextChoices):
        NEW = "new", "Новый"
        APPROVED = "approved", "Одобрен"
        SHIPPED = "shipped", "Отгружен"

    number = models.CharField("Номер", max_length=20, unique=True)
    client = models.ForeignKey(Client, verbose_name="Клиент", on_delete=models.PROTECT)
    tags = models.ManyToManyField(Tag, verbose_name="Метки", blank=True)
    status = models.CharField("Статус", max_length=20, choices=Status.choices, default=Status.NEW)
    delivery_date = models.DateField("Дата поставки")
    amount = models.DecimalField("Сумма, ₽", max_digits=12, decimal_places=2)
    urgent = models.BooleanField("Срочный", default=False)

    class Meta:
        verbose_name = "заказ"
        verbose_name_plural = "заказы"
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Заказ {self.number}"


class OrderLine(models.Model):
    order = models.ForeignKey(Order, related_name="lines", on_delete=models.CASCADE)
    description = models.CharField("Описание", max_length=200)
    quantity = models.PositiveIntegerField("Количество")
    price = models.DecimalField("Цена, ₽", max_digits=12, decimal_places=2)

    class Meta:
        verbose_name = "позиция"
        verbose_name_plural = "позиции"

    def __str__(self) -> str:
        return self.description
