from django.contrib import admin

from movements.models import Scheme


@admin.register(Scheme)
class SchemeAdmin(admin.ModelAdmin):
    list_display = ("participants", "name", "builtin", "owner", "created_at")
    list_filter = ("builtin",)
    search_fields = ("name",)
    raw_id_fields = ("owner",)
