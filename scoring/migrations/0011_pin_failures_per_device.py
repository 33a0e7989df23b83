# A row per (player, phone) and one per player across phones, in place of one per player.
# The table is made anew rather than altered: its rows are counts of the last fifteen
# minutes, worth nothing after a deployment, and a new primary key on a table with rows is
# the one change each backend makes differently.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0012_person_merge"),
        ("scoring", "0010_sheet_device"),
    ]

    operations = [
        migrations.DeleteModel(name="PinFailures"),
        migrations.CreateModel(
            name="PinFailures",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("device", models.CharField(blank=True, max_length=24)),
                ("count", models.PositiveIntegerField(default=0)),
                ("until", models.DateTimeField()),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="events.entry",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("entry", "device"), name="pin_failures_once_per_player_and_phone"
                    )
                ],
            },
        ),
    ]
