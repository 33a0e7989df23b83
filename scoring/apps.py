from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self):
        from events import gamesettings
        from scoring import (
            games,
            receivers,  # noqa: F401  (connects to the lower layers' signals)
        )

        for convention, game in games.GAMES.items():
            gamesettings.register(
                convention,
                game.sheets.settings_lines,
                game.defaults.get(convention),
                game.sheets.label(convention),
                game.sheets.event_part(),
            )
