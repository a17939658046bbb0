"""The admin a deployer would configure: autocomplete vendor, two-list tag chooser, inline lines, search,
filters, and a CSV/XLSX export through django-import-export."""

from django.contrib import admin
from import_export import resources
from import_export.admin import ExportMixin

from .models import Expense, ExpenseLine, Tag, Vendor


@admin.register(Vendor)
class VendorAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Tag)
class TagAdmin(admin.ModelAdmin):
    search_fields = ["name"]


class ExpenseLineInline(admin.TabularInline):
    model = ExpenseLine
    extra = 1


class ExpenseResource(resources.ModelResource):
    class Meta:
        model = Expense
        fields = ("id", "title", "vendor__name", "amount", "billable", "spent_on")
        export_order = fields


@admin.register(Expense)
class ExpenseAdmin(ExportMixin, admin.ModelAdmin):
    resource_classes = [ExpenseResource]
    list_display = ["title", "vendor", "amount", "billable", "spent_on"]
    list_filter = ["billable", "vendor"]
    search_fields = ["title", "vendor__name"]
    autocomplete_fields = ["vendor"]
    filter_horizontal = ["tags"]
    inlines = [ExpenseLineInline]
