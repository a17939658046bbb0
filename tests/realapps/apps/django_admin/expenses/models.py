"""The expense desk's records: vendors, tags, expenses and their lines."""

from django.db import models


class Vendor(models.Model):
    name = models.CharField(max_length=100, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Tag(models.Model):
    name = models.CharField(max_length=50, unique=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Expense(models.Model):
    title = models.CharField(max_length=200)
    vendor = models.ForeignKey(Vendor, null=True, blank=True, on_delete=models.PROTECT)
    tags = models.ManyToManyField(Tag, blank=True)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    billable = models.BooleanField(default=False)
    spent_on = models.DateField("date")
    spent_at = models.TimeField("time")

    class Meta:
        ordering = ["-spent_on", "title"]

    def __str__(self) -> str:
        return self.title


class ExpenseLine(models.Model):
    expense = models.ForeignKey(Expense, related_name="lines", on_delete=models.CASCADE)
    description = models.CharField(max_length=200)
    quantity = models.PositiveIntegerField(default=1)
    unit_price = models.DecimalField(max_digits=10, decimal_places=2)

    def __str__(self) -> str:
        return self.description
