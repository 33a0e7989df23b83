from django.contrib import admin

from events.models import (
    Draw,
    Entry,
    Event,
    Person,
    PersonAlias,
    PersonIdentifier,
    Room,
    Table,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["number", "last_name", "first_name", "club", "status"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "owner", "results_public"]
    list_filter = ["date", "results_public"]
    search_fields = ["name", "venue"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["full_name", "club", "number", "status", "event"]
    list_filter = ["status", "event"]
    search_fields = ["last_name", "first_name", "club"]
    raw_id_fields = ["person"]


@admin.register(Draw)
class DrawAdmin(admin.ModelAdmin):
    list_display = ["event", "seed", "made_at", "made_by"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "name", "kind", "seats", "rounds_planned"]
    inlines = [TableInline]


class PersonAliasInline(admin.TabularInline):
    model = PersonAlias
    extra = 0
    fields = ["last_name", "first_name", "patronymic", "club"]


class PersonIdentifierInline(admin.TabularInline):
    model = PersonIdentifier
    extra = 0
    fields = ["kind", "value"]


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["full_name", "club", "owner", "hidden"]
    list_filter = ["hidden"]
    search_fields = ["last_name", "first_name", "patronymic", "club", "key"]
    inlines = [PersonAliasInline, PersonIdentifierInline]
