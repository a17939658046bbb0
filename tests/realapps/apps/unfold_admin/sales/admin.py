"""The admin a deployer configures with django-unfold: autocomplete client and tags, a switch for the urgent flag,
inline order lines, search, a status filter, and a row action that approves an order with one GET (unfold's
``actions_row``: a link in each row's "more" menu that changes the order and comes back to the list)."""

from django.contrib import admin, messages
from django.db import models
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from unfold.admin import ModelAdmin, TabularInline
from unfold.decorators import action
from unfold.widgets import UnfoldBooleanSwitchWidget

from .models import Client, Order, OrderLine, Tag


@admin.register(Client)
class ClientAdmin(ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name"]


@admin.register(Tag)
class TagAdmin(ModelAdmin):
    search_fields = ["name"]


class OrderLineInline(TabularInline):
    model = OrderLine
    extra = 1  # one empty row to fill, as Django shows it


@admin.register(Order)
class OrderAdmin(ModelAdmin):
    list_display = ["number", "client", "status", "delivery_date", "amount", "urgent"]
    list_filter = ["status"]
    search_fields = ["number", "client__name"]
    autocomplete_fields = ["client", "tags"]
    inlines = [OrderLineInline]
    actions_row = ["approve"]
    formfield_overrides = {models.BooleanField: {"widget": UnfoldBooleanSwitchWidget}}

    @action(description="Одобрить", url_path="approve", permissions=["change"])
    def approve(self, request: HttpRequest, object_id: int) -> HttpResponseRedirect:
        order = get_object_or_404(Order, pk=object_id)
        order.status = Order.Status.APPROVED
        order.save(update_fields=["status"])
        messages.success(request, f"Заказ {order.number} одобрен")
        return HttpResponseRedirect(reverse("admin:sales_order_changelist"))
