"""Every player gets a personal PIN (printed on his name card): the players already entered
each get a random one of their own, not one value for all."""

from django.db import migrations, models

import events.models


def give_pins(apps, schema_editor):
    Entry = apps.get_model("events", "Entry")
    for entry in Entry.objects.only("pk").iterator():
        Entry.objects.filter(pk=entry.pk).update(pin=events.models.new_pin())


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0005_artificial_scores_message"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="pin",
            field=models.CharField(default="", editable=False, max_length=4, verbose_name="PIN"),
            preserve_default=False,
        ),
        migrations.RunPython(give_pins, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="pin",
            field=models.CharField(
                default=events.models.new_pin, editable=False, max_length=4, verbose_name="PIN"
            ),
        ),
    ]
